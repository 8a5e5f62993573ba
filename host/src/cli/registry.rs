//! `hookhost plugin push|pull|sign` and `hookhost lock`: the commands that talk to OCI
//! registries (everything else works from the local module store, offline).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use hookhost::HookEvent;
use hookhost::config::HookKind;
use hookhost::distribution::client::{ClientOptions, RegistryClient};
use hookhost::distribution::lock::{LOCK_VERSION, LockFile, LockedModule, lock_path};
use hookhost::distribution::reference::ModuleRef;
use hookhost::distribution::store::ModuleStore;

use super::{SettingsArgs, runtime};

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

fn parse(reference: &str) -> Result<ModuleRef, ExitCode> {
    ModuleRef::parse(reference).map_err(|e| {
        eprintln!("hookhost: {e}");
        ExitCode::from(1)
    })
}

fn open_store() -> Result<ModuleStore, ExitCode> {
    ModuleStore::open_default().map_err(|e| {
        eprintln!("hookhost: {e}");
        ExitCode::from(1)
    })
}

fn block_on<T>(
    future: impl Future<Output = Result<T, hookhost::distribution::client::ClientError>>,
) -> Result<T, ExitCode> {
    let rt = runtime().map_err(|e| {
        eprintln!("hookhost: {e:#}");
        ExitCode::from(1)
    })?;
    rt.block_on(future).map_err(report)
}

/// Prints a registry error; the command's exit code.
fn report(e: hookhost::distribution::client::ClientError) -> ExitCode {
    eprintln!("hookhost: {e}");
    ExitCode::from(1)
}

/// `hookhost plugin push FILE oci://…`: prints the manifest digest.
pub fn push(file: &Path, reference: &str, args: &RegistryArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        let reference = parse(reference)?;
        let client = RegistryClient::new(&reference, &args.options()).map_err(report)?;
        let digest = block_on(client.push(file, &reference))?;
        println!(
            "pushed {} as {}",
            file.display(),
            reference.at_digest(&digest)
        );
        Ok(())
    };
    run().err().unwrap_or(ExitCode::SUCCESS)
}

/// `hookhost plugin pull oci://…`: fetches into the module store.
pub fn pull(reference: &str, args: &RegistryArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        let reference = parse(reference)?;
        let store = open_store()?;
        let client = RegistryClient::new(&reference, &args.options()).map_err(report)?;
        let pulled = block_on(client.pull(&reference, &store))?;
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
        Ok(())
    };
    run().err().unwrap_or(ExitCode::SUCCESS)
}

/// `hookhost plugin sign oci://… --key KEY`: pushes a cosign-compatible signature.
pub fn sign(reference: &str, key: &Path, args: &RegistryArgs) -> ExitCode {
    let run = || -> Result<(), ExitCode> {
        let reference = parse(reference)?;
        let client = RegistryClient::new(&reference, &args.options()).map_err(report)?;
        let digest = block_on(client.sign(&reference, key))?;
        println!("signed {}", reference.at_digest(&digest));
        Ok(())
    };
    run().err().unwrap_or(ExitCode::SUCCESS)
}

/// What [`fetch`] does with the lock file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    /// `hookhost lock [--update]`: resolve, fetch, write the lock.
    Lock {
        /// Re-resolve tags that are already locked.
        update: bool,
    },
    /// `hookhost install`: fetch exactly what the lock (or a digest in the
    /// reference) names; the lock is not written, and a tag without a lock entry
    /// is an error (a fresh clone gets the reviewed digests, never a moved tag).
    Install,
}

/// `hookhost lock [--update]` and `hookhost install`: every `source` of the
/// effective settings, fetched into the module store.
pub fn fetch(settings: &SettingsArgs, mode: Fetch, args: &RegistryArgs) -> ExitCode {
    let update = mode == Fetch::Lock { update: true };
    // Fetching a module is not running it: untrusted hooks are locked too, so that
    // `hookhost trust` can then review the locked modules.
    let system = settings
        .builder()
        .enable_hooks(true)
        .require_trust(false)
        .build();
    let path = lock_path(system.project_dir());
    let old = match LockFile::load(&path) {
        Ok(lock) => lock,
        Err(e) => {
            eprintln!("hookhost: {e}; delete it to lock from scratch");
            return ExitCode::from(1);
        }
    };
    let references: BTreeSet<String> = HookEvent::ALL
        .iter()
        .flat_map(|event| system.hooks(*event))
        .filter_map(|hook| match &hook.entry.spec.kind {
            HookKind::Plugin(p) => p.source.as_ref().map(|s| s.reference.clone()),
            HookKind::Command { .. } => None,
        })
        .collect();
    let store = match open_store() {
        Ok(store) => store,
        Err(code) => return code,
    };
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("hookhost: {e:#}");
            return ExitCode::from(1);
        }
    };
    let mut new = LockFile {
        version: LOCK_VERSION,
        ..LockFile::default()
    };
    let mut failed = 0;
    for text in &references {
        let Ok(reference) = ModuleRef::parse(text) else {
            continue;
        };
        let key = reference.tagged();
        let locked = old
            .modules
            .get(&key)
            .filter(|_| !update && reference.digest.is_none());
        if mode == Fetch::Install && locked.is_none() && reference.digest.is_none() {
            eprintln!(
                "hookhost: {text}: not in {}; run `hookhost lock` to resolve it (and review the lock)",
                path.display()
            );
            failed += 1;
            continue;
        }
        let fetch = match locked {
            Some(entry) => reference.at_digest(&entry.digest),
            None => reference.clone(),
        };
        let pulled = match RegistryClient::new(&fetch, &args.options()) {
            Ok(client) => rt.block_on(client.pull(&fetch, &store)),
            Err(e) => Err(e),
        };
        match pulled {
            Ok(pulled) => {
                println!(
                    "{} {} ({} bytes)",
                    if reference.digest.is_some() {
                        "pinned"
                    } else {
                        "locked"
                    },
                    reference.at_digest(&pulled.digest),
                    pulled.size
                );
                if reference.digest.is_none() {
                    new.modules.insert(
                        key,
                        LockedModule {
                            digest: pulled.digest,
                            module: pulled.module,
                            size: pulled.size,
                        },
                    );
                }
            }
            Err(e) => {
                eprintln!("hookhost: {e}");
                failed += 1;
                if let Some(entry) = old.modules.get(&key) {
                    new.modules.insert(key, entry.clone());
                }
            }
        }
    }
    if mode != Fetch::Install {
        if let Err(e) = new.save(&path) {
            eprintln!("hookhost: {e}");
            return ExitCode::from(1);
        }
        println!("wrote {}", path.display());
    }
    if failed > 0 {
        eprintln!("{failed} reference(s) could not be fetched");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
