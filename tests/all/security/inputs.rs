//! Hostile inputs: Claude tools no policy names still meet the edit policy or are
//! reported, settings and plugin files that never end are refused quickly, a stray or
//! forged `HOOKHOST_ACTIVE` does not switch hook mode off, the examples work in a
//! directory with a space, and trace files are private.

use std::os::unix::fs::PermissionsExt;

use serde_json::json;

use super::{GUARD, fire_cached, tool_call};
use crate::common::{Project, run};

// --- 5. Claude tools no policy sees ---------------------------------------------

#[test]
fn claude_multi_edit_and_notebook_edit_meet_an_edit_policy() {
    for tool in ["MultiEdit", "NotebookEdit"] {
        let p = Project::new();
        p.settings(json!({"BeforeTool": [{"matcher": "write_file|replace|edit",
            "hooks": [{"type": "command", "command": "echo 'no edits' >&2; exit 2"}]}]}));
        let mut command = p.command();
        command.arg("hook").arg("--project-dir").arg(p.dir());
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": tool,
            "tool_input": {"file_path": "/etc/passwd"}, "permission_mode": "default",
            "session_id": "s", "cwd": p.dir()});
        let out = run(command, input.to_string().as_bytes());
        assert_eq!(
            crate::common::claude_deny_reason(&out).as_deref(),
            Some("no edits"),
            "{tool} must be blocked: {out:?}"
        );
    }
}

#[test]
fn an_unknown_claude_tool_is_passed_on_and_reported() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "cat > seen.json"}]}]}),
    );
    let fired = p.fire_flags(
        "PreToolUse",
        json!({"tool_name": "FrobnicateFile", "tool_input": {}}),
        &["--explain"],
    );
    assert_eq!(p.read_json("seen.json")["tool_name"], "FrobnicateFile");
    assert!(fired.stderr.contains("FrobnicateFile"), "{}", fired.stderr);
    let warnings = fired.out["warnings"].to_string();
    assert!(warnings.contains("FrobnicateFile"), "{}", fired.out);
}

// --- 8. Bounded reads of settings files -----------------------------------------

#[test]
fn a_settings_file_that_never_ends_is_refused_quickly() {
    let p = Project::new();
    std::fs::create_dir_all(p.path(".llxprt")).unwrap();
    std::os::unix::fs::symlink("/proc/self/pagemap", p.path(".llxprt/settings.json")).unwrap();
    // Before the read was bounded this read gigabytes (and hit the run limit).
    let fired = p.fire("BeforeTool", tool_call());
    assert_eq!(fired.code, 0);
    assert!(
        fired.stderr.contains("project settings")
            && (fired.stderr.contains("limit") || fired.stderr.contains("cannot read")),
        "{}",
        fired.stderr
    );
}

#[test]
fn a_plugin_file_that_never_ends_is_refused_quickly() {
    let p = Project::new();
    std::os::unix::fs::symlink("/proc/self/pagemap", p.path("policy.wasm")).unwrap();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "plugin", "path": "policy.wasm"}]}]}));
    let fired = fire_cached(&p, "BeforeTool", tool_call());
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(
        fired.errors().iter().any(|e| e.contains("policy.wasm")),
        "{fired:#?}"
    );
}

// --- 11. HOOKHOST_ACTIVE inherited or forged --------------------------------------

#[test]
fn a_stray_hookhost_active_does_not_switch_hook_mode_off() {
    for value in ["", "0", "1", "999999"] {
        let p = Project::new();
        p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": GUARD}]}]}));
        let mut command = p.command();
        command
            .arg("hook")
            .arg("--project-dir")
            .arg(p.dir())
            .env("HOOKHOST_ACTIVE", value);
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": "/etc/passwd"}, "permission_mode": "default"});
        let out = run(command, input.to_string().as_bytes());
        assert!(
            crate::common::claude_deny_reason(&out).is_some(),
            "HOOKHOST_ACTIVE={value:?}: {out:?}"
        );
    }
}

#[test]
fn hook_mode_run_by_hookhost_itself_still_does_not_recurse() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "command", "command": format!("{} hook", crate::common::BIN)}]}]}));
    let fired = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "hook_event_name": "BeforeTool"}),
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert!(fired.errors().is_empty(), "{fired:#?}");
}

// --- 13. Quoting in the examples; private trace files --------------------------------

#[test]
fn the_example_settings_work_in_a_project_dir_with_a_space() {
    let p = Project::named("my project");
    let examples = crate::common::repo().join("examples");
    for script in ["protect-paths.sh", "audit-log.sh", "inject-context.sh"] {
        let body = std::fs::read_to_string(examples.join("shell").join(script)).unwrap();
        p.executable(format!("shell/{script}"), &body);
    }
    let settings = p.write(
        "settings.json",
        std::fs::read(examples.join("settings.json")).unwrap(),
    );
    let fired = p.fire_settings(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": ".env", "content": "x"}}),
        &[&settings],
    );
    assert_eq!(fired.code, 2, "{fired:#?}");
    assert!(
        fired
            .errors()
            .iter()
            .all(|e| !e.contains("exited with code 127")),
        "{fired:#?}"
    );
}

#[test]
fn trace_files_are_private() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}));
    let trace = p.outside().join("trace.jsonl");
    p.fire_with(
        "BeforeTool",
        tool_call(),
        &[],
        &[("HOOKHOST_TRACE", trace.to_str().unwrap())],
    );
    let mode = std::fs::metadata(&trace).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}
