//! `hookhost plugin push|pull|sign` and `hookhost lock`: the commands that talk to OCI
//! registries (everything else works from the local module store, offline).

use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use hookhost::distribution::client::{ClientOptions, RegistryClient};
use hookhost::distribution::fetch::{FetchMode, Fetched};
use hookhost::distribution::lock::LockFile;
use hookhost::distribution::reference::ModuleRef;
use hookhost::distribution::store::ModuleStore;
use hookhost::terminal_safe;

use crate::{Failure, Outcome, SettingsArgs, runtime};

/// How registries are reached.
#[derive(Debug, Args)]
pub struct RegistryArgs {
    /// Reach this registry (`HOST` or `HOST:PORT`) over plain HTTP; repeatable.
    /// Loopback registries (127.0.0.1, ::1, localhost) always are.
    #[arg(long = "insecure", value_name = "HOST")]
    insecure: Vec<String>,
}

impl RegistryArgs {
    fn options(&self) -> ClientOptions {
        ClientOptions {
            insecure: self.insecure.clone(),
        }
    }
}

/// `hookhost plugin push FILE oci://…`: prints the manifest digest.
pub fn push(file: &Path, reference: &str, args: &RegistryArgs) -> Outcome {
    let reference = ModuleRef::parse(reference)?;
    let client = RegistryClient::new(&reference, &args.options())?;
    // `builtin:NAME`: the very bytes embedded in this binary (same digest as
    // `hookhost policy list` shows), so a team can mirror and sign them.
    let builtin;
    let file = match file.to_str().and_then(|f| f.strip_prefix("builtin:")) {
        Some(name) => {
            builtin = hookhost::find_builtin(name)?.materialize(&hookhost::builtin_cache_dir())?;
            builtin.as_path()
        }
        None => file,
    };
    let digest = runtime()?.block_on(client.push(file, &reference))?;
    println!(
        "pushed {} as {}",
        file.display(),
        reference.at_digest(&digest)
    );
    Ok(ExitCode::SUCCESS)
}

/// `hookhost plugin pull oci://…`: fetches into the module store.
pub fn pull(reference: &str, args: &RegistryArgs) -> Outcome {
    let reference = ModuleRef::parse(reference)?;
    let store = ModuleStore::open_default()?;
    let client = RegistryClient::new(&reference, &args.options())?;
    let pulled = runtime()?.block_on(client.pull(&reference, &store))?;
    println!(
        "pulled {} ({} bytes, {}) into {}",
        reference.at_digest(&pulled.digest),
        pulled.size,
        if pulled.signed {
            "signed"
        } else {
            "no signature"
        },
        pulled.path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `hookhost plugin sign oci://… --key KEY`: pushes a cosign-compatible signature.
pub fn sign(reference: &str, key: &Path, args: &RegistryArgs) -> Outcome {
    let reference = ModuleRef::parse(reference)?;
    let client = RegistryClient::new(&reference, &args.options())?;
    let digest = runtime()?.block_on(client.sign(&reference, key))?;
    println!("signed {}", reference.at_digest(&digest));
    Ok(ExitCode::SUCCESS)
}

/// `hookhost lock [--update]` and `hookhost install`: every `source` of the
/// effective settings, fetched into the module store ([`hookhost::distribution::fetch`]),
/// each locked in its own lock file: the project's for the project's files, the
/// user's (`~/.llxprt/hookhost.lock`) for the user's and system's files and those
/// outside the project. Each lock written is named; `install` writes none.
pub fn fetch(settings: &SettingsArgs, mode: FetchMode, args: &RegistryArgs) -> Outcome {
    // Fetching a module is not running it: untrusted hooks are locked too, so that
    // `hookhost trust` can then review the locked modules.
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(false)
        .build();
    let store = ModuleStore::open_default()?;
    let rt = runtime()?;
    let keys = system.source_keys();
    let install = mode == FetchMode::Install;
    let mut failed = 0;
    for (path, references) in system.source_references_by_lock() {
        let old = LockFile::load(&path)
            .map_err(|e| Failure::from(format_args!("{e}; delete it to lock from scratch")))?;
        if references.is_empty() && old.modules.is_empty() {
            continue;
        }
        let report = |fetched: Fetched<'_>| report(fetched, &path, install);
        let outcome = rt.block_on(hookhost::distribution::fetch::fetch(
            &references,
            &keys,
            mode,
            &old,
            &store,
            &args.options(),
            report,
        ));
        failed += outcome.failed;
        if !install {
            outcome.lock.save(&path)?;
            println!(
                "wrote {} ({} locked module(s))",
                path.display(),
                outcome.lock.modules.len()
            );
        }
    }
    if failed > 0 {
        eprintln!("{failed} reference(s) could not be fetched");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints how one reference of the lock at `path` came out.
fn report(fetched: Fetched<'_>, path: &Path, install: bool) {
    match fetched {
        Fetched::Done {
            reference,
            digest,
            size,
        } => println!(
            "{} {} ({size} bytes)",
            match (install, reference.digest.is_some()) {
                (true, _) => "fetched",
                (false, true) => "pinned",
                (false, false) => "locked",
            },
            reference.at_digest(digest),
        ),
        Fetched::Kept { reference } => eprintln!(
            "hookhost: kept {reference} in {}: no hook of the settings read refers to it \
             (did you mean to pass --claude-settings, --gemini-settings or --codex-settings? \
             `hookhost lock --prune` drops it)",
            path.display()
        ),
        Fetched::NotLocked { text } => eprintln!(
            "hookhost: {text}: not in {}; run `hookhost lock` to resolve it (and review the lock)",
            path.display()
        ),
        // A registry's error may quote what the registry answered.
        Fetched::Failed(e) => eprintln!("hookhost: {}", terminal_safe(&e.to_string())),
        Fetched::Unverified {
            reference,
            digest,
            key,
            error,
        } => eprintln!(
            "hookhost: {}: refused, not locked: the signature does not verify with {} ({}); \
             {} keeps its old entry",
            reference.at_digest(digest),
            key.display(),
            terminal_safe(&error.to_string()),
            path.display()
        ),
        _ => {}
    }
}
