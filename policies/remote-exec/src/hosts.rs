//! Where a download comes from: the URLs among a downloader's arguments
//! (past the values of its options), their hosts, and whether the
//! `--allow-host` setting covers them.

use hookhost_guest::shell::{SimpleCommand, Word};

/// Short options of `curl`/`wget` (and look-alikes) whose value is the rest
/// of the cluster or the next word.
const CURL_VALUE_SHORTS: &str = "ACEFHKQTXYbcdehmoruwxyz";
const WGET_VALUE_SHORTS: &str = "ABDIOPQRTUXaeilnotw";

/// Long options that take the next word as a value (`--opt=value` needs none).
const VALUE_LONGS: &[&str] = &[
    "--output",
    "--header",
    "--data",
    "--data-raw",
    "--data-binary",
    "--user",
    "--request",
    "--user-agent",
    "--referer",
    "--cookie",
    "--cookie-jar",
    "--form",
    "--proxy",
    "--config",
    "--max-time",
    "--connect-timeout",
    "--retry",
    "--write-out",
    "--upload-file",
    "--output-document",
    "--output-file",
    "--append-output",
    "--directory-prefix",
    "--tries",
    "--timeout",
    "--wait",
    "--password",
    "--input-file",
    "--output-dir",
];

/// The URL words of a downloader's `args`; `None` when one is an expansion
/// (its host cannot be known).
pub fn download_urls(program: &str, args: &[Word]) -> Option<Vec<String>> {
    let shorts = if program.starts_with("wget") {
        WGET_VALUE_SHORTS
    } else {
        CURL_VALUE_SHORTS
    };
    let mut urls = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let text = word.text.as_str();
        if let Some(long) = text.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if name == "url" {
                let value = long.split_once('=').map(|(_, v)| v.to_owned());
                let value = value.or_else(|| args.get(i).map(|w| w.text.clone()));
                urls.push(value?);
            } else if !long.contains('=') && VALUE_LONGS.contains(&text) {
                i += 1;
            }
        } else if let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty()) {
            // The first value-taking letter takes the rest of the cluster, or the next word.
            if let Some(at) = cluster.find(|c| shorts.contains(c))
                && at + 1 == cluster.len()
            {
                i += 1;
            }
        } else if word.dynamic || text.contains(['$', '`']) {
            return None;
        } else if looks_like_url(text) {
            urls.push(text.to_owned());
        }
    }
    Some(urls)
}

/// `scheme://…`, or `host.tld/…` as curl and wget accept it.
fn looks_like_url(text: &str) -> bool {
    if text.contains("://") {
        return true;
    }
    let host = text.split(['/', ':', '?']).next().unwrap_or_default();
    host.contains('.')
        && host
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
        && !text.ends_with(".sh")
}

/// The host of `url`, lower-cased, without user, port or path.
pub fn host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next()?
    } else {
        authority.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Whether `host` is one of `allowed` (`example.com`), or below one given
/// as `*.example.com` / `.example.com`.
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    allowed.iter().any(|a| {
        let suffix = a.strip_prefix("*.").or_else(|| a.strip_prefix('.'));
        match suffix {
            Some(domain) => host == domain || host.ends_with(&format!(".{domain}")),
            None => host == a,
        }
    })
}

/// Whether every URL of the download `simple` is from an allowed host (and it
/// has at least one). A dynamic program (`$c x`) is never allowed.
pub fn download_allowed(simple: &SimpleCommand, allowed: &[String]) -> bool {
    if allowed.is_empty() || simple.is_dynamic() {
        return false;
    }
    let Some(program) = simple.program() else {
        return false;
    };
    match download_urls(program, simple.args()) {
        Some(urls) if !urls.is_empty() => urls
            .iter()
            .all(|u| host(u).is_some_and(|h| host_allowed(&h, allowed))),
        _ => false,
    }
}

/// Every `http://` or `https://` URL in a text (for PowerShell).
pub fn urls_in_text(text: &str) -> Vec<&str> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for (at, _) in lower.match_indices("http") {
        let rest = &text[at..];
        let is = |n: usize, scheme: &str| {
            rest.get(..n)
                .is_some_and(|p| p.eq_ignore_ascii_case(scheme))
        };
        if is(7, "http://") || is(8, "https://") {
            let end = rest
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '\'' | '"' | ')' | ';' | '|' | '`')
                })
                .unwrap_or(rest.len());
            out.push(&rest[..end]);
        }
    }
    out
}
