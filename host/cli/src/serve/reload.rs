//! The hook system a server fires, and its reload when the settings change
//! (seeds/001 §7.8). The directories that hold the watched paths (or, for paths
//! that do not exist yet, their nearest existing ancestor) are watched with
//! `notify`; on an event whose files really changed (modification time and size),
//! the system is rebuilt off the request path and swapped in (`arc-swap`: a fire
//! loads the current system without a lock), while requests in flight finish on
//! the old one. Where no watcher can be set up, the paths are polled.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;
use hookhost::{HookSystem, HookSystemBuilder};
use notify::{RecursiveMode, Watcher};
use tokio::sync::mpsc;

/// How often the settings files are checked when no watcher could be set up, and
/// at most how long a change may go unnoticed if a watch event was missed.
pub const RELOAD_POLL: Duration = Duration::from_secs(2);
/// Events are collected this long before the files are compared: an editor's
/// save is several events.
const SETTLE: Duration = Duration::from_millis(50);

/// The current hook system, replaced as a whole on reload.
#[derive(Clone)]
pub struct Shared(Arc<ArcSwap<HookSystem>>);

impl Shared {
    /// Builds the first system (off the async threads).
    pub async fn build(builder: &HookSystemBuilder) -> anyhow::Result<Shared> {
        let builder = builder.clone();
        let first = tokio::task::spawn_blocking(move || builder.build()).await?;
        report_diagnostics(&first);
        Ok(Shared(Arc::new(ArcSwap::from_pointee(first))))
    }

    /// The system to fire now.
    pub fn current(&self) -> Arc<HookSystem> {
        self.0.load_full()
    }

    fn replace(&self, system: HookSystem) {
        self.0.store(Arc::new(system));
    }
}

fn report_diagnostics(system: &HookSystem) {
    // Diagnostics quote settings: one line each, safe for a terminal.
    for d in system.report().diagnostics() {
        eprintln!("hookhost: {}", hookhost::terminal_safe(&d.to_string()));
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

/// The directories to watch for `paths`: an existing directory itself (with what
/// is below it: extension directories), else the nearest existing ancestor.
fn watch_set(paths: &[PathBuf]) -> BTreeSet<(PathBuf, bool)> {
    paths
        .iter()
        .filter_map(|path| {
            if path.is_dir() {
                return Some((path.clone(), true));
            }
            path.ancestors()
                .skip(1)
                .find(|a| a.is_dir())
                .map(|a| (a.to_path_buf(), false))
        })
        .collect()
}

/// A `notify` watcher over the directories of the watched paths; every event is
/// a nudge to compare the files.
struct Watch {
    watcher: notify::RecommendedWatcher,
    watching: BTreeSet<(PathBuf, bool)>,
}

impl Watch {
    fn new(nudge: mpsc::UnboundedSender<()>) -> Option<Watch> {
        let watcher = notify::recommended_watcher(move |_event: notify::Result<notify::Event>| {
            let _ = nudge.send(());
        })
        .map_err(|e| tracing::info!("cannot watch the settings ({e}); polling them"))
        .ok()?;
        Some(Watch {
            watcher,
            watching: BTreeSet::new(),
        })
    }

    /// Watches exactly the directories `paths` need now (a directory created since
    /// moves the watch deeper).
    fn update(&mut self, paths: &[PathBuf]) {
        let wanted = watch_set(paths);
        for (dir, _) in self.watching.difference(&wanted) {
            let _ = self.watcher.unwatch(dir);
        }
        for (dir, recursive) in wanted.difference(&self.watching) {
            let mode = if *recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            if let Err(e) = self.watcher.watch(dir, mode) {
                tracing::info!("cannot watch {}: {e}", dir.display());
            }
        }
        self.watching = wanted;
    }
}

/// Waits for changes for ever, swapping in a rebuilt system when the files changed.
pub async fn reload_loop(builder: HookSystemBuilder, system: Shared) {
    let (nudge, mut nudged) = mpsc::unbounded_channel();
    let mut watch = Watch::new(nudge);
    let mut seen = fingerprint(system.current().report().watched_paths());
    if let Some(watch) = &mut watch {
        watch.update(system.current().report().watched_paths());
    }
    loop {
        // A watch event, or the poll interval (also a safety net for a missed event).
        let _ = tokio::time::timeout(RELOAD_POLL, nudged.recv()).await;
        tokio::time::sleep(SETTLE).await;
        while nudged.try_recv().is_ok() {}
        let current = system.current();
        if let Some(watch) = &mut watch {
            watch.update(current.report().watched_paths());
        }
        let now = fingerprint(current.report().watched_paths());
        if now == seen {
            continue;
        }
        let builder = builder.clone();
        let Ok(rebuilt) = tokio::task::spawn_blocking(move || builder.build()).await else {
            continue;
        };
        tracing::info!("settings changed; hooks reloaded");
        report_diagnostics(&rebuilt);
        seen = fingerprint(rebuilt.report().watched_paths());
        if let Some(watch) = &mut watch {
            watch.update(rebuilt.report().watched_paths());
        }
        system.replace(rebuilt);
    }
}
