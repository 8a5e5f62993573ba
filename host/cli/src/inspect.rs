//! `hookhost plugin inspect FILE`: prints [`hookhost::PluginInspection`]; exit 1 when
//! the file cannot be read or hookhost cannot run it.

use std::path::Path;
use std::process::ExitCode;

use crate::{Failure, Outcome};

pub fn run(file: &Path) -> Outcome {
    let inspection = hookhost::inspect_plugin(file)
        .map_err(|e| Failure::from(format_args!("cannot read {}: {e}", file.display())))?;
    crate::write_stdout(&inspection.to_string());
    Ok(if inspection.is_runnable() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
