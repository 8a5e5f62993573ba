//! `WebFetch(domain:host)`: the hosts a web fetch reaches, read as the agent's fetch
//! reads its URL, and the `domain:` pattern's match against them.

use serde_json::{Map, Value};

use super::{string_arg, wildcard};

/// Whether a host matches a `domain:` pattern: `*.example.com` any subdomain at any
/// depth but not `example.com`; any other `*` within one label.
pub(super) fn domain_matches(pattern: &str, host: &str) -> bool {
    let labels = |s: &str| s.split('.').map(str::to_owned).collect::<Vec<_>>();
    let host = labels(host);
    if let Some(suffix) = pattern.strip_prefix("*.") {
        let suffix = labels(suffix);
        return host.len() > suffix.len()
            && host[host.len() - suffix.len()..]
                .iter()
                .zip(&suffix)
                .all(|(h, p)| wildcard(p, h));
    }
    let pattern = labels(pattern);
    pattern.len() == host.len() && host.iter().zip(&pattern).all(|(h, p)| wildcard(p, h))
}

/// The hosts a web fetch reaches: its `url`'s, or (LLxprt/Gemini's `web_fetch`, whose
/// input is a prompt with URLs in it) those of every `http(s)://` URL in `prompt`.
pub(super) fn hosts(input: &Map<String, Value>) -> Vec<String> {
    if let Some(url) = string_arg(input, &["url"]) {
        return host_of(url).into_iter().collect();
    }
    let Some(prompt) = string_arg(input, &["prompt"]) else {
        return Vec::new();
    };
    prompt
        .match_indices("http")
        .filter_map(|(i, _)| {
            let url = &prompt[i..];
            (url.starts_with("http://") || url.starts_with("https://"))
                .then(|| url.split(char::is_whitespace).next().and_then(host_of))
                .flatten()
        })
        .collect()
}

/// A URL's host as the agent's fetch reaches it: parsed by the WHATWG URL
/// standard with IDNA (what Node's `new URL()` does), so percent-encoded,
/// ideographic or full-width dots, full-width letters and tabs in the host give
/// the host they stand for; lowercase, without a trailing dot. A URL the standard
/// rejects is read as text (the agent cannot fetch it either).
fn host_of(url: &str) -> Option<String> {
    let url = url.trim();
    let parsed = url::Url::parse(url).or_else(|_| url::Url::parse(&format!("https://{url}")));
    if let Ok(parsed) = parsed {
        let host = match parsed.host()? {
            url::Host::Domain(d) => d.to_owned(),
            url::Host::Ipv4(a) => a.to_string(),
            url::Host::Ipv6(a) => a.to_string(),
        };
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        return (!host.is_empty()).then_some(host);
    }
    let rest = url.find("://").map_or(url, |i| &url[i + 3..]);
    let authority = rest.split(['/', '\\', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host_port.split(':').next()?,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}
