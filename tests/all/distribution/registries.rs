//! Interoperating with registries and other OCI clients: basic auth through the Docker
//! config (and a bearer token first), the Wasm OCI artifact layout of a push, and an
//! artifact pushed by another client pulled and run (a non-Wasm one refused by name).

use std::path::Path;

use hookhost_tests as guests;
use serde_json::json;

use super::{
    assert_blocked, curl, curl_json, fire, hookhost, hookhost_command, ok, push, settings_with,
    sha256_hex, source_hook,
};
use crate::common::{Project, Registry, run};

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
