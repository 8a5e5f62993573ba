//! `hookhost check`: validate settings, load plugins, list hooks in execution order
//! ([`hookhost::HookListing`]). Errors, and hooks declared but not running, fail it.
//! Diagnostics quote settings: each line is [`terminal_safe`] (the listing makes
//! its own fields safe).

use std::process::ExitCode;

use hookhost::terminal_safe;

use crate::{Outcome, SettingsArgs};

pub fn run(settings: &SettingsArgs) -> Outcome {
    // Load plugins even when hooks are disabled: checking them is the point.
    let system = settings.builder().enable_hooks(true).build();
    let report = system.report();
    for d in report.diagnostics() {
        eprintln!("{}", terminal_safe(&d.to_string()));
    }
    // Declared hooks that will not run (the settings switch them off) are the most
    // dangerous silent state: they fail the check too.
    for d in report.switched_off_unlisted() {
        eprintln!("{}", terminal_safe(&d.to_string()));
    }
    let errors = report.check_failures().count();
    // Written once: a closed stdout (`| head`) must not panic.
    crate::write_stdout(&system.hook_listing().to_string());
    if errors > 0 {
        eprintln!("{errors} error(s)");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `hookhost check --agents` ([`crate::setup::status`]).
pub fn agents() -> Outcome {
    let places = crate::setup::agents::Places::from_env()
        .ok_or_else(|| crate::Failure::of("hookhost check", "cannot find the home directory"))?;
    Ok(if crate::setup::status::report(&places) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
