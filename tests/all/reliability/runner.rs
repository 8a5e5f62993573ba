//! The command runner's edges: a Claude-format timeout of 2^63 s is clamped, not a
//! panic, and a non-UTF-8 project dir reaches hooks byte for byte.

use serde_json::json;

use crate::common::{Project, cmd_timeout, group};

/// Issue 14, seen 6: a Claude-format timeout of 2^63 s panicked at `start +
/// timeout`. It is clamped (with a warning) and the hook runs.
#[test]
fn a_huge_claude_timeout_is_clamped_not_a_panic() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo '{\"systemMessage\":\"ran\"}'", "timeout": 9_223_372_036_854_775_808u64}
        ]}]}})
        .to_string(),
    );
    p.settings_raw(&json!({"tools": {"enableHooks": true}}));
    let fired = p.fire_flags(
        "BeforeTool",
        json!({"tool_name": "t"}),
        &["--claude-settings"],
    );
    assert_eq!(fired.code, 0, "{}", fired.stderr);
    assert_eq!(fired.final_output()["systemMessage"], "ran", "{fired:#?}");
    assert!(
        fired
            .stderr
            .contains("timeout: longer than the maximum of 24 hours; clamped to it"),
        "{}",
        fired.stderr
    );
}

/// Issue 14, seen 6: a non-UTF-8 project path reached hooks mangled (U+FFFD). The
/// variables and the working directory are the path's exact bytes.
#[test]
fn a_non_utf8_project_dir_reaches_command_hooks_intact() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::new();
    let dir = p
        .outside()
        .join(std::ffi::OsStr::from_bytes(b"proj-\xff\xfe"));
    std::fs::create_dir_all(dir.join(".llxprt")).unwrap();
    let out = p.outside().join("seen");
    let hook = format!(
        "printf '%s' \"$LLXPRT_PROJECT_DIR\" > '{0}.var'; pwd -P > '{0}.cwd'",
        out.display()
    );
    let settings = json!({"tools": {"enableHooks": true},
        "hooks": {"BeforeTool": [group(vec![cmd_timeout(&hook, 10_000)])]}});
    std::fs::write(dir.join(".llxprt/settings.json"), settings.to_string()).unwrap();
    let mut command = p.command();
    command
        .arg("fire")
        .arg("BeforeTool")
        .arg("--project-dir")
        .arg(&dir);
    let run = crate::common::run(command, br#"{"tool_name":"t"}"#);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let var = std::fs::read(out.with_extension("var")).unwrap();
    assert_eq!(var, dir.as_os_str().as_bytes(), "LLXPRT_PROJECT_DIR");
    let cwd = std::fs::read(out.with_extension("cwd")).unwrap();
    assert_eq!(&cwd[..cwd.len() - 1], dir.as_os_str().as_bytes(), "cwd");
}
