//! Typed hook inputs: the JSON object a hook reads on stdin, one struct per event.
//!
//! Parsing is deliberately lenient. The host adds the base fields, but a hook
//! must keep working when an agent sends less (a missing field or `null`
//! becomes its default) or more (unknown fields land in each struct's `extra`
//! map and are written back unchanged when the input is serialised). An event
//! name this SDK does not know parses as [`HookInput::Other`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The JSON field that names the event; it selects the [`HookInput`] variant.
pub const EVENT_FIELD: &str = "hook_event_name";

use crate::llm::{LlmRequest, LlmResponse};

/// Reads a field that may be absent or `null` as its type's default, so that
/// `"prompt": null` is as harmless as a missing `prompt`.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The fields every event carries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Base {
    /// Unique session identifier.
    #[serde(default, deserialize_with = "null_as_default")]
    pub session_id: String,
    /// Path to the session transcript (may be empty).
    #[serde(default, deserialize_with = "null_as_default")]
    pub transcript_path: String,
    /// The agent's working directory (the project directory).
    #[serde(default, deserialize_with = "null_as_default")]
    pub cwd: String,
    /// When the event fired, ISO 8601.
    #[serde(default, deserialize_with = "null_as_default")]
    pub timestamp: String,
}

/// Declares an event input struct: the flattened [`Base`], the event's own
/// fields, and an `extra` map that keeps unknown fields. `Base` must precede
/// `extra` so serde hands the base fields to `Base` before `extra` takes the rest.
macro_rules! event_input {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$field_meta:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        pub struct $name {
            /// The fields every event carries.
            #[serde(flatten)]
            pub base: Base,
            $(
                $(#[$field_meta])*
                #[serde(default, deserialize_with = "null_as_default")]
                pub $field: $ty,
            )*
            /// Fields this SDK does not model; written back unchanged.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

event_input! {
    /// `BeforeTool`: a tool is about to run. May block it or rewrite `tool_input`.
    BeforeToolInput {
        /// Name of the tool about to run, e.g. `write_file`.
        tool_name: String,
        /// The arguments the tool will receive.
        tool_input: Map<String, Value>,
    }
}

event_input! {
    /// `AfterTool`: a tool has run. May add context, stop the agent, or hide output.
    AfterToolInput {
        /// Name of the tool that ran.
        tool_name: String,
        /// The arguments the tool received.
        tool_input: Map<String, Value>,
        /// The tool's result (content, metadata, errors); any JSON.
        tool_response: Value,
    }
}

event_input! {
    /// `BeforeModel`: an LLM call is about to be made. May block it, answer it
    /// with a synthetic response, or rewrite the request.
    BeforeModelInput {
        /// The assembled request.
        llm_request: LlmRequest,
    }
}

event_input! {
    /// `AfterModel`: the LLM has answered. May rewrite the response.
    AfterModelInput {
        /// The request that was sent.
        llm_request: LlmRequest,
        /// The model's response.
        llm_response: LlmResponse,
    }
}

event_input! {
    /// `BeforeToolSelection`: the model is about to choose tools. May restrict
    /// them with a `toolConfig`.
    BeforeToolSelectionInput {
        /// The request that carries the tool definitions.
        llm_request: LlmRequest,
    }
}

event_input! {
    /// `BeforeAgent`: a user prompt is about to be processed.
    BeforeAgentInput {
        /// The user's prompt.
        prompt: String,
    }
}

event_input! {
    /// `AfterAgent`: the agent has answered a prompt.
    AfterAgentInput {
        /// The original prompt.
        prompt: String,
        /// The agent's response.
        prompt_response: String,
        /// Whether a stop hook is already active (avoid loops when re-prompting).
        stop_hook_active: bool,
    }
}

event_input! {
    /// `SessionStart`: a session began.
    SessionStartInput {
        /// How: `startup`, `resume`, `clear` or `compress`.
        source: String,
    }
}

event_input! {
    /// `SessionEnd`: a session ended.
    SessionEndInput {
        /// Why: `exit`, `clear`, `logout`, `prompt_input_exit` or `other`.
        reason: String,
    }
}

event_input! {
    /// `PreCompress`: the conversation history is about to be compressed.
    PreCompressInput {
        /// What triggered it, e.g. `manual` or `auto`.
        trigger: String,
    }
}

event_input! {
    /// `Notification`: the agent wants the user's attention.
    NotificationInput {
        /// The kind of notification, e.g. `ToolPermission`.
        notification_type: String,
        /// The text shown to the user.
        message: String,
        /// Event-specific details; any JSON.
        details: Value,
    }
}

/// An event this SDK does not know (or an input without `hook_event_name`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OtherInput {
    /// The event name as received (empty when it was missing).
    #[serde(skip)]
    pub hook_event_name: String,
    /// The fields every event carries.
    #[serde(flatten)]
    pub base: Base,
    /// Every other field, unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a hook reads on stdin: one variant per event, selected by
/// `hook_event_name`.
// One input is parsed per hook run; boxing the larger variants would only make
// matching on them clumsier for hook authors.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum HookInput {
    /// A tool is about to run.
    BeforeTool(BeforeToolInput),
    /// A tool has run.
    AfterTool(AfterToolInput),
    /// An LLM call is about to be made.
    BeforeModel(BeforeModelInput),
    /// The LLM has answered.
    AfterModel(AfterModelInput),
    /// The model is about to choose tools.
    BeforeToolSelection(BeforeToolSelectionInput),
    /// A user prompt is about to be processed.
    BeforeAgent(BeforeAgentInput),
    /// The agent has answered a prompt.
    AfterAgent(AfterAgentInput),
    /// A session began.
    SessionStart(SessionStartInput),
    /// A session ended.
    SessionEnd(SessionEndInput),
    /// History is about to be compressed.
    PreCompress(PreCompressInput),
    /// The agent wants the user's attention.
    Notification(NotificationInput),
    /// Any other event name, kept whole.
    Other(OtherInput),
}

/// Applies `$body` to the inner struct of every variant, binding it to `$v`.
macro_rules! each_variant {
    ($input:expr, $v:ident => $body:expr) => {
        match $input {
            HookInput::BeforeTool($v) => $body,
            HookInput::AfterTool($v) => $body,
            HookInput::BeforeModel($v) => $body,
            HookInput::AfterModel($v) => $body,
            HookInput::BeforeToolSelection($v) => $body,
            HookInput::BeforeAgent($v) => $body,
            HookInput::AfterAgent($v) => $body,
            HookInput::SessionStart($v) => $body,
            HookInput::SessionEnd($v) => $body,
            HookInput::PreCompress($v) => $body,
            HookInput::Notification($v) => $body,
            HookInput::Other($v) => $body,
        }
    };
}

impl HookInput {
    /// Parses the JSON a hook receives on stdin.
    ///
    /// # Errors
    /// Fails only when `json` is not a JSON object or a known field has an
    /// impossible type (for example `tool_input` that is a number).
    pub fn from_json(json: &[u8]) -> serde_json::Result<Self> {
        serde_json::from_slice(json)
    }

    /// The event name, as it appears in `hook_event_name`.
    pub fn event_name(&self) -> &str {
        match self {
            Self::BeforeTool(_) => "BeforeTool",
            Self::AfterTool(_) => "AfterTool",
            Self::BeforeModel(_) => "BeforeModel",
            Self::AfterModel(_) => "AfterModel",
            Self::BeforeToolSelection(_) => "BeforeToolSelection",
            Self::BeforeAgent(_) => "BeforeAgent",
            Self::AfterAgent(_) => "AfterAgent",
            Self::SessionStart(_) => "SessionStart",
            Self::SessionEnd(_) => "SessionEnd",
            Self::PreCompress(_) => "PreCompress",
            Self::Notification(_) => "Notification",
            Self::Other(other) => &other.hook_event_name,
        }
    }

    /// The fields every event carries.
    pub fn base(&self) -> &Base {
        each_variant!(self, v => &v.base)
    }

    /// Fields this SDK does not model.
    pub fn extra(&self) -> &Map<String, Value> {
        each_variant!(self, v => &v.extra)
    }

    /// The tool name of a `BeforeTool` or `AfterTool` event.
    pub fn tool_name(&self) -> Option<&str> {
        match self {
            Self::BeforeTool(v) => Some(&v.tool_name),
            Self::AfterTool(v) => Some(&v.tool_name),
            _ => None,
        }
    }

    /// The tool arguments of a `BeforeTool` or `AfterTool` event.
    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        match self {
            Self::BeforeTool(v) => Some(&v.tool_input),
            Self::AfterTool(v) => Some(&v.tool_input),
            _ => None,
        }
    }

    /// The LLM request of the model events.
    pub fn llm_request(&self) -> Option<&LlmRequest> {
        match self {
            Self::BeforeModel(v) => Some(&v.llm_request),
            Self::AfterModel(v) => Some(&v.llm_request),
            Self::BeforeToolSelection(v) => Some(&v.llm_request),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for HookInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read the object once, take the tag out (so it does not end up in
        // `extra` and get written twice), then parse the rest as the event's struct.
        let mut map = Map::<String, Value>::deserialize(deserializer)?;
        let name = match map.remove(EVENT_FIELD) {
            Some(Value::String(name)) => name,
            _ => String::new(),
        };
        fn parse<T: serde::de::DeserializeOwned, E: serde::de::Error>(
            map: Map<String, Value>,
        ) -> Result<T, E> {
            serde_json::from_value(Value::Object(map)).map_err(E::custom)
        }
        Ok(match name.as_str() {
            "BeforeTool" => Self::BeforeTool(parse(map)?),
            "AfterTool" => Self::AfterTool(parse(map)?),
            "BeforeModel" => Self::BeforeModel(parse(map)?),
            "AfterModel" => Self::AfterModel(parse(map)?),
            "BeforeToolSelection" => Self::BeforeToolSelection(parse(map)?),
            "BeforeAgent" => Self::BeforeAgent(parse(map)?),
            "AfterAgent" => Self::AfterAgent(parse(map)?),
            "SessionStart" => Self::SessionStart(parse(map)?),
            "SessionEnd" => Self::SessionEnd(parse(map)?),
            "PreCompress" => Self::PreCompress(parse(map)?),
            "Notification" => Self::Notification(parse(map)?),
            _ => {
                let mut other: OtherInput = parse(map)?;
                other.hook_event_name = name;
                Self::Other(other)
            }
        })
    }
}

impl Serialize for HookInput {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = each_variant!(self, v => serde_json::to_value(v));
        let mut map = match value {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(serde::ser::Error::custom("event input is not an object")),
            Err(e) => return Err(serde::ser::Error::custom(e)),
        };
        map.insert(EVENT_FIELD.to_owned(), Value::from(self.event_name()));
        map.serialize(serializer)
    }
}

/// A tool call as a policy wants to see it, whatever agent sent it: LLxprt and
/// Gemini CLI name the tools `run_shell_command`, `write_file`, `replace`;
/// Claude Code names them `Bash`, `Write`, `Edit`, `MultiEdit`,
/// `NotebookEdit`. Get one with [`HookInput::tool_call`] or [`ToolCall::new`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolCall<'a> {
    /// The tool's name as the agent sent it.
    pub name: &'a str,
    /// The tool's arguments.
    pub input: &'a Map<String, Value>,
}

/// What a file-writing tool call puts into a file: see [`ToolCall::file_write`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite<'a> {
    /// The file's path as given (`file_path`, `absolute_path`, `notebook_path`
    /// or `path`).
    pub path: &'a str,
    /// The text written: the whole file for `write_file`/`Write`, the new text
    /// for an edit (`new_string`; every `new_string` of a `MultiEdit`, one per
    /// line; a notebook cell's `new_source`).
    pub content: std::borrow::Cow<'a, str>,
    /// `true` when `content` is the whole new file, `false` for an edit.
    pub whole_file: bool,
}

/// Input keys of a file tool's path, in order of preference.
const PATH_KEYS: [&str; 4] = ["file_path", "absolute_path", "notebook_path", "path"];

impl<'a> ToolCall<'a> {
    /// A view of a call of tool `name` with arguments `input`.
    pub fn new(name: &'a str, input: &'a Map<String, Value>) -> Self {
        Self { name, input }
    }

    fn str_field(&self, key: &str) -> Option<&'a str> {
        self.input.get(key).and_then(Value::as_str)
    }

    /// The command line of a shell tool call (`run_shell_command`, `Bash`):
    /// parse it with [`crate::shell::parse`].
    pub fn shell_command(&self) -> Option<&'a str> {
        match self.name {
            "run_shell_command" | "Bash" => self.str_field("command"),
            _ => None,
        }
    }

    /// The path and text of a file-writing call: `write_file`/`Write` (the whole
    /// file), `replace`/`Edit`/`MultiEdit` (the new text), `NotebookEdit` (the
    /// cell's new source). `None` for any other tool or when the path is missing.
    pub fn file_write(&self) -> Option<FileWrite<'a>> {
        let path = PATH_KEYS.iter().find_map(|k| self.str_field(k))?;
        let (content, whole_file) = match self.name {
            "write_file" | "Write" => (self.str_field("content")?.into(), true),
            "replace" | "Edit" => (self.str_field("new_string")?.into(), false),
            // hookhost hands a Claude call to an LLxprt-format hook under its
            // LLxprt name (`multi_edit`, `notebook_edit`).
            "NotebookEdit" | "notebook_edit" => (self.str_field("new_source")?.into(), false),
            "MultiEdit" | "multi_edit" => {
                let edits = self.input.get("edits")?.as_array()?;
                let texts: Vec<&str> = edits
                    .iter()
                    .filter_map(|e| e.get("new_string").and_then(Value::as_str))
                    .collect();
                (texts.join("\n").into(), false)
            }
            _ => return None,
        };
        Some(FileWrite {
            path,
            content,
            whole_file,
        })
    }
}

impl HookInput {
    /// The tool call of a `BeforeTool` or `AfterTool` event, or of an event
    /// this SDK does not model that carries `tool_name` and `tool_input`
    /// (Claude Code's `PreToolUse`, `PostToolUse`, `PermissionRequest`).
    pub fn tool_call(&self) -> Option<ToolCall<'_>> {
        match self {
            Self::BeforeTool(v) => Some(ToolCall::new(&v.tool_name, &v.tool_input)),
            Self::AfterTool(v) => Some(ToolCall::new(&v.tool_name, &v.tool_input)),
            Self::Other(v) => {
                let name = v.extra.get("tool_name")?.as_str()?;
                let input = v.extra.get("tool_input")?.as_object()?;
                Some(ToolCall::new(name, input))
            }
            _ => None,
        }
    }
}
