//! OpenTelemetry: a span per fire and per hook, exported over OTLP/HTTP with the
//! official `opentelemetry` crates when the standard variables name a collector
//! (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`;
//! `OTEL_EXPORTER_OTLP_PROTOCOL` / `…_TRACES_PROTOCOL` `http/protobuf`, the
//! default, or `http/json`; headers, timeout, service name and resource
//! attributes from their variables too; `OTEL_SDK_DISABLED=true` or
//! `OTEL_TRACES_EXPORTER=none` switch it off).
//!
//! It never slows or fails a fire: spans are built from the finished result
//! ([`hookhost::FireObserver`]) and queued (bounded) for the batch processor's
//! own thread; a one-shot process waits at most [`FLUSH_AT_EXIT`] for the export
//! before it exits, so a collector that is down or hangs costs at most that
//! (the spans are lost then, and the log says so).
//!
//! Span names and attributes are CONTRACT §5's: `hookhost.fire` with
//! `hookhost.event`, `hookhost.decision`, `hookhost.duration_ms`, `session.id`
//! (and `hookhost.tool.name`); one child `hookhost.hook` per hook with
//! `hookhost.hook.name`, `hookhost.hook.type`, `hookhost.hook.source`,
//! `hookhost.decision`, `hookhost.duration_ms`, `hookhost.plugin.digest` (and
//! `hookhost.plugin.source`, `hookhost.hook.mode`, `hookhost.would_block`). A
//! hook span starts at the fire's start plus the time the hook waited for a slot
//! (the result does not keep each hook's own start).

use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use hookhost::{AggregatedHookResult, FireObserver, HookEvent, HookExecutionResult};
use opentelemetry::trace::{Span, SpanKind, Status, TraceContextExt, Tracer, TracerProvider};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{Protocol, RetryPolicy, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracer, SdkTracerProvider,
};
use serde_json::{Map, Value};

/// How long a one-shot process (`fire`, `hook`, `test`) waits for its spans to
/// be exported before it exits, unless [`FLUSH_ENV`] says otherwise.
pub const FLUSH_AT_EXIT: Duration = Duration::from_millis(40);

/// Milliseconds a one-shot process waits for its spans at exit (default
/// [`FLUSH_AT_EXIT`]): for a collector far away, at the price of every fire.
pub const FLUSH_ENV: &str = "HOOKHOST_OTEL_FLUSH_MS";

/// The exit flush deadline of a one-shot process.
pub fn flush_at_exit() -> Duration {
    env(FLUSH_ENV)
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(FLUSH_AT_EXIT, Duration::from_millis)
}

/// The most spans waiting for export; more are dropped (and counted by the SDK),
/// never waited for.
const MAX_QUEUE: usize = 2048;

/// The exporter, once the process has one.
struct Telemetry {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
}

static TELEMETRY: OnceLock<Option<Telemetry>> = OnceLock::new();

/// Set by a long-running command (`serve`) before the first fire: its exports are
/// retried with the exporter's backoff. A one-shot process tries once: it has
/// [`FLUSH_AT_EXIT`] in all, and a retry's backoff would only spend it (measured:
/// a refused connection then held the exit for the whole deadline).
static LONG_RUNNING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process as a server (see [`LONG_RUNNING`]).
pub fn set_long_running() {
    LONG_RUNNING.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The process's exporter: built on first use from the environment, `None`
/// when no collector is named (or it is switched off, or cannot be built: then
/// the log says why and fires go on without it).
fn telemetry() -> Option<&'static Telemetry> {
    TELEMETRY.get_or_init(build).as_ref()
}

fn build() -> Option<Telemetry> {
    let endpoint =
        env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").or_else(|| env("OTEL_EXPORTER_OTLP_ENDPOINT"))?;
    if env("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || env("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"))
    {
        return None;
    }
    let protocol =
        env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL").or_else(|| env("OTEL_EXPORTER_OTLP_PROTOCOL"));
    let protocol = match protocol.as_deref() {
        None | Some("http/protobuf") => Protocol::HttpBinary,
        Some("http/json") => Protocol::HttpJson,
        Some(other) => {
            tracing::warn!(
                "OpenTelemetry: protocol {other:?} is not supported (http/protobuf or http/json); using http/protobuf"
            );
            Protocol::HttpBinary
        }
    };
    // reqwest is built without a TLS provider of its own (`rustls-no-provider`)
    // and refuses to build a client, http or https, until one is installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(protocol);
    if !LONG_RUNNING.load(std::sync::atomic::Ordering::Relaxed) {
        builder = builder.with_retry_policy(RetryPolicy::default().with_max_retries(0));
    }
    let exporter = match builder.build() {
        Ok(exporter) => exporter,
        Err(e) => {
            tracing::warn!("OpenTelemetry: cannot export to {endpoint}: {e}; no spans are sent");
            return None;
        }
    };
    let processor = BatchSpanProcessor::builder(exporter)
        .with_batch_config(
            BatchConfigBuilder::default()
                .with_max_queue_size(MAX_QUEUE)
                .build(),
        )
        .build();
    let mut resource = Resource::builder();
    if env("OTEL_SERVICE_NAME").is_none() {
        resource = resource.with_service_name("hookhost");
    }
    let provider = SdkTracerProvider::builder()
        .with_span_processor(processor)
        .with_resource(
            resource
                .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
                .build(),
        )
        .build();
    let tracer = provider.tracer("hookhost");
    Some(Telemetry { provider, tracer })
}

/// The observer that turns fires into spans, when a collector is configured.
pub fn observer() -> Option<Arc<dyn FireObserver>> {
    telemetry().map(|_| Arc::new(SpanObserver) as Arc<dyn FireObserver>)
}

/// Waits at most `deadline` for queued spans to reach the collector. Called once,
/// at the end of the process; the provider is never dropped (dropping it would
/// wait for the exporter's own timeout).
pub fn flush(deadline: Duration) {
    let Some(telemetry) = TELEMETRY.get().and_then(Option::as_ref) else {
        return;
    };
    let (done, wait) = std::sync::mpsc::channel();
    let provider = telemetry.provider.clone();
    let spawned = std::thread::Builder::new()
        .name("otel-flush".into())
        .spawn(move || {
            let _ = done.send(provider.force_flush());
        });
    if spawned.is_err() {
        return;
    }
    match wait.recv_timeout(deadline) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!("OpenTelemetry: export failed: {e}"),
        Err(_) => tracing::warn!(
            "OpenTelemetry: the collector did not answer within {} ms; this process's spans are dropped",
            deadline.as_millis()
        ),
    }
}

/// [`FireObserver`] that builds the spans of a fire.
#[derive(Debug)]
struct SpanObserver;

impl FireObserver for SpanObserver {
    fn fired(
        &self,
        event: HookEvent,
        started: SystemTime,
        input: &Map<String, Value>,
        result: &AggregatedHookResult,
    ) {
        let Some(telemetry) = telemetry() else {
            return;
        };
        record(&telemetry.tracer, event, started, input, result);
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// A hook span's attributes: what ran, where from, what it decided, how long.
fn hook_attributes(event: HookEvent, hook: &HookExecutionResult, session: &str) -> Vec<KeyValue> {
    let decision = match hook.output.as_ref().and_then(|o| o.effective_decision()) {
        Some(decision) => serde_json::to_value(decision)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        None if hook.error.is_some() => "error".to_owned(),
        None => "allow".to_owned(),
    };
    let mut attributes = vec![
        KeyValue::new("hookhost.event", event.as_str()),
        KeyValue::new("hookhost.hook.name", hook.hook_name.clone()),
        KeyValue::new("hookhost.hook.type", hook.hook_type),
        KeyValue::new("hookhost.hook.source", hook.source.clone()),
        KeyValue::new("hookhost.decision", decision),
        KeyValue::new("hookhost.duration_ms", millis(hook.duration)),
        KeyValue::new("session.id", session.to_owned()),
    ];
    if let Some(plugin) = &hook.plugin {
        attributes.push(KeyValue::new(
            "hookhost.plugin.digest",
            plugin.digest.clone(),
        ));
        if let Some(reference) = &plugin.reference {
            attributes.push(KeyValue::new("hookhost.plugin.source", reference.clone()));
        }
    }
    if hook.monitor {
        attributes.push(KeyValue::new("hookhost.hook.mode", "monitor"));
        attributes.push(KeyValue::new("hookhost.would_block", hook.is_block()));
    }
    attributes
}

fn record(
    tracer: &SdkTracer,
    event: HookEvent,
    started: SystemTime,
    input: &Map<String, Value>,
    result: &AggregatedHookResult,
) {
    let session = input
        .get("session_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let decision = if result.is_blocked() {
        "block"
    } else {
        "allow"
    };
    let mut attributes = vec![
        KeyValue::new("hookhost.event", event.as_str()),
        KeyValue::new("hookhost.decision", decision),
        KeyValue::new("hookhost.duration_ms", millis(result.total_duration)),
        KeyValue::new("session.id", session.to_owned()),
    ];
    if let Some(tool) = input.get("tool_name").and_then(Value::as_str) {
        attributes.push(KeyValue::new("hookhost.tool.name", tool.to_owned()));
    }
    let fire = tracer
        .span_builder("hookhost.fire")
        .with_kind(SpanKind::Internal)
        .with_start_time(started)
        .with_attributes(attributes)
        .start(tracer);
    let cx = Context::current_with_span(fire);
    for hook in &result.executions {
        let attributes = hook_attributes(event, hook, session);
        let start = started + hook.queued;
        let mut span = tracer
            .span_builder("hookhost.hook")
            .with_kind(SpanKind::Internal)
            .with_start_time(start)
            .with_attributes(attributes)
            .start_with_context(tracer, &cx);
        if let Some(error) = &hook.error {
            span.set_status(Status::error(error.clone()));
        }
        // A plugin's wasi:logging lines, as span events (already bounded per call).
        for line in &hook.logs.lines {
            span.add_event_with_timestamp(
                "log",
                start + hook.duration,
                vec![
                    KeyValue::new("log.level", line.level),
                    KeyValue::new("log.origin", line.origin.as_str()),
                    KeyValue::new("log.context", line.context.clone()),
                    KeyValue::new("log.message", line.message.clone()),
                ],
            );
        }
        if hook.logs.dropped > 0 {
            span.set_attribute(KeyValue::new(
                "hookhost.logs_dropped",
                i64::try_from(hook.logs.dropped).unwrap_or(i64::MAX),
            ));
        }
        span.end_with_timestamp(start + hook.duration);
    }
    cx.span()
        .end_with_timestamp(started + result.total_duration);
}
