//! What a built [`crate::HookSystem`] would run, per event in execution order: the listing
//! `hookhost check` prints, as data (Codex's `list_hooks` is the model). Duplicates
//! are marked by the planner's own rule ([`EventHooks::standings`]), so the listing
//! cannot disagree with a fire. How `hookhost check` prints it is [`show`]'s.

mod show;

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::sync::Arc;

use crate::config::Execution;
use crate::config::{HookKind, ModuleSource, SettingsSource, is_hookhost_itself};
use crate::event::HookEvent;
use crate::planner::{EventHooks, Standing};
use crate::runner::{RunnableHook, Runner};

/// Every registered hook of a [`crate::HookSystem`], with what it reads from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HookListing {
    /// `tools.enableHooks` as the settings say (before any override).
    pub enabled: bool,
    /// The settings files read, highest priority first (their labels).
    pub sources: Vec<String>,
    /// Events with at least one hook: the known ones in [`HookEvent::VARIANTS`] order,
    /// then the names hookhost does not know.
    pub events: Vec<ListedEvent>,
}

/// The hooks of one event.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListedEvent {
    /// The event's name as configured.
    pub name: String,
    /// Its hooks in priority order, duplicates included.
    pub hooks: Vec<ListedHook>,
}

/// One registered hook.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListedHook {
    /// Its place in the execution order; `None` for a duplicate, which is not run
    /// in this place.
    pub position: Option<usize>,
    /// Its display name.
    pub name: String,
    /// `"command"`, `"plugin"`, `"http"`, `"prompt"`, or a type not run.
    pub type_name: &'static str,
    /// The group's matcher, for events that have a matcher field.
    pub matcher: Option<String>,
    /// Its timeout.
    pub timeout: Duration,
    /// The settings file it comes from (its label).
    pub source: String,
    /// Where in that file.
    pub location: String,
    /// How it stands among the event's duplicates.
    pub standing: Standing,
    /// Warnings for matcher names its agent never sends: the other dialect's
    /// name for a tool, or no tool hookhost knows
    /// ([`crate::dialect::Dialect::matcher_name_warnings`]).
    pub matcher_warnings: Vec<String>,
    /// Its `description`.
    pub description: Option<String>,
    /// Its `if` rule.
    pub condition: Option<String>,
    /// `"async"` or `"asyncRewake"` for a hook the fire does not wait for.
    pub background: Option<&'static str>,
    /// Whether it runs at most once per session.
    pub once: bool,
    /// Its `statusMessage`.
    pub status_message: Option<String>,
    /// `"mode": "monitor"`: its blocks are reported, not enforced.
    pub monitor: bool,
    /// `"failurePolicy": "block"`: a failure blocks.
    pub fails_closed: bool,
    /// What it runs.
    pub kind: ListedKind,
}

/// What a listed hook runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListedKind {
    /// A shell command.
    Command {
        /// The command line.
        command: String,
        /// Whether it runs hookhost itself (`hookhost hook`).
        is_hookhost: bool,
    },
    /// A Wasm plugin.
    Plugin {
        /// The file loaded.
        path: PathBuf,
        /// Its fuel limit.
        fuel: u64,
        /// Its memory limit in bytes.
        memory_limit: u64,
        /// Whether `sha256` pins it.
        pinned: bool,
        /// For a `source` module: reference, digest, size and cache state.
        source: Option<String>,
        /// Why it cannot run, if it cannot.
        not_runnable: Option<String>,
        /// Its network and state grants, one line each (empty: none).
        grants: Vec<String>,
        /// Its store's file, when it is granted state and has a state dir.
        store: Option<PathBuf>,
    },
    /// An HTTP endpoint.
    Http {
        /// Where the input is POSTed.
        url: String,
    },
    /// An LLM verdict.
    Prompt {
        /// The prompt.
        prompt: String,
        /// The model, if the hook names one.
        model: Option<String>,
    },
    /// A closure registered by the embedder.
    Function {
        /// The name it was registered with.
        name: String,
    },
    /// A type hookhost recognises and does not run.
    Unsupported {
        /// The type.
        type_name: &'static str,
        /// Why it does not run.
        reason: String,
    },
}

/// Lists the hooks of a system whose settings say `enabled` and come from
/// `sources`: `events` are its per-event lists (name, event, hooks), known events
/// first, in order.
pub(crate) fn list<'a>(
    enabled: bool,
    sources: &[Arc<SettingsSource>],
    project_dir: &Path,
    events: impl Iterator<Item = (String, HookEvent, &'a EventHooks<RunnableHook>)>,
) -> HookListing {
    HookListing {
        enabled,
        sources: sources.iter().map(|s| s.label.clone()).collect(),
        events: events
            .filter(|(_, _, hooks)| !hooks.is_empty())
            .map(|(name, event, hooks)| ListedEvent {
                name,
                hooks: listed(event, hooks, project_dir),
            })
            .collect(),
    }
}

fn listed(
    event: HookEvent,
    hooks: &EventHooks<RunnableHook>,
    project_dir: &Path,
) -> Vec<ListedHook> {
    let mut position = 0;
    hooks
        .standings()
        .map(|(registered, standing)| {
            let hook = registered.hook.as_ref();
            let entry = &hook.entry;
            ListedHook {
                position: (standing == Standing::First).then(|| {
                    position += 1;
                    position
                }),
                name: entry.spec.name.clone(),
                type_name: entry.spec.type_name(),
                matcher: event
                    .matcher_field()
                    .map(|_| entry.matcher.as_str().to_owned()),
                timeout: entry.spec.timeout,
                source: entry.source.label.clone(),
                location: entry.location(),
                standing,
                matcher_warnings: entry
                    .dialect
                    .matcher_name_warnings(event, entry.matcher.as_str()),
                description: entry.spec.description.clone(),
                condition: entry.spec.condition.as_ref().map(ToString::to_string),
                background: match entry.spec.execution {
                    Execution::Sync => None,
                    Execution::Async => Some("async"),
                    Execution::AsyncRewake => Some("asyncRewake"),
                },
                once: entry.spec.once,
                status_message: entry.spec.status_message.clone(),
                monitor: entry.spec.mode == crate::config::HookMode::Monitor,
                fails_closed: entry.spec.failure_policy == crate::config::FailurePolicy::Block,
                kind: kind(hook, project_dir),
            }
        })
        .collect()
}

fn kind(hook: &RunnableHook, project_dir: &Path) -> ListedKind {
    match (&hook.entry.spec.kind, &hook.runner) {
        (HookKind::Command(c), _) => ListedKind::Command {
            command: c.line(),
            is_hookhost: is_hookhost_itself(&c.line()),
        },
        (HookKind::Http(h), _) => ListedKind::Http { url: h.url.clone() },
        (HookKind::Prompt(p), _) => ListedKind::Prompt {
            prompt: p.prompt.clone(),
            model: p.model.clone(),
        },
        (HookKind::Function(name), _) => ListedKind::Function { name: name.clone() },
        (HookKind::Unsupported(u), _) => ListedKind::Unsupported {
            type_name: u.type_name,
            reason: u.reason.clone(),
        },
        (HookKind::Plugin(p), runner) => ListedKind::Plugin {
            path: p.path.clone(),
            fuel: p.fuel,
            memory_limit: p.memory_limit,
            pinned: p.sha256.is_some(),
            source: p.source.as_ref().map(|s| {
                let lock = hook.entry.source.lock_path(project_dir);
                describe_source(s, &p.path, &lock)
            }),
            not_runnable: match runner {
                Runner::Broken(failure) => Some(failure.to_string()),
                _ => None,
            },
            grants: p.grants.describe(),
            store: store_file(p),
        },
    }
}

/// The file of a plugin's store, if it is granted one.
#[cfg(feature = "plugins")]
fn store_file(plugin: &crate::config::PluginConfig) -> Option<PathBuf> {
    let identity = crate::state::StoreIdentity::of(plugin)?;
    Some(identity.file(&crate::state::state_dir()?))
}

#[cfg(not(feature = "plugins"))]
fn store_file(_plugin: &crate::config::PluginConfig) -> Option<PathBuf> {
    None
}

/// A `source` module: reference, digest and where it is pinned or locked, the
/// keys it must verify with, size, where it is cached and whether it is.
fn describe_source(source: &ModuleSource, path: &Path, lock: &Path) -> String {
    let present = source.problem.is_none();
    let size = std::fs::metadata(path)
        .ok()
        .filter(|_| present)
        .map_or_else(
            || "size unknown".to_owned(),
            |m| format!("{} bytes", m.len()),
        );
    let pinned = source.reference.contains("@sha256:");
    let digest = match (&source.digest, pinned) {
        (Some(digest), true) => format!("digest {digest} (pinned in the reference)"),
        (Some(digest), false) => format!("digest {digest} (locked in {})", lock.display()),
        (None, _) => format!("not locked (lock: {})", lock.display()),
    };
    let mut keys = Vec::new();
    if let Some(key) = &source.required_key {
        keys.push(format!(
            "{} (required by tools.verifyPlugins)",
            key.display()
        ));
    }
    if let Some(key) = source
        .verify_key
        .as_ref()
        .filter(|k| Some(*k) != source.required_key.as_ref())
    {
        keys.push(format!("{} (the hook's own)", key.display()));
    }
    let verify = if keys.is_empty() {
        "no signature required".to_owned()
    } else {
        format!("signature verified with {}", keys.join(" and "))
    };
    format!(
        "source: {}  {digest}  {verify}  {size}  cached at {} ({})",
        source.reference,
        path.display(),
        if present { "present" } else { "missing" }
    )
}
