//! One spelling per module: the canonical form of an `oci://` reference, which
//! every comparison uses (`tools.verifyPlugins` prefixes, lock keys, the trust
//! gate's display, plugin state identities, credentials, `--insecure`).
//!
//! A registry host can be spelled many ways that reach the same server; a rule
//! written for one spelling must hold for all of them, or `oci://GHCR.IO/acme/…`
//! escapes a signature required for `oci://ghcr.io/acme/`. The canonical form is
//! what the registry client actually contacts: hosts go through the same URL
//! parser (WHATWG, the `url` crate) that the client's HTTP stack uses.
//!
//! * **Host**: lower-cased (`GHCR.IO` → `ghcr.io`); one trailing dot dropped
//!   (`ghcr.io.` → `ghcr.io`, a fully qualified name of the same host); IPv4 in
//!   any form the URL parser accepts is written dotted-decimal (`127.1`,
//!   `0x7f.0.0.1` → `127.0.0.1`); IPv6 is compressed (`[0:0::1]` → `[::1]`).
//!   Empty labels (`a..b`, `.a`) are refused.
//! * **Port**: the default port of the protocol hookhost uses is dropped, and
//!   leading zeros go: `:443` for registries reached over HTTPS; for a loopback
//!   registry (reached over plain HTTP) `:80`, while `:443` stays (it is another
//!   port there).
//! * **Docker Hub**: `docker.io`, `index.docker.io`, `registry-1.docker.io` and
//!   `registry.hub.docker.com` are `docker.io`; a first path component that is
//!   not a host (no `.` or `:`, not `localhost`) is a Docker Hub namespace, as
//!   for Docker and the registry client (`oci://acme/scan` →
//!   `oci://docker.io/acme/scan`); a one-component Docker Hub repository is in
//!   `library/` (`oci://docker.io/alpine` → `oci://docker.io/library/alpine`).
//!
//! Names that DNS may resolve to one address (`localhost` and `127.0.0.1`, a
//! CNAME) are not unified: hookhost does not resolve names to compare them.
//!
//! A `tools.verifyPlugins` prefix is canonicalised the same way ([`prefix_match`]);
//! where a prefix is ambiguous it covers every reading (a Docker Hub prefix
//! without `/` covers `library/`, a host-only prefix also as written), and ports
//! 80 and 443 are ignored on both sides, since `--insecure` decides at fetch time
//! which of them is a registry's default: a prefix may cover more spellings than
//! strictly needed, never fewer.

use url::{Host, Url};

/// The scheme of a module reference.
pub const SCHEME: &str = "oci://";

/// Docker Hub's canonical registry name.
pub const DOCKER_HUB: &str = "docker.io";

/// Other names of Docker Hub's registry.
const DOCKER_HUB_ALIASES: [&str; 3] = [
    "index.docker.io",
    "registry-1.docker.io",
    "registry.hub.docker.com",
];

/// Docker Hub's namespace of official images.
const OFFICIAL: &str = "library/";

/// The canonical registry host (with its port, if not the default), or `None`
/// if `raw` is not a registry host (characters other than ASCII letters, digits,
/// `.`, `-`, `:`, `[`, `]`; empty labels; an invalid port or address).
pub fn canonical_registry(raw: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || ".-:[]".contains(c);
    if raw.is_empty() || !raw.chars().all(allowed) {
        return None;
    }
    let secure = Url::parse(&format!("https://{raw}/")).ok()?;
    let (host, loopback) = match secure.host()? {
        Host::Domain(domain) => {
            let domain = domain.strip_suffix('.').unwrap_or(domain);
            if domain.is_empty() || domain.split('.').any(str::is_empty) {
                return None;
            }
            (domain.to_owned(), domain == "localhost")
        }
        Host::Ipv4(ip) => (ip.to_string(), ip.is_loopback()),
        Host::Ipv6(ip) => (format!("[{ip}]"), ip.is_loopback()),
    };
    // The URL parser drops the scheme's default port: HTTPS's, except for a
    // loopback registry, which the client reaches over plain HTTP.
    let port = if loopback {
        Url::parse(&format!("http://{raw}/")).ok()?.port()
    } else {
        secure.port()
    };
    Some(match port {
        Some(port) => format!("{host}:{port}"),
        None if DOCKER_HUB_ALIASES.contains(&host.as_str()) => DOCKER_HUB.to_owned(),
        None => host,
    })
}

/// Whether the first path component of a reference names a registry host rather
/// than a Docker Hub namespace (Docker's rule, which the registry client follows).
fn names_a_host(component: &str) -> bool {
    component.contains('.')
        || component.contains(':')
        || component.eq_ignore_ascii_case("localhost")
}

/// Splits `NAME` (a reference without scheme, tag and digest) into canonical
/// registry and repository; `None` when the registry is not a valid host. The
/// repository is returned as written (the caller checks its characters).
pub fn canonical_name(name: &str) -> Option<(String, String)> {
    let (first, rest) = name.split_once('/')?;
    let (registry, repository) = if names_a_host(first) {
        (canonical_registry(first)?, rest.to_owned())
    } else {
        (DOCKER_HUB.to_owned(), name.to_owned())
    };
    let repository = if registry == DOCKER_HUB && !repository.contains('/') {
        format!("{OFFICIAL}{repository}")
    } else {
        repository
    };
    Some((registry, repository))
}

/// The canonical spellings a `tools.verifyPlugins` prefix (after `oci://`)
/// stands for; every one is a plain text prefix of canonical references.
fn prefix_readings(prefix: &str) -> Vec<String> {
    let lower = prefix.to_ascii_lowercase();
    let mut readings = Vec::new();
    match prefix.split_once('/') {
        Some((first, rest)) => {
            let (registry, path) = if names_a_host(first) {
                // A bad host cannot match a valid reference: kept as written.
                let registry = canonical_registry(first).unwrap_or_else(|| first.to_lowercase());
                (registry, rest.to_owned())
            } else {
                (DOCKER_HUB.to_owned(), prefix.to_owned())
            };
            if registry == DOCKER_HUB && !path.contains('/') {
                readings.push(format!("{registry}/{OFFICIAL}{path}"));
            }
            readings.push(format!("{registry}/{path}"));
        }
        // A host alone may be cut anywhere (`ghcr`, `127.0.0`), where the URL
        // parser would complete it: the text as written counts too.
        None => {
            readings.extend(canonical_registry(prefix));
            if !prefix.is_empty() && !names_a_host(prefix) {
                readings.push(format!("{DOCKER_HUB}/{lower}"));
                readings.push(format!("{DOCKER_HUB}/{OFFICIAL}{lower}"));
            }
            readings.push(lower);
        }
    }
    readings
}

/// `text` (after `oci://`) without an explicit port 80 or 443 on its host.
fn without_web_port(text: &str) -> String {
    let (host, path) = text.split_at(text.find('/').unwrap_or(text.len()));
    let host = host
        .strip_suffix(":443")
        .or_else(|| host.strip_suffix(":80"))
        .unwrap_or(host);
    format!("{host}{path}")
}

/// How much of `reference` (a canonical `oci://` reference) the
/// `tools.verifyPlugins` prefix `prefix` (`oci://…`, as configured) covers: the
/// length of the longest canonical reading of the prefix that starts the
/// reference, or `None` if the prefix does not cover it. The longest match wins
/// among several rules.
pub fn prefix_match(prefix: &str, reference: &str) -> Option<usize> {
    let prefix = prefix.strip_prefix(SCHEME).unwrap_or(prefix);
    let reference = reference.strip_prefix(SCHEME)?;
    let reference = without_web_port(reference);
    prefix_readings(prefix)
        .into_iter()
        .map(|reading| without_web_port(&reading))
        .filter(|reading| reference.starts_with(reading.as_str()))
        .map(|reading| SCHEME.len() + reading.len())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_of_a_host_is_one_registry() {
        for (raw, canonical) in [
            ("ghcr.io", "ghcr.io"),
            ("GHCR.IO", "ghcr.io"),
            ("GhCr.Io", "ghcr.io"),
            ("ghcr.io.", "ghcr.io"),
            ("ghcr.io:443", "ghcr.io"),
            ("ghcr.io:0443", "ghcr.io"),
            ("GHCR.IO.:443", "ghcr.io"),
            ("ghcr.io:", "ghcr.io"),
            ("ghcr.io:80", "ghcr.io:80"),
            ("ghcr.io:5000", "ghcr.io:5000"),
            ("127.0.0.1:5000", "127.0.0.1:5000"),
            ("127.1:5000", "127.0.0.1:5000"),
            ("0x7f.0.0.1:5000", "127.0.0.1:5000"),
            ("2130706433:5000", "127.0.0.1:5000"),
            ("127.0.0.1.:5000", "127.0.0.1:5000"),
            ("LOCALHOST:5000", "localhost:5000"),
            ("localhost.:5000", "localhost:5000"),
            ("[0:0:0:0:0:0:0:1]:5000", "[::1]:5000"),
        ] {
            assert_eq!(canonical_registry(raw).as_deref(), Some(canonical), "{raw}");
        }
    }

    /// A loopback registry is reached over plain HTTP: 80 is its default port,
    /// 443 is not.
    #[test]
    fn the_default_port_is_that_of_the_protocol_used() {
        assert_eq!(
            canonical_registry("localhost:80").as_deref(),
            Some("localhost")
        );
        assert_eq!(
            canonical_registry("127.0.0.1:80").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(canonical_registry("[::1]:80").as_deref(), Some("[::1]"));
        assert_eq!(
            canonical_registry("localhost:443").as_deref(),
            Some("localhost:443")
        );
        assert_eq!(
            canonical_registry("example.com:443").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            canonical_registry("example.com:80").as_deref(),
            Some("example.com:80")
        );
    }

    #[test]
    fn docker_hub_has_one_name() {
        for raw in [
            "docker.io",
            "DOCKER.IO.",
            "index.docker.io",
            "registry-1.docker.io:443",
            "registry.hub.docker.com",
        ] {
            assert_eq!(
                canonical_registry(raw).as_deref(),
                Some(DOCKER_HUB),
                "{raw}"
            );
        }
        assert_eq!(
            canonical_registry("docker.io:5000").as_deref(),
            Some("docker.io:5000")
        );
        let name = |text| canonical_name(text).unwrap();
        let hub = |repo: &str| (DOCKER_HUB.to_owned(), repo.to_owned());
        assert_eq!(name("docker.io/alpine"), hub("library/alpine"));
        assert_eq!(
            name("index.docker.io/library/alpine"),
            hub("library/alpine")
        );
        assert_eq!(name("registry-1.docker.io/acme/scan"), hub("acme/scan"));
        assert_eq!(name("acme/scan"), hub("acme/scan"));
        assert_eq!(name("acme/team/scan"), hub("acme/team/scan"));
        assert_eq!(
            name("LOCALHOST/scan"),
            ("localhost".to_owned(), "scan".to_owned())
        );
    }

    #[test]
    fn hosts_that_are_not_hosts_are_refused() {
        for bad in [
            "",
            "a..b",
            ".ghcr.io",
            "ghcr.io..",
            "gh_cr.io",
            "ghcr.io:99999",
            "ghcr.io:x",
            "::1",
        ] {
            assert_eq!(canonical_registry(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_prefix_covers_every_spelling_of_what_it_names() {
        let covers = |prefix: &str, reference: &str| prefix_match(prefix, reference).is_some();
        for prefix in [
            "oci://ghcr.io/acme/",
            "oci://GHCR.IO/acme/",
            "oci://ghcr.io.:443/acme/",
            "oci://ghcr.io:80/acme/",
            "oci://ghcr.io",
            "oci://GHCR",
            "oci://",
        ] {
            assert!(covers(prefix, "oci://ghcr.io/acme/scan:1"), "{prefix}");
        }
        assert!(!covers("oci://ghcr.io/acme/", "oci://ghcr.io/other/scan:1"));
        assert!(!covers(
            "oci://ghcr.io/acme/",
            "oci://ghcr.io:5000/acme/scan:1"
        ));
        // Ports 80 and 443 may be either protocol's default (`--insecure`).
        assert!(covers("oci://reg.lan/acme/", "oci://reg.lan:80/acme/x:1"));
        assert!(covers(
            "oci://localhost/acme/",
            "oci://localhost:443/acme/x:1"
        ));
        // A host cut short is read as written too.
        assert!(covers("oci://127.0.0", "oci://127.0.0.1:5000/acme/x:1"));
        // Docker Hub: aliases, implicit registry, `library/`.
        for prefix in [
            "oci://docker.io/alpine",
            "oci://index.docker.io/library/alpine",
            "oci://alpine/",
        ] {
            let reference = if prefix.ends_with('/') {
                "oci://docker.io/alpine/tool:1"
            } else {
                "oci://docker.io/library/alpine:3"
            };
            assert!(covers(prefix, reference), "{prefix}");
        }
        assert!(covers(
            "oci://docker.io/acme",
            "oci://docker.io/acme/scan:1"
        ));
    }

    #[test]
    fn the_longest_canonical_reading_wins() {
        let reference = "oci://ghcr.io/acme/scan:1";
        let short = prefix_match("oci://ghcr.io.:443/", reference);
        let long = prefix_match("oci://ghcr.io/acme/", reference);
        assert_eq!(short, Some("oci://ghcr.io/".len()));
        assert_eq!(long, Some("oci://ghcr.io/acme/".len()));
    }
}
