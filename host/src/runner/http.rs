//! `http` hooks (placeholder; being built).

use std::time::Duration;

use super::{HookFailure, RawOutcome, RunContext};
use crate::config::HttpConfig;

/// POSTs `input` to the hook's URL.
pub async fn run(config: &HttpConfig, _timeout: Duration, _input: &[u8], _ctx: &RunContext) -> RawOutcome {
    RawOutcome::failed(HookFailure::NotRun(format!("http hooks are not built yet ({})", config.url)))
}
