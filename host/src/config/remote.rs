//! The user's settings for hooks that reach out: the model endpoint of `prompt`
//! hooks (`tools.hookModel`) and the URLs `http` hooks may POST to
//! (`tools.allowedHttpHookUrls`). Both come from the user's own files only; a
//! repository's value is ignored.

use schemars::JsonSchema;
use serde::Deserialize;

/// Which API a prompt hook's endpoint speaks (`tools.hookModel.provider`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, JsonSchema)]
pub enum ModelProvider {
    /// Anthropic's Messages API (`POST {baseUrl}/v1/messages`).
    #[serde(rename = "anthropic")]
    Anthropic,
    /// OpenAI's chat completions (`POST {baseUrl}/v1/chat/completions`), which
    /// many local and hosted model servers also speak.
    #[serde(rename = "openai")]
    OpenAi,
}

/// `tools.hookModel` in user or system settings: the endpoint prompt hooks ask.
/// What is not given takes the provider's default (see [`crate::runner`]'s prompt
/// runner): its public API, its default key variable, a small fast model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HookModel {
    /// The API it speaks.
    pub provider: ModelProvider,
    /// The API's base URL, e.g. `https://api.anthropic.com` or
    /// `http://127.0.0.1:11434/v1`.
    pub base_url: Option<String>,
    /// The model a prompt hook without its own `model` uses.
    pub model: Option<String>,
    /// The environment variable holding the API key (`apiKeyEnv`); the variable's
    /// name, never the key, is what settings hold.
    pub api_key_env: Option<String>,
}

/// `tools.allowedHttpHookUrls` of the user's own files, as Claude Code's
/// `allowedHttpHookUrls`: URL patterns in which `*` matches any run of characters;
/// an http hook runs only when a pattern matches its whole URL. Absent = no
/// restriction; an empty list = no http hook runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpUrlAllowList {
    /// The patterns, from every user-owned file that sets the key (lists merge).
    pub patterns: Vec<String>,
}

impl HttpUrlAllowList {
    /// Whether `url` may be the target of an http hook. A URL with credentials
    /// before its host (`http://localhost:1@evil.example/`) is never admitted: a
    /// pattern such as `http://localhost:*` would otherwise match a request that
    /// goes to another host.
    pub fn admits(&self, url: &str) -> bool {
        let authority = url
            .split_once("://")
            .map_or(url, |(_, rest)| rest)
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default();
        if authority.contains(['@', '\\']) {
            return false;
        }
        self.patterns
            .iter()
            .any(|pattern| glob_matches(pattern, url))
    }
}

/// Whether `text` is matched whole by `pattern`, in which `*` stands for any run
/// of characters (none included) and every other character for itself.
fn glob_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No `*`: the pattern is the whole URL.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(patterns: &[&str]) -> HttpUrlAllowList {
        HttpUrlAllowList {
            patterns: patterns.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[test]
    fn url_patterns_match_whole_urls_with_star_for_any_run() {
        let allowed = list(&["https://hooks.example.com/*", "http://localhost:*"]);
        assert!(allowed.admits("https://hooks.example.com/a/b?c=d"));
        assert!(allowed.admits("https://hooks.example.com/"));
        assert!(allowed.admits("http://localhost:8080/hook"));
        assert!(!allowed.admits("https://hooks.example.com.evil.test/"));
        assert!(
            !allowed.admits("http://hooks.example.com/a"),
            "scheme is part of it"
        );
        assert!(
            !allowed.admits("http://localhost/hook"),
            "the pattern wants a port"
        );
        assert!(list(&["http://a/x*y*z"]).admits("http://a/x1y2z"));
        assert!(!list(&["http://a/x*y*z"]).admits("http://a/x1y2z3"));
        assert!(list(&["http://a/*z"]).admits("http://a/zz"));
        assert!(!list(&["http://a/*zz"]).admits("http://a/z"));
        assert!(list(&["http://a/b"]).admits("http://a/b"));
        assert!(!list(&["http://a/b"]).admits("http://a/bc"));
        assert!(
            !list(&[]).admits("http://a/b"),
            "an empty list admits nothing"
        );
    }

    #[test]
    fn credentials_before_the_host_are_never_admitted() {
        let allowed = list(&["http://localhost:*"]);
        assert!(!allowed.admits("http://localhost:1@evil.test/"));
        assert!(!allowed.admits("http://localhost:1\\@evil.test/"));
        assert!(
            list(&["*"]).admits("http://x.test/a@b"),
            "an @ in the path is fine"
        );
    }
}
