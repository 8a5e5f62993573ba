//! Unit tests and the corpus replay (`corpus/destructive.jsonl`).

use crate::paths::{Resolved, glob_match, normalize};
use crate::{Places, Settings, decide, hook};
use hookhost_guest::{EXIT_BLOCK, EXIT_OK, Map, Value, handle, json};

fn places() -> Places {
    Places::new("/work/proj", "/home/u", "/tmp")
}

fn shell(command: &str) -> Option<String> {
    let mut input = Map::new();
    input.insert("command".to_owned(), Value::from(command));
    decide(
        "run_shell_command",
        &input,
        "/work/proj",
        &places(),
        &Settings::default(),
    )
}

#[test]
fn corpus() {
    let mut failures = Vec::new();
    let (mut harmful, mut blocked, mut harmless, mut false_positives) = (0, 0, 0, 0);
    for (n, line) in include_str!("../../corpus/destructive.jsonl")
        .lines()
        .enumerate()
    {
        let case: Value = hookhost_guest::serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let tool = case["tool"].as_str().unwrap();
        let input = case["input"].as_object().unwrap();
        let cwd = case["cwd"].as_str().unwrap();
        let expect_block = case["expect"] == "block";
        let got = decide(tool, input, cwd, &places(), &Settings::default());
        if expect_block {
            harmful += 1;
            blocked += usize::from(got.is_some());
        } else {
            harmless += 1;
            false_positives += usize::from(got.is_some());
        }
        if got.is_some() != expect_block {
            failures.push(format!(
                "line {}: {} ({}): got {got:?}",
                n + 1,
                case["input"],
                case["why"]
            ));
        }
    }
    println!(
        "harmful {harmful}, blocked {blocked}; harmless {harmless}, false positives {false_positives}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reasons_name_policy_rule_and_part() {
    let reason = shell("sudo rm -rf /etc").unwrap();
    assert!(
        reason.starts_with("destructive: outside-project: `sudo rm -rf /etc`"),
        "{reason}"
    );
    let reason = shell("rm -rf .git").unwrap();
    assert!(reason.starts_with("destructive: git-dir:"), "{reason}");
    let reason = shell("c=rm; $c -rf /").unwrap();
    assert!(reason.starts_with("destructive: unchecked:"), "{reason}");
}

#[test]
fn project_under_temp_is_still_protected() {
    let places = Places::new("/tmp/proj", "/home/u", "/tmp");
    let mut input = Map::new();
    for (command, blocks) in [
        ("rm -rf /tmp/proj", true),
        ("rm -rf /tmp/*", true),
        ("rm -rf /tmp/proj/.git", true),
        ("rm -rf /tmp/other", false),
        ("rm -rf build", false),
    ] {
        input.insert("command".to_owned(), Value::from(command));
        let got = decide("Bash", &input, "/tmp/proj", &places, &Settings::default());
        assert_eq!(got.is_some(), blocks, "{command}: {got:?}");
    }
}

#[test]
fn paths_and_globs() {
    assert_eq!(
        normalize("/a/./b/../c//d"),
        Resolved::Path("/a/c/d".to_owned())
    );
    assert_eq!(normalize("/.."), Resolved::Path("/".to_owned()));
    assert!(matches!(normalize("/tmp/*/../x"), Resolved::Unknown));
    assert!(glob_match("*", "proj"));
    assert!(!glob_match("*", ".git"));
    assert!(glob_match(".*", ".git"));
    assert!(glob_match(".[a-z]it", ".git"));
    assert!(!glob_match("[!.]*", ".git"));
    assert!(glob_match("p?o*", "proj"));
    assert!(!glob_match("x*", "proj"));
}

#[test]
fn settings() {
    let ok = Settings::from_args(["--allow-path".to_owned(), "/data/scratch/".to_owned()]).unwrap();
    assert_eq!(ok.allow, vec!["/data/scratch".to_owned()]);
    let mut input = Map::new();
    input.insert("command".to_owned(), Value::from("rm -rf /data/scratch/x"));
    assert!(decide("Bash", &input, "/work/proj", &places(), &ok).is_none());
    assert!(
        decide(
            "Bash",
            &input,
            "/work/proj",
            &places(),
            &Settings::default()
        )
        .is_some()
    );
    for bad in [
        vec!["--allow-path"],
        vec!["--allow-path", "rel"],
        vec!["--allow-path=/"],
        vec!["--nope"],
    ] {
        let err = Settings::from_args(bad.iter().map(|s| (*s).to_owned())).unwrap_err();
        assert!(err.contains("--"), "{err}");
    }
}

#[test]
fn codex_command_arrays() {
    let input = json!({"command": ["bash", "-lc", "rm -rf ~"]});
    let input = input.as_object().unwrap();
    assert!(
        decide(
            "shell",
            input,
            "/work/proj",
            &places(),
            &Settings::default()
        )
        .is_some()
    );
    let input = json!({"command": ["rm", "-rf", "build"]});
    assert!(
        decide(
            "shell",
            input.as_object().unwrap(),
            "/work/proj",
            &places(),
            &Settings::default()
        )
        .is_none()
    );
}

#[test]
fn odd_inputs_never_panic() {
    let big = "rm -rf ./x ".repeat(100_000);
    let _ = shell(&big);
    let _ = shell(&"$(".repeat(10_000));
    let _ = shell("rm -rf \u{0}/etc");
    let _ = shell("rm -rf 'é/../\u{10FFFF}' [[[ ]]] *[");
    let _ = shell("rm -rf ~\u{301}");
    let _ = shell(&format!("rm -rf {}", "[".repeat(300)));
    let reason = shell(&format!("{} ; rm -rf /", "echo a;".repeat(200_000)));
    assert!(reason.is_some());
}

#[test]
fn the_hook_end_to_end() {
    let event = |command: &str| {
        json!({"hook_event_name": "BeforeTool", "cwd": "/work/proj", "tool_name": "Bash", "tool_input": {"command": command}})
            .to_string()
    };
    assert_eq!(
        handle(event("rm -rf /etc").as_bytes(), |input| hook(&input, &[])).exit_code,
        EXIT_BLOCK
    );
    assert_eq!(
        handle(event("ls").as_bytes(), |input| hook(&input, &[])).exit_code,
        EXIT_OK
    );
    let other = json!({"hook_event_name": "AfterTool", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});
    assert_eq!(
        handle(other.to_string().as_bytes(), |input| hook(&input, &[])).exit_code,
        EXIT_OK
    );
}
