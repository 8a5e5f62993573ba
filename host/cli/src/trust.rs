//! `hookhost trust`: approve the project's hooks (see [`hookhost::TrustStore`]).

use std::process::ExitCode;

use hookhost::TrustStore;

use crate::{Outcome, SettingsArgs};

pub fn run(settings: &SettingsArgs, list_only: bool) -> Outcome {
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(true)
        .build();
    let untrusted = system.untrusted();
    if untrusted.is_empty() {
        println!("every project and extension hook is approved");
        return Ok(ExitCode::SUCCESS);
    }
    if list_only {
        for (_, what) in untrusted {
            println!("not approved: {what}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut store = TrustStore::load()?;
    for (key, what) in untrusted {
        store.approve(key);
        println!("approved: {what}");
    }
    let path = store.save()?;
    println!("saved {}", path.display());
    Ok(ExitCode::SUCCESS)
}
