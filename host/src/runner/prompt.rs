//! `prompt` hooks (placeholder; being built).

use std::time::Duration;

use super::{HookFailure, RawOutcome, RunContext};
use crate::config::PromptConfig;

/// Asks the model.
pub async fn run(_config: &PromptConfig, _timeout: Duration, _input: &[u8], _ctx: &RunContext) -> RawOutcome {
    RawOutcome::failed(HookFailure::NotRun("prompt hooks are not built yet".to_owned()))
}
