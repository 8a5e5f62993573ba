//! One call of an agent, read once for every door (`hookhost hook`, `fire`,
//! `test`, `serve` and `serve --http`): which event it fires, in which dialect,
//! under which name, from which agent — and, fired
//! ([`crate::HookSystem::fire_call`]), how its result is answered to that agent.
//!
//! A call is read from an agent's hook input ([`AgentCall::parse`]: its
//! `hook_event_name`, and `permission_mode`, which only Claude Code's inputs carry
//! and which settles the names both dialects share), or named by the caller
//! ([`AgentCall::fired`]: `hookhost fire EVENT`, a `serve` request).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::agent::{self, Agent, PRE_SKILL_SHELL};
use super::{Dialect, Reply, copilot, parse_event};
use crate::event::HookEvent;
use crate::result::AggregatedHookResult;

/// One agent call: the event, the dialect the agent speaks, and the event's name
/// as the agent gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentCall {
    event: HookEvent,
    dialect: Dialect,
    name: Cow<'static, str>,
    agent: Agent,
    /// Named by the caller, not read from the input: an input naming another event
    /// is corrected, and said ([`AgentCall::prepare`]).
    named_by_caller: bool,
}

/// Why an agent's hook input cannot be fired: a stable code (`serve --http`
/// answers it) and a message for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputError {
    /// `INVALID_REQUEST` or `INVALID_JSON`.
    pub code: &'static str,
    /// What is wrong, and how to fix it.
    pub message: String,
}

impl InputError {
    fn new(code: &'static str, message: String) -> InputError {
        InputError { code, message }
    }
}

/// Where an agent's hook input came from (the messages name it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallSource {
    /// `hookhost hook`'s stdin.
    Stdin,
    /// The body of `serve --http`'s `POST /hook`.
    Body,
}

impl CallSource {
    fn name(self) -> &'static str {
        match self {
            CallSource::Stdin => "stdin",
            CallSource::Body => "the request body",
        }
    }

    fn registered_as(self) -> &'static str {
        match self {
            CallSource::Stdin => "register `hookhost hook` as a command hook of the agent",
            CallSource::Body => "point the agent's http hook at this URL",
        }
    }
}

/// The event and dialect of an event `name` an agent gave, for an agent that
/// sends `permission_mode` (`claude`: only Claude Code's inputs carry it, which
/// settles the names both dialects share) or not. The one rule of every door, and
/// of [`crate::HookSystem::fire`] given a name.
pub fn detect_event(name: &str, claude: bool) -> (HookEvent, Dialect) {
    if name == PRE_SKILL_SHELL {
        // A skill's inline shell line is a shell call the PreToolUse hooks never
        // see (measured, Claude Code 2.1.332): the BeforeTool hooks guard it (its
        // input is `tool_name: "Bash"`, `tool_input.command`).
        return (HookEvent::BeforeTool, Dialect::Claude);
    }
    match parse_event(name) {
        Some((event, _)) if claude => (event, Dialect::Claude),
        Some(known) => known,
        None if claude => (HookEvent::Other, Dialect::Claude),
        None => (HookEvent::Other, Dialect::Llxprt),
    }
}

/// `bytes` as one JSON object, read as JavaScript wrote it ([`crate::input::json`]).
fn object(bytes: &[u8], from: CallSource) -> Result<Map<String, Value>, InputError> {
    match crate::input::json::parse(bytes) {
        Ok(Value::Object(input)) => Ok(input),
        Ok(_) => Err(InputError::new(
            "INVALID_REQUEST",
            format!(
                "{} must be one JSON object with the event's fields",
                from.name()
            ),
        )),
        Err(e) => Err(InputError::new(
            "INVALID_JSON",
            format!("{} is not valid JSON: {e}", from.name()),
        )),
    }
}

impl AgentCall {
    /// Reads an agent's hook input (one JSON object with `hook_event_name`, or
    /// Copilot CLI's own format, read as Claude's), as JavaScript wrote it
    /// ([`crate::input::json`]).
    pub fn parse(
        bytes: &[u8],
        from: CallSource,
    ) -> Result<(AgentCall, Map<String, Value>), InputError> {
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
        let input = object(bytes, from)?;
        let agent = Agent::of(&input);
        if agent == Agent::Copilot {
            let claude = copilot::to_claude(&input);
            let name = claude
                .get("hook_event_name")
                .and_then(Value::as_str)
                .unwrap_or("PreToolUse");
            let call = AgentCall::named(name, true).from(agent);
            return Ok((call, claude));
        }
        let Some(name) = input
            .get("hook_event_name")
            .and_then(Value::as_str)
            .filter(|name| !name.is_empty())
        else {
            return Err(InputError::new(
                "INVALID_REQUEST",
                format!(
                    "the input has no hook_event_name; {} (Claude Code, Gemini CLI or \
                     LLxprt Code sends it)",
                    from.registered_as()
                ),
            ));
        };
        let call = AgentCall::of_name(name, &input).from(agent);
        Ok((call, input))
    }

    /// The input of a call the caller names (`hookhost fire EVENT`'s stdin, the body
    /// of `POST /fire/EVENT`): one JSON object with the event's fields, or nothing
    /// at all (`{}`).
    pub fn fired_input(bytes: &[u8], from: CallSource) -> Result<Map<String, Value>, InputError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Map::new());
        }
        object(bytes, from)
    }

    /// The call an event `name` is, given its `input`: the rule
    /// [`AgentCall::parse`] and [`crate::HookSystem::fire`] given a name share.
    pub fn of_name(name: &str, input: &Map<String, Value>) -> AgentCall {
        AgentCall::named(name, input.contains_key("permission_mode"))
    }

    /// The call the caller names: `event` in `dialect` (`hookhost fire EVENT`,
    /// `POST /fire/EVENT`, a `serve` request, a `hookhost test` case).
    pub fn fired(event: HookEvent, dialect: Dialect) -> AgentCall {
        let name = dialect.event_name(event).unwrap_or(event.as_str());
        AgentCall {
            event,
            dialect,
            name: Cow::Borrowed(name),
            agent: Agent::Any,
            named_by_caller: true,
        }
    }

    /// The call an input that cannot be parsed (nested too deep, cut short, not
    /// JSON) was meant to be, so that refusing it answers in that event's form:
    /// from its `hook_event_name` if the top level of the object can still be read
    /// ([`super::input_head`]). Else an event hookhost does not know, in Claude's
    /// dialect: its block is exit 2 with the reason on stderr, or over HTTP
    /// `decision: "block"`, which every agent takes for a block of any event.
    pub fn guess(bytes: &[u8]) -> AgentCall {
        let head = super::input_head(bytes).unwrap_or_default();
        match head.event_name.filter(|name| !name.is_empty()) {
            Some(name) => AgentCall::named(&name, head.permission_mode),
            None => AgentCall {
                name: Cow::Borrowed(""),
                named_by_caller: false,
                ..AgentCall::fired(HookEvent::Other, Dialect::Claude)
            },
        }
    }

    /// The call `name` is, for an agent that sends `permission_mode` (`claude`) or not.
    fn named(name: &str, claude: bool) -> AgentCall {
        let (event, dialect) = detect_event(name, claude);
        AgentCall::of_event(event, dialect, name)
    }

    fn of_event(event: HookEvent, dialect: Dialect, name: &str) -> AgentCall {
        AgentCall {
            event,
            dialect,
            name: Cow::Owned(name.to_owned()),
            agent: Agent::Any,
            named_by_caller: false,
        }
    }

    fn from(mut self, agent: Agent) -> AgentCall {
        self.agent = agent;
        self
    }

    /// The event fired ([`HookEvent::Other`] for a name hookhost does not know).
    pub fn event(&self) -> HookEvent {
        self.event
    }

    /// The dialect the agent speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The event's name as the agent gave it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The agent, where it changes the answer.
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// Makes `input` canonical before it is fired; returns what the caller should
    /// be told (the first of the result's `warnings`): an input naming another
    /// event than the caller fired (the fired one wins, so hooks read the right
    /// event), a tool name the dialect does not know.
    pub fn prepare(&self, input: &mut Map<String, Value>) -> Vec<String> {
        let mut notes = Vec::new();
        if self.event == HookEvent::Other {
            return notes;
        }
        if self.named_by_caller
            && let Some(given) = input.get("hook_event_name").and_then(Value::as_str)
            && given != self.name
        {
            notes.push(format!(
                "the input's hook_event_name is {given:?} but {} was fired; hooks see {:?}",
                self.name, self.name
            ));
            input.insert("hook_event_name".to_owned(), Value::from(self.name()));
        }
        notes.extend(self.dialect.prepare_input(self.event, input));
        notes
    }

    /// The answer as a command hook of the agent gives it (stdout, stderr, exit
    /// code; see [`super::reply`]). `failures_by_exit_code`: the agent shows a
    /// failed hook's exit 1 but no `systemMessage` (LLxprt Code).
    pub fn reply(
        &self,
        result: AggregatedHookResult,
        fail_closed: bool,
        failures_by_exit_code: bool,
    ) -> Reply {
        let call = (self.event, self.dialect, self.name());
        let adjust = |answer: &mut Value| {
            if self.name == PRE_SKILL_SHELL {
                agent::as_pre_skill_shell(answer);
            }
            match self.agent {
                Agent::Copilot => copilot::from_claude(answer),
                Agent::Codex if self.event == HookEvent::BeforeTool => {
                    agent::with_codex_allow(answer);
                }
                _ => {}
            }
        };
        super::answer::reply_adjusted(call, result, fail_closed, failures_by_exit_code, &adjust)
    }

    /// The answer as an HTTP hook of the agent gives it: a JSON body, every block
    /// a decision (see [`super::reply_json`]).
    pub fn reply_json(&self, result: AggregatedHookResult, fail_closed: bool) -> Value {
        super::reply_json(self.event, self.dialect, &self.name, result, fail_closed)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(input: &str) -> Result<(AgentCall, Map<String, Value>), InputError> {
        AgentCall::parse(input.as_bytes(), CallSource::Stdin)
    }

    #[test]
    fn unreadable_inputs_get_stable_codes_naming_where_they_came_from() {
        let code = |input: &str| parse(input).err().map(|e| e.code);
        assert_eq!(code("  \n"), Some("INVALID_REQUEST"));
        assert_eq!(code("[1]"), Some("INVALID_REQUEST"));
        assert_eq!(code("{not json"), Some("INVALID_JSON"));
        assert_eq!(code(r#"{"tool_name": "x"}"#), Some("INVALID_REQUEST"));
        let body = AgentCall::parse(b"", CallSource::Body)
            .err()
            .map(|e| e.message);
        assert!(body.is_some_and(|m| m.starts_with("the request body is empty")));
    }

    #[test]
    fn permission_mode_settles_a_name_both_dialects_share() {
        let of = |input: Value| {
            let (call, _) = parse(&input.to_string()).expect("a call");
            (call.event(), call.dialect(), call.agent())
        };
        let claude = json!({"hook_event_name": "SessionStart", "permission_mode": "default"});
        assert_eq!(
            of(claude),
            (HookEvent::SessionStart, Dialect::Claude, Agent::Any)
        );
        let gemini = json!({"hook_event_name": "SessionStart"});
        assert_eq!(
            of(gemini),
            (HookEvent::SessionStart, Dialect::Llxprt, Agent::Any)
        );
        let codex = json!({"hook_event_name": "PreToolUse", "turn_id": "t"});
        assert_eq!(
            of(codex),
            (HookEvent::BeforeTool, Dialect::Claude, Agent::Codex)
        );
        let copilot = json!({"toolName": "bash", "toolArgs": {"command": "ls"}});
        assert_eq!(
            of(copilot),
            (HookEvent::BeforeTool, Dialect::Claude, Agent::Copilot)
        );
        let unknown = json!({"hook_event_name": "Nope"});
        assert_eq!(of(unknown), (HookEvent::Other, Dialect::Llxprt, Agent::Any));
    }

    #[test]
    fn a_call_named_by_the_caller_corrects_an_input_naming_another_event() {
        let call = AgentCall::fired(HookEvent::BeforeTool, Dialect::Llxprt);
        let mut input = json!({"hook_event_name": "AfterTool", "tool_name": "t"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let notes = call.prepare(&mut input);
        assert_eq!(input["hook_event_name"], "BeforeTool");
        assert!(
            notes[0].contains("\"AfterTool\" but BeforeTool was fired"),
            "{notes:?}"
        );
        // Read from the agent's own input, the name is the agent's: nothing to correct.
        let (read, mut input) = parse(r#"{"hook_event_name": "BeforeTool"}"#).expect("a call");
        assert!(read.prepare(&mut input).is_empty());
    }
}
