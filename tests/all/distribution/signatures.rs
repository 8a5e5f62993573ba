//! Cosign-compatible signatures: a valid one passes, a missing one or the wrong key
//! blocks, a key per registry prefix comes from the user's settings (never the
//! repository's), and the signature sits where cosign puts it.

use std::path::{Path, PathBuf};

use hookhost_tests as guests;
use serde_json::{Value, json};

use super::{
    assert_blocked, curl_json, fire, hookhost, locked_digest, ok, push, settings_with, source_hook,
};
use crate::common::{Project, Registry, group};

/// A P-256 key pair as PEM files (private PKCS#8, public SPKI like `cosign.pub`).
pub(super) fn key_pair(p: &Project, name: &str, seed: u8) -> (PathBuf, PathBuf) {
    use p256::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};
    let key = p256::ecdsa::SigningKey::from_slice(&[seed; 32]).unwrap();
    let private = p.write(
        format!("keys/{name}.key"),
        key.to_pkcs8_pem(LineEnding::LF).unwrap().as_bytes(),
    );
    let public = p.write(
        format!("keys/{name}.pub"),
        key.verifying_key()
            .to_public_key_pem(LineEnding::LF)
            .unwrap(),
    );
    (private, public)
}

/// A plugin hook on `reference` that must verify with `key` and blocks when it
/// cannot run.
fn verified_hook(reference: &str, key: &Path) -> Value {
    json!({"type": "plugin", "source": reference, "verify": {"key": key}, "failurePolicy": "block"})
}

/// `hookhost plugin sign REFERENCE --key KEY`, which must succeed.
fn sign(p: &Project, reference: &str, key: &Path) {
    ok(hookhost(
        p,
        &["plugin", "sign", reference, "--key", key.to_str().unwrap()],
    ));
}

/// The user's settings: verify everything under the registry's `acme/` with `key`.
fn user_key_for_acme(p: &Project, registry: &Registry, key: &Path) {
    let prefix = format!("oci://{}/acme/", registry.host);
    p.write(
        p.home().join(".llxprt/settings.json"),
        json!({"tools": {"verifyPlugins": [{"prefix": prefix, "key": key}]}}).to_string(),
    );
}

/// The manifest of the signature cosign stores for `digest` of `acme/signed`.
fn cosign_signature_manifest(registry: &Registry, digest: &str) -> Value {
    let tag = format!("sha256-{}.sig", &digest["sha256:".len()..]);
    curl_json(&format!(
        "http://{}/v2/acme/signed/manifests/{tag}",
        registry.host
    ))
}

#[test]
fn signatures_valid_missing_and_wrong_key() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (private, public) = key_pair(&p, "team", 7);
    let (_, other_public) = key_pair(&p, "other", 9);
    let signed = registry.reference("acme/signed:1");
    let unsigned = registry.reference("acme/unsigned:1");
    push(&p, guests::ECHO_POLICY, &signed);
    push(&p, guests::ECHO_POLICY_P1, &unsigned);
    sign(&p, &signed, &private);

    let verified = verified_hook;
    settings_with(&p, verified(&signed, &public));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let fired = fire(&p);
    assert_blocked(&fired);
    assert!(
        fired.out["errors"].as_array().is_none_or(Vec::is_empty),
        "{}",
        fired.out
    );

    settings_with(&p, verified(&signed, &other_public));
    let fired = fire(&p);
    assert_eq!(fired.code, 2);
    let reason = fired.out["finalOutput"]["reason"].to_string();
    assert!(reason.contains("signature invalid"), "{}", fired.out);

    // An unsigned module is refused by `lock` itself (it verifies before it
    // writes), and then blocks at fire time as not locked.
    settings_with(&p, verified(&unsigned, &public));
    let refused = hookhost(&p, &["lock", "--project-dir", &dir]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("no signature"), "{refused:?}");
    let fired = fire(&p);
    assert_eq!(fired.code, 2);

    // A key per registry prefix in the user's settings applies to hooks without their own.
    settings_with(
        &p,
        json!({"type": "plugin", "source": signed, "failurePolicy": "block"}),
    );
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    user_key_for_acme(&p, &registry, &other_public);
    let fired = fire(&p);
    assert!(
        fired.out["finalOutput"]["reason"]
            .to_string()
            .contains("signature invalid"),
        "{}",
        fired.out
    );
    user_key_for_acme(&p, &registry, &public);
    assert_blocked(&fire(&p));
    // `check` shows which key a module must verify with, and why.
    let check = ok(hookhost(&p, &["check", "--project-dir", &dir]));
    assert!(
        check.stdout_text().contains(&format!(
            "signature verified with {} (required by tools.verifyPlugins)",
            public.display()
        )),
        "{check:?}"
    );
    // A repository cannot choose the key.
    p.settings_raw(&json!({
        "tools": {"enableHooks": true, "verifyPlugins": [{"prefix": "oci://", "key": public}]},
        "hooks": {"BeforeTool": [group(vec![verified(&unsigned, &public)])]}
    }));
    let check = hookhost(&p, &["check", "--project-dir", &dir]);
    assert!(
        check.stderr.contains("tools.verifyPlugins: ignored here"),
        "{check:?}"
    );

    // Interop: the signature is where cosign puts it, in cosign's layout.
    let digest = locked_digest_of(&p, &dir, &signed);
    let manifest = cosign_signature_manifest(&registry, &digest);
    let layer = &manifest["layers"][0];
    assert_eq!(
        layer["mediaType"],
        "application/vnd.dev.cosign.simplesigning.v1+json"
    );
    assert!(layer["annotations"]["dev.cosignproject.cosign/signature"].is_string());
}

fn locked_digest_of(p: &Project, dir: &str, reference: &str) -> String {
    settings_with(p, source_hook(reference));
    ok(hookhost(p, &["lock", "--project-dir", dir]));
    locked_digest(p, reference)
}

/// Seen (issue 29, item 1): the user's settings require the security team's key
/// for `acme/`; a repository's hook names its own `verify.key` (an attacker's) and
/// its allow-all module, signed by that key, ran. The required key always applies.
#[test]
fn a_repository_cannot_replace_the_required_key() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (_, team_public) = key_pair(&p, "team", 7);
    let (attacker, attacker_public) = key_pair(&p, "attacker", 11);
    let reference = registry.reference("acme/replaced:1");
    push(&p, guests::ECHO_POLICY, &reference);
    sign(&p, &reference, &attacker);
    user_key_for_acme(&p, &registry, &team_public);
    settings_with(
        &p,
        json!({"type": "plugin", "source": reference, "verify": {"key": attacker_public}}),
    );
    // `lock` refuses it (the required key does not verify it) …
    let lock = hookhost(&p, &["lock", "--project-dir", &dir]);
    assert_eq!(lock.code, 1, "{lock:?}");
    assert!(lock.stderr.contains("team.pub"), "{lock:?}");
    // … and so does a fire of it pinned by digest, which needs no lock.
    let digest = lock
        .stderr
        .split('@')
        .nth(1)
        .and_then(|rest| rest.split(':').nth(1))
        .map(|hex| format!("sha256:{}", &hex[..64.min(hex.len())]))
        .expect("the refused digest is named");
    settings_with(
        &p,
        json!({"type": "plugin", "source": format!("{reference}@{digest}"), "verify": {"key": attacker_public}}),
    );
    let fired = fire(&p);
    assert_ne!(
        fired.code, 2,
        "the attacker-signed module ran: {}",
        fired.out
    );
    let errors = fired.out["errors"].to_string();
    assert!(
        errors.contains("signature invalid") || errors.contains("no signature"),
        "{}",
        fired.out
    );
}

/// Seen (issue 29, item 4): `lock --update` locked an unsigned module re-pushed
/// under the tag ("locked …", exit 0), and the refusal came at fire time for
/// everyone who pulled the lock. `lock` verifies before it writes; the old entry
/// stays.
#[test]
fn lock_refuses_a_module_that_does_not_verify() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (team, team_public) = key_pair(&p, "team", 7);
    let reference = registry.reference("acme/refused:1");
    let signed = push(&p, guests::ECHO_POLICY, &reference);
    sign(&p, &reference, &team);
    user_key_for_acme(&p, &registry, &team_public);
    settings_with(&p, source_hook(&reference));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_eq!(locked_digest(&p, &reference), signed);

    let unsigned = push(&p, guests::ECHO_POLICY_P1, &reference);
    assert_ne!(unsigned, signed);
    let update = hookhost(&p, &["lock", "--project-dir", &dir, "--update"]);
    assert_eq!(update.code, 1, "{update:?}");
    assert!(
        update.stderr.contains("refused, not locked") && update.stderr.contains("team.pub"),
        "{update:?}"
    );
    assert_eq!(
        locked_digest(&p, &reference),
        signed,
        "the old entry must stay"
    );
    assert_blocked(&fire(&p));
}

/// Seen (issue 29, item 6): a signature record deleted from the store was
/// reported as a module that was never signed. The two are told apart, and the
/// message names the command that fetches the record again.
#[test]
fn a_removed_signature_record_is_not_called_unsigned() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (private, public) = key_pair(&p, "team", 7);
    let signed = registry.reference("acme/signed:1");
    let digest = push(&p, guests::ECHO_POLICY, &signed);
    sign(&p, &signed, &private);
    settings_with(&p, verified_hook(&signed, &public));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_blocked(&fire(&p));
    let record = super::store(&p)
        .join("signatures")
        .join(format!("sha256-{}.sig", &digest["sha256:".len()..]));
    std::fs::remove_file(&record).unwrap_or_else(|e| panic!("{}: {e}", record.display()));
    let fired = fire(&p);
    let reason = fired.out["finalOutput"]["reason"].to_string();
    assert!(
        reason.contains("no signature record") && reason.contains("hookhost install"),
        "{}",
        fired.out
    );
    assert!(!reason.contains("was found when it was pulled"), "{reason}");
    // The command named fetches it again, and the policy runs.
    ok(hookhost(&p, &["install", "--project-dir", &dir]));
    let fired = fire(&p);
    assert_blocked(&fired);
    assert!(
        fired.out["errors"].as_array().is_none_or(Vec::is_empty),
        "{}",
        fired.out
    );
}

/// Seen (issue 29, item 6): pushing the same bytes again gave a new manifest
/// digest (the config carried the time of the push), so the signature no longer
/// applied. A push is reproducible: same bytes, same digest, still signed.
#[test]
fn pushing_the_same_bytes_again_keeps_the_digest_and_the_signature() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (private, public) = key_pair(&p, "team", 7);
    let reference = registry.reference("acme/signed:1");
    let first = push(&p, guests::ECHO_POLICY, &reference);
    sign(&p, &reference, &private);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let again = push(&p, guests::ECHO_POLICY, &reference);
    assert_eq!(first, again, "same bytes, same manifest digest");
    let elsewhere = push(&p, guests::ECHO_POLICY, &registry.reference("acme/copy:2"));
    assert_eq!(first, elsewhere);
    settings_with(&p, verified_hook(&reference, &public));
    ok(hookhost(&p, &["lock", "--project-dir", &dir, "--update"]));
    assert_blocked(&fire(&p));
}

/// Issue 38: a builtin's bytes go to a registry with `hookhost plugin push
/// builtin:NAME`, keep the digest `hookhost policy list` shows, are signed like
/// any module, and the signed, locked copy enforces the same policy.
#[test]
fn a_builtin_is_pushed_signed_and_enforced_from_a_registry() {
    let registry = Registry::start();
    let p = Project::new();
    let dir = p.dir().to_str().unwrap().to_owned();
    let (private, public) = key_pair(&p, "team", 11);
    let reference = registry.reference("acme/destructive:1");
    let digest = push(&p, "builtin:destructive", &reference);
    // The module layer is the builtin's bytes, by the digest `policy list` shows.
    let manifest = curl_json(&format!(
        "http://{}/v2/acme/destructive/manifests/{digest}",
        registry.host
    ));
    let layer = manifest["layers"][0]["digest"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let listed = ok(hookhost(&p, &["policy", "list"])).stdout_text();
    assert!(
        layer.len() == 71 && listed.contains(&layer),
        "{layer} not in {listed}"
    );
    sign(&p, &reference, &private);
    settings_with(&p, verified_hook(&reference, &public));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    assert_eq!(locked_digest(&p, &reference), digest);
    let fired = p.fire_with(
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "sudo rm -rf /usr/lib"}}),
        &[],
        &[("HOOKHOST_STORE_DIR", super::store(&p).to_str().unwrap())],
    );
    assert_blocked(&fired);
    let reason = fired.out["finalOutput"]["reason"].to_string();
    assert!(reason.contains("/usr/lib"), "{}", fired.out);
    let unknown = hookhost(&p, &["plugin", "push", "builtin:nope", &reference]);
    assert_eq!(unknown.code, 1, "{unknown:?}");
    assert!(unknown.stderr.contains("nope"), "{unknown:?}");
}
