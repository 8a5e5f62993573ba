//! Distributing plugins through a real OCI registry: push, lock, offline fires,
//! moved tags, a tampered store, cosign-compatible signatures, basic auth, and the
//! Wasm OCI artifact layout other clients use.

use std::path::{Path, PathBuf};
use std::process::Command;

use hookhost_tests as guests;
use serde_json::{Value, json};

use crate::common::{Fired, Project, Run, group, run};
use crate::registry::Registry;

/// The input the echo policy blocks (a path under /etc).
fn etc_input() -> Value {
    json!({"tool_name": "read_file", "tool_input": {"path": "/etc/passwd"}})
}

fn store(p: &Project) -> PathBuf {
    p.home().join("module-store")
}

/// `hookhost ARGS…` with the project's private module store and no ambient
/// registry credentials.
fn hookhost(p: &Project, args: &[&str]) -> Run {
    run(hookhost_command(p, args), b"")
}

fn hookhost_command(p: &Project, args: &[&str]) -> Command {
    let mut command = p.command();
    command
        .args(args)
        .env("HOOKHOST_STORE_DIR", store(p))
        .env_remove("HOOKHOST_REGISTRY_TOKEN")
        .env("DOCKER_CONFIG", p.home().join("no-docker-config"));
    command
}

fn ok(run: Run) -> Run {
    assert_eq!(run.code, 0, "{run:?}");
    run
}

fn fire(p: &Project) -> Fired {
    let store = store(p);
    p.fire_with(
        "BeforeTool",
        etc_input(),
        &[],
        &[("HOOKHOST_STORE_DIR", store.to_str().unwrap())],
    )
}

fn source_hook(reference: &str) -> Value {
    json!({"type": "plugin", "source": reference})
}

fn settings_with(p: &Project, hook: Value) {
    p.settings(json!({"BeforeTool": [group(vec![hook])]}));
}

fn locked_digest(p: &Project, reference: &str) -> String {
    let lock = p.read_json(".llxprt/hookhost.lock");
    lock["modules"][reference]["digest"]
        .as_str()
        .unwrap_or_else(|| panic!("{reference} not locked: {lock}"))
        .to_owned()
}

fn digest_printed(run: &Run) -> String {
    let out = run.stdout_text();
    let at = out
        .find("@sha256:")
        .unwrap_or_else(|| panic!("no digest in {out}"));
    out[at + 1..at + 1 + 71].to_owned()
}

fn push(p: &Project, file: &str, reference: &str) -> String {
    digest_printed(&ok(hookhost(p, &["plugin", "push", file, reference])))
}

fn assert_blocked(fired: &Fired) {
    assert_eq!(fired.code, 2, "{:?} {}", fired.out, fired.stderr);
    assert_eq!(
        fired.out["finalOutput"]["decision"], "block",
        "{}",
        fired.out
    );
}

fn errors(fired: &Fired) -> String {
    fired.out["errors"].to_string()
}

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

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// A P-256 key pair as PEM files (private PKCS#8, public SPKI like `cosign.pub`).
fn key_pair(p: &Project, name: &str, seed: u8) -> (PathBuf, PathBuf) {
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
    ok(hookhost(
        &p,
        &[
            "plugin",
            "sign",
            &signed,
            "--key",
            private.to_str().unwrap(),
        ],
    ));

    let verified = |reference: &str, key: &Path| json!({"type": "plugin", "source": reference, "verify": {"key": key}, "failurePolicy": "block"});
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

    settings_with(&p, verified(&unsigned, &public));
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let fired = fire(&p);
    assert_eq!(fired.code, 2);
    let reason = fired.out["finalOutput"]["reason"].to_string();
    assert!(reason.contains("no signature"), "{}", fired.out);

    // A key per registry prefix in the user's settings applies to hooks without their own.
    settings_with(
        &p,
        json!({"type": "plugin", "source": signed, "failurePolicy": "block"}),
    );
    ok(hookhost(&p, &["lock", "--project-dir", &dir]));
    let user_settings = |key: &Path| {
        let prefix = format!("oci://{}/acme/", registry.host);
        p.write(
            p.home().join(".llxprt/settings.json"),
            json!({"tools": {"verifyPlugins": [{"prefix": prefix, "key": key}]}}).to_string(),
        );
    };
    user_settings(&other_public);
    let fired = fire(&p);
    assert!(
        fired.out["finalOutput"]["reason"]
            .to_string()
            .contains("signature invalid"),
        "{}",
        fired.out
    );
    user_settings(&public);
    assert_blocked(&fire(&p));
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
    let tag = format!("sha256-{}.sig", &digest["sha256:".len()..]);
    let manifest = curl_json(&format!(
        "http://{}/v2/acme/signed/manifests/{tag}",
        registry.host
    ));
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

fn curl(args: &[&str]) -> std::process::Output {
    Command::new("curl")
        .args(["-sS", "--fail"])
        .args(args)
        .output()
        .expect("curl")
}

fn curl_json(url: &str) -> Value {
    let out = curl(&[
        "-H",
        "Accept: application/vnd.oci.image.manifest.v1+json",
        url,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("manifest JSON")
}

#[test]
fn basic_auth_registry_uses_the_docker_config() {
    let registry = Registry::with_basic_auth("publisher", "s3cret-pass");
    let p = Project::new();
    let reference = registry.reference("acme/echo:1");
    let refused = hookhost(&p, &["plugin", "push", guests::ECHO_POLICY, &reference]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains(&reference), "{refused:?}");
    assert!(refused.stderr.contains("docker login"), "{refused:?}");

    let docker = p.home().join("docker");
    std::fs::create_dir_all(&docker).unwrap();
    let auth = base64_encode(b"publisher:s3cret-pass");
    std::fs::write(
        docker.join("config.json"),
        json!({"auths": {registry.host.clone(): {"auth": auth}}}).to_string(),
    )
    .unwrap();
    let with_login = |args: &[&str]| {
        let mut command = hookhost_command(&p, args);
        command.env("DOCKER_CONFIG", &docker);
        run(command, b"")
    };
    let pushed = ok(with_login(&[
        "plugin",
        "push",
        guests::ECHO_POLICY,
        &reference,
    ]));
    let pulled = ok(with_login(&["plugin", "pull", &reference]));
    for output in [&pushed, &pulled, &refused] {
        assert!(!output.stdout_text().contains("s3cret") && !output.stderr.contains("s3cret"));
    }
    // The bearer-token variable is tried before the Docker config: a wrong token is refused.
    let mut command = hookhost_command(&p, &["plugin", "pull", &reference]);
    command.env("HOOKHOST_REGISTRY_TOKEN", "not-a-token");
    let wrong = run(command, b"");
    assert_eq!(wrong.code, 1, "{wrong:?}");
    assert!(!wrong.stderr.contains("not-a-token"), "{wrong:?}");
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn pushed_artifact_has_the_wasm_oci_layout() {
    let registry = Registry::start();
    let p = Project::new();
    push(&p, guests::ECHO_POLICY, &registry.reference("acme/echo:1"));
    let manifest = curl_json(&format!(
        "http://{}/v2/acme/echo/manifests/1",
        registry.host
    ));
    assert_eq!(manifest["schemaVersion"], 2);
    assert_eq!(
        manifest["mediaType"],
        "application/vnd.oci.image.manifest.v1+json"
    );
    assert_eq!(
        manifest["config"]["mediaType"],
        "application/vnd.wasm.config.v0+json"
    );
    let layers = manifest["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 1, "{manifest}");
    assert_eq!(layers[0]["mediaType"], "application/wasm");
    let module = std::fs::read(guests::ECHO_POLICY).unwrap();
    assert_eq!(
        layers[0]["digest"],
        format!("sha256:{}", sha256_hex(&module))
    );
    assert_eq!(layers[0]["size"], module.len());
}

/// Uploads a blob the way any OCI client does (POST, then PUT with the digest).
fn upload_blob(registry: &Registry, repo: &str, bytes: &[u8], scratch: &Path) -> String {
    let digest = format!("sha256:{}", sha256_hex(bytes));
    let file = scratch.join(sha256_hex(bytes));
    std::fs::write(&file, bytes).unwrap();
    let out = curl(&[
        "-X",
        "POST",
        "-D",
        "-",
        "-o",
        "/dev/null",
        &format!("http://{}/v2/{repo}/blobs/uploads/", registry.host),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let headers = String::from_utf8_lossy(&out.stdout).into_owned();
    let location = headers
        .lines()
        .find_map(|l| {
            l.strip_prefix("Location: ")
                .or_else(|| l.strip_prefix("location: "))
        })
        .expect("Location header")
        .trim()
        .to_owned();
    let url = if location.starts_with("http") {
        location
    } else {
        format!("http://{}{location}", registry.host)
    };
    let separator = if url.contains('?') { '&' } else { '?' };
    let out = curl(&[
        "-X",
        "PUT",
        "-H",
        "Content-Type: application/octet-stream",
        "--data-binary",
        &format!("@{}", file.display()),
        &format!("{url}{separator}digest={digest}"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    digest
}

/// Stores a manifest under a tag, as any OCI client does.
fn put_manifest(registry: &Registry, repo: &str, tag: &str, manifest: &str, scratch: &Path) {
    let file = scratch.join("manifest.json");
    std::fs::write(&file, manifest).unwrap();
    let out = curl(&[
        "-X",
        "PUT",
        "-H",
        "Content-Type: application/vnd.oci.image.manifest.v1+json",
        "--data-binary",
        &format!("@{}", file.display()),
        &format!("http://{}/v2/{repo}/manifests/{tag}", registry.host),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn artifact_pushed_by_another_client_is_pulled_and_runs() {
    let registry = Registry::start();
    let p = Project::new();
    let scratch = tempfile::tempdir().unwrap();
    let module = std::fs::read(guests::ECHO_POLICY).unwrap();
    let module_digest = upload_blob(&registry, "other/echo", &module, scratch.path());
    let config = json!({
        "created": "2026-01-01T00:00:00Z",
        "architecture": "wasm",
        "os": "wasip2",
        "layerDigests": [module_digest],
        "component": null
    })
    .to_string();
    let config_digest = upload_blob(&registry, "other/echo", config.as_bytes(), scratch.path());
    let manifest = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.wasm.config.v0+json", "digest": config_digest, "size": config.len()},
        "layers": [{"mediaType": "application/wasm", "digest": module_digest, "size": module.len()}],
        "annotations": {"org.opencontainers.image.title": "echo-policy.wasm"}
    })
    .to_string();
    put_manifest(&registry, "other/echo", "v1", &manifest, scratch.path());
    let manifest_digest = format!("sha256:{}", sha256_hex(manifest.as_bytes()));

    let pinned = format!("{}@{manifest_digest}", registry.reference("other/echo:v1"));
    ok(hookhost(&p, &["plugin", "pull", &pinned]));
    settings_with(&p, source_hook(&pinned));
    assert_blocked(&fire(&p));

    // Something that is not a Wasm artifact is refused by name.
    let tar_digest = upload_blob(&registry, "other/image", b"not wasm", scratch.path());
    let image = json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config_digest, "size": config.len()},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": tar_digest, "size": 8}]
    })
    .to_string();
    // The config blob must exist in this repository too.
    upload_blob(&registry, "other/image", config.as_bytes(), scratch.path());
    put_manifest(&registry, "other/image", "v1", &image, scratch.path());
    let image_ref = registry.reference("other/image:v1");
    let refused = hookhost(&p, &["plugin", "pull", &image_ref]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(
        refused.stderr.contains(&image_ref) && refused.stderr.contains("not a Wasm artifact"),
        "{refused:?}"
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
