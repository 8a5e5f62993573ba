//! Where a prompt hook's request goes and in what form: the endpoint and model
//! (from `tools.hookModel` or the environment), the provider's request body and
//! headers, and the verdict read from its answer.

use std::ffi::OsString;

use super::{DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL};
use crate::config::{HookModel, ModelProvider, PromptConfig};
use crate::runner::web::{Header, Headers};

/// What the model is told, as the system prompt: the one answer hookhost reads.
const SYSTEM_PROMPT: &str = "You are a policy check that an AI coding agent's hook host runs \
before or after one of the agent's actions. The user message describes the action as JSON \
and says what to check. Answer with exactly one JSON object and nothing else: {\"ok\": true} \
when the action may proceed, or {\"ok\": false, \"reason\": \"...\"} when it must not, the \
reason saying why in one sentence.";

/// The answer's length limit asked for: a verdict is short.
const MAX_TOKENS: u32 = 1024;

/// How much of an unusable answer a message quotes.
const QUOTE_CHARS: usize = 200;

/// The model's verdict.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// `{"ok": true}`.
    Ok,
    /// `{"ok": false, "reason": …}`.
    Block(String),
}

/// Where a prompt hook's request goes, and as whom.
#[derive(Debug)]
pub(super) struct Endpoint {
    provider: ModelProvider,
    /// The completion URL (`…/v1/messages`, `…/v1/chat/completions`).
    pub(super) url: String,
    model: String,
    /// The API key, when there is one (a local server may need none).
    key: Option<String>,
    /// Where the key came from, for messages (never the key itself).
    key_env: String,
}

impl Endpoint {
    /// The endpoint of `hook`: `tools.hookModel`, else the environment.
    pub(super) fn resolve(
        settings: Option<&HookModel>,
        hook: &PromptConfig,
        lookup: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Endpoint, PromptError> {
        let set = |name: &str| {
            lookup(name)
                .and_then(|v| v.into_string().ok())
                .filter(|v| !v.trim().is_empty())
        };
        let (provider, base, key_env, model) = match settings {
            Some(model) => {
                let key_env = model
                    .api_key_env
                    .clone()
                    .unwrap_or_else(|| defaults(model.provider).key_env.to_owned());
                if model.api_key_env.is_some() && set(&key_env).is_none() {
                    return Err(PromptError::KeyEnvUnset(key_env));
                }
                let base = model
                    .base_url
                    .clone()
                    .unwrap_or_else(|| defaults(model.provider).base.to_owned());
                (model.provider, base, key_env, model.model.clone())
            }
            None => {
                let from_env = [ModelProvider::Anthropic, ModelProvider::OpenAi]
                    .into_iter()
                    .find_map(|provider| {
                        let of = defaults(provider);
                        let base = set(of.base_env);
                        (base.is_some() || set(of.key_env).is_some()).then(|| {
                            let base = base.unwrap_or_else(|| of.base.to_owned());
                            (provider, base, of.key_env.to_owned(), None)
                        })
                    });
                from_env.ok_or(PromptError::NoEndpoint)?
            }
        };
        let of = defaults(provider);
        let model = hook
            .model
            .clone()
            .or(model)
            .unwrap_or_else(|| of.model.to_owned());
        Ok(Endpoint {
            provider,
            url: api_url(&base, of.path),
            model,
            key: set(&key_env),
            key_env,
        })
    }

    /// The request body.
    pub(super) fn request(&self, prompt: &str) -> Vec<u8> {
        let body = match self.provider {
            ModelProvider::Anthropic => serde_json::json!({
                "model": self.model,
                "max_tokens": MAX_TOKENS,
                "system": SYSTEM_PROMPT,
                "messages": [{"role": "user", "content": prompt}],
            }),
            ModelProvider::OpenAi => serde_json::json!({
                "model": self.model,
                "messages": [
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": prompt},
                ],
            }),
        };
        body.to_string().into_bytes()
    }

    /// The headers: the key (marked sensitive, so it never appears in a debug
    /// print of the request) and the API version.
    pub(super) fn headers(&self) -> Result<Headers, PromptError> {
        let mut list: Vec<Header> = Vec::with_capacity(2);
        if let Some(key) = &self.key {
            let (name, value) = match self.provider {
                ModelProvider::Anthropic => ("x-api-key", key.trim().to_owned()),
                ModelProvider::OpenAi => ("authorization", format!("Bearer {}", key.trim())),
            };
            list.push((name.to_owned(), value, true));
        }
        if self.provider == ModelProvider::Anthropic {
            list.push((
                "anthropic-version".to_owned(),
                "2023-06-01".to_owned(),
                false,
            ));
        }
        // The names are constants; only the key's value can be refused.
        Headers::new(list).map_err(|_| PromptError::KeyNotHeader(self.key_env.clone()))
    }

    /// The verdict in a 2xx answer's body; `Err` says what came back instead.
    pub(super) fn verdict(&self, body: &[u8]) -> Result<Verdict, PromptError> {
        let who = format!("model {} at {}", self.model, self.url);
        let quote = |text: &str| crate::text::clip(text.trim(), QUOTE_CHARS).into_owned();
        let json: serde_json::Value =
            serde_json::from_slice(body).map_err(|_| PromptError::NotJson {
                who: who.clone(),
                said: quote(&String::from_utf8_lossy(body)),
            })?;
        let text = match self.provider {
            ModelProvider::Anthropic => json["content"].as_array().and_then(|blocks| {
                let texts: Vec<&str> = blocks
                    .iter()
                    .filter(|b| b["type"] == "text")
                    .filter_map(|b| b["text"].as_str())
                    .collect();
                (!texts.is_empty()).then(|| texts.concat())
            }),
            ModelProvider::OpenAi => json["choices"][0]["message"]["content"]
                .as_str()
                .map(str::to_owned),
        };
        let Some(text) = text else {
            let expected = match self.provider {
                ModelProvider::Anthropic => "content[].text",
                ModelProvider::OpenAi => "choices[0].message.content",
            };
            return Err(PromptError::NoText {
                who,
                expected,
                said: quote(&json.to_string()),
            });
        };
        verdict(&text).ok_or_else(|| PromptError::NoVerdict {
            who,
            said: quote(&text),
        })
    }
}

/// Why a prompt hook has no verdict; the message names the setting or the model
/// and quotes (clipped) what came back.
#[derive(Debug, thiserror::Error)]
pub(super) enum PromptError {
    #[error("tools.hookModel.apiKeyEnv names ${0}, which is not set")]
    KeyEnvUnset(String),
    #[error(
        "no model endpoint for prompt hooks: set tools.hookModel in your user settings \
         ({{\"provider\": \"anthropic\" | \"openai\", \"baseUrl\", \"model\", \"apiKeyEnv\"}}), or \
         ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL), or OPENAI_API_KEY (and OPENAI_BASE_URL) in \
         the environment"
    )]
    NoEndpoint,
    #[error("the API key in ${0} is not a valid header value")]
    KeyNotHeader(String),
    #[error("{who} answered with something that is not JSON: {said:?}")]
    NotJson { who: String, said: String },
    #[error("{who} answered JSON without {expected}: {said:?}")]
    NoText {
        who: String,
        expected: &'static str,
        said: String,
    },
    #[error(
        "{who} did not answer {{\"ok\": true}} or {{\"ok\": false, \"reason\": …}}; it said {said:?}"
    )]
    NoVerdict { who: String, said: String },
}

/// `{"ok": true}` or `{"ok": false, "reason": …}` in the model's text, possibly in
/// a Markdown code fence; `None` for anything else.
fn verdict(text: &str) -> Option<Verdict> {
    let mut text = text.trim();
    if let Some(fenced) = text.strip_prefix("```") {
        // ```json\n{…}\n```: the info string ends at the first line break.
        let (_, body) = fenced.split_once('\n')?;
        text = body.trim_end().strip_suffix("```")?.trim();
    }
    let serde_json::Value::Object(answer) = serde_json::from_str(text).ok()? else {
        return None;
    };
    match answer.get("ok")? {
        serde_json::Value::Bool(true) => Some(Verdict::Ok),
        serde_json::Value::Bool(false) => {
            let reason = answer
                .get("reason")
                .and_then(serde_json::Value::as_str)
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .unwrap_or("the prompt hook's model answered ok: false without a reason");
            Some(Verdict::Block(reason.to_owned()))
        }
        _ => None,
    }
}

/// `base` + `/v1/` + `path`, without doubling a `/v1` the base already ends in
/// (`OPENAI_BASE_URL` usually does, `ANTHROPIC_BASE_URL` usually does not).
fn api_url(base: &str, path: &str) -> String {
    let base = base.trim().trim_end_matches('/');
    if base.ends_with("/v1") {
        format!("{base}/{path}")
    } else {
        format!("{base}/v1/{path}")
    }
}

/// What a provider's endpoint is where settings do not say.
struct Defaults {
    /// The public API's base URL.
    base: &'static str,
    /// The variable that may name another base URL.
    base_env: &'static str,
    /// The variable holding the key.
    key_env: &'static str,
    /// The model.
    model: &'static str,
    /// The completion path after `/v1/`.
    path: &'static str,
}

fn defaults(provider: ModelProvider) -> Defaults {
    match provider {
        ModelProvider::Anthropic => Defaults {
            base: "https://api.anthropic.com",
            base_env: "ANTHROPIC_BASE_URL",
            key_env: "ANTHROPIC_API_KEY",
            model: DEFAULT_ANTHROPIC_MODEL,
            path: "messages",
        },
        ModelProvider::OpenAi => Defaults {
            base: "https://api.openai.com/v1",
            base_env: "OPENAI_BASE_URL",
            key_env: "OPENAI_API_KEY",
            model: DEFAULT_OPENAI_MODEL,
            path: "chat/completions",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(model: Option<&str>) -> PromptConfig {
        PromptConfig {
            prompt: "judge $ARGUMENTS".to_owned(),
            model: model.map(str::to_owned),
            continue_on_block: None,
        }
    }

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(*v))
        }
    }

    #[test]
    fn verdicts_are_read_bare_or_fenced_and_nothing_else() {
        assert_eq!(verdict(r#"{"ok": true}"#), Some(Verdict::Ok));
        assert_eq!(
            verdict(" {\"ok\":true,\"reason\":\"fine\"}\n"),
            Some(Verdict::Ok)
        );
        assert_eq!(
            verdict("```json\n{\"ok\": false, \"reason\": \"rm -rf\"}\n```"),
            Some(Verdict::Block("rm -rf".to_owned()))
        );
        assert_eq!(verdict("```\n{\"ok\": true}\n```"), Some(Verdict::Ok));
        assert!(
            matches!(verdict(r#"{"ok": false}"#), Some(Verdict::Block(r)) if r.contains("without a reason"))
        );
        for bad in [
            "Sure! It looks fine.",
            r#"{"ok": "yes"}"#,
            r#"{"allow": true}"#,
            "[true]",
            "```json\n{\"ok\": true}",
            "",
        ] {
            assert_eq!(verdict(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_endpoint_comes_from_settings_else_anthropic_else_openai_variables() {
        let settings = HookModel {
            provider: ModelProvider::OpenAi,
            base_url: Some("http://127.0.0.1:9/v1/".to_owned()),
            model: Some("local".to_owned()),
            api_key_env: None,
        };
        let e = Endpoint::resolve(
            Some(&settings),
            &hook(None),
            env(&[("ANTHROPIC_API_KEY", "a")]),
        )
        .unwrap();
        assert_eq!(e.url, "http://127.0.0.1:9/v1/chat/completions");
        assert_eq!((e.model.as_str(), e.key.as_deref()), ("local", None));
        let e = Endpoint::resolve(Some(&settings), &hook(Some("mine")), env(&[])).unwrap();
        assert_eq!(e.model, "mine", "the hook's model wins");

        let e = Endpoint::resolve(
            None,
            &hook(None),
            env(&[("ANTHROPIC_API_KEY", "k"), ("OPENAI_API_KEY", "o")]),
        )
        .unwrap();
        assert_eq!(e.provider, ModelProvider::Anthropic);
        assert_eq!(e.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(
            (e.model.as_str(), e.key.as_deref()),
            (DEFAULT_ANTHROPIC_MODEL, Some("k"))
        );

        let e = Endpoint::resolve(
            None,
            &hook(None),
            env(&[("OPENAI_BASE_URL", "http://h/v1")]),
        )
        .unwrap();
        assert_eq!(e.provider, ModelProvider::OpenAi);
        assert_eq!(e.url, "http://h/v1/chat/completions");
        assert_eq!(
            (e.model.as_str(), e.key.as_deref()),
            (DEFAULT_OPENAI_MODEL, None)
        );

        let none = Endpoint::resolve(None, &hook(None), env(&[("ANTHROPIC_API_KEY", " ")]))
            .unwrap_err()
            .to_string();
        assert!(
            none.contains("tools.hookModel") && none.contains("OPENAI_API_KEY"),
            "{none}"
        );

        let named = HookModel {
            api_key_env: Some("MY_KEY".to_owned()),
            ..settings
        };
        let missing = Endpoint::resolve(Some(&named), &hook(None), env(&[]))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("$MY_KEY"), "{missing}");
    }

    #[test]
    fn a_base_url_gets_one_v1() {
        assert_eq!(api_url("http://x", "messages"), "http://x/v1/messages");
        assert_eq!(api_url("http://x/v1/", "messages"), "http://x/v1/messages");
    }

    #[test]
    fn a_key_that_is_not_a_header_value_is_named_by_its_variable_only() {
        let settings = HookModel {
            provider: ModelProvider::Anthropic,
            base_url: None,
            model: None,
            api_key_env: Some("MY_KEY".to_owned()),
        };
        let e = Endpoint::resolve(
            Some(&settings),
            &hook(None),
            env(&[("MY_KEY", "k\nX-Injected: 1")]),
        )
        .unwrap();
        match e.headers() {
            Err(problem) => assert_eq!(
                problem.to_string(),
                "the API key in $MY_KEY is not a valid header value"
            ),
            Ok(_) => assert!(
                crate::runner::web::available().is_err(),
                "only a build that sends nothing takes it"
            ),
        }
    }
}
