//! What an approval covers (16): the whole hook — `env`, `shell`, `args` and any
//! other key that can change what runs — not only its command string; the scripts
//! a `-c` string or `source` / `.` names; a hook whose script cannot be identified
//! is never approved silently; and `trust --list` / `check` say why a hook is not
//! approved, old approvals included.

use serde_json::{Value, json};

use super::write_user_settings;
use crate::common::Project;

/// User settings that require trust (and switch hooks on).
fn require_trust(p: &Project) {
    write_user_settings(
        p,
        &json!({"tools": {"enableHooks": true, "requireHookTrust": true}}),
    );
}

/// Project settings with one AfterTool hook.
fn project_hook(p: &Project, hook: &Value) {
    p.settings_raw(&json!({"hooks": {"AfterTool": [{"hooks": [hook]}]}}));
}

fn fire(p: &Project) -> crate::common::Fired {
    p.fire("AfterTool", json!({"tool_name": "x"}))
}

#[test]
fn an_approval_covers_env_shell_and_args_not_just_the_command_string() {
    // (approved hook, the same command string the repository then changes around).
    // The approved hook leaves its marker outside the project: a file the command
    // names inside it would be pinned, and its appearance alone would ask again.
    let cases = [
        // PATH into the repository: `touch` is now the repository's program.
        (
            json!({"type": "command", "command": "touch ../approved-ran"}),
            json!({"type": "command", "command": "touch ../approved-ran",
                   "env": {"PATH": "$LLXPRT_PROJECT_DIR/bin:/usr/bin:/bin"}}),
        ),
        // BASH_ENV: bash runs the repository's file before the command.
        (
            json!({"type": "command", "command": "touch ../approved-ran", "shell": "bash"}),
            json!({"type": "command", "command": "touch ../approved-ran", "shell": "bash",
                   "env": {"BASH_ENV": "$LLXPRT_PROJECT_DIR/rc.sh"}}),
        ),
        // A changed shell makes an approved BASH_ENV count.
        (
            json!({"type": "command", "command": "touch ../approved-ran",
                   "env": {"BASH_ENV": "$LLXPRT_PROJECT_DIR/rc.sh"}}),
            json!({"type": "command", "command": "touch ../approved-ran", "shell": "bash",
                   "env": {"BASH_ENV": "$LLXPRT_PROJECT_DIR/rc.sh"}}),
        ),
        // Exec form: other arguments.
        (
            json!({"type": "command", "command": "touch", "args": ["../approved-ran"]}),
            json!({"type": "command", "command": "touch", "args": ["pwned"]}),
        ),
    ];
    for (approved, changed) in cases {
        let p = Project::new();
        require_trust(&p);
        p.executable("bin/touch", "#!/bin/sh\n/usr/bin/touch pwned\n");
        p.executable("rc.sh", "/usr/bin/touch pwned\n");
        project_hook(&p, &approved);
        assert_eq!(p.trust(&[]).code, 0, "{approved}");
        fire(&p);
        assert!(
            p.outside().join("approved-ran").exists(),
            "{approved}: the approved hook runs"
        );
        assert!(!p.exists("pwned"), "{approved}");

        project_hook(&p, &changed);
        let fired = fire(&p);
        assert!(
            !p.exists("pwned"),
            "{changed}: the repository's program ran under an old approval: {fired:#?}"
        );
        assert!(
            fired.stderr.contains("untrusted command hook"),
            "{changed}: {}",
            fired.stderr
        );
        let listed = p.trust(&["--list"]).stdout_text();
        assert!(
            listed.contains("not approved") && listed.contains("changed since approved"),
            "{changed}: --list must say why: {listed}"
        );
    }
}

#[test]
fn files_an_approved_env_brings_in_are_pinned() {
    let path = json!({"type": "command", "command": "touch ../approved-ran",
                      "env": {"PATH": "$LLXPRT_PROJECT_DIR/bin:/usr/bin:/bin"}});
    let bash_env = json!({"type": "command", "command": "touch ../approved-ran",
                          "shell": "bash", "env": {"BASH_ENV": "$LLXPRT_PROJECT_DIR/rc.sh"}});
    // (approved hook, the file the repository then changes, its content when approved)
    let cases = [
        (
            &path,
            "bin/touch",
            Some("#!/bin/sh\nexec /usr/bin/touch \"$@\"\n"),
        ),
        // A program the repository adds to an approved PATH directory later.
        (&path, "bin/touch", None),
        (&bash_env, "rc.sh", Some("true\n")),
    ];
    for (hook, file, approved) in cases {
        let p = Project::new();
        require_trust(&p);
        p.write("bin/.keep", "");
        if let Some(content) = approved {
            p.executable(file, content);
        }
        project_hook(&p, hook);
        assert_eq!(p.trust(&[]).code, 0, "{hook}");
        fire(&p);
        assert!(
            p.outside().join("approved-ran").exists(),
            "{hook}: the approved hook runs"
        );

        p.executable(file, "#!/bin/sh\n/usr/bin/touch pwned\n");
        let fired = fire(&p);
        assert!(
            !p.exists("pwned"),
            "{hook}: {file} changed under the approval: {fired:#?}"
        );
        assert!(fired.stderr.contains("untrusted"), "{}", fired.stderr);
    }
}

#[test]
fn scripts_a_c_string_or_source_names_are_pinned() {
    let cases = [
        ("sh -c \". ./lib.sh\"", "lib.sh"),
        ("bash -c \"source hooks/x.sh\"", "hooks/x.sh"),
        ("sh -c 'cd hooks && . ./y.sh'", "hooks/y.sh"),
    ];
    for (command, script) in cases {
        let p = Project::new();
        require_trust(&p);
        // The scripts run in whatever directory the command moved to.
        p.write(script, "touch \"$LLXPRT_PROJECT_DIR\"/approved-ran\n");
        project_hook(&p, &json!({"type": "command", "command": command}));
        assert_eq!(p.trust(&[]).code, 0, "{command}");
        fire(&p);
        assert!(
            p.exists("approved-ran"),
            "{command}: the approved hook runs"
        );

        p.write(script, "touch \"$LLXPRT_PROJECT_DIR\"/changed-ran\n");
        let fired = fire(&p);
        assert!(
            !p.exists("changed-ran"),
            "{command}: the edited script ran under the old approval: {fired:#?}"
        );
        assert!(fired.stderr.contains("untrusted"), "{}", fired.stderr);
        let listed = p.trust(&["--list"]).stdout_text();
        let name = script.rsplit('/').next().unwrap_or(script);
        assert!(
            listed.contains("scripts pinned") && listed.contains(name),
            "{command}: --list shows the pinned script: {listed}"
        );
    }
}

#[test]
fn a_hook_whose_script_cannot_be_pinned_is_not_approved_silently() {
    let p = Project::new();
    require_trust(&p);
    p.write("lib/lib.sh", "touch approved-ran\n");
    project_hook(
        &p,
        &json!({"type": "command", "command": "sh -c '. \"$LIB\"/lib.sh'",
                "env": {"LIB": "$LLXPRT_PROJECT_DIR/lib"}}),
    );
    // A plain `hookhost trust` does not approve it, and says how to.
    let approved = p.trust(&[]);
    let fired = fire(&p);
    assert!(!p.exists("approved-ran"), "approved silently: {fired:#?}");
    assert_ne!(approved.code, 0, "{approved:?}");
    assert!(
        approved.stderr.contains("--unpinned"),
        "it must say how to approve it: {approved:?}"
    );
    let listed = p.trust(&["--list"]).stdout_text();
    assert!(
        listed.contains("cannot pin") && listed.contains("approve again on every change"),
        "{listed}"
    );

    // Approved on purpose, it runs, and every run says what is not pinned.
    let approved = p.trust(&["--unpinned"]);
    assert_eq!(approved.code, 0, "{approved:?}");
    let fired = fire(&p);
    assert!(p.exists("approved-ran"), "{fired:#?}");
    assert!(fired.stderr.contains("not pinned"), "{}", fired.stderr);
}

#[test]
fn trust_and_check_say_why_a_hook_is_not_approved() {
    let p = Project::new();
    require_trust(&p);
    let hook = json!({"type": "command", "name": "lint", "command": "touch ran"});
    project_hook(&p, &hook);
    let listed = p.trust(&["--list"]).stdout_text();
    assert!(listed.contains("never approved"), "{listed}");
    assert_eq!(p.trust(&[]).code, 0);

    let mut changed = hook.clone();
    changed["env"] = json!({"X": "1"});
    project_hook(&p, &changed);
    let listed = p.trust(&["--list"]).stdout_text();
    assert!(
        listed.contains("changed since approved: env"),
        "--list: {listed}"
    );
    let checked = p.check(&[]);
    let text = format!("{}{}", checked.stdout_text(), checked.stderr);
    assert!(
        text.contains("changed since approved: env"),
        "check: {text}"
    );
}

#[test]
fn an_approval_of_an_earlier_version_counts_only_where_it_covered_everything() {
    let p = Project::new();
    require_trust(&p);
    // The trust file as earlier versions wrote it: command strings per project.
    let trust_file = p.home().join(".config/hookhost/trusted.json");
    std::fs::create_dir_all(trust_file.parent().unwrap()).unwrap();
    let scope = p.dir().to_string_lossy().into_owned();
    std::fs::write(
        &trust_file,
        json!({"commands": {scope: ["touch ../plain-ran", "touch ../env-ran"]}}).to_string(),
    )
    .unwrap();
    // The markers are outside the project: a file the command names inside it
    // would be pinned, which the old approval did not do.
    p.settings_raw(&json!({"hooks": {"AfterTool": [{"hooks": [
        {"type": "command", "command": "touch ../plain-ran"},
        {"type": "command", "command": "touch ../env-ran", "env": {"X": "1"}}]}]}}));
    let fired = fire(&p);
    // The old key saw everything of the plain hook; it did not see `env`.
    assert!(p.outside().join("plain-ran").exists(), "{fired:#?}");
    assert!(!p.outside().join("env-ran").exists(), "{fired:#?}");
    let listed = p.trust(&["--list"]).stdout_text();
    assert!(
        listed.contains("approved by an earlier version") && listed.contains("env"),
        "{listed}"
    );
    assert!(!listed.contains("plain-ran"), "{listed}");
}
