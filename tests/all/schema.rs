//! `docs/settings.schema.json`: the settings files hookhost ships or writes
//! are valid against it, and broken ones are rejected — the same broken files
//! `hookhost check` reports as errors (plus typos, which hookhost only warns
//! about and the schema rejects).

use std::path::Path;

use jsonschema::Validator;
use serde_json::{Value, json};

use crate::common::{Project, repo, run};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn schema() -> Value {
    read_json(&repo().join("docs/settings.schema.json"))
}

fn validator() -> Validator {
    jsonschema::draft202012::new(&schema())
        .unwrap_or_else(|e| panic!("schema does not compile: {e}"))
}

/// Every validation error of `instance`, as "path: message".
fn errors(validator: &Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn assert_valid(validator: &Validator, what: &str, instance: &Value) {
    let errors = errors(validator, instance);
    assert!(
        errors.is_empty(),
        "{what} is not valid against docs/settings.schema.json:\n{}",
        errors.join("\n")
    );
}

/// `docs/settings.schema.json` is generated from the types that read settings, so
/// the two cannot drift; `HOOKHOST_BLESS=1` rewrites it.
#[test]
fn the_committed_schema_is_the_generated_one() {
    let generated = serde_json::to_string_pretty(&hookhost::settings_schema())
        .expect("a schema serialises")
        + "\n";
    let path = repo().join("docs/settings.schema.json");
    if std::env::var_os("HOOKHOST_BLESS").is_some() {
        // Other tests read the file meanwhile: replace it whole.
        let dir = path.parent().expect("docs/");
        let mut file = tempfile::NamedTempFile::new_in(dir).expect("temp file");
        std::io::Write::write_all(&mut file, generated.as_bytes()).expect("write");
        file.persist(&path)
            .expect("replace docs/settings.schema.json");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("docs/settings.schema.json");
    assert!(
        committed == generated,
        "docs/settings.schema.json is not the schema generated from the settings types; \
         regenerate it with `HOOKHOST_BLESS=1 cargo test -p hookhost --test all schema::`"
    );
}

#[test]
fn the_schema_is_a_valid_draft_2020_12_schema() {
    let schema = schema();
    if let Err(e) = jsonschema::meta::validate(&schema) {
        panic!("docs/settings.schema.json: {e}");
    }
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}

#[test]
fn example_settings_are_valid() {
    let validator = validator();
    for example in ["examples/settings.json", "examples/settings-oci.json"] {
        assert_valid(&validator, example, &read_json(&repo().join(example)));
    }
}

/// Every field with a legal value, including the Claude Code event names,
/// Gemini CLI's switches and explicit nulls (which hookhost treats as absent).
#[test]
fn a_file_using_every_field_is_valid() {
    let validator = validator();
    let every = json!({
        "tools": {"enableHooks": true, "requireHookTrust": false, "stickyHookBlocks": true,
                  "allowed": ["x"]},
        "hooksConfig": {"enabled": true, "disabled": ["old-hook"]},
        "ui": {"theme": "dark"},
        "hooks": {
            "enabled": true,
            "disabled": ["echo legacy"],
            "BeforeTool": [{
                "matcher": "write_file|replace",
                "sequential": true,
                "hooks": [
                    {"type": "command", "command": "./guard.sh", "timeout": 5000, "name": "guard",
                     "description": "d", "failurePolicy": "block", "mode": "monitor"},
                    {"type": "plugin", "path": "p.wasm", "timeout": 2000.0, "name": "p",
                     "description": "d", "failurePolicy": "allow", "mode": "enforce",
                     "sha256": "0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789abcdef",
                     "fuel": 1_000_000_000_u64, "memoryLimit": 33_554_432,
                     "env": {"DENY_PREFIXES": "/etc:/usr", "EMPTY": ""},
                     "preopens": [{"host": "$LLXPRT_PROJECT_DIR", "guest": "/project"},
                                  {"host": "out", "guest": "/out", "writable": true}],
                     "args": ["--strict", ""]}
                ]
            }],
            "AfterTool": [{"hooks": [{"type": "command", "command": "log.sh", "timeout": null,
                                      "name": null, "failurePolicy": null, "mode": null}]}],
            "BeforeModel": [], "AfterModel": [], "BeforeToolSelection": [], "BeforeAgent": [],
            "AfterAgent": [], "SessionStart": [], "SessionEnd": [], "PreCompress": [],
            "Notification": [{"matcher": null, "sequential": null, "hooks": []}],
            "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "c"}]}],
            "PostToolUse": [], "UserPromptSubmit": [], "Stop": [], "PreCompact": []
        }
    });
    assert_valid(&validator, "the every-field file", &every);
    assert_valid(&validator, "an empty file", &json!({}));
}

/// The settings `hookhost init` writes.
#[test]
fn init_settings_are_valid() {
    let validator = validator();
    let p = Project::new();
    let mut command = p.command();
    command.arg("init").arg("--project-dir").arg(p.dir());
    let init = run(command, b"");
    assert_eq!(init.code, 0, "{}", init.stderr);
    assert_valid(
        &validator,
        "hookhost init's settings",
        &p.read_json(".llxprt/settings.json"),
    );
}

/// The settings every `hookhost new` scaffold writes.
#[test]
fn scaffold_settings_are_valid() {
    let validator = validator();
    let p = Project::new();
    for lang in ["rust", "python", "js"] {
        let dir = p.path(&format!("{lang}-hook"));
        let mut command = p.command();
        command.arg("new").arg("--lang").arg(lang).arg(&dir);
        let new = run(command, b"");
        assert_eq!(new.code, 0, "hookhost new --lang {lang}: {}", new.stderr);
        assert_valid(
            &validator,
            &format!("the {lang} scaffold's settings"),
            &read_json(&dir.join("settings.json")),
        );
    }
}

/// One hook in a BeforeTool group.
fn with_hook(hook: Value) -> Value {
    json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [{"hooks": [hook]}]}})
}

fn plugin(extra: Value) -> Value {
    let mut hook = json!({"type": "plugin", "path": "p.wasm"});
    for (k, v) in extra.as_object().expect("object") {
        hook[k] = v.clone();
    }
    with_hook(hook)
}

/// Broken files that hookhost reports as errors, each with the field the schema must name.
fn broken() -> Vec<(&'static str, Value, &'static str)> {
    [broken_groups(), broken_commands(), broken_plugins()].concat()
}

/// Broken switches, events and groups.
fn broken_groups() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "enableHooks not a boolean",
            json!({"tools": {"enableHooks": "yes"}}),
            "/tools/enableHooks",
        ),
        (
            "requireHookTrust not a boolean",
            json!({"tools": {"requireHookTrust": 1}}),
            "/tools/requireHookTrust",
        ),
        ("hooks not an object", json!({"hooks": []}), "/hooks"),
        (
            "unknown event",
            json!({"hooks": {"BeforeToolUse": []}}),
            "/hooks",
        ),
        (
            "groups not an array",
            json!({"hooks": {"BeforeTool": {"hooks": []}}}),
            "/hooks/BeforeTool",
        ),
        (
            "group without hooks",
            json!({"hooks": {"BeforeTool": [{"matcher": "x"}]}}),
            "/hooks/BeforeTool/0",
        ),
        (
            "matcher not a string",
            json!({"hooks": {"BeforeTool": [{"matcher": 5, "hooks": []}]}}),
            "/hooks/BeforeTool/0/matcher",
        ),
        (
            "sequential not a boolean",
            json!({"hooks": {"BeforeTool": [{"sequential": "yes", "hooks": []}]}}),
            "/hooks/BeforeTool/0/sequential",
        ),
    ]
}

/// Broken hooks: the type and the fields of command hooks, a plugin without a path.
fn broken_commands() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "unknown type",
            with_hook(json!({"type": "script", "command": "x"})),
            "/hooks/BeforeTool/0/hooks/0/type",
        ),
        (
            "no type",
            with_hook(json!({"command": "x"})),
            "/hooks/BeforeTool/0/hooks/0",
        ),
        (
            "command missing",
            with_hook(json!({"type": "command"})),
            "/hooks/BeforeTool/0/hooks/0",
        ),
        (
            "command blank",
            with_hook(json!({"type": "command", "command": "  "})),
            "/hooks/BeforeTool/0/hooks/0/command",
        ),
        (
            "timeout as text",
            with_hook(json!({"type": "command", "command": "x", "timeout": "5s"})),
            "/hooks/BeforeTool/0/hooks/0/timeout",
        ),
        (
            "timeout zero",
            with_hook(json!({"type": "command", "command": "x", "timeout": 0})),
            "/hooks/BeforeTool/0/hooks/0/timeout",
        ),
        (
            "timeout fractional",
            with_hook(json!({"type": "command", "command": "x", "timeout": 1.5})),
            "/hooks/BeforeTool/0/hooks/0/timeout",
        ),
        (
            "name not a string",
            with_hook(json!({"type": "command", "command": "x", "name": 3})),
            "/hooks/BeforeTool/0/hooks/0/name",
        ),
        (
            "failurePolicy unknown",
            with_hook(json!({"type": "command", "command": "x", "failurePolicy": "deny"})),
            "/hooks/BeforeTool/0/hooks/0/failurePolicy",
        ),
        (
            "mode unknown",
            with_hook(json!({"type": "command", "command": "x", "mode": "audit"})),
            "/hooks/BeforeTool/0/hooks/0/mode",
        ),
        (
            "path missing",
            with_hook(json!({"type": "plugin"})),
            "/hooks/BeforeTool/0/hooks/0",
        ),
    ]
}

/// Broken fields of plugin hooks, and of `hooksConfig`.
fn broken_plugins() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        (
            "sha256 too short",
            plugin(json!({"sha256": "abc123"})),
            "/hooks/BeforeTool/0/hooks/0/sha256",
        ),
        (
            "sha256 not hex",
            plugin(json!({"sha256": "z".repeat(64)})),
            "/hooks/BeforeTool/0/hooks/0/sha256",
        ),
        (
            "fuel negative",
            plugin(json!({"fuel": -1})),
            "/hooks/BeforeTool/0/hooks/0/fuel",
        ),
        (
            "memoryLimit as text",
            plugin(json!({"memoryLimit": "128MiB"})),
            "/hooks/BeforeTool/0/hooks/0/memoryLimit",
        ),
        (
            "env value not a string",
            plugin(json!({"env": {"A": 1}})),
            "/hooks/BeforeTool/0/hooks/0/env/A",
        ),
        (
            "env name with =",
            plugin(json!({"env": {"A=B": "x"}})),
            "/hooks/BeforeTool/0/hooks/0/env",
        ),
        (
            "env not an object",
            plugin(json!({"env": ["A=1"]})),
            "/hooks/BeforeTool/0/hooks/0/env",
        ),
        (
            "preopen guest relative",
            plugin(json!({"preopens": [{"host": ".", "guest": "project"}]})),
            "/hooks/BeforeTool/0/hooks/0/preopens/0/guest",
        ),
        (
            "preopen host missing",
            plugin(json!({"preopens": [{"guest": "/p"}]})),
            "/hooks/BeforeTool/0/hooks/0/preopens/0",
        ),
        (
            "preopen writable as text",
            plugin(json!({"preopens": [{"host": ".", "guest": "/p", "writable": "yes"}]})),
            "/hooks/BeforeTool/0/hooks/0/preopens/0/writable",
        ),
        (
            "args not strings",
            plugin(json!({"args": ["a", 2]})),
            "/hooks/BeforeTool/0/hooks/0/args/1",
        ),
        (
            "disabled not strings",
            json!({"hooksConfig": {"disabled": [1]}}),
            "/hooksConfig/disabled/0",
        ),
    ]
}

#[test]
fn broken_files_are_rejected_where_they_break() {
    let validator = validator();
    let mut wrong = Vec::new();
    for (what, settings, at) in broken() {
        let errors = errors(&validator, &settings);
        if !errors
            .iter()
            .any(|e| e.starts_with(&format!("{at}:")) || e.starts_with(&format!("{at}/")))
        {
            wrong.push(format!("{what}: expected an error at {at}, got {errors:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The schema and hookhost agree: each broken file is an error for `hookhost check` too.
#[test]
fn hookhost_check_reports_the_same_files_as_errors() {
    let p = Project::new();
    let mut disagree = Vec::new();
    for (i, (what, settings, _)) in broken().into_iter().enumerate() {
        let file = p.outside().join(format!("broken-{i}.json"));
        std::fs::write(&file, serde_json::to_vec(&settings).expect("JSON")).expect("write");
        let check = p.check(&[&file]);
        if check.code != 1 {
            disagree.push(format!(
                "{what}: check exited {}: {}",
                check.code, check.stderr
            ));
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

/// Unknown keys are only warnings for hookhost, but the schema rejects them so
/// an editor flags the typo.
#[test]
fn typos_are_rejected_by_the_schema() {
    let validator = validator();
    let typos = [
        with_hook(json!({"type": "command", "command": "x", "timout": 5000})),
        with_hook(json!({"type": "command", "command": "x", "fuel": 5})),
        json!({"hooks": {"BeforeTool": [{"matchers": "x", "hooks": []}]}}),
        plugin(json!({"preopens": [{"host": ".", "guest": "/p", "readonly": true}]})),
    ];
    for typo in typos {
        assert!(!validator.is_valid(&typo), "accepted: {typo}");
    }
}
