//! `wasi:logging`: a plugin's lines reach the result (`hooks[].logs`), `--explain`
//! and the trace; a flood of 10⁶ lines costs a bounded few; a plugin's line never
//! passes for one of hookhost's, nor reaches the terminal raw.

use serde_json::json;

use super::{capability, fire_hooks, said};
use crate::common::{Project, cache_dir, group};

#[test]
fn log_lines_reach_the_result_the_explanation_and_the_trace() {
    let p = Project::new();
    let fired = fire_hooks(&p, vec![capability(&["log", "3"], json!({}))]);
    fired.assert_clean();
    assert_eq!(said(&fired), "logged=3");
    let logs = &fired.hooks()[0]["logs"];
    assert_eq!(
        logs[2],
        json!({"level": "info", "origin": "plugin", "context": "loop", "message": "line 2"}),
        "{fired:#?}"
    );

    let explained = p.fire_flags(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {}}),
        &["--explain"],
    );
    assert!(
        explained.stderr.contains("log info  plugin:loop: line 1"),
        "{}",
        explained.stderr
    );

    let trace = p.outside().join("trace.jsonl");
    let cache = cache_dir();
    p.fire_with(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {}}),
        &[],
        &[
            ("HOOKHOST_TRACE", trace.to_str().unwrap_or_default()),
            ("HOOKHOST_CACHE_DIR", &cache),
        ],
    )
    .assert_clean();
    let traced = std::fs::read_to_string(&trace).expect("trace");
    assert!(traced.contains(r#""message":"line 0""#), "{traced}");
}

/// Seen (issue: terminal output): a plugin logging with the context `hookhost`
/// was shown as `log warn  hookhost: …`, a line of hookhost's own, and its ESC and
/// CR reached the terminal raw. A plugin's context is shown as `plugin:<context>`,
/// JSON says `"origin": "plugin"`, and the text is escaped.
#[test]
fn a_plugin_log_line_cannot_pass_for_hookhost() {
    let p = Project::new();
    let message = "request denied: \u{1b}[2K\rall clear";
    p.settings(json!({"BeforeTool": [group(vec![
        capability(&["log-as", "hookhost", message], json!({})),
    ])]}));
    let explained = p.fire_flags(
        "BeforeTool",
        json!({"tool_name": "x", "tool_input": {}}),
        &["--explain"],
    );
    explained.assert_clean();
    let stderr = &explained.stderr;
    assert!(
        stderr.contains("log warn  plugin:hookhost: request denied: \\e[2K\\rall clear"),
        "{stderr}"
    );
    assert!(!stderr.contains("log warn  hookhost:"), "{stderr}");
    assert!(!stderr.contains(['\u{1b}', '\r']), "{stderr:?}");
    // JSON keeps the text and says who wrote it.
    assert_eq!(
        explained.hooks()[0]["logs"][0],
        json!({"level": "warn", "origin": "plugin", "context": "hookhost", "message": message})
    );
}

#[test]
fn a_million_lines_are_bounded_and_the_next_hook_runs() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        capability(&["log", "1000000"], json!({"timeout": 60000})),
        capability(&["log-big"], json!({})),
    ])]}));
    let fired = super::fire(&p);
    fired.assert_clean();
    let hooks = fired.hooks();
    let flood = &hooks[0];
    assert_eq!(flood["logs"].as_array().map(Vec::len), Some(200), "{flood}");
    assert_eq!(flood["logsDropped"], 1_000_000 - 200);
    let big = hooks[1]["logs"][0]["message"].as_str().unwrap_or_default();
    assert!(
        big.len() <= 2048 + 3 && big.ends_with('…'),
        "{} bytes",
        big.len()
    );
    assert!(
        fired.out.to_string().len() < 1 << 20,
        "the answer stays small"
    );
}

#[test]
fn log_lines_are_events_of_the_hooks_opentelemetry_span() {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
    use prost::Message;

    use crate::common::{Endpoint, Reply, run_within};

    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![capability(&["log", "2"], json!({}))])]}));
    let collector = Endpoint::start(|_| Reply::status(200, Vec::new()));
    let endpoint = collector.url("");
    let mut command = p.command();
    command
        .args(["fire", "BeforeTool", "--project-dir"])
        .arg(p.dir())
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("HOOKHOST_OTEL_FLUSH_MS", "10000")
        .env("HOOKHOST_CACHE_DIR", cache_dir());
    let input = json!({"tool_name": "x", "tool_input": {}});
    let done = run_within(
        command,
        input.to_string().as_bytes(),
        std::time::Duration::from_secs(60),
    );
    assert_eq!(done.code, 0, "{done:?}");
    let requests = collector.requests();
    let request = requests
        .first()
        .unwrap_or_else(|| panic!("no export: {done:?}"));
    let decoded = ExportTraceServiceRequest::decode(request.body.as_slice()).expect("OTLP");
    let hook = decoded
        .resource_spans
        .iter()
        .flat_map(|r| &r.scope_spans)
        .flat_map(|s| &s.spans)
        .find(|s| s.name == "hookhost.hook")
        .unwrap_or_else(|| panic!("no hook span: {decoded:#?}"));
    let messages: Vec<String> = hook
        .events
        .iter()
        .filter(|e| e.name == "log")
        .filter_map(|e| e.attributes.iter().find(|a| a.key == "log.message"))
        .filter_map(|a| match a.value.as_ref()?.value.as_ref()? {
            Any::StringValue(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(messages, ["line 0", "line 1"], "{hook:#?}");
}
