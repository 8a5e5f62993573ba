//! Shape of `hooks`: event name → hook groups. LLxprt / Gemini CLI names, or Claude
//! Code names (whose hooks then speak Claude's dialect); Gemini CLI also keeps its
//! `enabled` / `disabled` switches here. Its schema names every event hookhost
//! reads. The names are resolved to events by
//! [`check::event`](crate::config::settings::check::event).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::field::{Field, Section};
use super::group::Group;
use crate::dialect::CLAUDE_EVENTS;
use crate::event::HookEvent;

/// The groups of one event.
type Groups = Vec<Section<Group>>;

/// The `hooks` object, in file order.
#[derive(Debug, Default)]
pub(crate) struct Events {
    /// Gemini CLI's switch, like tools.enableHooks.
    pub(crate) enabled: Field<bool>,
    /// Hook names or command strings to switch off.
    pub(crate) disabled: Field<Option<Vec<String>>>,
    /// Every other key: an event name and its groups.
    pub(crate) events: Vec<(String, Field<Groups>)>,
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
