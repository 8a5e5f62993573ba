//! `hookhost plugin push|pull|sign` and `hookhost lock`: the commands that talk to OCI
//! registries (everything else works from the local module store, offline).

use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use hookhost::distribution::client::{ClientOptions, RegistryClient};
use hookhost::distribution::fetch::{FetchMode, Fetched};
use hookhost::distribution::lock::{LockFile, lock_path};
use hookhost::distribution::reference::ModuleRef;
use hookhost::distribution::store::ModuleStore;

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
/// effective settings, fetched into the module store ([`hookhost::distribution::fetch`]).
pub fn fetch(settings: &SettingsArgs, mode: FetchMode, args: &RegistryArgs) -> Outcome {
    // Fetching a module is not running it: untrusted hooks are locked too, so that
    // `hookhost trust` can then review the locked modules.
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(false)
        .build();
    let path = lock_path(system.project_dir());
    let old = LockFile::load(&path)
        .map_err(|e| Failure::from(format_args!("{e}; delete it to lock from scratch")))?;
    let store = ModuleStore::open_default()?;
    let rt = runtime()?;
    let references = system.source_references();
    let report = |fetched: Fetched<'_>| match fetched {
        Fetched::Done {
            reference,
            digest,
            size,
        } => println!(
            "{} {} ({size} bytes)",
            if reference.digest.is_some() {
                "pinned"
            } else {
                "locked"
            },
            reference.at_digest(digest),
        ),
        Fetched::Kept { reference } => eprintln!(
            "hookhost: kept {reference} in the lock: no hook of the settings read refers to it \
             (did you mean to pass --claude-settings, --gemini-settings or --codex-settings? \
             `hookhost lock --prune` drops it)"
        ),
        Fetched::NotLocked { text } => eprintln!(
            "hookhost: {text}: not in {}; run `hookhost lock` to resolve it (and review the lock)",
            path.display()
        ),
        Fetched::Failed(e) => eprintln!("hookhost: {e}"),
        Fetched::Unverified {
            reference,
            digest,
            key,
            error,
        } => eprintln!(
            "hookhost: {}: refused, not locked: the signature does not verify with {} ({error}); \
             the lock keeps its old entry",
            reference.at_digest(digest),
            key.display()
        ),
        _ => {}
    };
    let keys = system.source_keys();
    let outcome = rt.block_on(hookhost::distribution::fetch::fetch(
        &references,
        &keys,
        mode,
        &old,
        &store,
        &args.options(),
        report,
    ));
    if mode != FetchMode::Install {
        outcome.lock.save(&path)?;
        println!("wrote {}", path.display());
    }
    if outcome.failed > 0 {
        eprintln!("{} reference(s) could not be fetched", outcome.failed);
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
