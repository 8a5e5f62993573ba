//! The shapes of a settings file: what it may hold, one serde / schemars type per
//! level, and nothing it means. Every value is a [`field::Field`] and every nested
//! object a [`field::Section`], so a wrong value is kept for the message instead of
//! failing its level; the checks in [`super::check`] read these types and say what is
//! wrong. The JSON Schema of settings files ([`settings_schema`]) is generated from
//! them; the names of its `$defs` are the types' (a hook's is `Hook`).
//!
//! The fields are `pub(crate)` for the checks; the module is private to
//! [`crate::config::settings`].

pub(super) mod event;
pub(super) mod field;
pub(super) mod file;
pub(super) mod group;
pub(super) mod hook;
pub(super) mod plugin;
pub(super) mod value;

use serde_json::Value;

/// The JSON Schema of settings files, generated from the types that read them
/// (`docs/settings.schema.json` is this, pretty-printed).
pub fn settings_schema() -> Value {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<file::SettingsFile>()
        .to_value();
    unwrap_descriptions(&mut schema);
    schema
}

/// Joins the lines of doc comments (wrapped for the source, not for an editor's
/// tooltip); paragraphs stay apart.
fn unwrap_descriptions(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(text) if key == "description" => {
                        *text = text
                            .split("\n\n")
                            .map(|paragraph| paragraph.replace('\n', " "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    }
                    other => unwrap_descriptions(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unwrap_descriptions),
        _ => {}
    }
}
