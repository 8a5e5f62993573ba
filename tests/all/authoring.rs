//! Author tools: `hookhost init` and `hookhost test` (replaying recorded cases).

use std::path::Path;

use hookhost_tests as guests;
use serde_json::json;

use crate::common::{Project, cache_dir, run};

#[test]
fn init_sets_up_a_project_whose_example_hook_works() {
    let p = Project::new();
    let mut command = p.command();
    command.arg("init").arg("--project-dir").arg(p.dir());
    let init = run(command, b"");
    assert_eq!(init.code, 0, "{}", init.stderr);
    let outside = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd"}}),
    );
    assert_eq!(outside.code, 2, "{}\n{}", outside.out, outside.stderr);
    assert!(
        outside.final_output()["reason"]
            .as_str()
            .unwrap()
            .contains("outside the project")
    );
    let inside = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": "src/a.rs"}}),
    );
    assert_eq!(inside.code, 0, "{}", inside.out);
    let secret = p.fire(
        "BeforeTool",
        json!({"tool_name": "write_file", "tool_input": {"file_path": ".env"}}),
    );
    assert_eq!(secret.code, 2, "{}", secret.out);

    let mut again = p.command();
    again.arg("init").arg("--project-dir").arg(p.dir());
    let again = run(again, b"");
    assert_eq!(again.code, 1, "init must not overwrite settings");
    assert!(again.stderr.contains("--force"));
}

fn replay(p: &Project, cases: &Path) -> crate::common::Run {
    let mut command = p.command();
    command
        .arg("test")
        .arg(cases)
        .arg("--project-dir")
        .arg(p.dir())
        .env("HOOKHOST_CACHE_DIR", cache_dir());
    run(command, b"")
}

#[test]
fn test_replays_the_example_cases_against_the_example_policies() {
    let p = Project::new();
    p.settings(
        json!({"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
            {"type": "plugin", "path": guests::GUARD_PATHS},
            {"type": "plugin", "path": guests::SECRET_SCAN},
        ]}]}),
    );
    let cases = crate::common::repo().join("examples/cases");
    let passed = replay(&p, &cases);
    assert_eq!(
        passed.code,
        0,
        "{}\n{}",
        passed.stdout_text(),
        passed.stderr
    );
    assert!(
        passed.stdout_text().contains("4 passed, 0 failed"),
        "{}",
        passed.stdout_text()
    );

    // A policy that lets the secret through fails its case, with the reason.
    p.settings(
        json!({"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
            {"type": "plugin", "path": guests::GUARD_PATHS},
        ]}]}),
    );
    let failed = replay(&p, &cases);
    assert_eq!(failed.code, 1);
    let text = failed.stdout_text();
    assert!(
        text.contains("FAIL 02-write-aws-key.json: decision: expected \"block\", got allow"),
        "{text}"
    );
    assert!(
        text.contains("PASS 01-write-outside-project.json"),
        "{text}"
    );
}

#[test]
fn test_expect_success_is_false_for_a_block_by_exit_2() {
    // `success` follows seeds/001 §7.2: an exit-2 block is `success: false`, a JSON
    // block on exit 0 is `success: true`.
    let p = Project::new();
    let by_exit = p.script("by-exit.sh", "echo 'no /etc' >&2\nexit 2");
    let by_json = p.script(
        "by-json.sh",
        r#"echo '{"decision":"block","reason":"no /tmp"}'"#,
    );
    p.settings(json!({"BeforeTool": [
        {"matcher": "write_file", "hooks": [{"type": "command", "command": by_exit}]},
        {"matcher": "replace", "hooks": [{"type": "command", "command": by_json}]}
    ]}));
    let cases = p.outside().join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let case = |name: &str, tool: &str, success: bool| {
        let case = json!({"event": "BeforeTool", "input": {"tool_name": tool, "tool_input": {}},
                          "expect": {"decision": "block", "success": success}});
        std::fs::write(cases.join(name), case.to_string()).unwrap();
    };
    case("1-exit.json", "write_file", false);
    case("2-json.json", "replace", true);
    let passed = replay(&p, &cases);
    assert_eq!(passed.code, 0, "{passed:#?}");
    assert!(
        passed.stdout_text().contains("2 passed, 0 failed"),
        "{passed:#?}"
    );

    case("1-exit.json", "write_file", true);
    let failed = replay(&p, &cases);
    assert_eq!(failed.code, 1, "{failed:#?}");
    assert!(
        failed
            .stdout_text()
            .contains("FAIL 1-exit.json: success: expected true, got false"),
        "{failed:#?}"
    );
}
