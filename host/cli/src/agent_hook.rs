//! `hookhost hook`: hookhost as *one* hook inside any agent.
//!
//! Register `hookhost hook` as a command hook in Claude Code, Gemini CLI or LLxprt
//! Code. It reads the agent's hook stdin, takes the event from `hook_event_name`
//! (Claude or LLxprt/Gemini names; a name hookhost does not know runs the hooks
//! registered under it, generically), runs the hooks hookhost is configured with —
//! shell and Wasm — and answers exactly as a single hook of that agent would.
//! The mapping per event is [`hookhost::dialect::reply`]'s.
//!
//! What reaches stderr matters: Claude Code passes a blocking hook's stderr to the
//! model as the reason. So hookhost's own diagnostics never go there; they travel
//! in `systemMessage` (shown to the user, not the model) and the log. Failures are
//! visible: a hook that failed (could not load, crashed, ran out of fuel or time,
//! broken settings) is reported in `systemMessage`, or — when nothing else is to be
//! said — as the non-blocking error (exit 1, the cause on stderr) of an agent
//! that shows no `systemMessage` (LLxprt Code; see `hookhost::dialect::reply`).
//! `--fail-closed` turns any failure into a deny naming the cause — an input it
//! cannot read too (not JSON, nested too deep, over [`MAX_INPUT`], empty): the block
//! of the event the input names as far as it can be read, where exit 1 would be a
//! non-blocking error and the tool call would run. The input is read as JavaScript
//! wrote it ([`hookhost::json_input`]: a lone surrogate escape is U+FFFD).
//!
//! Run *inside* a hook of hookhost (`HOOKHOST_ACTIVE` names its parent or, through
//! `sh -c`, its grandparent), it answers `{}` at once instead of recursing. Any other
//! value — inherited by an agent that a hook started, or set by hand — is ignored:
//! the hooks run.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use hookhost::dialect::{Dialect, parse_event, reply, reply_json};
use hookhost::{AggregatedHookResult, HookEvent, HookSystem, NESTED_ENV};
use serde_json::{Map, Value};

use crate::{Failure, Outcome, SettingsArgs, agent_answer};

pub fn run(settings: &SettingsArgs, fail_closed: bool, run_background: bool) -> Outcome {
    if let Some(value) = std::env::var_os(NESTED_ENV) {
        if crate::nested::runs_inside_hookhost(&value.to_string_lossy()) {
            tracing::info!("`hookhost hook` runs as a hook of hookhost; not recursing");
            println!("{{}}");
            return Ok(ExitCode::SUCCESS);
        }
        tracing::info!(
            "ignoring {NESTED_ENV}={:?}: it does not name the process that started this one",
            value.to_string_lossy()
        );
    }
    let bytes = read_stdin();
    let parsed = match &bytes {
        Ok(bytes) => Call::parse(bytes, Source::Stdin).map_err(|e| e.message),
        Err(cause) => Err(cause.clone()),
    };
    let (call, input) = match parsed {
        Ok(parsed) => parsed,
        Err(cause) => {
            let bytes = bytes.as_deref().unwrap_or_default();
            return unreadable(settings, fail_closed, bytes, cause);
        }
    };
    let project_dir = default_project_dir(&input);
    let mode = crate::detach::mode(run_background);
    let (result, fail_closed) = match fire(settings, project_dir, &call, input, mode) {
        Ok((result, by_settings)) => (result, fail_closed || by_settings),
        Err(e) => (
            failed(format!("hookhost could not run the hooks: {e:#}")),
            fail_closed,
        ),
    };
    let deferred = result.background_deferred;
    let code = answer(call.reply(result, fail_closed));
    if deferred && let Ok(bytes) = &bytes {
        crate::detach::hand_over(bytes);
    }
    Ok(code)
}

/// The most of stdin read: as much as a request of `hookhost serve` may hold.
pub const MAX_INPUT: usize = hookhost::bus::MAX_LINE;

/// The agent's hook input: stdin, up to [`MAX_INPUT`] bytes.
fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the event from stdin: {e}"))?;
    if bytes.len() > MAX_INPUT {
        return Err(format!("stdin is longer than {MAX_INPUT} bytes"));
    }
    Ok(bytes)
}

/// The answer to an input that cannot be read (`cause`). Fail-closed (the flag, or
/// `tools.hookFailClosed` in the settings): the block a hook of the agent gives
/// for the event `bytes` name as far as they can be read ([`Call::guess`]) —
/// exit 1 would be a non-blocking error, and the tool call would run. Otherwise
/// that non-blocking error, as always.
fn unreadable(settings: &SettingsArgs, fail_closed: bool, bytes: &[u8], cause: String) -> Outcome {
    if !(fail_closed || settings_fail_closed(settings)) {
        return Err(Failure::of(HOOK, cause));
    }
    let result = failed(format!("cannot read the agent's hook input: {cause}"));
    Ok(answer(Call::guess(bytes).reply(result, true)))
}

/// Whether the settings turn fail-closed on (`tools.hookFailClosed`), read without
/// an input: the project dir from the agent's environment, else the working dir.
fn settings_fail_closed(settings: &SettingsArgs) -> bool {
    let project_dir = default_project_dir(&Map::new());
    settings
        .builder_in(project_dir)
        .only_event(HookEvent::Other)
        .build()
        .fail_closed()
}

/// Writes `reply` (stderr first, as a hook does) and gives its exit code.
fn answer(reply: hookhost::dialect::Reply) -> ExitCode {
    if let Some(line) = &reply.stderr {
        eprintln!("{line}");
    }
    if let Some(line) = &reply.stdout {
        let _ = writeln!(std::io::stdout(), "{line}");
    }
    ExitCode::from(reply.exit_code)
}

/// Whether LLxprt Code started this hook: it sets `LLXPRT_PROJECT_DIR` for every
/// hook (Gemini CLI, which shares the dialect, does not), and shows a hook that
/// exits 1 but never a `systemMessage`.
fn started_by_llxprt_code() -> bool {
    std::env::var_os("LLXPRT_PROJECT_DIR").is_some()
}

/// How this command's failures are prefixed.
const HOOK: &str = "hookhost hook";

/// One agent hook call, as read from the agent's hook input: the event, the dialect
/// the agent speaks, and the event's name as the agent gave it. `hookhost hook`
/// (stdin, exit code) and `serve --http`'s `POST /hook` (a JSON body) share it.
pub struct Call {
    event: HookEvent,
    dialect: Dialect,
    name: String,
    /// Copilot CLI's own format: answered in its words ([`crate::copilot`]).
    copilot: bool,
    /// Codex sent it (its stdin carries `turn_id`): a rewrite needs an explicit
    /// allow there ([`agent_answer::with_codex_allow`]).
    codex: bool,
}

/// Why an agent's hook input cannot be fired: a stable code (`serve --http` answers
/// it) and a message for people.
#[derive(Debug)]
pub struct InputError {
    pub code: &'static str,
    pub message: String,
}

impl InputError {
    fn new(code: &'static str, message: impl Into<String>) -> InputError {
        InputError {
            code,
            message: message.into(),
        }
    }
}

/// Where the agent's hook input came from (the messages name it).
#[derive(Clone, Copy)]
pub enum Source {
    /// `hookhost hook`'s stdin.
    Stdin,
    /// The body of `POST /hook`.
    Body,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Stdin => "stdin",
            Source::Body => "the request body",
        }
    }

    fn registered_as(self) -> &'static str {
        match self {
            Source::Stdin => "register `hookhost hook` as a command hook of the agent",
            Source::Body => "point the agent's http hook at this URL",
        }
    }
}

impl Call {
    /// Reads an agent's hook input (one JSON object with `hook_event_name`) and
    /// detects its event and dialect: Claude's stdin carries `permission_mode`,
    /// which also settles names both dialects share (SessionStart …).
    pub fn parse(bytes: &[u8], from: Source) -> Result<(Call, Map<String, Value>), InputError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(InputError::new(
                "INVALID_REQUEST",
                format!(
                    "{} is empty; expected the agent's hook input (a JSON object with \
                     hook_event_name) — {}",
                    from.name(),
                    from.registered_as()
                ),
            ));
        }
        let input = match hookhost::json_input::parse(bytes) {
            Ok(Value::Object(input)) => input,
            Ok(_) => {
                return Err(InputError::new(
                    "INVALID_REQUEST",
                    format!(
                        "{} must be one JSON object with the event's fields",
                        from.name()
                    ),
                ));
            }
            Err(e) => {
                return Err(InputError::new(
                    "INVALID_JSON",
                    format!("{} is not valid JSON: {e}", from.name()),
                ));
            }
        };
        if crate::copilot::is_copilot(&input) {
            let claude = crate::copilot::to_claude(&input);
            let name = claude
                .get("hook_event_name")
                .and_then(Value::as_str)
                .unwrap_or("PreToolUse")
                .to_owned();
            let mut call = Call::named(name, true);
            call.copilot = true;
            return Ok((call, claude));
        }
        let name = match input.get("hook_event_name").and_then(Value::as_str) {
            Some(name) if !name.is_empty() => name.to_owned(),
            _ => {
                return Err(InputError::new(
                    "INVALID_REQUEST",
                    format!(
                        "the input has no hook_event_name; {} (Claude Code, Gemini CLI or \
                         LLxprt Code sends it)",
                        from.registered_as()
                    ),
                ));
            }
        };
        let claude = input.contains_key("permission_mode");
        let mut call = Call::named(name, claude);
        call.codex = input.contains_key("turn_id");
        Ok((call, input))
    }

    /// The call `name` is, for an agent that sends `permission_mode` (`claude`) or not.
    fn named(name: String, claude: bool) -> Call {
        if name == agent_answer::PRE_SKILL_SHELL {
            // A skill's inline shell line is a shell call the PreToolUse hooks
            // never see (measured, Claude Code 2.1.332): the BeforeTool hooks guard
            // it (its input is `tool_name: "Bash"`, `tool_input.command`).
            return Call {
                event: HookEvent::BeforeTool,
                dialect: Dialect::Claude,
                name,
                copilot: false,
                codex: false,
            };
        }
        let (event, dialect) = match parse_event(&name) {
            Some((event, _)) if claude => (event, Dialect::Claude),
            Some(known) => known,
            None if claude => (HookEvent::Other, Dialect::Claude),
            None => (HookEvent::Other, Dialect::Llxprt),
        };
        Call {
            event,
            dialect,
            name,
            copilot: false,
            codex: false,
        }
    }

    /// The call an input that cannot be parsed (nested too deep, cut short, not
    /// JSON) was meant to be, so that refusing it answers in that event's form:
    /// from its `hook_event_name` if the top level of the object can still be read
    /// ([`hookhost::dialect::input_head`]). Else an event hookhost does not know,
    /// in Claude's dialect: its block is exit 2 with the reason on stderr, or over
    /// HTTP `decision: "block"`, which every agent takes for a block of any event.
    pub fn guess(bytes: &[u8]) -> Call {
        let head = hookhost::dialect::input_head(bytes).unwrap_or_default();
        match head.event_name.filter(|name| !name.is_empty()) {
            Some(name) => Call::named(name, head.permission_mode),
            None => Call {
                event: HookEvent::Other,
                dialect: Dialect::Claude,
                name: String::new(),
                copilot: false,
                codex: false,
            },
        }
    }

    /// How many hooks a fire of this call runs at most.
    fn hook_count(&self, system: &HookSystem) -> usize {
        system.hook_count(self.name.as_str())
    }

    /// Fires the call on `system`: the input made canonical, then the load errors
    /// and the hooks that will not run put first in `errors` (so that a policy that
    /// never ran is not mistaken for one that allowed; logged, never on stderr).
    pub async fn fire(
        &self,
        system: &HookSystem,
        mut input: Map<String, Value>,
    ) -> AggregatedHookResult {
        let mut load_errors = Vec::new();
        let mut shown = Vec::new();
        for d in system.diagnostics() {
            if d.is_error() || d.unenforced {
                tracing::warn!("{d}");
                load_errors.push(d.message.clone());
            } else if d.shown {
                tracing::warn!("{d}");
                shown.push(format!("hookhost: {}", d.message));
            } else {
                tracing::info!("{d}");
            }
        }
        let mut result = if self.event == HookEvent::Other {
            system.fire(self.name.as_str(), input).await
        } else {
            let note = self.dialect.prepare_input(self.event, &mut input);
            let mut result = system.fire(self.event, input).await;
            result.warnings.extend(note);
            result
        };
        // A hook that could not load also fails when it runs, with the same cause:
        // said once, with the load error's location (seen: the same text twice
        // in one systemMessage, issue 29 item 6).
        result
            .errors
            .retain(|run| !load_errors.iter().any(|load| repeats_cause(run, load)));
        result.errors.splice(0..0, load_errors);
        if !shown.is_empty() {
            // For the user (never the model), like a failure's note.
            let out = &mut result.final_output;
            shown.extend(out.system_message.take());
            out.system_message = Some(shown.join("\n"));
        }
        result
    }

    /// The answer as a command hook gives it (stdout, stderr, exit code).
    pub fn reply(
        &self,
        result: AggregatedHookResult,
        fail_closed: bool,
    ) -> hookhost::dialect::Reply {
        log_warnings(&result);
        let mut answer = reply(
            self.event,
            self.dialect,
            &self.name,
            result,
            fail_closed,
            started_by_llxprt_code(),
        );
        if self.name == agent_answer::PRE_SKILL_SHELL {
            answer.stdout = answer
                .stdout
                .map(|line| agent_answer::as_pre_skill_shell(&line));
        }
        if self.copilot {
            answer.stdout = answer.stdout.map(|line| crate::copilot::from_claude(&line));
        }
        if self.codex && self.event == HookEvent::BeforeTool {
            answer.stdout = answer
                .stdout
                .map(|line| agent_answer::with_codex_allow(&line));
        }
        answer
    }

    /// The answer as an HTTP hook gives it: a JSON body, every block a decision.
    pub fn reply_json(&self, result: AggregatedHookResult, fail_closed: bool) -> Value {
        log_warnings(&result);
        reply_json(self.event, self.dialect, &self.name, result, fail_closed)
    }
}

/// Whether the run error `run` repeats the cause of the load error `load`
/// (`<file>: hooks.EVENT[i].hooks[j]: <cause>`).
fn repeats_cause(run: &str, load: &str) -> bool {
    let Some(at) = load.find("].hooks[") else {
        return false;
    };
    let Some(end) = load[at..].find("]: ") else {
        return false;
    };
    let cause = &load[at + end + 3..];
    cause.len() >= 12 && run.contains(cause)
}

fn log_warnings(result: &AggregatedHookResult) {
    for warning in &result.warnings {
        tracing::warn!("{warning}");
    }
}

/// A result that holds nothing but `cause` as its failure (the hooks could not be
/// run at all): answered as any failure is, a deny when fail-closed.
pub fn failed(cause: String) -> AggregatedHookResult {
    let mut result = AggregatedHookResult::empty();
    result.success = false;
    result.errors.push(cause);
    result
}

/// Builds the system for this one call and fires it. Also says whether the
/// settings ask for fail-closed (`tools.hookFailClosed`).
fn fire(
    settings: &SettingsArgs,
    project_dir: PathBuf,
    call: &Call,
    input: Map<String, Value>,
    background: hookhost::BackgroundMode,
) -> anyhow::Result<(AggregatedHookResult, bool)> {
    let system = settings
        .builder_in(project_dir)
        .only_event(call.event)
        .background(background)
        .build();
    let runtime = super::fire_runtime(call.hook_count(&system))?;
    let result = runtime.block_on(call.fire(&system, input));
    runtime.shutdown_background();
    let fail_closed = system.fail_closed();
    // A one-shot process: the system's memory goes with it. Dropping it unmaps
    // every compiled plugin one by one (~3 % of a five-builtin process, perf);
    // nothing in it has to be flushed or closed.
    std::mem::forget(system);
    Ok((result, fail_closed))
}

fn default_project_dir(input: &Map<String, Value>) -> PathBuf {
    [
        "CLAUDE_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "LLXPRT_PROJECT_DIR",
    ]
    .iter()
    .find_map(|var| std::env::var_os(var).filter(|v| !v.is_empty()))
    .map(PathBuf::from)
    .or_else(|| input.get("cwd").and_then(Value::as_str).map(PathBuf::from))
    .unwrap_or_else(|| PathBuf::from("."))
}
