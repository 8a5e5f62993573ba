//! Where hooks come from: discovery, priority, deduplication, extensions
//! (seeds/001 §6.3–6.4, §7.9; CONTRACT §1–2).

use serde_json::{Value, json};

use crate::common::{Project, cmd, cmd_timeout, group, say};

fn tool(name: &str) -> Value {
    json!({"tool_name": name, "tool_input": {}})
}

#[test]
fn same_command_in_two_settings_files_runs_once() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    let project = p.settings(json!({"BeforeTool": [group(vec![counter.clone()])]}));
    let other = p.extra_settings("other.json", json!({"BeforeTool": [group(vec![counter])]}));
    let fired = p.fire_settings("BeforeTool", tool("write_file"), &[&project, &other]);
    fired.assert_clean();
    assert_eq!(
        p.read("count.txt"),
        "run\n",
        "a duplicate command ran twice"
    );
    assert_eq!(fired.hooks().len(), 1);
    // `check` shows the duplicate as not run.
    let check = p.check(&[&project, &other]);
    assert_eq!(check.code, 0, "{check:#?}");
    assert!(
        check.stdout_text().contains("duplicate of an earlier hook"),
        "{}",
        check.stdout_text()
    );
}

#[test]
fn same_command_twice_in_one_file_runs_once() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    p.settings(json!({"AfterTool": [
        group(vec![counter.clone(), counter.clone()]),
        {"matcher": "read", "hooks": [counter]}
    ]}));
    p.fire(
        "AfterTool",
        json!({"tool_name": "read_file", "tool_input": {}, "tool_response": {}}),
    )
    .assert_clean();
    assert_eq!(p.read("count.txt"), "run\n");
}

#[test]
fn dedup_keeps_the_highest_priority_instance() {
    // Same command string, different timeouts: the first file's 300 ms must apply.
    let p = Project::new();
    let first = p.extra_settings(
        "first.json",
        json!({"BeforeTool": [group(vec![cmd_timeout("sleep 10", 300)])]}),
    );
    let second = p.extra_settings(
        "second.json",
        json!({"BeforeTool": [group(vec![cmd_timeout("sleep 10", 60_000)])]}),
    );
    let fired = p.fire_settings("BeforeTool", tool("write_file"), &[&first, &second]);
    assert_eq!(fired.code, 0);
    assert_eq!(fired.hooks().len(), 1, "{fired:#?}");
    fired.single_error(&["timed out after 300 ms"]);
}

#[test]
fn dedup_applies_after_matcher_filtering() {
    // The higher-priority instance does not match this tool, so the lower one runs.
    let p = Project::new();
    let counter = "echo run >> count.txt";
    let first = p.extra_settings(
        "first.json",
        json!({"BeforeTool": [{"matcher": "write_file", "hooks": [cmd(counter)]}]}),
    );
    let second = p.extra_settings(
        "second.json",
        json!({"BeforeTool": [{"matcher": "read_file", "hooks": [cmd(counter)]}]}),
    );
    p.fire_settings("BeforeTool", tool("read_file"), &[&first, &second])
        .assert_clean();
    assert_eq!(p.read("count.txt"), "run\n");
}

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
    let check = p.check(&[]);
    assert!(
        check
            .stdout_text()
            .contains(&format!("command: {}/bin/guard.sh", ext_dir.display())),
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

#[test]
fn enable_hooks_comes_from_the_highest_priority_file_that_sets_it() {
    let p = Project::new();
    p.settings_raw(&json!({"tools": {"enableHooks": false}, "hooks": {"BeforeTool": [group(vec![cmd("touch p.marker")])]}}));
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd("touch u.marker")])]}}).to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_clean();
    assert!(
        !p.exists("p.marker") && !p.exists("u.marker"),
        "project said false"
    );

    // A project file that does not set it leaves the decision to the user file.
    p.settings_raw(&json!({"hooks": {"BeforeTool": [group(vec![cmd("touch p.marker")])]}}));
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(p.exists("p.marker") && p.exists("u.marker"));
}

#[test]
fn a_broken_file_does_not_stop_the_others() {
    let p = Project::new();
    p.settings_text("{ this is not json");
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![cmd(&say("user hook ran"))])]}}).to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    assert_eq!(fired.code, 0, "{fired:#?}");
    assert_eq!(fired.final_output()["systemMessage"], "user hook ran");
    fired.single_error(&["project settings .llxprt/settings.json", "not valid JSON"]);
    assert!(fired.stderr.contains("not valid JSON"), "{}", fired.stderr);
}

#[test]
fn a_missing_explicit_settings_file_is_an_error_but_the_others_run() {
    let p = Project::new();
    let good = p.extra_settings(
        "good.json",
        json!({"BeforeTool": [group(vec![cmd(&say("good"))])]}),
    );
    let missing = p.outside().join("missing.json");
    let fired = p.fire_settings("BeforeTool", tool("t"), &[&missing, &good]);
    assert_eq!(fired.code, 0);
    assert_eq!(fired.final_output()["systemMessage"], "good");
    fired.single_error(&["missing.json", "cannot read"]);
}

#[test]
fn an_extension_cannot_switch_hooks_on() {
    let p = Project::new();
    p.write(
        ".llxprt/extensions/sneaky/llxprt-extension.json",
        json!({"name": "sneaky", "tools": {"enableHooks": true},
               "hooks": {"BeforeTool": [group(vec![cmd("touch sneaky.marker")])]}})
        .to_string(),
    );
    let fired = p.fire("BeforeTool", tool("t"));
    fired.assert_clean();
    assert!(fired.hooks().is_empty(), "{fired:#?}");
    assert!(
        !p.exists("sneaky.marker"),
        "an extension manifest enabled the hook system"
    );
    let check = p.check(&[]);
    // Declared hooks that do not run fail `check`, with the fix.
    assert_eq!(check.code, 1, "{check:#?}");
    assert!(
        check.stderr.contains("NONE of them runs")
            && check.stderr.contains("project or user settings"),
        "{}",
        check.stderr
    );
    assert!(
        check.stdout_text().contains("hooks are disabled"),
        "{}",
        check.stdout_text()
    );
    assert!(
        check.stderr.contains(
            "warning: extension sneaky (.llxprt/extensions/sneaky/llxprt-extension.json): \
             tools.enableHooks: ignored in an extension manifest"
        ),
        "{}",
        check.stderr
    );
    // Nor switch them off: the user's settings decide, and the extension's hook runs.
    p.settings(json!({}));
    p.write(
        ".llxprt/extensions/sneaky/llxprt-extension.json",
        json!({"tools": {"enableHooks": false},
               "hooks": {"BeforeTool": [group(vec![cmd("touch sneaky.marker")])]}})
        .to_string(),
    );
    p.fire("BeforeTool", tool("t")).assert_clean();
    assert!(p.exists("sneaky.marker"));
}

#[test]
fn same_command_for_two_events_runs_for_each() {
    let p = Project::new();
    let counter = cmd("echo run >> count.txt");
    p.settings(
        json!({"BeforeTool": [group(vec![counter.clone()])], "AfterTool": [group(vec![counter])]}),
    );
    p.fire("BeforeTool", tool("t")).assert_clean();
    p.fire(
        "AfterTool",
        json!({"tool_name": "t", "tool_input": {}, "tool_response": {}}),
    )
    .assert_clean();
    assert_eq!(p.read("count.txt"), "run\nrun\n");
}

/// Settings files are JSON with comments, as LLxprt and Gemini CLI read them.
#[test]
fn settings_may_contain_comments() {
    let p = Project::new();
    p.settings_text(
        "{\n  // hooks on\n  \"tools\": {\"enableHooks\": true}, /* and one hook */\n  \"hooks\": {\"BeforeTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo commented\"}]}]}\n}\n",
    );
    let fired = p.fire(
        "BeforeTool",
        serde_json::json!({"tool_name": "t", "tool_input": {}}),
    );
    assert_eq!(
        fired.final_output()["systemMessage"],
        "commented",
        "{}",
        fired.out
    );
}
