//! The hook system a server fires, and its reload when the settings change
//! (seeds/001 §7.8): the files (and the places discovery looks) are polled; on a
//! change the system is rebuilt off the request path and swapped in, while requests
//! in flight finish on the old one.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use hookhost::{HookSystem, HookSystemBuilder};

/// How often the settings files are checked for changes.
pub const RELOAD_POLL: Duration = Duration::from_millis(500);

/// The current hook system, replaced as a whole on reload.
#[derive(Clone)]
pub struct Shared(Arc<RwLock<Arc<HookSystem>>>);

impl Shared {
    /// Builds the first system (off the async threads).
    pub async fn build(builder: &HookSystemBuilder) -> anyhow::Result<Shared> {
        let builder = builder.clone();
        let first = tokio::task::spawn_blocking(move || builder.build()).await?;
        report_diagnostics(&first);
        Ok(Shared(Arc::new(RwLock::new(Arc::new(first)))))
    }

    /// The system to fire now.
    pub fn current(&self) -> Arc<HookSystem> {
        match self.0.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    fn replace(&self, system: HookSystem) {
        let mut guard = match self.0.write() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        *guard = Arc::new(system);
    }
}

fn report_diagnostics(system: &HookSystem) {
    for d in system.diagnostics() {
        eprintln!("hookhost: {d}");
    }
}

type Fingerprint = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

fn fingerprint(paths: &[PathBuf]) -> Fingerprint {
    paths
        .iter()
        .map(|p| {
            let meta = std::fs::metadata(p).ok();
            let stamp = meta.and_then(|m| Some((m.modified().ok()?, m.len())));
            (p.clone(), stamp)
        })
        .collect()
}

/// Polls the watched paths for ever, swapping in a rebuilt system on a change.
pub async fn reload_loop(builder: HookSystemBuilder, system: Shared) {
    let mut seen = fingerprint(system.current().watched_paths());
    loop {
        tokio::time::sleep(RELOAD_POLL).await;
        let now = fingerprint(system.current().watched_paths());
        if now == seen {
            continue;
        }
        let builder = builder.clone();
        let Ok(rebuilt) = tokio::task::spawn_blocking(move || builder.build()).await else {
            continue;
        };
        tracing::info!("settings changed; hooks reloaded");
        report_diagnostics(&rebuilt);
        seen = fingerprint(rebuilt.watched_paths());
        system.replace(rebuilt);
    }
}
