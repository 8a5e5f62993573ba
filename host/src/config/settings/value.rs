//! Small value types of the settings format and how values appear in messages.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A positive whole number (`5000`, and `5000.0` as JavaScript writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Count(pub u64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        positive_integer(&value)
            .map(Count)
            .ok_or_else(|| D::Error::custom("expected a positive whole number"))
    }
}

impl JsonSchema for Count {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Count".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": 1})
    }
}

/// A JSON number that is a positive whole number (`5000` or `5000.0`).
fn positive_integer(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return (n > 0).then_some(n);
    }
    let f = v.as_f64()?;
    (f >= 1.0 && f.fract() == 0.0 && f <= u64::MAX as f64).then_some(f as u64)
}

/// What kind of JSON value `v` is, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as it appears in messages: short JSON.
pub(crate) fn show(v: &Value) -> String {
    match v {
        Value::Array(_) | Value::Object(_) => kind_of(v).to_owned(),
        _ => {
            let mut s = v.to_string();
            if s.len() > 60 {
                let cut = (0..=60).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                s.truncate(cut);
                s.push('…');
            }
            s
        }
    }
}
