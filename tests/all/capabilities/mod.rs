//! Issue 30: what a plugin may be granted beyond its sandbox — `allowedHosts`
//! (wasi:http), `state` (wasi:keyvalue) — and the log lines every plugin may
//! write (wasi:logging). The fixture `tests/guests/capabilities` is driven by its
//! `args` and answers one `systemMessage` saying what happened; servers are real,
//! on 127.0.0.1; stores are real SQLite files under the test's own home.
//!
//! * `network` — allowed and forbidden hosts, redirects, DNS to loopback, a
//!   request loop, a 1 GiB download, a plugin importing wasi:http without the grant;
//! * `state` — a per-session counter, isolation between plugins and scopes, the
//!   quota, 8 processes writing at once, `hookhost state`;
//! * `logs` — lines in the result, `--explain` and the trace; a flood stays bounded;
//! * `review` — trust, `check` and `plugin inspect` name the grants.

mod examples;
mod logs;
mod network;
mod review;
mod state;

use hookhost_tests::CAPABILITIES;
use serde_json::{Value, json};

use crate::common::{Fired, Project, cache_dir, group};

/// The fixture hook running `args`, with `extra` keys (grants, timeout).
fn capability(args: &[&str], extra: Value) -> Value {
    let mut hook = json!({"type": "plugin", "path": CAPABILITIES, "args": args});
    for (k, v) in extra.as_object().into_iter().flatten() {
        hook[k] = v.clone();
    }
    hook
}

/// Fires BeforeTool with `hooks` as the project's settings.
fn fire_hooks(project: &Project, hooks: Vec<Value>) -> Fired {
    project.settings(json!({"BeforeTool": [group(hooks)]}));
    fire(project)
}

/// Fires BeforeTool with the project's current settings.
fn fire(project: &Project) -> Fired {
    let cache = cache_dir();
    project.fire_with(
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}, "session_id": "s-1"}),
        &[],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    )
}

/// The fixture's answer: the first hook's `systemMessage`.
fn said(fired: &Fired) -> String {
    fired.final_output()["systemMessage"]
        .as_str()
        .unwrap_or_else(|| panic!("no systemMessage: {fired:#?}"))
        .to_owned()
}
