//! The guest's sandbox: no host files without preopens, read-only preopens unless
//! writable, no way out through `..` or symlinks, only the granted environment and
//! args, and every socket denied.

use hookhost_tests as guests;
use serde_json::{Value, json};

use super::{adversary, before_tool, fire, plugin, with};
use crate::common::{Project, cache_dir, group};

#[test]
fn guest_sees_no_host_files_without_preopens() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![adversary("readfile")])]}));
    let fired = fire(
        &p,
        "BeforeTool",
        before_tool(json!({"path": "/etc/passwd"})),
    );
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.starts_with("read error"), "{message}");
}

fn sandbox_project(writable: bool) -> Project {
    let p = Project::new();
    p.write("inside.txt", "inside");
    std::fs::write(p.outside().join("secret.txt"), "outside secret").unwrap();
    std::os::unix::fs::symlink(p.outside().join("secret.txt"), p.path("link-out")).unwrap();
    p.settings(
        json!({"BeforeTool": [group(vec![with(adversary("readfile"), json!({
            "preopens": [{"host": "$LLXPRT_PROJECT_DIR", "guest": "/project", "writable": writable}]
        }))])]}),
    );
    p
}

fn guest_message(p: &Project, mode: &str, tool_input: Value) -> String {
    // Override the mode through tool_input (args name `readfile`, but `mode` in
    // tool_input is only used when no arg names a mode), so rewrite the settings.
    let settings = p.read_json(".llxprt/settings.json");
    let mut settings = settings;
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["args"] = json!([mode]);
    p.settings_raw(&settings);
    let fired = fire(p, "BeforeTool", before_tool(tool_input));
    fired.out["finalOutput"]["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn preopens_are_read_only_unless_writable() {
    let p = sandbox_project(false);
    assert_eq!(
        guest_message(&p, "readfile", json!({"path": "/project/inside.txt"})),
        "read ok: inside"
    );
    let write = guest_message(&p, "writefile", json!({"path": "/project/new.txt"}));
    assert!(write.starts_with("write error"), "{write}");
    assert!(!p.exists("new.txt"));

    let p = sandbox_project(true);
    let write = guest_message(&p, "writefile", json!({"path": "/project/new.txt"}));
    assert_eq!(write, "write ok");
    assert_eq!(p.read("new.txt"), "written by adversary");
}

#[test]
fn dot_dot_and_symlinks_cannot_leave_a_preopen() {
    let p = sandbox_project(true);
    let outside_name = p
        .outside()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    for path in [
        "/project/../secret.txt".to_owned(),
        format!("/project/../../{outside_name}/secret.txt"),
        "/project/link-out".to_owned(),
        "/etc/passwd".to_owned(),
    ] {
        let message = guest_message(&p, "readfile", json!({"path": path}));
        assert!(message.starts_with("read error"), "{path}: {message}");
        assert!(!message.contains("outside secret"), "{path}: {message}");
    }
    let write = guest_message(&p, "writefile", json!({"path": "/project/../escaped.txt"}));
    assert!(write.starts_with("write error"), "{write}");
    assert!(!p.outside().join("escaped.txt").exists());
}

#[test]
fn guest_sees_only_granted_environment_and_args() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("env"), json!({"env": {"MODE": "strict"}}))])]}));
    let cache = cache_dir();
    let fired = p.fire_with(
        "BeforeTool",
        before_tool(json!({})),
        &[],
        &[
            ("HOOKHOST_CACHE_DIR", &cache),
            ("HOST_SECRET_TOKEN", "hunter2"),
        ],
    );
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    let names: Vec<&str> = message
        .lines()
        .map(|l| l.split('=').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "CLAUDE_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
            "LLXPRT_PROJECT_DIR",
            "MODE"
        ]
    );
    assert!(message.contains(&format!("LLXPRT_PROJECT_DIR={}", p.dir().display())));
    assert!(!message.contains("hunter2"));

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![with(adversary("args"), json!({"args": ["args", "--strict"]}))])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({})));
    assert_eq!(
        fired.out["finalOutput"]["systemMessage"],
        r#"["adversary.wasm","args","--strict"]"#
    );
}

/// wasi:sockets is linked in deny-all mode: the component loads (with a warning in
/// `check`), and every connection attempt fails inside the guest.
#[test]
fn sockets_are_denied() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![plugin(guests::SOCKETS)])]}));
    let fired = fire(&p, "BeforeTool", before_tool(json!({"addr": addr})));
    let message = fired.out["finalOutput"]["systemMessage"].as_str().unwrap();
    assert!(message.starts_with("connect error"), "{message}");
    listener.set_nonblocking(true).unwrap();
    assert!(
        listener.accept().is_err(),
        "the guest reached the host's listener"
    );
    let check = p.check(&[]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stderr.contains("wasi:sockets/"), "{}", check.stderr);
    assert!(check.stderr.contains("denies"), "{}", check.stderr);
}
