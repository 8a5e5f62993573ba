//! `hookhost check`: validate settings, load plugins, list hooks in execution order.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use hookhost::config::{HookKind, Severity};
use hookhost::runner::Runner;
use hookhost::{HookEvent, HookSystem};

use super::SettingsArgs;

pub fn run(settings: &SettingsArgs) -> ExitCode {
    // Load plugins even when hooks are disabled: checking them is the point.
    let system = settings.builder().enable_hooks(true).build();
    let configured = system.enabled_in_settings();
    report(&system, configured)
}

/// `writeln!` into the report; writing to a `String` cannot fail.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        { let _ = writeln!($out, $($arg)*); }
    };
}

fn report(system: &HookSystem, enabled: bool) -> ExitCode {
    // Built whole, written once: a closed stdout (`| head`) must not panic.
    let mut out = String::new();
    let mut errors = 0;
    for d in system.diagnostics() {
        if d.severity == Severity::Error || d.unenforced {
            errors += 1;
        }
        eprintln!("{d}");
    }
    say!(
        out,
        "hooks are {} (tools.enableHooks)",
        if enabled { "enabled" } else { "disabled" }
    );
    if !enabled {
        // Declared hooks that will not run: the most dangerous silent state.
        for d in system.switched_off() {
            errors += 1;
            eprintln!("{d}");
        }
    }
    if system.sources().is_empty() {
        say!(out, "no settings files found");
    }
    for source in system.sources() {
        say!(out, "read {}", source.label);
    }
    let known = HookEvent::EVERY
        .into_iter()
        .filter(|e| *e != HookEvent::Other)
        .map(|e| (e.to_string(), e, system.hooks(e).collect::<Vec<_>>()));
    let others = system
        .other_hooks()
        .map(|(name, hooks)| (name.to_owned(), HookEvent::Other, hooks.collect::<Vec<_>>()));
    for (name, event, hooks) in known.chain(others) {
        if hooks.is_empty() {
            continue;
        }
        say!(out, "\n{name}:");
        let mut seen = HashMap::new();
        let mut n = 0;
        for hook in hooks {
            let repository = hook.entry.source.is_repository_scope();
            let earlier = seen.insert(hook.entry.spec.dedup_key(), repository);
            let duplicate = earlier.is_some();
            let matcher = if event.matcher_field().is_some() {
                format!("  matcher {}", hook.entry.matcher.as_str())
            } else {
                String::new()
            };
            let marker = if duplicate {
                "   -".to_owned()
            } else {
                n += 1;
                format!("{n:4}")
            };
            say!(
                out,
                "{marker}. {} [{}]{matcher}  timeout {} ms  from {} {}",
                hook.entry.spec.name,
                hook.entry.spec.type_name(),
                hook.entry.spec.timeout.as_millis(),
                hook.entry.source.label,
                hook.entry.location,
            );
            if earlier == Some(true) && !repository {
                say!(
                    out,
                    "        same {} as a repository hook above: this one, from your own \
                     settings, runs in its place",
                    dedup_what(&hook.entry.spec.kind)
                );
            } else if duplicate {
                say!(
                    out,
                    "        duplicate of an earlier hook (same {}); not run",
                    dedup_what(&hook.entry.spec.kind)
                );
            }
            for name in hook
                .entry
                .dialect
                .unknown_matcher_names(hook.entry.matcher.as_str())
            {
                say!(
                    out,
                    "        warning: matcher names {name:?}, which is no Claude Code tool \
                     hookhost knows (known: Write, Edit, MultiEdit, Bash, …; see README)"
                );
            }
            if let Some(description) = &hook.entry.spec.description {
                say!(out, "        {description}");
            }
            match (&hook.entry.spec.kind, &hook.runner) {
                (HookKind::Command { command }, _) => {
                    say!(out, "        command: {command}");
                    if hookhost::config::is_hookhost_itself(command) {
                        say!(
                            out,
                            "        note: this is hookhost itself (`hookhost hook`, for the agent); \
                             run by hookhost it answers {{}} at once"
                        );
                    }
                }
                (HookKind::Plugin(p), runner) => {
                    say!(
                        out,
                        "        path: {}  fuel {}  memoryLimit {} bytes  sha256 {}",
                        p.path.display(),
                        p.fuel,
                        p.memory_limit,
                        if p.sha256.is_some() {
                            "pinned"
                        } else {
                            "not pinned"
                        }
                    );
                    if let Some(source) = &p.source {
                        say!(out, "        {}", describe_source(source, &p.path));
                    }
                    if let Runner::Broken(failure) = runner {
                        say!(out, "        NOT RUNNABLE: {failure}");
                    }
                }
            }
        }
    }
    let _ = std::io::stdout().write_all(out.as_bytes());
    if errors > 0 {
        eprintln!("{errors} error(s)");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A `source` module: reference, digest, size, where it is cached and whether it is.
fn describe_source(source: &hookhost::config::ModuleSource, path: &std::path::Path) -> String {
    let present = source.problem.is_none();
    let size = std::fs::metadata(path)
        .ok()
        .filter(|_| present)
        .map_or_else(
            || "size unknown".to_owned(),
            |m| format!("{} bytes", m.len()),
        );
    format!(
        "source: {}  digest {}  {size}  cached at {} ({})",
        source.reference,
        source.digest.as_deref().unwrap_or("not locked"),
        path.display(),
        if present { "present" } else { "missing" }
    )
}

fn dedup_what(kind: &HookKind) -> &'static str {
    match kind {
        HookKind::Command { .. } => "command string",
        HookKind::Plugin(_) => "plugin path and settings",
    }
}
