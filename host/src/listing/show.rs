//! The listing as `hookhost check` prints it: a line per hook, indented details.
//!
//! Every string that settings, plugins or file names supply (hook names,
//! matchers, commands, `statusMessage`s, descriptions, paths, URLs, prompts,
//! reasons) goes through [`terminal_safe`] as it is written: a carriage return or
//! an ANSI escape in a repository's command must not redraw `curl … | sh` as
//! `echo safe`, nor a newline forge a line of the listing.

use std::fmt;

use super::{HookListing, ListedHook, ListedKind};
use crate::planner::Standing;
use crate::text::terminal_safe;

/// `text` as the listing shows it (see the module docs).
fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    terminal_safe(text)
}

/// A path as the listing shows it.
fn safe_path(path: &std::path::Path) -> String {
    terminal_safe(&path.display().to_string()).into_owned()
}

/// The listing as `hookhost check` prints it on stdout.
impl fmt::Display for HookListing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = if self.enabled { "enabled" } else { "disabled" };
        writeln!(f, "hooks are {state} (tools.enableHooks)")?;
        if self.sources.is_empty() {
            writeln!(f, "no settings files found")?;
        }
        for source in &self.sources {
            writeln!(f, "read {}", safe(source))?;
        }
        for event in &self.events {
            writeln!(f, "\n{}:", safe(&event.name))?;
            for hook in &event.hooks {
                write!(f, "{hook}")?;
            }
        }
        Ok(())
    }
}

/// One hook as `hookhost check` lists it: a line, then indented details.
impl fmt::Display for ListedHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(n) => write!(f, "{n:4}")?,
            None => write!(f, "   -")?,
        }
        let matcher = self
            .matcher
            .as_ref()
            .map(|m| format!("  matcher {}", safe(m)))
            .unwrap_or_default();
        writeln!(
            f,
            ". {} [{}]{matcher}  timeout {} ms  from {} {}",
            safe(&self.name),
            self.type_name,
            self.timeout.as_millis(),
            safe(&self.source),
            safe(&self.location),
        )?;
        self.standing(f)?;
        for warning in &self.matcher_warnings {
            writeln!(f, "        warning: {}", safe(warning))?;
        }
        self.settings(f)?;
        write!(f, "{}", self.kind)
    }
}

impl ListedHook {
    /// How it stands among duplicates (nothing for the first).
    fn standing(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let same = match self.kind {
            ListedKind::Command { .. } => "command string",
            ListedKind::Plugin { .. } => "plugin path and settings",
            ListedKind::Http { .. } => "URL and headers",
            ListedKind::Prompt { .. } => "prompt",
            ListedKind::Unsupported { .. } => "type and name",
            ListedKind::Function { .. } => "function name",
        };
        match self.standing {
            Standing::ReplacesRepositoryCopy => writeln!(
                f,
                "        same {same} as a repository hook above: this one, from your own \
                 settings, runs in its place"
            ),
            Standing::Duplicate => writeln!(
                f,
                "        duplicate of an earlier hook (same {same}); not run"
            ),
            Standing::First => Ok(()),
        }
    }

    /// Its mode, failure policy, description, `if`, background, `once` and
    /// `statusMessage` lines.
    fn settings(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.monitor, self.fails_closed) {
            (true, true) => writeln!(
                f,
                "        mode: monitor (its blocks are reported, not enforced); failurePolicy: block"
            )?,
            (true, false) => writeln!(
                f,
                "        mode: monitor (its blocks are reported, not enforced)"
            )?,
            (false, true) => writeln!(f, "        failurePolicy: block (a failure blocks)")?,
            (false, false) => {}
        }
        if let Some(description) = &self.description {
            writeln!(f, "        {}", safe(description))?;
        }
        if let Some(rule) = &self.condition {
            writeln!(
                f,
                "        if: {} (runs only for tool calls this rule matches)",
                safe(rule)
            )?;
        }
        match self.background {
            Some("asyncRewake") => writeln!(
                f,
                "        asyncRewake: runs in the background; a block becomes a notice"
            )?,
            Some(_) => writeln!(
                f,
                "        async: runs in the background; its answer is discarded"
            )?,
            None => {}
        }
        if self.once {
            writeln!(f, "        once: at most one run per session")?;
        }
        if let Some(status) = &self.status_message {
            writeln!(f, "        statusMessage: {}", safe(status))?;
        }
        Ok(())
    }
}

/// What a hook runs, as the indented lines under it in `hookhost check`.
impl fmt::Display for ListedKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListedKind::Command {
                command,
                is_hookhost,
            } => {
                writeln!(f, "        command: {}", safe(command))?;
                if *is_hookhost {
                    writeln!(
                        f,
                        "        note: this is hookhost itself (`hookhost hook`, for the agent); \
                         run by hookhost it answers {{}} at once"
                    )?;
                }
            }
            ListedKind::Plugin { .. } => self.plugin(f)?,
            ListedKind::Http { url } => writeln!(f, "        url: {}", safe(url))?,
            ListedKind::Prompt { prompt, model } => {
                let model = model.as_deref().unwrap_or("the endpoint's default");
                writeln!(f, "        prompt: {prompt:?}  model {}", safe(model))?;
            }
            ListedKind::Function { name } => writeln!(f, "        function: {}", safe(name))?,
            ListedKind::Unsupported { type_name, reason } => {
                writeln!(f, "        NOT RUNNABLE: {type_name}: {}", safe(reason))?;
            }
        }
        Ok(())
    }
}

impl ListedKind {
    /// A plugin's lines: file and limits, source, grants, store, failure.
    fn plugin(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ListedKind::Plugin {
            path,
            fuel,
            memory_limit,
            pinned,
            source,
            not_runnable,
            grants,
            store,
        } = self
        else {
            return Ok(());
        };
        let pin = if *pinned { "pinned" } else { "not pinned" };
        writeln!(
            f,
            "        path: {}  fuel {fuel}  memoryLimit {memory_limit} bytes  sha256 {pin}",
            safe_path(path),
        )?;
        if let Some(source) = source {
            writeln!(f, "        {}", safe(source))?;
        }
        if grants.is_empty() {
            writeln!(f, "        grants: no network, no state")?;
        }
        for grant in grants {
            writeln!(f, "        grant {}", safe(grant))?;
        }
        if let Some(store) = store {
            writeln!(f, "        store: {}", safe_path(store))?;
        }
        if let Some(failure) = not_runnable {
            writeln!(f, "        NOT RUNNABLE: {}", safe(failure))?;
        }
        Ok(())
    }
}
