//! `hooks`: event name → hook groups. LLxprt / Gemini CLI names, or Claude Code
//! names (whose hooks then speak Claude's dialect); Gemini CLI also keeps its
//! `enabled` / `disabled` switches here.

use std::borrow::Cow;
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::HookEntry;
use super::field::{Field, Section};
use super::group::{self, Group};
use super::report::Report;
use super::value::show;
use crate::config::source::SettingsFormat;
use crate::dialect::{self, CLAUDE_EVENTS, Dialect};
use crate::event::HookEvent;

/// The groups of one event.
type Groups = Vec<Section<Group>>;

/// The `hooks` object, in file order.
#[derive(Debug, Default)]
pub(crate) struct Events {
    /// Gemini CLI's switch, like tools.enableHooks.
    pub(super) enabled: Field<bool>,
    /// Hook names or command strings to switch off.
    pub(super) disabled: Field<Option<Vec<String>>>,
    /// Every other key: an event name and its groups.
    events: Vec<(String, Field<Groups>)>,
}

impl<'de> Deserialize<'de> for Events {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut events = Events::default();
        for (name, value) in Map::<String, Value>::deserialize(deserializer)? {
            match name.as_str() {
                "enabled" => events.enabled = Field::from_value(value),
                "disabled" => events.disabled = Field::from_value(value),
                _ => events.events.push((name, Field::from_value(value))),
            }
        }
        Ok(events)
    }
}

impl JsonSchema for Events {
    fn schema_name() -> Cow<'static, str> {
        "Events".into()
    }

    /// Every event name hookhost reads, with its groups; nothing else.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut properties = Map::new();
        let mut add = |name: &str, description: String, generator: &mut SchemaGenerator| {
            let mut groups = generator.subschema_for::<Groups>();
            groups.insert("description".into(), description.into());
            properties.insert(name.to_owned(), groups.to_value());
        };
        for event in HookEvent::LLXPRT {
            add(event.as_str(), format!("{event} hooks."), generator);
        }
        for (name, event) in CLAUDE_EVENTS {
            if HookEvent::LLXPRT.iter().any(|e| e.as_str() == name) {
                continue;
            }
            let description = if HookEvent::LLXPRT.contains(&event) {
                format!(
                    "Claude Code's name for {event}: these hooks see Claude's \
                     hook_event_name and tool names."
                )
            } else {
                format!("Claude Code's {name} hooks (Claude's dialect).")
            };
            add(name, description, generator);
        }
        let mut enabled = generator.subschema_for::<bool>();
        enabled.insert(
            "description".into(),
            "Gemini CLI's switch, like tools.enableHooks.".into(),
        );
        properties.insert("enabled".into(), enabled.to_value());
        let mut disabled = generator.subschema_for::<Option<Vec<String>>>();
        disabled.insert(
            "description".into(),
            "Hook names or command strings to switch off.".into(),
        );
        properties.insert("disabled".into(), disabled.to_value());
        json_schema!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
        })
    }
}

/// The hooks of every event of `hooks` that can run.
pub(super) fn entries(hooks: Section<Events>, report: &mut Report<'_>) -> Vec<HookEntry> {
    let events = match hooks {
        Section::Absent => return Vec::new(),
        Section::Ok(events, _) => events,
        Section::Wrong(value) => {
            report.error(
                "hooks",
                format!("expected an object of events, got {}", show(&value)),
            );
            return Vec::new();
        }
    };
    let mut entries = Vec::new();
    for (name, groups) in events.events {
        let at = format!("hooks.{name}");
        let Some((event, named_dialect, other_name)) = resolve(&name, &at, report) else {
            continue;
        };
        let hook_dialect = match report.source.format {
            SettingsFormat::Claude => Dialect::Claude,
            SettingsFormat::Llxprt | SettingsFormat::Gemini => named_dialect,
        };
        let Ok(groups) = report.take(&at, groups, "an array of hook groups") else {
            continue;
        };
        for (g, group) in groups.into_iter().flatten().enumerate() {
            let first = entries.len();
            group::entries(
                (event, hook_dialect),
                &format!("{at}[{g}]"),
                group,
                report,
                &mut entries,
            );
            for entry in &mut entries[first..] {
                entry.other_name.clone_from(&other_name);
            }
        }
    }
    entries
}

/// The event, its dialect and (for an event hookhost does not know) its name as
/// written; `None` (with an error) when its hooks are skipped.
fn resolve(
    name: &str,
    at: &str,
    report: &mut Report<'_>,
) -> Option<(HookEvent, Dialect, Option<Arc<str>>)> {
    if let Some((event, dialect)) = dialect::parse_event(name) {
        return Some((event, dialect, None));
    }
    if report.source.format == SettingsFormat::Llxprt {
        let e = crate::event::UnknownEvent(name.to_owned());
        report.error(
            at,
            format!(
                "{e}, or a Claude Code name (PreToolUse, PostToolUse, \
                 UserPromptSubmit, Stop, SubagentStop, PermissionRequest, …); \
                 its hooks are skipped"
            ),
        );
        return None;
    }
    // Claude Code and Gemini CLI add events; a file written for a newer agent must
    // not lose its other hooks, nor fail a fire.
    let hint = crate::suggest::suggestion(name, known_event_names())
        .map(|s| format!(" (did you mean {s:?}?)"))
        .unwrap_or_default();
    report.warning(
        at,
        format!(
            "event {name:?} is not one hookhost knows{hint}; its hooks run with \
             generic semantics when it is fired (e.g. by `hookhost hook`)"
        ),
    );
    let dialect = match report.source.format {
        SettingsFormat::Claude => Dialect::Claude,
        _ => Dialect::Llxprt,
    };
    Some((HookEvent::Other, dialect, Some(Arc::from(name))))
}

/// Every event name hookhost knows, for "did you mean".
fn known_event_names() -> impl Iterator<Item = &'static str> {
    HookEvent::LLXPRT
        .iter()
        .map(|e| e.as_str())
        .chain(CLAUDE_EVENTS.iter().map(|(n, _)| *n))
}
