//! Native tests: the decision on typical calls, odd inputs, settings, and the
//! corpus `policies/corpus/secrets.jsonl`.

use hookhost_guest::{HookInput, Value, json};

use super::{Places, Settings, check};

const CORPUS: &str = include_str!("../../corpus/secrets.jsonl");

fn places() -> Places {
    Places {
        project: "/work/proj".to_owned(),
        home: "/home/u".to_owned(),
    }
}

/// The block reason for a call, or `None` when allowed.
fn verdict(tool: &str, tool_input: Value) -> Option<String> {
    let event = json!({
        "hook_event_name": "BeforeTool",
        "cwd": "/work/proj",
        "tool_name": tool,
        "tool_input": tool_input,
    });
    let input = HookInput::from_json(event.to_string().as_bytes()).ok()?;
    let out = check(&input, &places(), &Settings::default());
    out.is_block()
        .then(|| out.reason.clone().unwrap_or_default())
}

fn shell(command: &str) -> Option<String> {
    verdict("run_shell_command", json!({ "command": command }))
}

const GHP: &str = "ghp_R8x2Lq9ZvT4mN7bC1kP5sW3yH6jD0fG2aE9u";

#[test]
fn reasons_name_policy_rule_and_part() {
    let reason = verdict(
        "write_file",
        json!({"file_path": "config.yml", "content": format!("token: {GHP}\n")}),
    );
    let reason = reason.unwrap_or_default();
    assert!(reason.starts_with("secrets: secret-in-file: "), "{reason}");
    assert!(
        reason.contains("ghp_R8x2…") && !reason.contains(GHP),
        "{reason}"
    );
    let reason = shell("cat ~/.ssh/id_rsa").unwrap_or_default();
    assert!(
        reason.starts_with("secrets: credential-read: `cat ~/.ssh/id_rsa`"),
        "{reason}"
    );
}

#[test]
fn shell_writes_and_mentions() {
    assert!(shell(&format!("echo {GHP} >> notes.txt")).is_some());
    assert!(shell(&format!("echo {GHP} | sudo tee -a cfg")).is_some());
    assert!(shell(&format!("cat > t <<'EOF'\nt={GHP}\nEOF")).is_some());
    assert!(shell(&format!("echo {GHP}")).is_none());
    assert!(shell("grep -rn -- '-----BEGIN' src > found.txt").is_none());
    assert!(shell("grep '.env' .gitignore").is_none());
    assert!(shell("cp .env.example .env").is_none());
}

#[test]
fn settings() {
    assert_eq!(
        Settings::parse(["--credential-file".to_owned(), "/srv/key".to_owned()]),
        Ok(Settings {
            credential_files: vec!["/srv/key".to_owned()]
        })
    );
    let err = Settings::parse(["--nope".to_owned()])
        .err()
        .unwrap_or_default();
    assert!(err.contains("--nope"), "{err}");
    let err = Settings::parse(["--credential-file".to_owned()])
        .err()
        .unwrap_or_default();
    assert!(err.contains("--credential-file"), "{err}");
    let settings = Settings::parse(["--credential-file=~/vault.txt".to_owned()]).unwrap();
    let event = json!({"hook_event_name": "BeforeTool", "cwd": "/work/proj",
        "tool_name": "Bash", "tool_input": {"command": "cat /home/u/vault.txt"}});
    let input = HookInput::from_json(event.to_string().as_bytes()).unwrap();
    assert!(check(&input, &places(), &settings).is_block());
}

#[test]
fn odd_inputs_do_not_panic() {
    let big = "a".repeat(1 << 20);
    let _ = shell(&big);
    let _ = shell(&format!("echo {} > f", "x ".repeat(1 << 19)));
    let _ = shell("cat \0 .env\u{0}");
    let _ = shell("é\u{fffd}\u{202e} > ~/.x $'\\xff'");
    let _ = shell("cat ~/.ssh/[");
    let patch: String = (0..10_000)
        .map(|i| format!("*** Add File: f{i}\n+line {i}\n"))
        .collect();
    assert!(
        verdict(
            "apply_patch",
            json!({ "patch": format!("*** Begin Patch\n{patch}*** End Patch") })
        )
        .is_none()
    );
    let _ = verdict("apply_patch", json!({ "command": 5 }));
    let _ = verdict("Write", json!({ "file_path": 5, "content": null }));
    let _ = verdict("Bash", json!({ "command": ["sh"] }));
}

/// One corpus case.
struct Case {
    line: usize,
    tool: String,
    input: Value,
    cwd: String,
    block: bool,
    why: String,
}

fn cases(corpus: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in corpus.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(v["policy"], "secrets", "line {}", i + 1);
        assert!(matches!(
            v["dialect"].as_str(),
            Some("claude" | "llxprt" | "codex")
        ));
        out.push(Case {
            line: i + 1,
            tool: v["tool"].as_str().unwrap_or_default().to_owned(),
            input: v["input"].clone(),
            cwd: v["cwd"].as_str().unwrap_or("/work/proj").to_owned(),
            block: v["expect"] == "block",
            why: v["why"].as_str().unwrap_or_default().to_owned(),
        });
    }
    out
}

use hookhost_guest::serde_json;

#[test]
fn corpus() {
    let cases = cases(CORPUS);
    assert!(cases.len() >= 80, "{} cases", cases.len());
    let (mut harmful, mut blocked, mut harmless, mut false_positives) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        let event = json!({"hook_event_name": "BeforeTool", "cwd": case.cwd,
            "tool_name": case.tool, "tool_input": case.input});
        let input = HookInput::from_json(event.to_string().as_bytes()).unwrap();
        let out = check(&input, &places(), &Settings::default());
        if case.block {
            harmful += 1;
            blocked += usize::from(out.is_block());
        } else {
            harmless += 1;
            false_positives += usize::from(out.is_block());
        }
        if out.is_block() != case.block {
            failures.push(format!(
                "line {}: {} ({:?})",
                case.line, case.why, out.reason
            ));
        }
    }
    println!(
        "harmful {harmful}, blocked {blocked}; harmless {harmless}, false positives {false_positives}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
