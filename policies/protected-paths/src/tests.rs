//! Native tests: typical calls, settings, odd inputs, and the corpus
//! `policies/corpus/protected-paths.jsonl`.

use hookhost_guest::{HookInput, Value, json, serde_json};

use super::{Places, Settings, check};

const CORPUS: &str = include_str!("../../corpus/protected-paths.jsonl");

fn places() -> Places {
    Places {
        project: "/work/proj".to_owned(),
        home: "/home/u".to_owned(),
    }
}

fn verdict_with(tool: &Value, tool_input: &Value, settings: &Settings) -> Option<String> {
    let event = json!({"hook_event_name": "BeforeTool", "cwd": "/work/proj",
        "tool_name": tool, "tool_input": tool_input});
    let input = HookInput::from_json(event.to_string().as_bytes()).ok()?;
    let out = check(&input, &places(), settings);
    out.is_block().then(|| out.reason.unwrap_or_default())
}

fn shell(command: &str) -> Option<String> {
    verdict_with(
        &json!("run_shell_command"),
        &json!({ "command": command }),
        &Settings::default(),
    )
}

#[test]
fn reasons_name_policy_rule_and_part() {
    let reason = shell("echo 'alias ls=rm' >> ~/.bashrc").unwrap_or_default();
    assert!(
        reason.starts_with("protected-paths: shell-startup: `>> ~/.bashrc` writes /home/u/.bashrc"),
        "{reason}"
    );
    let reason = shell("crontab -e").unwrap_or_default();
    assert!(
        reason.starts_with("protected-paths: cron: `crontab -e`"),
        "{reason}"
    );
    let reason = verdict_with(
        &json!("Write"),
        &json!({"file_path": "/work/proj/.claude/settings.json", "content": "{}"}),
        &Settings::default(),
    )
    .unwrap_or_default();
    assert!(
        reason.starts_with(
            "protected-paths: agent-settings: Write would change /work/proj/.claude/settings.json"
        ),
        "{reason}"
    );
}

#[test]
fn settings() {
    let s = Settings::parse(["--protect".to_owned(), "deploy/".to_owned()]).unwrap();
    assert!(
        verdict_with(
            &json!("Bash"),
            &json!({"command": "rm -rf deploy/keys"}),
            &s
        )
        .is_some()
    );
    assert!(verdict_with(&json!("Bash"), &json!({"command": "cat deploy/keys"}), &s).is_none());
    let err = Settings::parse(["--path".to_owned(), "x".to_owned()]).unwrap_err();
    assert!(err.contains("--path") && err.contains("--protect"), "{err}");
    let err = Settings::parse(["--protect".to_owned()]).unwrap_err();
    assert!(err.contains("--protect"), "{err}");
}

#[test]
fn odd_inputs_do_not_panic() {
    let _ = shell(&"a".repeat(1 << 20));
    let _ = shell(&"cp a b ".repeat(50_000));
    let _ = shell("cat \0 > ~/.bashrc\u{0}");
    let _ = shell("é\u{fffd} > $'\\xff' ; python3 -c");
    let _ = shell("rm ~/[");
    let patch: String = (0..10_000)
        .map(|i| format!("*** Update File: src/f{i}.rs\n+x\n"))
        .collect();
    assert!(
        verdict_with(
            &json!("apply_patch"),
            &json!({ "patch": patch }),
            &Settings::default()
        )
        .is_none()
    );
    let _ = verdict_with(
        &json!("Write"),
        &json!({ "file_path": 7 }),
        &Settings::default(),
    );
    let _ = verdict_with(
        &json!("apply_patch"),
        &json!({ "command": [] }),
        &Settings::default(),
    );
}

#[test]
fn corpus() {
    let mut failures = Vec::new();
    let (mut harmful, mut blocked, mut harmless, mut false_positives) = (0, 0, 0, 0);
    for (i, line) in CORPUS.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(v["policy"], "protected-paths", "line {}", i + 1);
        let settings = match v["args"].as_array() {
            Some(args) => {
                Settings::parse(args.iter().filter_map(Value::as_str).map(str::to_owned)).unwrap()
            }
            None => Settings::default(),
        };
        let blocked_now = verdict_with(&v["tool"], &v["input"], &settings);
        let expect_block = v["expect"] == "block";
        if expect_block {
            harmful += 1;
            blocked += usize::from(blocked_now.is_some());
        } else {
            harmless += 1;
            false_positives += usize::from(blocked_now.is_some());
        }
        if blocked_now.is_some() != expect_block {
            failures.push(format!("line {}: {} ({blocked_now:?})", i + 1, v["why"]));
        }
    }
    assert!(harmful + harmless >= 80, "{} cases", harmful + harmless);
    println!(
        "harmful {harmful}, blocked {blocked}; harmless {harmless}, false positives {false_positives}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
