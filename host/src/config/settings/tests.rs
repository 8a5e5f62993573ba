//! The per-level reading: a bad value is reported where it is and skips only what
//! it must, unknown keys are warnings with their path, and neighbours still load.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::{ParsedSettings, parse_settings};
use crate::config::diagnostic::Diagnostic;
use crate::config::source::{SettingsSource, SourceKind};
use crate::config::spec::HookKind;

fn parse(settings: Value) -> ParsedSettings {
    let project = Path::new("/project");
    let source = SettingsSource::new(SourceKind::Explicit, "/cfg/settings.json".into(), project);
    parse_settings(&settings.to_string(), Arc::new(source), project)
}

fn messages(parsed: &ParsedSettings, error: bool) -> Vec<&str> {
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.is_error() == error)
        .map(|d: &Diagnostic| d.message.as_str())
        .collect()
}

fn command(parsed: &ParsedSettings, i: usize) -> &str {
    match &parsed.entries[i].spec.kind {
        HookKind::Command(c) => &c.command,
        other => panic!("not a command: {other:?}"),
    }
}

#[test]
fn a_bad_hook_is_skipped_with_its_place_and_its_neighbours_load() {
    let parsed = parse(json!({"hooks": {
        "BeforeTool": [{"hooks": [
            {"type": "command", "command": "first"},
            {"type": "command", "command": "bad", "timeout": "5s"},
            {"type": "command", "command": "third"}
        ]}],
        "AfterTool": [{"hooks": [{"type": "command", "command": "after"}]}]
    }}));
    assert_eq!(
        messages(&parsed, true),
        [
            "settings /cfg/settings.json: hooks.BeforeTool[0].hooks[1].timeout: expected a \
          positive number of milliseconds, got \"5s\"; the hook is skipped"
        ]
    );
    let commands: Vec<&str> = (0..parsed.entries.len())
        .map(|i| command(&parsed, i))
        .collect();
    assert_eq!(commands, ["first", "third", "after"]);
    assert_eq!(parsed.entries[1].location(), "hooks.BeforeTool[0].hooks[2]");
}

/// The place travels as data, not only in the message: a finding in a hook names
/// its file, the event as written, group, hook and field; one of a group names no
/// hook; one of the file none; and an entry carries its hook's place.
#[test]
fn every_finding_carries_its_place() {
    let parsed = parse(json!({"tools": {"enableHooks": "yes"}, "hooks": {
        "PreToolUse": [
            {"hooks": [{"type": "command", "command": "a", "timeout": "5s"}]},
            {"matcher": 3, "hooks": []}
        ],
    }}));
    let at = |d: &Diagnostic| d.at.as_ref().map(|at| (at.to_string(), at.file.clone()));
    let places: Vec<_> = parsed.diagnostics.iter().map(at).collect();
    let file = std::path::PathBuf::from("/cfg/settings.json");
    assert!(places.contains(&None), "{:?}", parsed.diagnostics);
    assert!(
        places.contains(&Some((
            "hooks.PreToolUse[0].hooks[0].timeout".into(),
            file.clone()
        ))),
        "{places:?}"
    );
    assert!(
        places.contains(&Some(("hooks.PreToolUse[1].matcher".into(), file))),
        "{places:?}"
    );
    let timeout = parsed
        .diagnostics
        .iter()
        .find_map(|d| d.at.clone().filter(|a| a.hook.is_some()));
    let timeout = timeout.expect("a hook's finding");
    assert_eq!(
        (&*timeout.event, timeout.group, timeout.hook),
        ("PreToolUse", 0, Some(0))
    );
    assert_eq!(timeout.field.as_deref(), Some("timeout"));
}

#[test]
fn every_wrong_field_of_a_hook_is_reported_not_only_the_first() {
    let parsed = parse(json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": "p.wasm", "fuel": 0, "args": ["a", 2, true],
         "preopens": [{"host": "", "guest": "rel", "writable": "yes"}]}
    ]}]}}));
    let errors = messages(&parsed, true);
    let at = "settings /cfg/settings.json: hooks.BeforeTool[0].hooks[0]";
    for expected in [
        format!("{at}.fuel: expected an instruction budget (a positive integer), got 0"),
        format!("{at}.args[1]: expected a string, got 2"),
        format!("{at}.args[2]: expected a string, got true"),
        format!("{at}.preopens[0].host: expected a host directory path, got \"\""),
        format!(
            "{at}.preopens[0].guest: expected an absolute guest path such as \"/project\", got \"rel\""
        ),
        format!("{at}.preopens[0].writable: expected true or false, got \"yes\""),
    ] {
        let expected = format!("{expected}; the hook is skipped");
        assert!(
            errors.contains(&expected.as_str()),
            "{expected:?} not in {errors:#?}"
        );
    }
    assert_eq!(errors.len(), 6, "{errors:#?}");
    assert!(parsed.entries.is_empty());
}

#[test]
fn unknown_keys_are_warnings_with_their_path_and_the_hook_still_loads() {
    let parsed = parse(json!({"hooks": {"BeforeTool": [
        {"matchr": "x", "hooks": [
            {"type": "command", "command": "c", "timout": 5000, "fuel": 5},
            {"type": "plugin", "path": "p.wasm", "command": "x"}
        ]}
    ]}}));
    assert!(
        messages(&parsed, true).is_empty(),
        "{:#?}",
        parsed.diagnostics
    );
    let at = "settings /cfg/settings.json: hooks.BeforeTool[0]";
    assert_eq!(
        messages(&parsed, false),
        [
            format!("{at}.matchr: unknown key, ignored"),
            format!(
                "{at}.hooks[0].timout: unknown key for a command hook, ignored (did you mean \"timeout\"?)"
            ),
            format!("{at}.hooks[0].fuel: unknown key for a command hook, ignored"),
            format!("{at}.hooks[1].command: unknown key for a plugin hook, ignored"),
        ]
    );
    assert_eq!(parsed.entries.len(), 2);
    assert_eq!(
        parsed.entries[0].spec.timeout,
        crate::config::spec::DEFAULT_TIMEOUT
    );
}

#[test]
fn a_wrong_switch_does_not_hide_its_neighbours() {
    let parsed = parse(json!({
        "tools": {"enableHooks": "yes", "requireHookTrust": true, "enabledHooks": true,
                  "hookFailClosed": true},
        "serve": {"maxInFlight": 0, "maxProcesses": 8}
    }));
    assert_eq!(parsed.enable_hooks, None);
    assert_eq!(parsed.require_trust, Some(true));
    assert_eq!(parsed.fail_closed, Some(true));
    assert_eq!(parsed.serve.max_processes, Some(8));
    assert_eq!(parsed.serve.max_in_flight, None);
    let at = "settings /cfg/settings.json";
    assert_eq!(
        messages(&parsed, true),
        [
            format!("{at}: serve.maxInFlight: expected a positive whole number, got 0"),
            format!("{at}: tools.enableHooks: expected true or false, got \"yes\""),
            format!(
                "{at}: tools.enabledHooks: unknown setting; did you mean \"enableHooks\"? (it is ignored)"
            ),
        ]
    );
}

/// A serde struct also reads an array field by field; a level never does.
#[test]
fn an_array_is_not_read_as_an_object() {
    let parsed = parse(json!({
        "tools": [true],
        "hooks": {"BeforeTool": [["^x$", true, []]]}
    }));
    let at = "settings /cfg/settings.json";
    assert_eq!(
        messages(&parsed, true),
        [
            format!("{at}: tools: expected an object, got an array"),
            format!("{at}: hooks.BeforeTool[0]: expected a hook group object, got an array"),
        ]
    );
}

#[test]
fn claude_timeouts_are_seconds_and_huge_ones_are_clamped() {
    let project = Path::new("/project");
    let source = SettingsSource::new(SourceKind::Explicit, "/cfg/c.json".into(), project).claude();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": "a", "timeout": 10},
        {"type": "command", "command": "b", "timeout": 9_223_372_036_854_775_807_u64}
    ]}]}});
    let parsed = parse_settings(&settings.to_string(), Arc::new(source), project);
    assert_eq!(parsed.entries[0].spec.timeout, Duration::from_secs(10));
    assert_eq!(
        parsed.entries[1].spec.timeout,
        super::check::hook::MAX_TIMEOUT
    );
    assert_eq!(parsed.enable_hooks, Some(true));
    assert!(
        messages(&parsed, false)[0].ends_with("longer than the maximum of 24 hours; clamped to it"),
        "{:#?}",
        parsed.diagnostics
    );
}

#[test]
fn the_schema_splits_hooks_by_type_and_names_every_event() {
    let schema = super::settings_schema();
    let hook = &schema["$defs"]["Hook"];
    let branch = |i: usize, kind: &str| {
        assert_eq!(hook["allOf"][i]["if"]["properties"]["type"]["const"], kind);
        hook["allOf"][i]["then"]["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default()
    };
    let (command, plugin, http) = (branch(0, "command"), branch(1, "plugin"), branch(2, "http"));
    assert!(command.contains_key("command") && !command.contains_key("fuel"));
    assert!(command.contains_key("args") && command.contains_key("if"));
    assert!(plugin.contains_key("fuel") && !plugin.contains_key("command"));
    assert!(http.contains_key("url") && !http.contains_key("command"));
    let events = schema["$defs"]["Events"]["properties"]
        .as_object()
        .expect("events");
    for name in [
        "BeforeTool",
        "PreToolUse",
        "SubagentStop",
        "enabled",
        "disabled",
    ] {
        assert!(events.contains_key(name), "{name}");
    }
}
