//! `allowedHosts`: every request and every redirect hop checked, DNS answers in
//! internal ranges refused unless listed, responses capped, loops ended by the
//! deadline; denials are error values the guest sees.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use super::{capability, fire_hooks, said};
use crate::common::{Endpoint, Project, Reply, cmd, group};

#[test]
fn only_listed_hosts_are_reached_and_a_denial_is_an_error_value() {
    let allowed = Endpoint::answering(200, r#"{"allowed": true}"#);
    let forbidden = Endpoint::answering(200, "secret");
    let p = Project::new();
    let allowed_host = allowed.url("").trim_start_matches("http://").to_owned();
    let grant = json!({"allowedHosts": [allowed_host]});

    let fired = fire_hooks(
        &p,
        vec![capability(
            &["get", &allowed.url("/allow?p=x")],
            grant.clone(),
        )],
    );
    fired.assert_clean();
    assert!(said(&fired).starts_with("status=200 "), "{fired:#?}");
    assert!(said(&fired).contains(r#"{"allowed": true}"#), "{fired:#?}");
    assert_eq!(allowed.only_request().path, "/allow?p=x");

    // Another port of the same address is another host.
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["get", &forbidden.url("/x?token=s3cret")],
            grant,
        )],
    );
    fired.assert_clean();
    assert!(said(&fired).contains("denied"), "{fired:#?}");
    assert!(
        forbidden.requests().is_empty(),
        "the forbidden server was reached"
    );
    // hookhost says why, in the hook's logs.
    let logs = fired.hooks()[0]["logs"].to_string();
    assert!(logs.contains("is not in allowedHosts"), "{logs}");
    assert!(
        logs.contains("/x") && !logs.contains("s3cret"),
        "no query string in logs: {logs}"
    );

    // No grant at all: denied, and the next hook still runs.
    let fired = fire_hooks(
        &p,
        vec![
            capability(&["get", &allowed.url("/")], json!({})),
            cmd("echo after"),
        ],
    );
    assert!(said(&fired).contains("denied"), "{fired:#?}");
    assert_eq!(fired.hooks().len(), 2, "{fired:#?}");
    assert_eq!(allowed.requests().len(), 1, "no second request arrived");
}

#[test]
fn a_redirect_to_a_forbidden_host_is_not_followed() {
    let forbidden = Endpoint::answering(200, "secret");
    let target = forbidden.url("/steal");
    let redirecting = Endpoint::start(move |_| Reply::Respond {
        status: 302,
        headers: vec![("Location".into(), target.clone())],
        body: Vec::new(),
    });
    let p = Project::new();
    let host = redirecting.url("").trim_start_matches("http://").to_owned();
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["redirect", &redirecting.url("/go")],
            json!({"allowedHosts": [host]}),
        )],
    );
    fired.assert_clean();
    let answer = said(&fired);
    assert!(answer.starts_with("first=302 "), "{answer}");
    assert!(answer.contains("denied"), "{answer}");
    assert!(forbidden.requests().is_empty(), "the redirect was followed");
}

#[test]
fn a_name_resolving_to_loopback_is_refused_unless_the_address_is_listed() {
    let server = Endpoint::answering(200, "local");
    let port = server
        .url("")
        .rsplit(':')
        .next()
        .unwrap_or_default()
        .to_owned();
    let url = format!("http://localhost:{port}/");
    let p = Project::new();

    let fired = fire_hooks(
        &p,
        vec![capability(
            &["get", &url],
            json!({"allowedHosts": [format!("localhost:{port}")]}),
        )],
    );
    assert!(said(&fired).contains("denied"), "{fired:#?}");
    assert!(
        server.requests().is_empty(),
        "a name was followed into loopback"
    );
    let logs = fired.hooks()[0]["logs"].to_string();
    assert!(logs.contains("resolves to"), "{logs}");

    // Listing the addresses themselves says the local network is meant.
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["get", &url],
            json!({"allowedHosts": [format!("localhost:{port}"), "127.0.0.0/8", "::1"]}),
        )],
    );
    assert!(said(&fired).starts_with("status=200 "), "{fired:#?}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_request_loop_ends_at_the_deadline() {
    let server = Endpoint::answering(200, "ok");
    let p = Project::new();
    let host = server.url("").trim_start_matches("http://").to_owned();
    let started = Instant::now();
    let fired = fire_hooks(
        &p,
        vec![
            capability(
                &["loop", &server.url("/")],
                json!({"allowedHosts": [host], "timeout": 1500}),
            ),
            cmd("echo after"),
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(fired.code, 0, "fail-open; {fired:#?}");
    let errors = fired.errors().join(" ");
    assert!(
        errors.contains("timed out") || errors.contains("timeout"),
        "{errors}"
    );
    assert!(
        !server.requests().is_empty(),
        "the loop never reached the server"
    );
    assert_eq!(fired.hooks().len(), 2, "the next hook ran; {fired:#?}");
}

/// A server that answers every request with a `Content-Length` of 1 GiB and
/// streams zeros until the client goes away (or the GiB is sent, or 60 s pass);
/// the bytes it managed to write.
fn gigabyte_server() -> (u16, Arc<AtomicU64>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let sent = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&sent);
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\n");
        let chunk = vec![0u8; 64 * 1024];
        let deadline = Instant::now() + Duration::from_secs(60);
        while counter.load(Ordering::SeqCst) < 1 << 30 && Instant::now() < deadline {
            if stream.write_all(&chunk).is_err() {
                break;
            }
            counter.fetch_add(chunk.len() as u64, Ordering::SeqCst);
        }
    });
    (port, sent)
}

#[test]
fn a_gigabyte_download_is_cut_at_the_cap() {
    let (port, sent) = gigabyte_server();
    let p = Project::new();
    let fired = fire_hooks(
        &p,
        vec![capability(
            &["download", &format!("http://127.0.0.1:{port}/big")],
            json!({"allowedHosts": [format!("127.0.0.1:{port}")]}),
        )],
    );
    fired.assert_clean();
    let answer = said(&fired);
    let bytes: u64 = answer
        .strip_prefix("bytes=")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(bytes <= 16 << 20, "read {bytes} bytes: {answer}");
    assert!(!answer.ends_with("error=none"), "{answer}");
    let logs = fired.hooks()[0]["logs"].to_string();
    assert!(logs.contains("cut at 16777216 bytes"), "{logs}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        sent.load(Ordering::SeqCst) < 1 << 30,
        "the whole GiB was sent"
    );
}

#[test]
fn check_names_the_grant_a_plugin_lacks() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![capability(&["get", "http://x/"], json!({}))])]}));
    let checked = p.check(&[]);
    let text = checked.stdout_text() + &checked.stderr;
    assert!(text.contains("wasi:http/outgoing-handler"), "{text}");
    assert!(text.contains("\"allowedHosts\""), "{text}");
    assert!(text.contains("\"state\": true"), "{text}");
}

/// An HTTPS server on 127.0.0.1 (Python's `ssl`, a certificate for the address
/// signed by a CA made here by `openssl`) answering `secure` for at most 60 s;
/// its port and the CA's certificate file.
fn tls_server(p: &Project) -> (std::process::Child, u16, std::path::PathBuf) {
    let dir = p.outside();
    let (ca, cert, key) = (
        dir.join("ca.pem"),
        dir.join("cert.pem"),
        dir.join("key.pem"),
    );
    let ext = dir.join("leaf.ext");
    std::fs::write(
        &ext,
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    )
    .expect("ext");
    let openssl = |args: &[&str]| {
        let made = std::process::Command::new("openssl")
            .current_dir(&dir)
            .args(args)
            .output()
            .expect("openssl");
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
    };
    // A CA of the test's own, and a certificate for 127.0.0.1 it signs.
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=test-ca",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "key.pem",
        "-out",
        "leaf.csr",
    ]);
    openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "1",
        "-extfile",
        "leaf.ext",
        "-out",
        "cert.pem",
    ]);
    let script = r#"
import http.server, ssl, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "6"); self.end_headers()
        self.wfile.write(b"secure")
    def log_message(self, *a): pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(sys.argv[1], sys.argv[2])
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.timeout = 1
print(srv.server_address[1], flush=True)
end = time.time() + 60
while time.time() < end:
    try: srv.handle_request()
    except Exception: pass
"#;
    let mut child = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&cert)
        .arg(&key)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("port");
    (child, line.trim().parse().expect("a port"), ca)
}

#[test]
fn https_goes_through_rustls_and_trusts_the_systems_roots_only() {
    let p = Project::new();
    let (mut server, port, cert) = tls_server(&p);
    let url = format!("https://127.0.0.1:{port}/");
    p.settings(json!({"BeforeTool": [group(vec![capability(
        &["get", &url],
        json!({"allowedHosts": [format!("127.0.0.1:{port}")]}),
    )])]}));
    let cache = crate::common::cache_dir();
    let input = json!({"tool_name": "x", "tool_input": {}});
    // The CA is in the roots (SSL_CERT_FILE, as for every rustls-native-certs user).
    let trusted = p.fire_with(
        "BeforeTool",
        input.clone(),
        &[],
        &[
            ("HOOKHOST_CACHE_DIR", &cache),
            ("SSL_CERT_FILE", cert.to_str().unwrap_or_default()),
        ],
    );
    // It is not: the handshake fails, an error value.
    let untrusted = p.fire_with("BeforeTool", input, &[], &[("HOOKHOST_CACHE_DIR", &cache)]);
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(
        said(&trusted),
        "status=200 bytes=6 body=secure",
        "{trusted:#?}"
    );
    let refused = said(&untrusted);
    assert!(refused.starts_with("error="), "{untrusted:#?}");
    let logs = untrusted.hooks()[0]["logs"].to_string();
    assert!(logs.contains("TLS"), "hookhost says why: {logs}");
}
