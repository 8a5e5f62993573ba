//! Push, lock and fire: an unlocked source fails open naming `hookhost lock`, a locked
//! one fires offline from the store, a moved tag is not followed until `--update`, a
//! tampered store is refused and refetched, `install` fetches exactly the locked
//! digests, and bad `source` references fail `check`.

use hookhost_tests as guests;
use serde_json::json;

use super::{
    assert_blocked, errors, fire, hookhost, hookhost_command, locked_digest, ok, push,
    settings_with, sha256_hex, source_hook, store,
};
use crate::common::{Project, Registry, group};

#[test]
fn push_lock_fire_blocks_and_fires_offline() {
    let mut registry = Registry::start();
    let p = Project::new();
    let reference = registry.reference("acme/echo:1");
    let pushed = push(&p, guests::ECHO_POLICY, &reference);
    settings_with(&p, source_hook(&reference));

    // Not locked yet: the hook fails open and says how to lock.
    let fired = fire(&p);
    assert_eq!(fired.code, 0, "{}", fired.out);
    assert!(errors(&fired).contains("hookhost lock"), "{}", fired.out);

    let dir = p.dir().to_str().unwrap().to_owned();
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_eq!(locked_digest(&p, &reference), pushed);
    assert_blocked(&fire(&p));

    // Offline: the registry is gone; the fire uses the store.
    registry.stop();
    assert_blocked(&fire(&p));
    let check = hookhost(&p, &["check", "--project-dir", &dir]);
    let listing = check.stdout_text();
    assert!(
        listing.contains(&format!("source: {reference}  digest {pushed}"))
            && listing.contains("(present)"),
        "{check:?}"
    );
    // `lock` does touch the network, and says the registry is unreachable.
    let failed = hookhost(&p, &["lock", "--project-dir", &dir, "--update"]);
    assert_eq!(failed.code, 1, "{failed:?}");
    assert!(failed.stderr.contains("unreachable"), "{failed:?}");
    assert_eq!(
        locked_digest(&p, &reference),
        pushed,
        "a failed update keeps the lock"
    );
}

#[test]
fn missing_module_fails_the_hook_naming_the_pull_command() {
    let registry = Registry::start();
    let p = Project::new();
    let reference = registry.reference("acme/echo:1");
    let digest = push(&p, guests::ECHO_POLICY, &reference);
    let pinned = format!("{reference}@{digest}");
    settings_with(&p, source_hook(&pinned));
    let fired = fire(&p);
    assert_eq!(fired.code, 0, "{}", fired.out);
    assert!(
        errors(&fired).contains(&format!("hookhost plugin pull {pinned}")),
        "{}",
        fired.out
    );
    // failurePolicy applies.
    settings_with(
        &p,
        json!({"type": "plugin", "source": pinned, "failurePolicy": "block"}),
    );
    let fired = fire(&p);
    assert_blocked(&fired);
    // A pinned digest needs no lock entry: pulling is enough.
    ok(hookhost(&p, &["plugin", "pull", &pinned]));
    settings_with(&p, source_hook(&pinned));
    assert_blocked(&fire(&p));
    assert!(!p.exists(".llxprt/hookhost.lock"));
}

#[test]
fn moved_tag_is_not_followed_until_update() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let reference = registry.reference("acme/echo:stable");
    let first = push(&p, guests::ECHO_POLICY, &reference);
    settings_with(&p, source_hook(&reference));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let second = push(&p, guests::ECHO_POLICY_P1, &reference);
    assert_ne!(first, second);

    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_eq!(
        locked_digest(&p, &reference),
        first,
        "the moved tag was followed"
    );
    assert_blocked(&fire(&p));
    let check = hookhost(&p, &["check", "--project-dir", &dir]).stdout_text();
    assert!(check.contains(&format!("digest {first}")), "{check}");

    ok(hookhost(&p, &["lock", "--project-dir", &dir, "--update"]));
    assert_eq!(locked_digest(&p, &reference), second);
    let check = hookhost(&p, &["check", "--project-dir", &dir]).stdout_text();
    assert!(check.contains(&format!("digest {second}")), "{check}");
    assert_blocked(&fire(&p));
}

#[test]
fn tampered_module_in_the_store_is_refused_and_refetched() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let reference = registry.reference("acme/echo:1");
    push(&p, guests::ECHO_POLICY, &reference);
    settings_with(
        &p,
        json!({"type": "plugin", "source": reference, "failurePolicy": "block"}),
    );
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let module = std::fs::read(guests::ECHO_POLICY).unwrap();
    let blob = store(&p).join("sha256").join(sha256_hex(&module));
    assert!(blob.exists(), "module not at {}", blob.display());
    let mut tampered = module.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 0xff;
    std::fs::write(&blob, &tampered).unwrap();

    let fired = fire(&p);
    assert_eq!(fired.code, 2, "{}", fired.out);
    let reason = fired.out["finalOutput"]["reason"].to_string();
    assert!(
        reason.contains("corrupt") && reason.contains("hookhost plugin pull"),
        "{}",
        fired.out
    );

    ok(hookhost(&p, &["plugin", "pull", &reference]));
    assert_eq!(std::fs::read(&blob).unwrap(), module);
    let fired = fire(&p);
    assert_blocked(&fired);
    assert!(
        fired.out["errors"].as_array().is_none_or(Vec::is_empty),
        "{}",
        fired.out
    );
}

#[test]
fn a_plugin_gives_path_or_source_and_a_valid_reference() {
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    for (hook, expected) in [
        (
            json!({"type": "plugin", "path": "a.wasm", "source": "oci://example.com/a:1"}),
            "either \"path\" or \"source\"",
        ),
        (
            json!({"type": "plugin", "source": "ghcr.io/acme/a:1"}),
            "expected oci://REGISTRY/REPOSITORY",
        ),
        (
            json!({"type": "plugin", "source": "oci://example.com/a@sha256:12"}),
            "64 lowercase hexadecimal digits",
        ),
        (
            json!({"type": "plugin", "source": "oci://example.com/a:1", "verify": "k.pub"}),
            "expected {\"key\"",
        ),
    ] {
        settings_with(&p, hook);
        let check = hookhost(&p, &["check", "--project-dir", &dir]);
        assert_eq!(check.code, 1, "{check:?}");
        assert!(check.stderr.contains(expected), "{expected}: {check:?}");
    }
}

/// `hookhost install`: a fresh clone (empty store) gets exactly the locked digest,
/// even after the tag moved; a tag without a lock entry is refused, naming `lock`;
/// the lock file is not touched.
#[test]
fn install_fetches_exactly_the_locked_digests() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let reference = registry.reference("acme/echo:stable");
    let unlocked = registry.reference("acme/other:1");
    let first = push(&p, guests::ECHO_POLICY, &reference);
    settings_with(&p, source_hook(&reference));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let lock = p.read(".llxprt/hookhost.lock");
    push(&p, guests::ECHO_POLICY_P1, &reference);

    std::fs::remove_dir_all(store(&p)).unwrap();
    ok(hookhost(&p, &["install", "--project-dir", &dir]));
    assert_eq!(
        p.read(".llxprt/hookhost.lock"),
        lock,
        "install wrote the lock"
    );
    assert_eq!(locked_digest(&p, &reference), first);
    assert_blocked(&fire(&p));

    push(&p, guests::ECHO_POLICY, &unlocked);
    p.settings(
        json!({"BeforeTool": [group(vec![source_hook(&reference), source_hook(&unlocked)])]}),
    );
    let refused = hookhost(&p, &["install", "--project-dir", &dir]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("hookhost lock"), "{refused:?}");
    assert_eq!(p.read(".llxprt/hookhost.lock"), lock);
}

/// Seen (issue 27, item 7): a `source` registered only under a Claude event was
/// never locked, while every fire said "run `hookhost lock`".
#[test]
fn lock_walks_every_event_of_every_dialect() {
    let registry = Registry::start();
    let p = Project::new();
    let claude_only = registry.reference("acme/echo:claude");
    let pushed = push(&p, guests::ECHO_POLICY, &claude_only);
    p.settings(json!({
        "PermissionRequest": [group(vec![source_hook(&claude_only)])],
    }));
    let dir = p.dir().to_str().unwrap().to_owned();
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_eq!(locked_digest(&p, &claude_only), pushed);
}

/// Seen (issue 29, item 3): for a hook in `.claude/settings.json` the hint said
/// `hookhost lock --project-dir …` without `--claude-settings`; run verbatim it
/// wrote `"modules": {}` and deleted the committed entry. The hint now names the
/// flag (and is run verbatim here), and a lock run without it keeps the entry.
#[test]
fn the_lock_hint_run_verbatim_fixes_it_and_a_lock_never_silently_loses_entries() {
    let registry = Registry::start();
    let p = Project::new();
    let reference = registry.reference("acme/echo:hint");
    let pushed = push(&p, guests::ECHO_POLICY, &reference);
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"hooks": [source_hook(&reference)]}]}}).to_string(),
    );
    let dir = p.dir().to_str().unwrap().to_owned();
    let fired = hookhost(
        &p,
        &[
            "fire",
            "PreToolUse",
            "--project-dir",
            &dir,
            "--claude-settings",
        ],
    );
    let out = fired.stdout_text();
    let hint = out
        .split("run `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no hint in {out}"));
    assert!(hint.contains("--claude-settings"), "{hint}");
    let words: Vec<&str> = hint.split_whitespace().collect();
    assert_eq!(words[0], "hookhost");
    ok(hookhost(&p, &words[1..]));
    assert_eq!(locked_digest(&p, &reference), pushed);

    // Without the flag the Claude file is not read: the entry is kept, said.
    let plain = ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert!(
        plain.stderr.contains("kept") && plain.stderr.contains("--claude-settings"),
        "{plain:?}"
    );
    assert_eq!(locked_digest(&p, &reference), pushed);
    ok(hookhost(&p, &["lock", "--project-dir", &dir, "--prune"]));
    assert!(!p.read(".llxprt/hookhost.lock").contains("acme/echo:hint"));
}

/// Seen (issue 29, item 2): a tagged `source` in user settings was locked into
/// the current project's lock, and every other repository denied every call.
/// The user's own files are locked in the user's lock: locked once, the policy
/// runs in every project.
#[test]
fn a_tag_in_user_settings_is_locked_once_for_every_project() {
    let registry = Registry::start();
    let p = Project::new();
    let reference = registry.reference("acme/echo:1");
    let pushed = push(&p, guests::ECHO_POLICY, &reference);
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"enableHooks": true},
               "hooks": {"BeforeTool": [group(vec![source_hook(&reference)])]}})
        .to_string(),
    );
    let user_lock = p.home().join(".llxprt/hookhost.lock");
    // Not locked yet: the hint names the user's lock and the command that fills it.
    let fired = fire(&p);
    assert!(
        errors(&fired).contains(&format!("not in {}", user_lock.display()))
            && errors(&fired).contains("hookhost lock --project-dir"),
        "{}",
        fired.out
    );

    let dir = p.dir().to_str().unwrap().to_owned();
    let locked = ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert!(
        locked.stdout_text().contains(&format!(
            "wrote {} (1 locked module(s))",
            user_lock.display()
        )),
        "{locked:?}"
    );
    assert!(
        !p.exists(".llxprt/hookhost.lock"),
        "the project's lock is not touched"
    );
    let lock: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&user_lock).unwrap()).unwrap();
    assert_eq!(lock["modules"][&reference]["digest"], pushed.as_str());
    assert_blocked(&fire(&p));

    // Another repository, never locked: the same policy runs there.
    let other = p.outside().join("other-repo");
    std::fs::create_dir_all(&other).unwrap();
    let mut command = hookhost_command(&p, &["fire", "BeforeTool", "--project-dir"]);
    command.arg(&other);
    let fired = crate::common::run(command, super::etc_input().to_string().as_bytes());
    assert_eq!(fired.code, 2, "{fired:?}");
    assert!(!other.join(".llxprt/hookhost.lock").exists());

    // `install` fetches and says so; it writes no lock.
    let installed = ok(hookhost(&p, &["install", "--project-dir", &dir]));
    assert!(
        installed
            .stdout_text()
            .contains(&format!("fetched {reference}@{pushed}"))
            && !installed.stdout_text().contains("locked")
            && !installed.stdout_text().contains("wrote"),
        "{installed:?}"
    );
}
