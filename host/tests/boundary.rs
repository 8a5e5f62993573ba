//! The library's boundary, as an embedder meets it: the crate depends on nothing the
//! command line needs, and the root items alone build a hook system, list its hooks
//! and explain a fire (what `hookhost check` and `fire --explain` print).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hookhost::{AggregatedHookResult, HookEvent, HookSystem};

/// The names in the `[dependencies]` table of the library's own Cargo.toml.
fn dependencies() -> Vec<String> {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("host/Cargo.toml");
    let mut in_table = false;
    let mut names = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[dependencies]";
            continue;
        }
        if in_table && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            names.push(name.to_owned());
        }
    }
    names
}

#[test]
fn the_library_depends_on_nothing_the_command_line_needs() {
    let names = dependencies();
    assert!(names.iter().any(|n| n == "wasmtime"), "{names:?}");
    for cli_only in [
        "clap",
        "anyhow",
        "tracing-subscriber",
        "notify",
        "arc-swap",
        "futures",
    ] {
        assert!(
            !names.iter().any(|n| n == cli_only),
            "the library depends on {cli_only}: {names:?}"
        );
    }
}

#[test]
fn an_empty_result_is_a_success_however_it_is_made() {
    let made = [
        AggregatedHookResult::default(),
        AggregatedHookResult::empty(),
    ];
    for result in &made {
        assert!(result.success);
        assert!(!result.is_blocked());
        assert_eq!(
            result.explain(),
            "no hook ran (hooks disabled, none configured, or no matcher or `if` rule matched)\n"
        );
    }
}

#[test]
fn a_system_lists_its_hooks_through_the_root_items_alone() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(
        &settings,
        r#"{"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [
            {"matcher": "write_file", "hooks": [{"type": "command", "command": "true"}]},
            {"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    )
    .unwrap();
    let system = HookSystem::builder()
        .project_dir(dir.path())
        .settings_files(vec![settings])
        .build();
    assert_eq!(system.hook_count(HookEvent::BeforeTool), 2);
    assert_eq!(system.hook_count("PreToolUse"), 2);
    let listing = system.hook_listing();
    assert!(listing.enabled);
    assert_eq!(listing.events.len(), 1);
    let hooks = &listing.events[0].hooks;
    assert_eq!(hooks[0].position, Some(1));
    assert_eq!(
        hooks[1].position, None,
        "the same command again is a duplicate"
    );
    assert_eq!(hooks[1].standing, hookhost::Standing::Duplicate);
    let text = listing.to_string();
    assert!(
        text.starts_with("hooks are enabled (tools.enableHooks)\n"),
        "{text}"
    );
    assert!(
        text.contains("\nBeforeTool:\n   1. true [command]  matcher write_file"),
        "{text}"
    );
    assert!(
        text.contains("duplicate of an earlier hook (same command string); not run"),
        "{text}"
    );
}
