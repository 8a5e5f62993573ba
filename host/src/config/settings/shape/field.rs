//! Shape: a setting read on its own. A wrong value is kept for the message instead of
//! failing the level it sits in, so every bad field of a hook is reported, a bad
//! switch does not hide its neighbours, and one bad hook does not lose the group.
//!
//! [`Field`] is a value; [`Section`] is a nested object of settings (the file,
//! `tools`, a group, a hook, a preopen …) whose unknown keys are collected with
//! `serde_ignored` for the caller to warn about; [`Written`] keeps a section's value
//! as written besides. Both have the JSON Schema of what
//! they hold, so the types describe the format once, for reading and for the schema.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A value of type `T`, absent, or the wrong value as written.
#[derive(Debug, Clone, Default)]
pub(crate) enum Field<T> {
    /// The key is not there.
    #[default]
    Absent,
    /// The key holds a `T`.
    Ok(T),
    /// The key holds something that is not a `T`.
    Wrong(Value),
}

impl<T> Field<T> {
    /// Whether the key is missing (an explicit `null` is there).
    pub(crate) fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }
}

impl<T: DeserializeOwned> Field<T> {
    /// Reads `value` as a `T`; never fails.
    pub(crate) fn from_value(value: Value) -> Self {
        match T::deserialize(&value) {
            Ok(parsed) => Field::Ok(parsed),
            Err(_) => Field::Wrong(value),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Field::from_value)
    }
}

/// An object of settings read as a `T`, with the keys `T` does not know.
#[derive(Debug, Clone, Default)]
pub(crate) enum Section<T> {
    /// The key is not there.
    #[default]
    Absent,
    /// An object: what it holds, and its unknown keys in file order.
    Ok(T, Vec<String>),
    /// Not an object.
    Wrong(Value),
}

impl<T: DeserializeOwned> Section<T> {
    /// Reads `value` as a `T` when it is an object; never fails.
    pub(crate) fn from_value(value: Value) -> Self {
        if !value.is_object() {
            // A serde struct would also take an array, field by field.
            return Section::Wrong(value);
        }
        let mut unknown = Vec::new();
        match serde_ignored::deserialize(&value, |path| unknown.push(path.to_string())) {
            Ok(parsed) => Section::Ok(parsed, unknown),
            Err(_) => Section::Wrong(value),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Section<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(Section::from_value)
    }
}

/// A [`Section`] with the value it was read from: an approval of a hook covers
/// the hook as written, keys the shape does not know included ([`crate::trust`]).
#[derive(Debug, Clone)]
pub(crate) struct Written<T> {
    /// What the value holds.
    pub(crate) section: Section<T>,
    /// The value as written.
    pub(crate) value: Value,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Written<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(|value| Written {
            section: Section::from_value(value.clone()),
            value,
        })
    }
}

/// The schema of `Field<T>`, `Section<T>` and `Written<T>` is `T`'s.
macro_rules! schema_of_inner {
    ($wrapper:ident) => {
        impl<T: JsonSchema> JsonSchema for $wrapper<T> {
            fn inline_schema() -> bool {
                T::inline_schema()
            }

            fn schema_name() -> Cow<'static, str> {
                T::schema_name()
            }

            fn schema_id() -> Cow<'static, str> {
                T::schema_id()
            }

            fn json_schema(generator: &mut SchemaGenerator) -> Schema {
                T::json_schema(generator)
            }
        }
    };
}

schema_of_inner!(Field);
schema_of_inner!(Section);
schema_of_inner!(Written);

/// The keys `T`'s schema names: the known keys of a section, for "did you mean".
pub(crate) fn known_keys<T: JsonSchema>() -> Vec<String> {
    let schema = schemars::SchemaGenerator::default().root_schema_for::<T>();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}
