//! `hookhost state list | show ID | clear ID|--all`: the stores of plugins granted
//! `state` (one per plugin identity; see `hookhost::state`). A store is named by
//! its id — the file name `hookhost check` prints for the hook — or any unique
//! prefix of it. Bucket and key names (the plugin's) and descriptions (the
//! settings') are [`terminal_safe`] as printed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hookhost::terminal_safe;
use hookhost::{StateStore as Store, state_dir};

use crate::{Failure, Outcome};

/// What to do.
#[derive(Debug, clap::Subcommand)]
pub enum StateCommand {
    /// Every store: id, what it is for (module, network, scope), keys, bytes.
    List,
    /// One store's entries: bucket, key and value size.
    Show {
        /// The store's id (or a unique prefix).
        id: String,
    },
    /// Deletes a store's entries (the plugin starts afresh).
    Clear {
        /// The store's id (or a unique prefix).
        id: Option<String>,
        /// Every store.
        #[arg(long, conflicts_with = "id")]
        all: bool,
    },
}

/// Runs `hookhost state …`.
pub fn run(command: &StateCommand) -> Outcome {
    let fail = |message: String| Failure::of("state", message);
    let dir = state_dir().ok_or_else(|| fail("no state dir (set HOOKHOST_STATE_DIR)".into()))?;
    let files = stores(&dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    match command {
        StateCommand::List => {
            if files.is_empty() {
                println!("no stores in {}", dir.display());
            }
            for file in &files {
                // One unreadable store must not hide the others.
                match open(file).and_then(|s| s.summary().map_err(|e| e.to_string())) {
                    Ok(summary) => {
                        println!(
                            "{}  {} keys, {} bytes",
                            id_of(file),
                            summary.keys,
                            summary.used
                        );
                        // The description names the module and the hosts of the
                        // settings; bucket and key names are the plugin's own.
                        for line in summary.description.lines() {
                            println!("    {}", terminal_safe(line));
                        }
                    }
                    Err(e) => println!(
                        "{}  unreadable: {e} (`hookhost state clear {}` removes it)",
                        id_of(file),
                        id_of(file)
                    ),
                }
            }
        }
        StateCommand::Show { id } => {
            let file = find(&files, id).map_err(fail)?;
            let store = open(&file).map_err(fail)?;
            let entries = store.entries().map_err(|e| fail(e.to_string()))?;
            println!("{} ({} entries)", file.display(), entries.len());
            for (bucket, key, size) in entries {
                let bucket = if bucket.is_empty() {
                    "\"\"".to_owned()
                } else {
                    bucket
                };
                println!(
                    "  {}  {}  {size} bytes",
                    terminal_safe(&bucket),
                    terminal_safe(&key)
                );
            }
        }
        StateCommand::Clear { id, all } => {
            let chosen = match (id, all) {
                (_, true) => files.clone(),
                (Some(id), false) => vec![find(&files, id).map_err(fail)?],
                (None, false) => {
                    return Err(fail(
                        "name a store (see `hookhost state list`) or give --all".into(),
                    ));
                }
            };
            for file in chosen {
                match open(&file).and_then(|s| s.clear().map_err(|e| e.to_string())) {
                    Ok(()) => println!("cleared {}", id_of(&file)),
                    // Not a store any more (corrupt, truncated): its files go, and
                    // the plugin's next use creates a new one.
                    Err(why) => {
                        remove_store_files(&file).map_err(|e| {
                            fail(format!("{}: {why}; removing it: {e}", file.display()))
                        })?;
                        println!("removed {} (it was unreadable: {why})", id_of(&file));
                    }
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn open(file: &Path) -> Result<Store, String> {
    // The quota only matters to writes; listing and clearing never add bytes.
    Store::open(file, u64::MAX, "").map_err(|e| e.to_string())
}

/// Removes a store's database and its log and shared-memory files.
fn remove_store_files(file: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = file.as_os_str().to_owned();
        name.push(suffix);
        match std::fs::remove_file(PathBuf::from(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

fn id_of(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The store files in `dir`, sorted; none when it does not exist.
fn stores(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sqlite"))
        .collect();
    files.sort();
    Ok(files)
}

fn find(files: &[PathBuf], id: &str) -> Result<PathBuf, String> {
    let matching: Vec<&PathBuf> = files.iter().filter(|f| id_of(f).starts_with(id)).collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!("no store {id:?} (see `hookhost state list`)")),
        _ => Err(format!(
            "{id:?} names {} stores; give more of the id",
            matching.len()
        )),
    }
}
