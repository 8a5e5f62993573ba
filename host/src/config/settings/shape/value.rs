//! Shape: the small value types of the settings format.

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
