#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests of hookhost's core: command hooks run through the real `hookhost`
//! CLI (and a few through the library API) against throw-away projects.
//!
//! One test binary, one module per area; `common` builds the projects and runs the
//! binary with an isolated HOME and system-settings path.

mod common;

mod adversarial;
mod agent_dialects;
mod aggregation;
mod authoring;
mod builtins;
mod builtins_together;
mod capabilities;
mod chaining;
mod check;
mod claude;
mod claude_events;
mod cli;
mod codex;
mod distribution;
mod doors;
mod engine;
mod environment;
mod exit_codes;
mod fidelity;
mod fuzz_corpus;
mod gemini;
mod languages;
mod library;
mod load;
mod matchers;
mod observability;
mod plugin;
mod plugin_loading;
mod process;
mod reliability;
mod remote;
mod scaffold;
mod schema;
mod security;
mod serve;
mod serve_http;
mod settings;
mod setup;
mod soak;
mod telemetry;
mod terminal;
mod trust;
