//! OpenTelemetry (issue 29, CONTRACT §5): with the standard
//! `OTEL_EXPORTER_OTLP_*` variables, a `hookhost.fire` span per fire and a
//! `hookhost.hook` span per hook reach a real OTLP/HTTP receiver on 127.0.0.1,
//! decoded with the official `opentelemetry-proto` definitions (protobuf, and
//! their serde form for `http/json`). A collector that is down or hangs never
//! fails a fire and delays the process's exit by a bounded flush only.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::json;

use crate::common::{Endpoint, Reply};
use crate::common::{Project, Run, run_within};

/// A project whose BeforeTool runs a command hook that blocks and a plugin.
fn project() -> Project {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "command", "name": "guard", "command": "echo 'no writes here' >&2; exit 2"},
        {"type": "plugin", "name": "echo", "path": hookhost_tests::ECHO_POLICY}
    ]}]}));
    p
}

/// `hookhost fire BeforeTool` with `env`, bounded.
fn fire(p: &Project, env: &[(&str, &str)], limit: Duration) -> Run {
    let mut command = p.command();
    command
        .args(["fire", "BeforeTool", "--project-dir"])
        .arg(p.dir())
        .envs(env.iter().copied());
    let input = json!({"session_id": "otel-session-1", "tool_name": "write_file",
        "tool_input": {"file_path": "notes.md", "content": "x"}});
    run_within(command, input.to_string().as_bytes(), limit)
}

fn attributes(span: &Span) -> HashMap<String, String> {
    span.attributes
        .iter()
        .map(|kv| {
            let value = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                Some(Any::StringValue(s)) => s.clone(),
                Some(Any::BoolValue(b)) => b.to_string(),
                Some(Any::IntValue(i)) => i.to_string(),
                Some(Any::DoubleValue(d)) => d.to_string(),
                other => format!("{other:?}"),
            };
            (kv.key.clone(), value)
        })
        .collect()
}

fn spans(request: &ExportTraceServiceRequest) -> Vec<Span> {
    request
        .resource_spans
        .iter()
        .flat_map(|r| &r.scope_spans)
        .flat_map(|s| s.spans.clone())
        .collect()
}

/// The fire span and the hook spans of one export, checked against CONTRACT §5.
fn check_spans(request: &ExportTraceServiceRequest) {
    let all = spans(request);
    let fire = all
        .iter()
        .find(|s| s.name == "hookhost.fire")
        .unwrap_or_else(|| panic!("no hookhost.fire span: {all:#?}"));
    let a = attributes(fire);
    assert_eq!(a["hookhost.event"], "BeforeTool");
    assert_eq!(a["hookhost.decision"], "block");
    assert_eq!(
        a["session.id"], "otel-session-1",
        "the agent's own session id"
    );
    assert!(a["hookhost.duration_ms"].parse::<f64>().unwrap() >= 0.0);
    let hooks: Vec<&Span> = all.iter().filter(|s| s.name == "hookhost.hook").collect();
    assert_eq!(hooks.len(), 2, "{all:#?}");
    for hook in &hooks {
        assert_eq!(
            hook.parent_span_id, fire.span_id,
            "a hook span is the fire's child"
        );
        assert_eq!(hook.trace_id, fire.trace_id);
        assert!(hook.end_time_unix_nano >= hook.start_time_unix_nano);
    }
    let guard = attributes(hooks[0]);
    assert_eq!(guard["hookhost.hook.name"], "guard");
    assert_eq!(guard["hookhost.hook.type"], "command");
    assert_eq!(guard["hookhost.decision"], "block");
    assert!(
        guard["hookhost.hook.source"].contains("project settings"),
        "{guard:?}"
    );
    assert!(!guard.contains_key("hookhost.plugin.digest"));
    let echo = attributes(hooks[1]);
    assert_eq!(echo["hookhost.hook.type"], "plugin");
    assert!(
        echo["hookhost.plugin.digest"].starts_with("sha256:"),
        "{echo:?}"
    );
    let resource: Vec<String> = request
        .resource_spans
        .iter()
        .filter_map(|r| r.resource.as_ref())
        .flat_map(|r| &r.attributes)
        .filter(|kv| kv.key == "service.name")
        .filter_map(|kv| match kv.value.as_ref()?.value.as_ref()? {
            Any::StringValue(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(resource, ["hookhost"]);
}

/// The requests `endpoint` got, waited for a little (the process has exited:
/// its export is done or given up).
fn exports(endpoint: &Endpoint) -> Vec<crate::common::EndpointRequest> {
    let start = Instant::now();
    while endpoint.requests().is_empty() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    endpoint.requests()
}

#[test]
fn spans_per_fire_and_per_hook_reach_an_otlp_http_receiver() {
    let p = project();
    let collector = Endpoint::start(|_| Reply::status(200, Vec::new()));
    let endpoint = collector.url("");
    // A generous exit flush: a debug build on a loaded machine.
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("HOOKHOST_OTEL_FLUSH_MS", "10000"),
    ];
    let fired = fire(&p, &env, Duration::from_secs(60));
    assert_eq!(
        fired.code, 2,
        "the fire is what it is with or without telemetry: {fired:?}"
    );
    let requests = exports(&collector);
    assert_eq!(requests.len(), 1, "{requests:#?}");
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/traces");
    assert_eq!(
        request.header("content-type"),
        Some("application/x-protobuf")
    );
    let decoded =
        ExportTraceServiceRequest::decode(request.body.as_slice()).expect("OTLP protobuf");
    check_spans(&decoded);
}

#[test]
fn http_json_and_the_traces_endpoint_variable() {
    let p = project();
    let collector = Endpoint::start(|_| Reply::status(200, "{}"));
    let endpoint = collector.url("/custom/traces");
    let env = [
        ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint.as_str()),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
        ("HOOKHOST_OTEL_FLUSH_MS", "10000"),
    ];
    let fired = fire(&p, &env, Duration::from_secs(60));
    assert_eq!(fired.code, 2, "{fired:?}");
    let requests = exports(&collector);
    assert_eq!(requests.len(), 1, "{requests:#?}");
    assert_eq!(requests[0].path, "/custom/traces");
    assert_eq!(requests[0].header("content-type"), Some("application/json"));
    let decoded: ExportTraceServiceRequest =
        serde_json::from_slice(&requests[0].body).expect("OTLP JSON");
    check_spans(&decoded);
}

/// A collector that never answers (or is not there) costs a fire nothing but
/// the bounded exit flush: the process ends long before the exporter's own
/// 10-second timeout, with the same result.
#[test]
fn a_hanging_or_missing_collector_never_fails_or_holds_a_fire() {
    let p = project();
    let hanging = Endpoint::start(|_| Reply::Silent);
    let missing = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        format!("http://127.0.0.1:{port}")
    };
    for endpoint in [hanging.url(""), missing] {
        let start = Instant::now();
        let fired = fire(
            &p,
            &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str())],
            Duration::from_secs(60),
        );
        let took = start.elapsed();
        assert_eq!(fired.code, 2, "{endpoint}: {fired:?}");
        assert!(
            fired.stdout_text().contains("no writes here"),
            "{endpoint}: {fired:?}"
        );
        // Generous: the bound is the 40 ms flush, not the exporter's 10 s.
        assert!(took < Duration::from_secs(5), "{endpoint}: took {took:?}");
    }
}

#[test]
fn switched_off_by_the_standard_variables() {
    let p = project();
    let collector = Endpoint::start(|_| Reply::status(200, Vec::new()));
    let endpoint = collector.url("");
    for off in [
        ("OTEL_SDK_DISABLED", "true"),
        ("OTEL_TRACES_EXPORTER", "none"),
    ] {
        let fired = fire(
            &p,
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
                off,
                ("HOOKHOST_OTEL_FLUSH_MS", "2000"),
            ],
            Duration::from_secs(60),
        );
        assert_eq!(fired.code, 2, "{fired:?}");
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        collector.requests().is_empty(),
        "{:#?}",
        collector.requests()
    );
}
