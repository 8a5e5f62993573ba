//! Plugin hooks: WASI components and preview-1 modules in wasmtime.

use std::sync::Arc;
use std::time::Duration;

use super::{HookFailure, RawOutcome, RunContext};
use crate::config::PluginConfig;

/// Options of the Wasm engine.
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {}

/// The engine shared by every plugin of a hook system.
#[derive(Debug)]
pub struct WasmEngine;

impl WasmEngine {
    /// Creates the engine.
    pub fn new(_options: &EngineOptions) -> Result<WasmEngine, HookFailure> {
        Ok(WasmEngine)
    }

    /// Loads a plugin.
    pub fn load(&self, _config: &PluginConfig) -> Result<Arc<Plugin>, HookFailure> {
        Err(HookFailure::Load("plugins are not available yet".into()))
    }
}

/// A loaded plugin.
#[derive(Debug)]
pub struct Plugin;

impl Plugin {
    /// Runs the plugin once.
    pub async fn run(&self, _input: Arc<[u8]>, _timeout: Duration, _ctx: &RunContext) -> RawOutcome {
        RawOutcome::failed(HookFailure::Load("plugins are not available yet".into()))
    }
}
