//! The `hookhost fire` surface (CONTRACT §1): exit codes for usage errors, the shape
//! of stdout.

use serde_json::{Value, json};

use crate::common::{Project, cmd, group, run};

fn fire_raw(p: &Project, args: &[&str], stdin: &[u8]) -> crate::common::Run {
    let mut command = p.command();
    command
        .arg("fire")
        .args(args)
        .arg("--project-dir")
        .arg(p.dir());
    run(command, stdin)
}

fn project_with_marker() -> Project {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("touch ran.marker")])]}));
    p
}

#[test]
fn an_unknown_event_is_a_usage_error() {
    let p = project_with_marker();
    for event in ["BeforeToool", "beforetool", "NotAnEvent", ""] {
        let run = fire_raw(&p, &[event], br#"{"tool_name":"t"}"#);
        assert_eq!(run.code, 1, "{event:?}: {run:#?}");
        assert!(run.stdout.is_empty(), "{event:?}: {}", run.stdout_text());
        if !event.is_empty() {
            assert!(run.stderr.contains(event), "{event:?}: {}", run.stderr);
        }
    }
    assert!(!p.exists("ran.marker"));
}

#[test]
fn a_missing_event_is_a_usage_error() {
    let p = Project::new();
    let mut command = p.command();
    command.arg("fire");
    let run = run(command, b"{}");
    assert_eq!(run.code, 1, "{run:#?}");
    let mut command = p.command();
    command.arg("no-such-subcommand");
    assert_eq!(crate::common::run(command, b"").code, 1);
}

#[test]
fn stdin_that_is_not_a_json_object_is_a_usage_error() {
    let p = project_with_marker();
    for stdin in [
        &b"[1, 2]"[..],
        b"\"write_file\"",
        b"42",
        b"null",
        b"{\"tool_name\": ",
        b"not json",
    ] {
        let run = fire_raw(&p, &["BeforeTool"], stdin);
        let shown = String::from_utf8_lossy(stdin);
        assert_eq!(run.code, 1, "{shown}: {run:#?}");
        assert!(run.stdout.is_empty(), "{shown}: {}", run.stdout_text());
        assert!(
            run.stderr.starts_with("hookhost: "),
            "{shown}: {}",
            run.stderr
        );
    }
    assert!(!p.exists("ran.marker"), "a hook ran for an invalid input");
}

#[test]
fn empty_stdin_is_an_empty_event() {
    let p = project_with_marker();
    let run = fire_raw(&p, &["BeforeTool"], b"");
    assert_eq!(run.code, 0, "{run:#?}");
    assert!(p.exists("ran.marker"));
}

#[test]
fn stdout_is_exactly_one_aggregated_result_object() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("echo '{\"decision\":\"deny\",\"reason\":\"r\"}'")])]}));
    let run = fire_raw(&p, &["BeforeTool"], br#"{"tool_name":"t"}"#);
    assert_eq!(run.code, 2);
    let text = run.stdout_text();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    let out: Value = serde_json::from_str(&text).expect("JSON");
    let object = out.as_object().expect("an object");
    for key in [
        "success",
        "finalOutput",
        "allOutputs",
        "errors",
        "totalDuration",
    ] {
        assert!(object.contains_key(key), "{key} missing: {out}");
    }
    assert_eq!(out["success"], true);
    assert_eq!(
        out["finalOutput"],
        json!({"decision": "deny", "reason": "r"})
    );
    assert_eq!(
        out["allOutputs"],
        json!([{"decision": "deny", "reason": "r"}])
    );
    assert_eq!(out["errors"], json!([]));
    assert!(
        out["totalDuration"].as_f64().is_some_and(|d| d >= 0.0),
        "{out}"
    );
}

#[test]
fn help_and_version_exit_0() {
    let p = Project::new();
    for arg in ["--help", "--version"] {
        let mut command = p.command();
        command.arg(arg);
        let run = run(command, b"");
        assert_eq!(run.code, 0, "{arg}: {run:#?}");
        assert!(!run.stdout.is_empty());
    }
}

/// Issue 40: `hookhost --version` names the commit, the wasmtime inside and the
/// features; `hookhost` alone is a short start, not a wall of flags.
#[test]
fn version_says_what_is_inside_and_no_arguments_says_where_to_start() {
    let p = crate::common::Project::new();
    let mut command = p.command();
    command.arg("--version");
    let out = crate::common::run(command, b"");
    assert_eq!(out.code, 0, "{out:?}");
    let text = out.stdout_text();
    for part in [
        "hookhost 0.",
        "commit: ",
        "wasmtime: 4",
        "features: plugins",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    let out = crate::common::run(p.command(), b"");
    assert_eq!(out.code, 0, "{out:?}");
    let text = out.stdout_text();
    assert!(
        text.contains("hookhost setup") && text.contains("policy list"),
        "{text}"
    );
    assert!(text.lines().count() < 20, "{text}");
}
