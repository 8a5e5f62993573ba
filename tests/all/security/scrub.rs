//! Scrub means scrub (18): under `tools.scrubHookEnv`, `${env:NAME}` in a command
//! sees the hook's own environment (the scrubbed one plus its `env`), and a
//! repository's http hook fills its headers from that scrubbed environment only;
//! `HOOKHOST_TOKEN` (`serve --http`'s bearer token) never reaches a hook, scrub or
//! not — not inherited, not through `${env:…}`, an `env` value or a header.

use hookhost_tests as guests;
use serde_json::json;

use super::write_user_settings;
use crate::common::{Endpoint, Project, Reply, cache_dir, group};

const SECRET: &str = "sk-live-123";
const TOKEN: &str = "hookhost-bearer-456";

/// hookhost's environment: an API key, the server's token and `extra`.
fn fire_with_secrets(p: &Project, extra: &[(&str, &str)]) -> crate::common::Fired {
    let cache = cache_dir();
    let mut env = vec![
        ("SECRET_API_KEY", SECRET),
        ("HOOKHOST_TOKEN", TOKEN),
        ("HOOKHOST_CACHE_DIR", cache.as_str()),
    ];
    env.extend_from_slice(extra);
    p.fire_with("BeforeTool", json!({"tool_name": "t"}), &[], &env)
}

#[test]
fn under_scrub_env_references_in_a_command_see_only_the_hooks_environment() {
    let p = Project::new();
    write_user_settings(&p, &json!({"tools": {"scrubHookEnv": true}}));
    p.settings(json!({"BeforeTool": [group(vec![json!({"type": "command",
        "command": "printf '%s|%s|%s|%s' ${env:SECRET_API_KEY} ${env:OWN} ${env:HOOKHOST_TOKEN} '${env:PATH}' > seen.txt",
        "env": {"OWN": "mine"}})])]}));
    let fired = fire_with_secrets(&p, &[]);
    fired.assert_clean();
    let seen = p.read("seen.txt");
    let (before, path) = seen.rsplit_once('|').unwrap();
    assert_eq!(before, "|mine|", "{seen}");
    assert!(!path.is_empty(), "PATH is kept: {seen}");
}

#[test]
fn hookhost_token_never_reaches_a_hook() {
    let p = Project::new();
    let server = Endpoint::start(|_| Reply::status(200, ""));
    std::fs::copy(guests::ADVERSARY, p.path("env.wasm")).unwrap();
    // The user's own file: its `env` values expand the environment, and its http
    // hook lists the token — hookhost still never hands it on.
    write_user_settings(
        &p,
        &json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![
            json!({"type": "command",
                   "command": "printf '%s|%s|%s' \"$HOOKHOST_TOKEN\" ${env:HOOKHOST_TOKEN} \"$T2\" > seen.txt",
                   "env": {"T2": "$HOOKHOST_TOKEN"}}),
            json!({"type": "plugin", "path": p.path("env.wasm"), "args": ["env"],
                   "env": {"T3": "${HOOKHOST_TOKEN}"}}),
            json!({"type": "http", "url": server.url("/hook"),
                   "headers": {"Authorization": "Bearer $HOOKHOST_TOKEN"},
                   "allowedEnvVars": ["HOOKHOST_TOKEN"]}),
        ])]}}),
    );
    let fired = fire_with_secrets(&p, &[]);
    let seen = p.read("seen.txt");
    assert!(!seen.contains(TOKEN), "command hook: {seen}");
    let message = fired.final_output()["systemMessage"].to_string();
    assert!(message.contains("T3="), "the plugin ran: {fired:#?}");
    assert!(!message.contains(TOKEN), "plugin hook: {message}");
    let request = server.only_request();
    let authorization = request.header("authorization").unwrap_or_default();
    assert!(!authorization.contains(TOKEN), "http hook: {authorization}");
}

#[test]
fn under_scrub_a_repositorys_http_headers_see_only_the_scrubbed_environment() {
    let server = Endpoint::start(|_| Reply::status(200, ""));
    let p = Project::new();
    let hook = |name: &str| {
        json!({"type": "http", "url": server.url(&format!("/{name}")),
               "headers": {"X-Key": "$SECRET_API_KEY", "X-Lang": "$LANG"},
               "allowedEnvVars": ["SECRET_API_KEY", "LANG"]})
    };
    // The user's own http hook lists the key: a grant of the user's, as an `env`
    // value in the user's file is.
    write_user_settings(
        &p,
        &json!({"tools": {"enableHooks": true, "scrubHookEnv": true},
                "hooks": {"BeforeTool": [group(vec![hook("user")])]}}),
    );
    p.settings(json!({"BeforeTool": [group(vec![hook("project")])]}));
    fire_with_secrets(&p, &[("LANG", "C.UTF-8")]).assert_clean();
    let requests = server.requests();
    let sent = |path: &str| {
        let request = requests
            .iter()
            .find(|r| r.path == path)
            .unwrap_or_else(|| panic!("no request to {path}: {requests:#?}"));
        (
            request.header("x-key").unwrap_or_default().to_owned(),
            request.header("x-lang").unwrap_or_default().to_owned(),
        )
    };
    assert_eq!(sent("/project"), (String::new(), "C.UTF-8".to_owned()));
    assert_eq!(sent("/user"), (SECRET.to_owned(), "C.UTF-8".to_owned()));
}
