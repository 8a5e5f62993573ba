//! The stable hook API formats of LLM data (seeds/001 §5): requests, responses and
//! tool configuration, decoupled from any model SDK.
//!
//! Every struct keeps the fields it does not model in `extra` and writes them back,
//! and every field is optional or defaulted, so a hook that rewrites one field of a
//! request returns everything else exactly as it came (a round trip loses nothing).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::output::ToolMode;

/// An LLM request (§5.1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LlmRequest {
    /// The model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The conversation, text only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<LlmMessage>>,
    /// Generation parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<GenerationConfig>,
    /// Which tools the model may call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_config: Option<ToolConfig>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One message of a request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmMessage {
    /// `user`, `model` or `system`.
    #[serde(default)]
    pub role: String,
    /// The text; structured content arrives stringified.
    #[serde(default, deserialize_with = "text_or_json")]
    pub content: String,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Generation parameters of a request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerationConfig {
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Most tokens to generate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Top-k sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_k: Option<f64>,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Number of candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate_count: Option<u64>,
    /// Presence penalty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presence_penalty: Option<f64>,
    /// Frequency penalty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequency_penalty: Option<f64>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Tool configuration (§5.3), in requests and in BeforeToolSelection answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfig {
    /// `AUTO`, `ANY` or `NONE`; an unknown mode reads as absent.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_mode"
    )]
    pub mode: Option<ToolMode>,
    /// The tools the model may call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_function_names: Option<Vec<String>>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An LLM response (§5.2).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LlmResponse {
    /// The whole text, for convenience.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
    /// Token counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_metadata: Option<UsageMetadata>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One candidate of a response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    /// The candidate's content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<CandidateContent>,
    /// `STOP`, `MAX_TOKENS`, `SAFETY`, `RECITATION` or `OTHER`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// The candidate's index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// Safety ratings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety_ratings: Option<Vec<SafetyRating>>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The content of a candidate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CandidateContent {
    /// Normally `model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The parts: strings or `{"text": …}` objects.
    #[serde(default)]
    pub parts: Vec<Part>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A part of a candidate's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Part {
    /// A bare string.
    Text(String),
    /// An object, usually `{"text": …}`.
    Object(Map<String, Value>),
}

impl Part {
    /// The part's text, if it has one.
    pub fn text(&self) -> Option<&str> {
        match self {
            Part::Text(text) => Some(text),
            Part::Object(object) => object.get("text").and_then(Value::as_str),
        }
    }

    /// Replaces the part's text, keeping its shape.
    pub fn set_text(&mut self, text: String) {
        match self {
            Part::Text(old) => *old = text,
            Part::Object(object) => {
                object.insert("text".to_owned(), Value::String(text));
            }
        }
    }
}

/// A safety rating.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SafetyRating {
    /// The harm category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The probability bucket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<String>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Token counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetadata {
    /// Tokens in the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_token_count: Option<u64>,
    /// Tokens in the candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates_token_count: Option<u64>,
    /// All tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_token_count: Option<u64>,
    /// Fields not modelled here.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

macro_rules! into_value {
    ($($ty:ty),*) => {$(
        impl From<$ty> for Value {
            fn from(v: $ty) -> Value {
                serde_json::to_value(v).unwrap_or(Value::Null)
            }
        }
    )*};
}
into_value!(LlmRequest, LlmResponse, ToolConfig);

fn text_or_json<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => s,
        Value::Null => String::new(),
        other => other.to_string(),
    })
}

fn lenient_mode<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ToolMode>, D::Error> {
    Ok(Option::<Value>::deserialize(d)?.and_then(|v| serde_json::from_value(v).ok()))
}
