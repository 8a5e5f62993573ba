//! `hookhost trust`: approve the project's hooks (see `hookhost::trust`).

use std::process::ExitCode;

use hookhost::trust::TrustStore;

use super::SettingsArgs;

pub fn run(settings: &SettingsArgs, list_only: bool) -> ExitCode {
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(true)
        .build();
    let untrusted = system.untrusted();
    if untrusted.is_empty() {
        println!("every project and extension hook is approved");
        return ExitCode::SUCCESS;
    }
    if list_only {
        for (_, what) in untrusted {
            println!("not approved: {what}");
        }
        return ExitCode::SUCCESS;
    }
    let mut store = match TrustStore::load() {
        Ok(store) => store,
        Err(e) => {
            eprintln!("hookhost: {e}");
            return ExitCode::from(1);
        }
    };
    for (key, what) in untrusted {
        store.approve(key);
        println!("approved: {what}");
    }
    match store.save() {
        Ok(path) => {
            println!("saved {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hookhost: {e}");
            ExitCode::from(1)
        }
    }
}
