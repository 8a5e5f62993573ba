//! `hookhost serve`: the MessageBus contract (seeds/002) as JSON Lines on stdin/stdout.
//!
//! Each request line `{"correlationId", "eventName", "input"}` is fired on its own
//! task, so requests are served concurrently and answered as they finish (out of
//! order); one writer task owns stdout, so response lines never interleave. Plugins
//! stay compiled and pre-instantiated for the life of the process. The settings files
//! (and the places discovery looks) are polled; on a change the hook system is rebuilt
//! off the request path and swapped in, while requests in flight finish on the old
//! one (seeds/001 §7.8). A malformed line gets an error response and serving goes
//! on. At EOF, in-flight requests finish, then the process exits 0.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use hookhost::{HookEvent, HookSystem, HookSystemBuilder};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

/// How often the settings files are checked for changes.
pub const RELOAD_POLL: Duration = Duration::from_millis(500);
/// Request lines longer than this are answered with an error and skipped.
pub const MAX_LINE: usize = 64 * 1024 * 1024;

type Shared = Arc<RwLock<Arc<HookSystem>>>;

pub async fn run(builder: HookSystemBuilder) -> anyhow::Result<()> {
    let first = {
        let builder = builder.clone();
        tokio::task::spawn_blocking(move || builder.build()).await?
    };
    report_diagnostics(&first);
    let system: Shared = Arc::new(RwLock::new(Arc::new(first)));
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = rx.recv().await {
            if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });
    let reloader = tokio::spawn(reload_loop(builder, Arc::clone(&system)));
    let mut requests = JoinSet::new();
    let mut stdin = BufReader::new(tokio::io::stdin());
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut stdin)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            break;
        }
        if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            skip_rest_of_line(&mut stdin).await?;
            send(
                &tx,
                error_response(
                    None,
                    "LINE_TOO_LONG",
                    format!("request line longer than {MAX_LINE} bytes"),
                ),
            );
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match parse_request(&line) {
            Ok((id, event, input)) => {
                let current = current(&system);
                let tx = tx.clone();
                requests.spawn(async move {
                    let result = current.fire(event, input).await;
                    send(
                        &tx,
                        json!({"correlationId": id, "success": true, "output": result}),
                    );
                });
            }
            Err((id, code, message)) => send(&tx, error_response(id, code, message)),
        }
        // Reap finished tasks so the set does not grow with the session.
        while requests.try_join_next().is_some() {}
    }
    while requests.join_next().await.is_some() {}
    reloader.abort();
    drop(tx);
    let _ = writer.await;
    Ok(())
}

fn current(system: &Shared) -> Arc<HookSystem> {
    match system.read() {
        Ok(guard) => Arc::clone(&guard),
        Err(poisoned) => Arc::clone(&poisoned.into_inner()),
    }
}

type RequestError = (Option<Value>, &'static str, String);

fn parse_request(
    line: &[u8],
) -> Result<(Value, HookEvent, serde_json::Map<String, Value>), RequestError> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        (
            None,
            "INVALID_JSON",
            format!("request is not valid JSON: {e}"),
        )
    })?;
    let Value::Object(mut request) = value else {
        return Err((
            None,
            "INVALID_REQUEST",
            "request must be a JSON object".to_owned(),
        ));
    };
    let id = request.remove("correlationId");
    let Some(id) = id.filter(|id| id.is_string() || id.is_number()) else {
        return Err((
            None,
            "INVALID_REQUEST",
            "correlationId (a string) is required".to_owned(),
        ));
    };
    let event = match request.get("eventName") {
        Some(Value::String(name)) => name
            .parse::<HookEvent>()
            .map_err(|e| (Some(id.clone()), "UNKNOWN_EVENT", e.to_string()))?,
        _ => {
            return Err((
                Some(id),
                "INVALID_REQUEST",
                "eventName (a string) is required".to_owned(),
            ));
        }
    };
    let input = match request.remove("input") {
        Some(Value::Object(input)) => input,
        None | Some(Value::Null) => serde_json::Map::new(),
        Some(_) => {
            return Err((
                Some(id),
                "INVALID_REQUEST",
                "input must be a JSON object".to_owned(),
            ));
        }
    };
    Ok((id, event, input))
}

fn error_response(id: Option<Value>, code: &str, message: String) -> Value {
    json!({"correlationId": id, "success": false, "error": {"code": code, "message": message}})
}

fn send(tx: &mpsc::UnboundedSender<Vec<u8>>, response: Value) {
    let mut line = serde_json::to_vec(&response).unwrap_or_default();
    line.push(b'\n');
    let _ = tx.send(line);
}

async fn skip_rest_of_line(stdin: &mut BufReader<tokio::io::Stdin>) -> std::io::Result<()> {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        let n = (&mut *stdin)
            .take(1024 * 1024)
            .read_until(b'\n', &mut sink)
            .await?;
        if n == 0 || sink.ends_with(b"\n") {
            return Ok(());
        }
    }
}

fn report_diagnostics(system: &HookSystem) {
    for d in system.diagnostics() {
        eprintln!("hookhost: {d}");
    }
}

type Fingerprint = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

fn fingerprint(paths: &[PathBuf]) -> Fingerprint {
    paths
        .iter()
        .map(|p| {
            let meta = std::fs::metadata(p).ok();
            let stamp = meta.and_then(|m| Some((m.modified().ok()?, m.len())));
            (p.clone(), stamp)
        })
        .collect()
}

async fn reload_loop(builder: HookSystemBuilder, system: Shared) {
    let mut seen = fingerprint(current(&system).watched_paths());
    loop {
        tokio::time::sleep(RELOAD_POLL).await;
        let now = fingerprint(current(&system).watched_paths());
        if now == seen {
            continue;
        }
        let builder = builder.clone();
        let Ok(rebuilt) = tokio::task::spawn_blocking(move || builder.build()).await else {
            continue;
        };
        tracing::info!("settings changed; hooks reloaded");
        report_diagnostics(&rebuilt);
        seen = fingerprint(rebuilt.watched_paths());
        if let Ok(mut guard) = system.write() {
            *guard = Arc::new(rebuilt);
        }
    }
}
