//! [`Project`]: a temporary project dir, HOME and scratch dir, with helpers to write
//! settings and hook scripts and to run `hookhost fire`, `trust` and `check` against it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use tempfile::TempDir;

use super::run::fire_run;
use super::{BIN, Fired, Run, run};

/// A temporary project dir, HOME dir and scratch dir, removed on drop.
pub struct Project {
    root: TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Project {
    /// A new, empty project.
    pub fn new() -> Project {
        Project::named("project")
    }

    /// A new project whose directory has the given name (e.g. with a space).
    pub fn named(name: &str) -> Project {
        let root = tempfile::Builder::new()
            .prefix("hookhost-it-")
            .tempdir()
            .expect("temp dir");
        // Canonical, so that paths reported by `pwd -P` compare equal.
        let base = root.path().canonicalize().expect("canonical temp dir");
        let project = base.join(name);
        let home = base.join("home");
        std::fs::create_dir_all(&project).expect("project dir");
        std::fs::create_dir_all(&home).expect("home dir");
        Project {
            root,
            project,
            home,
        }
    }

    /// The project directory.
    pub fn dir(&self) -> &Path {
        &self.project
    }

    /// The HOME of every CLI run.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// A scratch directory outside the project (the CLI's working directory).
    pub fn outside(&self) -> PathBuf {
        self.root.path().canonicalize().expect("canonical temp dir")
    }

    /// A path inside the project.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.project.join(rel)
    }

    /// Writes a file (creating parent dirs); `rel` is relative to the project unless
    /// absolute.
    pub fn write(&self, rel: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.project.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        std::fs::write(&path, contents).expect("write file");
        path
    }

    /// Reads a file the hooks left behind; panics with a clear message when absent.
    pub fn read(&self, rel: &str) -> String {
        let path = self.project.join(rel);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("expected {} to exist: {e}", path.display()))
    }

    /// Reads a JSON file the hooks left behind.
    pub fn read_json(&self, rel: &str) -> Value {
        let text = self.read(rel);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not JSON ({e}): {text}"))
    }

    /// Whether a file exists in the project.
    pub fn exists(&self, rel: &str) -> bool {
        self.project.join(rel).exists()
    }

    /// Writes `.llxprt/settings.json` with hooks enabled and these `hooks`.
    pub fn settings(&self, hooks: Value) -> PathBuf {
        self.settings_raw(&json!({"tools": {"enableHooks": true}, "hooks": hooks}))
    }

    /// Writes `.llxprt/settings.json` exactly as given.
    pub fn settings_raw(&self, settings: &Value) -> PathBuf {
        self.settings_text(&serde_json::to_string_pretty(settings).expect("settings JSON"))
    }

    /// Writes `.llxprt/settings.json` as raw text (for broken files).
    pub fn settings_text(&self, text: &str) -> PathBuf {
        self.write(".llxprt/settings.json", text)
    }

    /// Writes a settings file with hooks enabled outside the project (for
    /// `--settings`); returns its path.
    pub fn extra_settings(&self, name: &str, hooks: Value) -> PathBuf {
        let path = self.outside().join(name);
        let settings = json!({"tools": {"enableHooks": true}, "hooks": hooks});
        std::fs::write(&path, serde_json::to_vec_pretty(&settings).expect("JSON")).expect("write");
        path
    }

    /// Writes an executable POSIX `sh` script `hooks/<name>` and returns the command
    /// that runs it (relative: hooks run with cwd = the project dir).
    pub fn script(&self, name: &str, body: &str) -> String {
        self.executable(format!("hooks/{name}"), &format!("#!/bin/sh\n{body}\n"));
        format!("hooks/{name}")
    }

    /// Writes an executable Python 3 script `hooks/<name>` and returns its command.
    pub fn python(&self, name: &str, body: &str) -> String {
        self.executable(
            format!("hooks/{name}"),
            &format!("#!/usr/bin/env python3\n{body}\n"),
        );
        format!("hooks/{name}")
    }

    /// Writes an executable file at `rel` (relative to the project unless absolute).
    pub fn executable(&self, rel: impl AsRef<Path>, contents: &str) -> PathBuf {
        let path = self.write(rel, contents);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// A `hookhost` command with the isolated environment; no arguments yet.
    pub fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .current_dir(self.outside())
            .env("HOME", &self.home)
            .env(
                "LLXPRT_SYSTEM_SETTINGS_PATH",
                self.outside().join("no-system-settings.json"),
            )
            .env(
                "HOOKHOST_CLAUDE_MANAGED_DIR",
                self.outside().join("no-claude-managed"),
            )
            .env_remove("HOOKHOST_LOG")
            // Plugins' stores live under this test's home, not the machine's.
            .env_remove("XDG_STATE_HOME")
            .env_remove("HOOKHOST_STATE_DIR")
            .env_remove("LLXPRT_PROJECT_DIR")
            .env_remove("GEMINI_PROJECT_DIR")
            .env_remove("CLAUDE_PROJECT_DIR");
        // Prompt hooks ask the endpoint these name: no test reaches a real model. And
        // http hooks go to 127.0.0.1 directly, not through a proxy of the machine's.
        for variable in [
            "ANTHROPIC_BASE_URL",
            "ANTHROPIC_API_KEY",
            "OPENAI_BASE_URL",
            "OPENAI_API_KEY",
            "HTTP_PROXY",
            "HTTPS_PROXY",
            "ALL_PROXY",
            "http_proxy",
            "https_proxy",
            "all_proxy",
        ] {
            command.env_remove(variable);
        }
        command
    }

    /// `hookhost fire EVENT --project-dir <project>` with discovered settings.
    pub fn fire(&self, event: &str, input: Value) -> Fired {
        self.fire_with(event, input, &[], &[])
    }

    /// `hookhost fire EVENT --project-dir <project> --settings F…` (exactly these files).
    pub fn fire_settings(&self, event: &str, input: Value, settings: &[&Path]) -> Fired {
        self.fire_with(event, input, settings, &[])
    }

    /// `fire` with explicit settings files (none = discovery) and extra environment.
    pub fn fire_with(
        &self,
        event: &str,
        input: Value,
        settings: &[&Path],
        env: &[(&str, &str)],
    ) -> Fired {
        let mut command = self.command();
        command
            .arg("fire")
            .arg(event)
            .arg("--project-dir")
            .arg(&self.project);
        for file in settings {
            command.arg("--settings").arg(file);
        }
        for (k, v) in env {
            command.env(k, v);
        }
        fire_run(command, event, input)
    }

    /// Writes `.claude/settings.json` with `hooks`.
    pub fn claude_settings(&self, hooks: Value) -> PathBuf {
        self.write(
            ".claude/settings.json",
            serde_json::to_vec_pretty(&json!({"hooks": hooks})).expect("settings JSON"),
        )
    }

    /// `hookhost hook --claude-settings` as Claude Code runs it: `stdin` on stdin,
    /// `CLAUDE_PROJECT_DIR` set, plus the directories `env` names.
    pub fn claude_hook(&self, stdin: &Value, env: &[(&str, &Path)]) -> Run {
        let mut command = self.command();
        command
            .arg("hook")
            .arg("--claude-settings")
            .env("CLAUDE_PROJECT_DIR", self.dir());
        for (name, value) in env {
            command.env(name, value);
        }
        run(command, &serde_json::to_vec(stdin).expect("stdin JSON"))
    }

    /// `hookhost fire EVENT --project-dir <project> FLAGS…` with discovered settings.
    pub fn fire_flags(&self, event: &str, input: Value, flags: &[&str]) -> Fired {
        let mut command = self.command();
        command
            .arg("fire")
            .arg(event)
            .arg("--project-dir")
            .arg(&self.project)
            .args(flags);
        fire_run(command, event, input)
    }

    /// `hookhost trust --project-dir <project> EXTRA…` (e.g. `--list`).
    pub fn trust(&self, extra: &[&str]) -> Run {
        let mut command = self.command();
        command
            .arg("trust")
            .arg("--project-dir")
            .arg(&self.project)
            .args(extra);
        run(command, b"")
    }

    /// `hookhost check --project-dir <project> [--settings F…]`.
    pub fn check(&self, settings: &[&Path]) -> Run {
        let mut command = self.command();
        command.arg("check").arg("--project-dir").arg(&self.project);
        for file in settings {
            command.arg("--settings").arg(file);
        }
        run(command, b"")
    }
}
