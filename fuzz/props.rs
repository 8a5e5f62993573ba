// The properties the fuzz targets check, in ONE place: `include!`d by every target in
// `fuzz/fuzz_targets/` (under `cargo +nightly fuzz`) and by `tests/all/fuzz_corpus.rs`,
// which replays `fuzz/corpus/*` and `fuzz/regressions/*` in a normal `cargo test`.
//
// Each function takes the raw fuzz input, must never panic on its own account, and
// asserts the target's properties (an assertion failure is a finding).
//
// (Plain comments, not `//!`: this file is included into other modules.)

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hookhost::HookEvent;
use hookhost::internals::{
    CommandConfig, FailurePolicy, HookEntry, HookKind, HookSpec, Shell, parse_settings,
};
use hookhost::{SettingsSource, SourceKind};
use hookhost::dialect::Dialect;
use hookhost::internals::Strategy;
use hookhost::{Decision, HookOutput};
use hookhost::Matcher;
use hookhost::internals::{
    Captured, CommandLine, HookFailure, PluginDirs, RawOutcome, RunnableHook, Runner, Status,
};
use serde_json::Value;

/// The project dir every target pretends to run in.
const PROJECT: &str = "/nonexistent/fuzz-project";

/// How the first byte of a `hook_output` input chooses the hook's end.
pub fn status_of(byte: u8) -> Status {
    match byte {
        0..=95 => Status::Exited(0),
        96..=191 => Status::Exited(2),
        192..=207 => Status::Exited(1),
        208..=215 => Status::Exited(137),
        216..=223 => Status::Exited(-1),
        224..=239 => Status::Exited(i32::from(byte)),
        240..=247 => Status::Failed(HookFailure::Timeout(Duration::from_millis(200))),
        _ => Status::Failed(HookFailure::Trap("fuzz".to_owned())),
    }
}

fn command_hook(event: HookEvent, dialect: Dialect, policy: FailurePolicy) -> RunnableHook {
    let command = CommandConfig {
        command: "fuzz.sh".to_owned(),
        args: None,
        shell: Shell::Sh,
        env: Vec::new(),
    };
    let source = Arc::new(SettingsSource::new(
        SourceKind::Project,
        PathBuf::from(PROJECT).join(".llxprt/settings.json"),
        Path::new(PROJECT),
    ));
    let entry = HookEntry {
        event,
        dialect,
        sequential: false,
        spec: HookSpec {
            timeout: Duration::from_millis(200),
            failure_policy: policy,
            ..HookSpec::new("fuzz.sh", HookKind::Command(command.clone()))
        },
        matcher: Matcher::All,
        source,
        other_name: None,
        at: None,
        written: None,
    };
    RunnableHook {
        entry,
        runner: Runner::Command(CommandLine::prepare(&command, &PluginDirs::default())),
    }
}

/// `hook_output`: byte 0 = how the hook ended ([`status_of`]); byte 1 = flags (bit 0
/// Claude dialect, bit 1 `failurePolicy: block`, bit 2 stdout reported truncated,
/// bits 3..7 the event); the rest is stdout, up to the first 0xFF byte, then stderr.
pub fn hook_output(data: &[u8]) {
    let (status, flags, rest) = match data {
        [] => (Status::Exited(0), 0, &[][..]),
        [s] => (status_of(*s), 0, &[][..]),
        [s, f, rest @ ..] => (status_of(*s), *f, rest),
    };
    let (stdout, stderr) = match rest.iter().position(|&b| b == 0xff) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let dialect = if flags & 1 == 1 {
        Dialect::Claude
    } else {
        Dialect::Llxprt
    };
    let policy = if flags & 2 == 2 {
        FailurePolicy::Block
    } else {
        FailurePolicy::Allow
    };
    let event = HookEvent::LLXPRT[usize::from(flags >> 3) % HookEvent::LLXPRT.len()];
    let hook = command_hook(event, dialect, policy);
    let extra = if flags & 4 == 4 { 1 << 20 } else { 0 };
    let raw = RawOutcome {
        status: status.clone(),
        stdout: Captured {
            bytes: stdout.to_vec(),
            total: stdout.len() as u64 + extra,
        },
        stderr: Captured {
            bytes: stderr.to_vec(),
            total: stderr.len() as u64,
        },
        duration: Duration::from_millis(1),
        queued: Duration::ZERO,
        fuel_used: None,
        logs: Default::default(),
    };
    let result = hook.settle(raw);
    assert_eq!(result.hook_name, "fuzz.sh");
    assert_eq!(result.hook_type, "command");
    let truncated = format!("{}: stdout truncated to ", hook.describe());
    assert_eq!(
        result.warnings.iter().any(|w| w.starts_with(&truncated)),
        extra > 0,
        "truncation warning: {:?}",
        result.warnings
    );
    match status {
        // A cut-off answer is a failure, not a message (issue 14).
        Status::Exited(0) if extra > 0 => {
            assert!(!result.success);
            assert_eq!(result.exit_code, Some(0));
            failed(&hook, &result, policy);
        }
        Status::Exited(code @ (0 | 2)) => {
            // seeds/001 §7.2: only exit 0 is `success`; exit 2 blocks without an error.
            assert_eq!(result.success, code == 0, "success of exit {code}");
            assert_eq!(result.exit_code, Some(code));
            assert_eq!(result.error, None);
            if code == 2 {
                let output = result.output.as_ref();
                assert!(
                    output.is_some_and(HookOutput::is_block),
                    "exit 2 must block"
                );
                let reason = output.and_then(HookOutput::effective_reason);
                assert!(
                    reason.is_some_and(|r| !r.is_empty()),
                    "exit 2 must carry a reason: {output:?}"
                );
            }
            if let Some(output) = &result.output {
                round_trips(output);
            }
        }
        Status::Exited(code) => {
            assert!(!result.success);
            assert_eq!(result.exit_code, Some(code));
            failed(&hook, &result, policy);
        }
        Status::Failed(_) => {
            assert!(!result.success);
            assert_eq!(result.exit_code, None);
            failed(&hook, &result, policy);
        }
    }
}

fn failed(hook: &RunnableHook, result: &hookhost::HookExecutionResult, policy: FailurePolicy) {
    let error = result.error.as_deref().unwrap_or_default();
    assert!(
        error.starts_with(&hook.describe()),
        "the error names the hook: {error:?}"
    );
    match policy {
        FailurePolicy::Allow => {
            assert!(error.ends_with("(failing open)"), "{error:?}");
            assert_eq!(result.output, None, "a failed hook has no answer");
        }
        FailurePolicy::Block => {
            assert!(error.ends_with("(failurePolicy block)"), "{error:?}");
            assert!(result.output.as_ref().is_some_and(HookOutput::is_block));
        }
    }
}

/// An answer serializes to a JSON object that reads back as the same answer.
fn round_trips(output: &HookOutput) {
    let value = output.to_value();
    let Value::Object(object) = value else {
        panic!("HookOutput::to_value is not an object: {value:?} for {output:?}");
    };
    let text = serde_json::to_string(&object);
    assert!(text.is_ok(), "cannot serialize {object:?}");
    let (back, warnings) = HookOutput::from_json_object(object);
    assert!(warnings.is_empty(), "re-reading warns: {warnings:?}");
    assert_eq!(&back, output, "the answer does not survive a round trip");
    assert_eq!(back.is_block(), output.is_block());
}

/// `settings`: the input is the text of a settings file, read as project settings, as
/// an extension manifest and as Claude Code settings.
pub fn settings(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let project = Path::new(PROJECT);
    let path = project.join(".llxprt/settings.json");
    let sources = [
        SettingsSource::new(SourceKind::Project, path.clone(), project),
        SettingsSource::new(
            SourceKind::Extension("fuzz".to_owned()),
            PathBuf::from("/nonexistent/ext/fuzz/llxprt-extension.json"),
            project,
        ),
        SettingsSource::new(SourceKind::User, path, project).claude(),
    ];
    for source in sources {
        let source = Arc::new(source);
        let parsed = parse_settings(&text, Arc::clone(&source), project);
        for diagnostic in &parsed.diagnostics {
            assert!(
                diagnostic.message.starts_with(&source.label),
                "diagnostic without its source label {:?}: {:?}",
                source.label,
                diagnostic.message
            );
        }
        if text.trim().is_empty() {
            assert!(parsed.entries.is_empty() && parsed.diagnostics.is_empty());
        }
        for entry in &parsed.entries {
            assert!(Arc::ptr_eq(&entry.source, &source));
            assert!(entry.location().starts_with("hooks."), "{}", entry.location());
            assert!(!entry.spec.timeout.is_zero(), "a zero timeout loaded");
            if entry.event.matcher_field().is_none() {
                assert!(entry.matcher.is_all(), "a matcher on {}", entry.event);
            }
            match &entry.spec.kind {
                HookKind::Command(c) => assert!(!c.command.trim().is_empty()),
                HookKind::Http(h) => assert!(h.url.starts_with("http")),
                HookKind::Prompt(p) => assert!(!p.prompt.trim().is_empty()),
                HookKind::Unsupported(_) | HookKind::Function(_) => {}
                HookKind::Plugin(plugin) => {
                    assert!(plugin.fuel > 0 && plugin.memory_limit > 0);
                    assert!(plugin.path.is_absolute(), "{}", plugin.path.display());
                    for preopen in &plugin.preopens {
                        assert!(preopen.guest.starts_with('/'));
                    }
                }
            }
            // Every hook that loads can be keyed for dedup and described.
            let _ = entry.spec.dedup_key();
        }
    }
}

/// `matcher`: the first line is the pattern, every further line a tool name.
pub fn matcher(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let raw = lines.next().unwrap_or_default();
    let names: Vec<&str> = lines.collect();
    let (compiled, warning) = Matcher::compile(Some(raw));
    let pattern = raw.trim();
    let check = |name: Option<&str>, expected: bool| {
        assert_eq!(
            compiled.matches(name),
            expected,
            "matcher {raw:?} on {name:?} ({compiled:?})"
        );
    };
    if pattern.is_empty() || pattern == "*" {
        assert!(compiled.is_all() && warning.is_none());
        assert_eq!(compiled.as_str(), "*");
        check(None, true);
        for name in &names {
            check(Some(name), true);
        }
        return;
    }
    check(None, false);
    match regex::Regex::new(pattern) {
        Ok(regex) => {
            // A literal pattern may skip the regex (`Contains`, `AnyName`); what it
            // selects must not change.
            assert!(
                matches!(
                    compiled,
                    Matcher::Regex(_) | Matcher::Contains { .. } | Matcher::AnyName(_)
                ),
                "{compiled:?}"
            );
            assert_eq!(warning, None);
            assert_eq!(compiled.as_str(), pattern);
            for name in names.iter().copied().chain([pattern, raw, ""]) {
                check(Some(name), regex.is_match(name));
            }
        }
        Err(_) => {
            // An invalid regex falls back to exact matching, with a warning naming it.
            assert!(
                matches!(&compiled, Matcher::Exact(exact) if exact == pattern),
                "{compiled:?}"
            );
            let warning = warning.unwrap_or_default();
            assert!(
                warning.contains(&format!("{pattern:?}")),
                "the warning names the pattern: {warning:?}"
            );
            assert_eq!(compiled.as_str(), pattern);
            check(Some(pattern), true);
            for name in names.iter().copied().chain([raw, ""]) {
                check(Some(name), name == pattern);
            }
        }
    }
}

/// `aggregate`: NUL-separated pieces (NUL cannot occur in JSON text), each a hook's
/// answer: a JSON object is read as one, anything else as plain text; merged for
/// every event.
pub fn aggregate(data: &[u8]) {
    let outputs: Vec<HookOutput> = data
        .split(|&b| b == 0)
        .take(16)
        .map(|piece| match serde_json::from_slice::<Value>(piece) {
            Ok(Value::Object(object)) => HookOutput::from_json_object(object).0,
            _ => HookOutput::from_plain_text(&String::from_utf8_lossy(piece)),
        })
        .collect();
    let refs: Vec<&HookOutput> = outputs.iter().collect();
    for event in HookEvent::LLXPRT {
        for n in [refs.len(), refs.len().min(1), 0] {
            let inputs = &refs[..n];
            let merged = hookhost::internals::merge(event, inputs);
            let replacing = Strategy::of(event) == Strategy::FieldReplacement;
            // OR logic: any block blocks. Field replacement: the last decision counts.
            let blocks = if replacing {
                let last = inputs.iter().rev().find_map(|o| o.effective_decision());
                last.is_some_and(Decision::is_block)
            } else {
                inputs.iter().any(|o| o.is_block())
            };
            assert_eq!(
                merged.is_block(),
                blocks,
                "{event}: inputs block: {blocks}; merged {merged:?} from {inputs:?}"
            );
            if blocks {
                assert!(
                    merged.decision.is_some_and(|d| d.is_block()),
                    "{event}: a merged block has an explicit decision: {merged:?}"
                );
            }
            let stops = if replacing {
                inputs.iter().rev().find_map(|o| o.continue_) == Some(false)
            } else {
                inputs.iter().any(|o| o.stops())
            };
            assert_eq!(merged.stops(), stops, "{event}: continue from {inputs:?}");
            if inputs.is_empty() {
                assert_eq!(merged, HookOutput::default());
            }
            assert!(merged.to_value().is_object(), "{event}: {merged:?}");
        }
    }
}

/// `serve_request`: the input is one request line of `hookhost serve`. Parsing never
/// panics; a good request's answer and a bad one's error are each exactly one line
/// of JSON in the contract's shape, carrying the correlationId when it was read.
pub fn serve_request(data: &[u8]) {
    use hookhost::AggregatedHookResult;
    use hookhost::bus::{Answer, Body, parse_request};
    let answer = match parse_request(data) {
        Ok(request) => {
            assert!(request.id.is_string() || request.id.is_number());
            assert_eq!(request.event.as_str().parse::<HookEvent>().ok(), Some(request.event));
            Answer {
                id: Some(request.id),
                body: Body::Output(Box::new(AggregatedHookResult::empty())),
            }
        }
        Err(answer) => {
            assert!(matches!(answer.body, Body::Error { .. }), "{answer:?}");
            answer
        }
    };
    let mut line = Vec::new();
    answer.write_line(&mut line).expect("writing to a Vec cannot fail");
    assert_eq!(line.last(), Some(&b'\n'));
    assert_eq!(
        line.iter().filter(|&&b| b == b'\n').count(),
        1,
        "one answer, one line"
    );
    let value: Value = serde_json::from_slice(&line).expect("the answer is JSON");
    let id = answer.id.clone().unwrap_or(Value::Null);
    assert_eq!(value["correlationId"], id);
    match &answer.body {
        Body::Output(_) => {
            assert_eq!(value["success"], true);
            assert!(value["output"].is_object());
        }
        Body::Error { code, message } => {
            assert_eq!(value["success"], false);
            assert_eq!(value["error"]["code"], *code);
            assert_eq!(value["error"]["message"], message.as_str());
        }
        Body::Notice(_) => assert!(value["notice"].is_object()),
    }
}

/// `dialect`: the input is an event input (a JSON object; anything else is skipped).
/// For every event, the Claude translation keeps every other field, names the event
/// in Claude's terms, and translating back restores the tool name.
pub fn dialect(data: &[u8]) {
    use hookhost::dialect::parse_event;
    let Ok(Value::Object(input)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    // Every event a name can reach (`Other` keeps the name the caller gave).
    for event in HookEvent::VARIANTS.into_iter().filter(|e| *e != HookEvent::Other) {
        assert_eq!(Dialect::Llxprt.input_for_hook(event, &input), None);
        let Some(mut claude) = Dialect::Claude.input_for_hook(event, &input) else {
            panic!("no Claude input for {event:?}");
        };
        for (key, value) in &input {
            if !matches!(key.as_str(), "hook_event_name" | "tool_name") {
                assert_eq!(claude.get(key), Some(value), "{key} changed");
            }
        }
        assert!(claude.contains_key("permission_mode"));
        if let Some(name) = Dialect::Claude.event_name(event) {
            assert_eq!(claude["hook_event_name"], name);
            // Names both agents share (SessionStart) parse as LLxprt's: same event.
            assert_eq!(parse_event(name).map(|(e, _)| e), Some(event));
        }
        Dialect::Claude.canonicalize_input(event, &mut claude);
        if let Some(Value::String(tool)) = input.get("tool_name")
            && Dialect::Claude.to_llxprt_tool_name(tool) == tool
        {
            assert_eq!(claude["tool_name"], tool.as_str(), "the tool name does not round-trip");
        }
        if input.contains_key("hook_event_name") || Dialect::Claude.event_name(event).is_some() {
            assert_eq!(claude["hook_event_name"], event.as_str());
        }
    }
}
