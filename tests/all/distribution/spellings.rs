//! One registry, many spellings: `oci://LOCALHOST.:PORT/…`, `oci://127.1:PORT/…`
//! and `oci://127.0.0.1:PORT/…` reach the same registry, so a
//! `tools.verifyPlugins` prefix written for one holds for all of them, a lock
//! entry is found (and cannot be doubled) under any of them, and an approval
//! covers them all. References are compared in canonical form
//! (`hookhost::distribution::canonical`).

use std::path::Path;

use hookhost_tests as guests;
use serde_json::{Value, json};

use super::signatures::key_pair;
use super::{
    assert_blocked, errors, fire, hookhost, locked_digest, ok, push, settings_with, source_hook,
};
use crate::common::{Fired, Project, Registry};

/// The registry's port.
fn port(registry: &Registry) -> String {
    registry
        .host
        .rsplit_once(':')
        .map(|(_, port)| port.to_owned())
        .expect("HOST:PORT")
}

/// The user's settings: every prefix of `prefixes` needs a signature by `key`.
fn user_rules(p: &Project, prefixes: &[String], key: &Path) {
    let rules: Vec<Value> = prefixes
        .iter()
        .map(|prefix| json!({"prefix": prefix, "key": key}))
        .collect();
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"verifyPlugins": rules}}).to_string(),
    );
}

/// A lock file entry at `digest`.
fn entry(digest: &str) -> Value {
    json!({"digest": digest, "module": format!("sha256:{}", "0".repeat(64)), "size": 1})
}

/// The echo policy did not run (it would block), and the hook failed for want of
/// a signature.
fn refused_unsigned(fired: &Fired, spelled: &str) {
    assert_eq!(
        fired.code, 0,
        "{spelled}: the unsigned module ran: {}",
        fired.out
    );
    assert!(
        errors(fired).contains("no signature"),
        "{spelled}: {}",
        fired.out
    );
}

/// An unsigned module under the registry's `acme/`, pushed and pulled into the
/// store (as `lock` leaves a module it refused); its manifest digest.
fn unsigned_in_store(p: &Project, registry: &Registry) -> String {
    let unsigned = registry.reference("acme/unsigned:1");
    let digest = push(p, guests::ECHO_POLICY, &unsigned);
    ok(hookhost(
        p,
        &["plugin", "pull", &format!("{unsigned}@{digest}")],
    ));
    digest
}

/// Seen: a prefix `oci://ghcr.io/acme/` required no signature of
/// `oci://GHCR.IO/acme/…`, `oci://ghcr.io:443/acme/…` or `oci://ghcr.io./acme/…`,
/// and an unsigned module ran under such a spelling. Here every spelling of the
/// loopback registry (and of the rules themselves) is refused.
#[test]
fn a_required_signature_holds_for_every_spelling_of_the_registry() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let port = port(&registry);
    let (_, team) = key_pair(&p, "team", 7);
    let digest = unsigned_in_store(&p, &registry);
    // The rules are spelled their own way too: a prefix is canonical as well.
    user_rules(
        &p,
        &[
            format!("oci://LOCALHOST:{port}/acme/"),
            format!("oci://127.0.0.1.:{port}/acme/"),
        ],
        &team,
    );
    for spelled in [
        format!("oci://127.0.0.1:{port}/acme/unsigned:1"),
        format!("oci://localhost:{port}/acme/unsigned:1"),
        format!("oci://localhost.:{port}/acme/unsigned:1"),
        format!("oci://LocalHost.:0{port}/acme/unsigned:1"),
        format!("oci://127.1:{port}/acme/unsigned:1"),
        format!("oci://0x7f.0.0.1:{port}/acme/unsigned:1"),
        format!("oci://127.0.0.1.:{port}/acme/unsigned:1"),
    ] {
        settings_with(&p, source_hook(&format!("{spelled}@{digest}")));
        refused_unsigned(&fire(&p), &spelled);
    }
    // `check` shows the canonical reference and the key it requires.
    let check = hookhost(&p, &["check", "--project-dir", &dir]);
    let listing = check.stdout_text();
    assert!(
        listing.contains(&format!(
            "source: oci://127.0.0.1:{port}/acme/unsigned:1@{digest}"
        )) && listing.contains("team.pub (required by tools.verifyPlugins)"),
        "{check:?}"
    );
}

/// A tag spelled another way, with a lock entry under that spelling committed by
/// the repository: the fire refuses it, and so does `hookhost lock`.
#[test]
fn a_respelled_tag_and_its_lock_entry_still_need_the_signature() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let port = port(&registry);
    let (_, team) = key_pair(&p, "team", 7);
    let digest = unsigned_in_store(&p, &registry);
    user_rules(&p, &[format!("oci://127.0.0.1:{port}/acme/")], &team);
    let spelled = format!("oci://127.1:{port}/acme/unsigned:1");
    settings_with(&p, source_hook(&spelled));
    p.write(
        ".llxprt/hookhost.lock",
        json!({"version": 1, "modules": {spelled.clone(): entry(&digest)}}).to_string(),
    );
    refused_unsigned(&fire(&p), &spelled);
    let lock = hookhost(&p, &["lock", "--project-dir", &dir]);
    assert_eq!(lock.code, 1, "{lock:?}");
    assert!(
        lock.stderr.contains("refused, not locked") && lock.stderr.contains("team.pub"),
        "{lock:?}"
    );
}

/// Two spellings of one tag are one module: the lock entry of one is the other's
/// (a moved tag is not followed by re-spelling it), a lock cannot hold both at
/// different digests, and an approval of one covers the other.
#[test]
fn two_spellings_are_one_lock_entry_and_one_approval() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let port = port(&registry);
    let reference = format!("oci://localhost:{port}/acme/echo:1");
    let first = push(&p, guests::ECHO_POLICY, &reference);
    settings_with(&p, source_hook(&reference));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let locked = p.read(".llxprt/hookhost.lock");
    let moved = push(&p, guests::ECHO_POLICY_P1, &reference);
    assert_ne!(moved, first);

    let spelled = format!("oci://LOCALHOST.:{port}/acme/echo:1");
    settings_with(&p, source_hook(&spelled));
    let check = hookhost(&p, &["check", "--project-dir", &dir]);
    assert!(
        check
            .stdout_text()
            .contains(&format!("source: {reference}  digest {first}")),
        "{check:?}"
    );
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let modules = p.read_json(".llxprt/hookhost.lock")["modules"].clone();
    let keys: Vec<&String> = modules.as_object().map(|m| m.keys().collect()).unwrap();
    assert_eq!(keys, [&reference], "{modules}");
    assert_eq!(locked_digest(&p, &reference), first);

    // A second entry for the tag under another spelling, at another digest.
    p.write(
        ".llxprt/hookhost.lock",
        json!({"version": 1, "modules": {
            reference.clone(): entry(&first),
            format!("oci://LocalHost:{port}/acme/echo:1"): entry(&moved),
        }})
        .to_string(),
    );
    let fired = fire(&p);
    assert_eq!(fired.code, 0, "{}", fired.out);
    assert!(
        errors(&fired).contains("the same reference")
            && errors(&fired).contains("different digests"),
        "{}",
        fired.out
    );

    // Approved under one spelling, approved under the other.
    p.write(".llxprt/hookhost.lock", &locked);
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"requireHookTrust": true}}).to_string(),
    );
    settings_with(&p, source_hook(&reference));
    ok(hookhost(&p, &["trust", "--project-dir", &dir]));
    settings_with(&p, source_hook(&spelled));
    let fired = fire(&p);
    assert_blocked(&fired);
    assert!(!fired.stderr.contains("untrusted"), "{}", fired.stderr);
}
