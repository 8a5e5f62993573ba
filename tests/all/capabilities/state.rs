//! `state`: a private store per plugin identity and user, persisted across
//! processes, quota-checked, safe under concurrent writers; `hookhost state`.

use serde_json::{Value, json};

use super::{capability, fire, fire_hooks, said};
use crate::common::{Project, cache_dir, group, run};

fn state_command(p: &Project, args: &[&str]) -> String {
    let mut command = p.command();
    command.arg("state").args(args);
    let done = run(command, b"");
    assert_eq!(done.code, 0, "hookhost state {args:?}: {done:#?}");
    done.stdout_text()
}

#[test]
fn state_persists_between_processes_and_is_private_to_each_plugin() {
    let p = Project::new();
    let granted = json!({"state": true});
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["kv-set", "", "seen", "curl-x"],
            granted.clone(),
        )],
    );
    fired.assert_clean();
    assert_eq!(said(&fired), "ok");
    // Another process reads it back.
    let fired = fire_hooks(
        &p,
        vec![capability(&["kv-get", "", "seen"], granted.clone())],
    );
    assert_eq!(said(&fired), "value=curl-x", "{fired:#?}");

    // The same module with more network is another plugin: another store.
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["kv-get", "", "seen"],
            json!({"state": true, "allowedHosts": ["example.com"]}),
        )],
    );
    assert_eq!(said(&fired), "none", "{fired:#?}");

    // Without the grant: access denied, an error value.
    let fired = fire_hooks(&p, vec![capability(&["kv-get", "", "seen"], json!({}))]);
    assert!(said(&fired).starts_with("error="), "{fired:#?}");
    assert!(said(&fired).to_lowercase().contains("denied"), "{fired:#?}");
}

#[test]
fn a_repositorys_plugin_never_opens_the_users_store() {
    let p = Project::new();
    // The user's file grants the plugin state and stores a value …
    let user = json!({"tools": {"enableHooks": true}, "hooks": {"BeforeTool": [group(vec![
        capability(&["kv-set", "", "token", "user-secret"], json!({"state": true}))
    ])]}});
    let file = p.home().join(".llxprt/settings.json");
    std::fs::create_dir_all(p.home().join(".llxprt")).expect("mkdir");
    std::fs::write(&file, user.to_string()).expect("write");
    fire(&p).assert_clean();
    std::fs::remove_file(&file).expect("remove");
    // … the repository names the very same module and grant: a store of its own.
    let fired = fire_hooks(
        &p,
        vec![capability(&["kv-get", "", "token"], json!({"state": true}))],
    );
    assert_eq!(said(&fired), "none", "{fired:#?}");
}

#[test]
fn a_full_store_refuses_writes_with_an_error_value() {
    let p = Project::new();
    let fired = fire_hooks(
        &p,
        vec![
            capability(&["kv-fill", "1000"], json!({"state": {"maxBytes": 10_000}})),
            crate::common::cmd("echo after"),
        ],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    let answer = said(&fired);
    assert!(answer.contains("quota"), "{answer}");
    let stored: usize = answer
        .strip_prefix("stored=")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{answer}"));
    // Each entry is 1000 bytes plus its key: at most 9 fit in 10,000 bytes.
    assert!((8..=9).contains(&stored), "{answer}");
    assert_eq!(fired.hooks().len(), 2, "the next hook ran");
}

#[test]
fn eight_processes_writing_at_once_lose_and_tear_nothing() {
    let p = Project::new();
    let grant = json!({"state": {"maxBytes": 8_000_000}});
    let cache = cache_dir();
    // Compile once first, so the eight processes race on the store, not the cache.
    fire_hooks(&p, vec![capability(&["kv-check"], grant.clone())]).assert_clean();
    let writers: Vec<std::process::Child> = (0..8u8)
        .map(|i| {
            let tag = format!("{}", (b'a' + i) as char);
            let hook = capability(&["kv-write-many", &tag, "25", "4096"], grant.clone());
            let settings = p.extra_settings(
                &format!("writer-{tag}.json"),
                json!({"BeforeTool": [group(vec![hook])]}),
            );
            let mut command = p.command();
            command
                .arg("fire")
                .arg("BeforeTool")
                .arg("--project-dir")
                .arg(p.dir())
                .arg("--settings")
                .arg(&settings)
                .env("HOOKHOST_CACHE_DIR", &cache)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null());
            command.spawn().expect("spawn")
        })
        .collect();
    for writer in writers {
        let out = writer.wait_with_output().expect("wait");
        let fired: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(
            fired["finalOutput"]["systemMessage"], "ok",
            "a writer failed: {fired}"
        );
    }
    // The writers' settings are `--settings` files: user scope, one store for all.
    let check = p.extra_settings(
        "check.json",
        json!({"BeforeTool": [group(vec![capability(&["kv-check"], grant)])]}),
    );
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {}}),
        &[&check],
        &[("HOOKHOST_CACHE_DIR", &cache)],
    );
    assert_eq!(said(&fired), "keys=201 torn=0", "{fired:#?}");
}

#[test]
fn hookhost_state_lists_shows_and_clears_a_store() {
    let p = Project::new();
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["kv-set", "b", "k", "v"],
            json!({"state": true}),
        )],
    );
    assert_eq!(said(&fired), "ok");
    let listed = state_command(&p, &["list"]);
    assert!(listed.contains("1 keys"), "{listed}");
    assert!(listed.contains("scope: project"), "{listed}");
    assert!(listed.contains("capabilities.wasm"), "{listed}");
    let id = listed
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    let shown = state_command(&p, &["show", &id[..8]]);
    assert!(shown.contains("b  k  1 bytes"), "{shown}");
    // check names the store's file.
    let checked = p.check(&[]).stdout_text();
    assert!(checked.contains(&format!("{id}.sqlite")), "{checked}");
    assert!(
        checked.contains("grant state: up to 1048576 bytes"),
        "{checked}"
    );
    state_command(&p, &["clear", &id]);
    let fired = fire_hooks(
        &p,
        vec![capability(&["kv-get", "b", "k"], json!({"state": true}))],
    );
    assert_eq!(said(&fired), "none");
}

#[test]
fn a_corrupt_store_is_an_error_value_naming_the_file_and_the_next_hook_runs() {
    let p = Project::new();
    let grant = json!({"state": true});
    let fired = fire_hooks(
        &p,
        vec![capability(&["kv-set", "", "k", "v"], grant.clone())],
    );
    assert_eq!(said(&fired), "ok");
    let listed = state_command(&p, &["list"]);
    let id = listed
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    let dir = p.home().join(".local/state/hookhost/stores");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("{id}.sqlite{suffix}")));
    }
    std::fs::write(dir.join(format!("{id}.sqlite")), vec![0x5a; 8192]).expect("write");
    let fired = fire_hooks(
        &p,
        vec![
            capability(&["kv-get", "", "k"], grant),
            crate::common::cmd("echo after"),
        ],
    );
    assert_eq!(fired.code, 0, "{fired:#?}");
    let answer = said(&fired);
    assert!(answer.starts_with("error="), "{answer}");
    assert!(
        answer.contains(&format!("{id}.sqlite")),
        "the file is named: {answer}"
    );
    assert_eq!(fired.hooks().len(), 2, "the next hook ran");
}

#[test]
fn hookhost_state_lists_and_clears_a_corrupt_store() {
    let p = Project::new();
    let grant = json!({"state": true});
    assert_eq!(
        said(&fire_hooks(
            &p,
            vec![capability(&["kv-set", "", "k", "v"], grant.clone())]
        )),
        "ok"
    );
    let id = state_command(&p, &["list"])
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned();
    let dir = p.home().join(".local/state/hookhost/stores");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("{id}.sqlite{suffix}")));
    }
    std::fs::write(dir.join(format!("{id}.sqlite")), vec![0x5a; 8192]).expect("write");
    let listed = state_command(&p, &["list"]);
    assert!(listed.contains(&format!("{id}  unreadable:")), "{listed}");
    let cleared = state_command(&p, &["clear", &id]);
    assert!(cleared.contains(&format!("removed {id}")), "{cleared}");
    // The plugin starts afresh.
    assert_eq!(
        said(&fire_hooks(
            &p,
            vec![capability(&["kv-get", "", "k"], grant)]
        )),
        "none"
    );
}

#[test]
fn serve_and_one_shot_processes_share_one_store() {
    let p = Project::new();
    let grant = json!({"state": true, "timeout": 20000});
    let by_tool = |tool: &str, args: &[&str]| json!({"matcher": tool, "hooks": [capability(args, grant.clone())]});
    p.settings(json!({"BeforeTool": [
        by_tool("set_serve", &["kv-set", "", "who", "serve"]),
        by_tool("set_fire", &["kv-set", "", "who", "fire"]),
        by_tool("get", &["kv-get", "", "who"]),
    ]}));
    let cache = cache_dir();
    let mut server = crate::common::Server::start_with(&p, &[], &[("HOOKHOST_CACHE_DIR", &cache)]);
    let mut ask = |id: &str, tool: &str| {
        server.send(
            id,
            "BeforeTool",
            json!({"tool_name": tool, "tool_input": {}}),
        );
        let answer = server.next();
        answer["output"]["finalOutput"]["systemMessage"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"))
            .to_owned()
    };
    let fire = |tool: &str| {
        let fired = p.fire_with(
            "BeforeTool",
            json!({"tool_name": tool, "tool_input": {}}),
            &[],
            &[("HOOKHOST_CACHE_DIR", &cache)],
        );
        said(&fired)
    };
    assert_eq!(ask("1", "set_serve"), "ok");
    assert_eq!(
        fire("get"),
        "value=serve",
        "a process sees what serve wrote"
    );
    assert_eq!(fire("set_fire"), "ok");
    assert_eq!(
        ask("2", "get"),
        "value=fire",
        "serve sees what a process wrote"
    );
    assert_eq!(server.finish().0, 0);
}
