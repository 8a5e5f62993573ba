//! `capabilities`: a guest that exercises the plugin capabilities — HTTP
//! (`wasi:http`), state (`wasi:keyvalue`) and logging (`wasi:logging`) —
//! through the guest SDK's wrappers, driven by its arguments (the hook's
//! `args`).
//!
//! It reads stdin (and ignores it), prints one JSON object
//! `{"systemMessage": "<result>"}` and exits 0. Wrong arguments give
//! `error=usage: …`.
//!
//! | args                         | result                                                                      |
//! |------------------------------|-----------------------------------------------------------------------------|
//! | `get URL`                    | `status=<code> bytes=<n> body=<first 100 chars>` / `error=<text>`           |
//! | `get-n URL N`                | N sequential GETs, stopping at the first error: `ok=<count> error=<text or none>` |
//! | `loop URL`                   | GETs forever, errors ignored (the host's deadline ends it); no result       |
//! | `download URL`               | streams the body, counting bytes: `bytes=<n> error=<text or none>`          |
//! | `redirect URL`               | GET; on 3xx GET `location` (absolute) once: `first=<code> second=<code>` / `first=<code> second=error=<text>` / `first=<code> second=none` (not 3xx) / `error=<text>` (first GET failed) |
//! | `kv-set BUCKET KEY VALUE`    | `ok` / `error=<text>`                                                       |
//! | `kv-get BUCKET KEY`          | `value=<utf8, lossy>` / `none` / `error=<text>`                             |
//! | `kv-fill SIZE`               | sets `fill-0`, `fill-1`, … (bucket `""`) to SIZE bytes until a set fails: `stored=<count> error=<text>` |
//! | `kv-write-many TAG N SIZE`   | for i in 0..N: set `TAG-i`, then `shared`, each to SIZE bytes equal to TAG's first byte (bucket `""`): `ok` / `error=<text>` |
//! | `kv-check`                   | reads every key of bucket `""`: `keys=<n> torn=<values whose bytes are not all equal>` / `error=<text>` |
//! | `log N`                      | N `info` lines (context `loop`, message `line <i>`): `logged=<N>`           |
//! | `log-big`                    | one `info` line (context `big`) whose message is 1 MiB of `x`: `logged=1`   |
//! | `log-as CONTEXT MESSAGE`     | one `warn` line with that context and message (e.g. claiming `hookhost`): `logged=1` |
//!
//! A denied request's error text contains `denied`; a quota error's contains
//! `quota`.

use std::io::Read;

use hookhost_guest::http::{self, HttpError};
use hookhost_guest::state::{Bucket, StateError};
use hookhost_guest::{json, log};

/// How much of a body `get` shows.
const SHOWN_CHARS: usize = 100;

fn main() {
    // The event is not needed; read it so the host's stdin pipe drains.
    let mut event = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut event);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = run(&args);
    println!("{}", json!({ "systemMessage": result }));
    hookhost_guest::exit(0)
}

fn usage() -> String {
    "error=usage: get URL | get-n URL N | loop URL | download URL | redirect URL | \
     kv-set BUCKET KEY VALUE | kv-get BUCKET KEY | kv-fill SIZE | kv-write-many TAG N SIZE | \
     kv-check | log N | log-big | log-as CONTEXT MESSAGE"
        .to_owned()
}

fn run(args: &[&str]) -> String {
    let number = |s: &str| s.parse::<usize>().ok();
    match args {
        ["get", url] => get(url),
        ["get-n", url, n] => number(n).map_or_else(usage, |n| get_n(url, n)),
        ["loop", url] => loop_forever(url),
        ["download", url] => download(url),
        ["redirect", url] => redirect(url),
        ["kv-set", bucket, key, value] => {
            match Bucket::open(bucket).and_then(|b| b.set_string(key, value)) {
                Ok(()) => "ok".to_owned(),
                Err(e) => format!("error={e}"),
            }
        }
        ["kv-get", bucket, key] => match Bucket::open(bucket).and_then(|b| b.get(key)) {
            Ok(Some(value)) => format!("value={}", String::from_utf8_lossy(&value)),
            Ok(None) => "none".to_owned(),
            Err(e) => format!("error={e}"),
        },
        ["kv-fill", size] => number(size).map_or_else(usage, kv_fill),
        ["kv-write-many", tag, n, size] => match (number(n), number(size)) {
            (Some(n), Some(size)) => match kv_write_many(tag, n, size) {
                Ok(()) => "ok".to_owned(),
                Err(e) => format!("error={e}"),
            },
            _ => usage(),
        },
        ["kv-check"] => match kv_check() {
            Ok((keys, torn)) => format!("keys={keys} torn={torn}"),
            Err(e) => format!("error={e}"),
        },
        ["log", n] => number(n).map_or_else(usage, |n| {
            for i in 0..n {
                log::info("loop", &format!("line {i}"));
            }
            format!("logged={n}")
        }),
        ["log-big"] => {
            log::info("big", &"x".repeat(1024 * 1024));
            "logged=1".to_owned()
        }
        ["log-as", context, message] => {
            log::warn(context, message);
            "logged=1".to_owned()
        }
        _ => usage(),
    }
}

fn get(url: &str) -> String {
    let result = http::get(url).and_then(|response| {
        let status = response.status();
        Ok((status, response.bytes()?))
    });
    match result {
        Ok((status, body)) => {
            let shown: String = String::from_utf8_lossy(&body)
                .chars()
                .take(SHOWN_CHARS)
                .collect();
            format!("status={status} bytes={} body={shown}", body.len())
        }
        Err(e) => format!("error={e}"),
    }
}

/// One GET, its body read to the end.
fn fetch(url: &str) -> Result<(), HttpError> {
    http::get(url)?.for_each_chunk(|_| {}).map(drop)
}

fn get_n(url: &str, n: usize) -> String {
    let mut ok = 0;
    for _ in 0..n {
        if let Err(e) = fetch(url) {
            return format!("ok={ok} error={e}");
        }
        ok += 1;
    }
    format!("ok={ok} error=none")
}

fn loop_forever(url: &str) -> String {
    loop {
        let _ = fetch(url);
    }
}

fn download(url: &str) -> String {
    let mut bytes = 0u64;
    let result = http::get(url)
        .and_then(|response| response.for_each_chunk(|chunk| bytes += chunk.len() as u64));
    match result {
        Ok(_) => format!("bytes={bytes} error=none"),
        Err(e) => format!("bytes={bytes} error={e}"),
    }
}

fn redirect(url: &str) -> String {
    let first = match http::get(url) {
        Ok(response) => response,
        Err(e) => return format!("error={e}"),
    };
    let code = first.status();
    if !first.is_redirect() {
        return format!("first={code} second=none");
    }
    let Some(location) = first.header("location").map(str::to_owned) else {
        return format!("first={code} second=error=no location header");
    };
    drop(first);
    match http::get(&location) {
        Ok(second) => format!("first={code} second={}", second.status()),
        Err(e) => format!("first={code} second=error={e}"),
    }
}

fn kv_fill(size: usize) -> String {
    let bucket = match Bucket::open("") {
        Ok(bucket) => bucket,
        Err(e) => return format!("stored=0 error={e}"),
    };
    let value = vec![b'x'; size];
    let mut stored = 0usize;
    loop {
        if let Err(e) = bucket.set(&format!("fill-{stored}"), &value) {
            return format!("stored={stored} error={e}");
        }
        stored += 1;
    }
}

fn kv_write_many(tag: &str, n: usize, size: usize) -> Result<(), StateError> {
    let bucket = Bucket::open("")?;
    let value = vec![tag.bytes().next().unwrap_or(b'-'); size];
    for i in 0..n {
        bucket.set(&format!("{tag}-{i}"), &value)?;
        bucket.set("shared", &value)?;
    }
    Ok(())
}

fn kv_check() -> Result<(usize, usize), StateError> {
    let bucket = Bucket::open("")?;
    let keys = bucket.keys()?;
    let mut torn = 0;
    for key in &keys {
        if let Some(value) = bucket.get(key)?
            && value.iter().any(|b| Some(b) != value.first())
        {
            torn += 1;
        }
    }
    Ok((keys.len(), torn))
}
