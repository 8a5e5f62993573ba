//! Hooks that leave the machine's processes: `http` hooks POSTing to a real server
//! and `prompt` hooks asking a (fake, but real HTTP) model endpoint, both on
//! 127.0.0.1 ([`crate::common::Endpoint`]), run through the real `hookhost` binary.
//!
//! * `http` — answers (block, allow, plain text), header variables, failures
//!   (status, refused, silent, redirect) and `tools.allowedHttpHookUrls`;
//! * `prompt` — Anthropic and OpenAI endpoints from the environment and from
//!   `tools.hookModel`, the verdicts, and what is not one.

mod http;
mod prompt;

use serde_json::{Value, json};

/// A BeforeTool input that a policy would want to look at.
fn write_etc() -> Value {
    json!({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}})
}
