//! Discovery and priority: files rank by position (sequential runs follow it), project,
//! user, system and extensions rank in that order, explicit files replace discovery,
//! the machine's own user settings never leak in, and extensions (LLxprt and Gemini
//! manifests, project and user) expand `${extensionPath}` and come last.

use serde_json::json;

use super::tool;
use crate::common::{Project, cmd, group, say};

#[test]
fn settings_files_rank_by_position() {
    let p = Project::new();
    let a = p.extra_settings(
        "a.json",
        json!({"AfterTool": [group(vec![cmd(&say("from-a"))])]}),
    );
    let b = p.extra_settings(
        "b.json",
        json!({"AfterTool": [group(vec![cmd(&say("from-b"))])]}),
    );
    let input = json!({"tool_name": "x", "tool_input": {}, "tool_response": {}});
    let fired = p.fire_settings("AfterTool", input.clone(), &[&a, &b]);
    fired.assert_clean();
    assert_eq!(fired.final_output()["systemMessage"], "from-a\nfrom-b");
    let fired = p.fire_settings("AfterTool", input, &[&b, &a]);
    assert_eq!(fired.final_output()["systemMessage"], "from-b\nfrom-a");
}

#[test]
fn sequential_execution_follows_priority_order() {
    let p = Project::new();
    let a = p.extra_settings(
        "a.json",
        json!({"BeforeTool": [{"sequential": true, "hooks": [cmd("echo a >> order.txt")]}]}),
    );
    let b = p.extra_settings(
        "b.json",
        json!({"BeforeTool": [group(vec![cmd("echo b >> order.txt")])]}),
    );
    let c = p.extra_settings(
        "c.json",
        json!({"BeforeTool": [group(vec![cmd("echo c >> order.txt")])]}),
    );
    p.fire_settings("BeforeTool", tool("t"), &[&c, &a, &b])
        .assert_clean();
    assert_eq!(p.read("order.txt"), "c\na\nb\n");
}

#[test]
fn discovery_ranks_project_user_system_then_extensions() {
    let p = Project::new();
    p.settings(json!({"AfterTool": [group(vec![cmd(&say("project"))])]}));
    let user = json!({"hooks": {"AfterTool": [group(vec![cmd(&say("user"))])]}});
    p.write(p.home().join(".llxprt/settings.json"), user.to_string());
    let system = p.outside().join("system-settings.json");
    let system_settings = json!({"hooks": {"AfterTool": [group(vec![cmd(&say("system"))])]}});
    std::fs::write(&system, system_settings.to_string()).expect("write");
    p.write(
        ".llxprt/extensions/ext-a/llxprt-extension.json",
        json!({"name": "ext-a", "version": "1.0.0",
               "hooks": {"AfterTool": [group(vec![cmd(&say("extension"))])]}})
        .to_string(),
    );
    let system_path = system.to_string_lossy().into_owned();
    let fired = p.fire_with(
        "AfterTool",
        json!({"tool_name": "x", "tool_input": {}, "tool_response": {}}),
        &[],
        &[("LLXPRT_SYSTEM_SETTINGS_PATH", &system_path)],
    );
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        "project\nuser\nsystem\nextension"
    );
    let check = {
        let mut command = p.command();
        command
            .args(["check", "--project-dir"])
            .arg(p.dir())
            .env("LLXPRT_SYSTEM_SETTINGS_PATH", &system);
        crate::common::run(command, b"")
    };
    let listing = check.stdout_text();
    assert_eq!(check.code, 0, "{check:#?}");
    for label in [
        "read project settings .llxprt/settings.json",
        "read user settings",
        "read system settings",
        "extension",
    ] {
        assert!(
            listing.contains(label),
            "{label:?} missing from:\n{listing}"
        );
    }
}

#[test]
fn explicit_settings_replace_discovery() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd("touch project.marker")])]}));
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd("touch user.marker")])]}}).to_string(),
    );
    p.write(
        ".llxprt/extensions/e/llxprt-extension.json",
        json!({"hooks": {"BeforeTool": [group(vec![cmd("touch ext.marker")])]}}).to_string(),
    );
    let explicit = p.extra_settings(
        "only.json",
        json!({"BeforeTool": [group(vec![cmd("touch explicit.marker")])]}),
    );
    p.fire_settings("BeforeTool", tool("t"), &[&explicit])
        .assert_clean();
    assert!(p.exists("explicit.marker"));
    assert!(!p.exists("project.marker"));
    assert!(!p.exists("user.marker"));
    assert!(!p.exists("ext.marker"));
    // And discovery finds all three.
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(p.exists("project.marker") && p.exists("user.marker") && p.exists("ext.marker"));
}

#[test]
fn the_machine_user_settings_do_not_leak_in() {
    // The harness sets HOME to a temp dir: a hook in the real ~/.llxprt never runs.
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![cmd(&say("only-project"))])]}));
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_clean();
    assert_eq!(fired.hooks().len(), 1, "{fired:#?}");
}

#[test]
fn extensions_expand_extension_path_and_come_last() {
    let p = Project::new();
    let ext_dir = p.path(".llxprt/extensions/guard");
    p.executable(
        ext_dir.join("bin/guard.sh"),
        "#!/bin/sh\necho \"ext ran in $(pwd -P) from $0\"\n",
    );
    p.write(
        ext_dir.join("llxprt-extension.json"),
        json!({"name": "guard", "version": "0.1.0",
               "hooks": {"BeforeTool": [group(vec![cmd("${extensionPath}/bin/guard.sh")])]}})
        .to_string(),
    );
    p.settings(json!({"BeforeTool": [group(vec![cmd(&say("project first"))])]}));
    let fired = p.fire("BeforeTool", tool("write_file"));
    fired.assert_clean();
    let expected = format!(
        "project first\next ran in {} from {}/bin/guard.sh",
        p.dir().display(),
        ext_dir.display()
    );
    assert_eq!(fired.final_output()["systemMessage"], expected.as_str());
    // Listed as written: the variable is set when the hook runs, never pasted into
    // the command line.
    let check = p.check(&[]);
    assert!(
        check
            .stdout_text()
            .contains("command: ${extensionPath}/bin/guard.sh"),
        "{}",
        check.stdout_text()
    );
}

#[test]
fn gemini_extension_manifests_and_user_extensions_are_found() {
    let p = Project::new();
    p.settings(json!({}));
    p.write(
        ".llxprt/extensions/b-project/gemini-extension.json",
        json!({"hooks": {"BeforeTool": [group(vec![cmd(&say("project-ext"))])]}}).to_string(),
    );
    p.write(
        p.home()
            .join(".llxprt/extensions/a-user/llxprt-extension.json"),
        json!({"hooks": {"BeforeTool": [group(vec![cmd(&say("user-ext"))])]}}).to_string(),
    );
    // A directory without a manifest is not an extension.
    p.write(
        ".llxprt/extensions/c-none/hooks.json",
        json!({"hooks": {"BeforeTool": [group(vec![cmd(&say("none"))])]}}).to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_clean();
    assert_eq!(
        fired.final_output()["systemMessage"],
        "project-ext\nuser-ext"
    );
}
