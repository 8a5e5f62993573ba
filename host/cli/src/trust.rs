//! `hookhost trust`: approve the project's hooks (see [`hookhost::TrustStore`]).

use std::process::ExitCode;

use hookhost::{TrustStore, terminal_safe};

use crate::{Outcome, SettingsArgs};

/// Lists or approves the hooks not approved yet; a hook whose code cannot be
/// pinned is approved only with `unpinned` (else the exit code is 1).
pub fn run(settings: &SettingsArgs, list_only: bool, unpinned: bool) -> Outcome {
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(true)
        .build();
    let untrusted = system.report().untrusted();
    if untrusted.is_empty() {
        println!("every project and extension hook is approved");
        return Ok(ExitCode::SUCCESS);
    }
    if list_only {
        // What is listed quotes the repository's settings (names, commands):
        // one line each, made safe for the terminal.
        for (key, what) in untrusted {
            println!(
                "not approved: {} ({})",
                terminal_safe(what),
                terminal_safe(key.reason())
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut store = TrustStore::load()?;
    let mut left = 0;
    for (key, what) in untrusted {
        if !key.unpinned().is_empty() && !unpinned {
            // Code hookhost cannot pin is never approved in passing: the reviewer
            // must know that a change there will not ask again.
            eprintln!(
                "not approved: {} ({}); hookhost cannot notice when that code changes: \
                 review it, then run `hookhost trust --unpinned` with the same options \
                 to approve it as it is now",
                terminal_safe(what),
                terminal_safe(key.reason())
            );
            left += 1;
            continue;
        }
        store.approve(key);
        println!("approved: {}", terminal_safe(what));
    }
    if left < untrusted.len() {
        let path = store.save()?;
        println!("saved {}", path.display());
    }
    Ok(if left == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
