//! `hookhost hook` in an agent's JSON settings file (`{"hooks": {EVENT: [{"matcher":
//! …, "hooks": [{"type": "command", "command": …}]}]}}`, the shape Claude Code,
//! Codex, Gemini CLI, LLxprt Code, Copilot CLI, Qwen Code and Droid share): added
//! as a group of its own after the user's groups, found again by its command, and
//! taken out without touching anything else.

use serde_json::{Map, Value, json};

use super::agents::Style;

/// A problem with the agent's file that setup will not paper over.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    #[error("not valid JSON ({0}); fix it or move it away, then run setup again")]
    Json(serde_json::Error),
    #[error("the file is not a JSON object")]
    NotObject,
    #[error("`{0}` is not {1}")]
    Field(String, &'static str),
}

/// The file's top-level object (`text` may hold `//` and `/* */` comments, as
/// Gemini CLI's files may; they are not kept). An empty or missing file is `{}`.
pub fn parse(text: Option<&str>) -> Result<Map<String, Value>, ShapeError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Map::new());
    };
    let stripped = json_comments::StripComments::new(text.as_bytes());
    match serde_json::from_reader(stripped).map_err(ShapeError::Json)? {
        Value::Object(map) => Ok(map),
        _ => Err(ShapeError::NotObject),
    }
}

/// Whether `text` has comments that [`parse`] drops.
pub fn has_comments(text: &str) -> bool {
    let mut stripped = String::new();
    let mut reader = json_comments::StripComments::new(text.as_bytes());
    std::io::Read::read_to_string(&mut reader, &mut stripped).is_ok() && stripped != text
}

/// The file's text after an edit: pretty JSON, a newline at the end.
pub fn render(root: &Map<String, Value>) -> String {
    let mut text = serde_json::to_string_pretty(root).unwrap_or_else(|_| "{}".to_owned());
    text.push('\n');
    text
}

/// Whether `command` is the hook setup writes: this binary's own command (whatever
/// the binary is called: seen, a copy named otherwise got no Codex trust records),
/// or `<path>/hookhost hook` (or the npm launcher's `<path>/hookhost.js hook`),
/// nothing more (a user's own `hookhost hook --fail-closed` is theirs, and stays).
pub fn is_ours(command: &str) -> bool {
    static OWN: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if OWN.get_or_init(|| super::hook_command().ok()).as_deref() == Some(command) {
        return true;
    }
    let Some(words) = shlex::split(command) else {
        return false;
    };
    matches!(words.as_slice(), [program, sub]
        if sub == "hook" && hookhost::is_hookhost_program(program))
}

/// One of setup's hooks found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub event: String,
    pub group: usize,
    pub hook: usize,
    pub command: String,
}

/// Setup's hooks in the file, in order.
pub fn ours(root: &Map<String, Value>) -> Vec<Found> {
    let mut found = Vec::new();
    let Some(Value::Object(events)) = root.get("hooks") else {
        return found;
    };
    for (event, groups) in events {
        let Value::Array(groups) = groups else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let Some(Value::Array(hooks)) = group.get("hooks") else {
                continue;
            };
            for (h, hook) in hooks.iter().enumerate() {
                if let Some(command) = hook.get("command").and_then(Value::as_str)
                    && is_ours(command)
                {
                    found.push(Found {
                        event: event.clone(),
                        group: g,
                        hook: h,
                        command: command.to_owned(),
                    });
                }
            }
        }
    }
    found
}

/// Adds `command` under every event of `style` that lacks it (a setup hook with
/// another path — hookhost moved — gets the new one, in place). How many hooks
/// were added or changed.
pub fn add(
    root: &mut Map<String, Value>,
    style: Style,
    command: &str,
) -> Result<usize, ShapeError> {
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(events) = hooks else {
        return Err(ShapeError::Field("hooks".into(), "an object"));
    };
    let mut changed = 0;
    for (event, matcher) in style.events() {
        let groups = events
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            return Err(ShapeError::Field(format!("hooks.{event}"), "an array"));
        };
        changed += add_to_event(groups, matcher, style.timeout(), command);
    }
    Ok(changed)
}

fn add_to_event(
    groups: &mut Vec<Value>,
    matcher: Option<&str>,
    timeout: u64,
    command: &str,
) -> usize {
    let mut present = false;
    let mut changed = 0;
    for group in groups.iter_mut() {
        let Some(Value::Array(hooks)) = group.get_mut("hooks") else {
            continue;
        };
        for hook in hooks.iter_mut() {
            let Some(current) = hook.get("command").and_then(Value::as_str) else {
                continue;
            };
            if current == command {
                present = true;
            } else if is_ours(current) {
                hook["command"] = Value::from(command);
                present = true;
                changed += 1;
            }
        }
    }
    if present {
        return changed;
    }
    let mut group = Map::new();
    if let Some(matcher) = matcher {
        group.insert("matcher".into(), Value::from(matcher));
    }
    group.insert(
        "hooks".into(),
        json!([{"type": "command", "command": command, "timeout": timeout}]),
    );
    groups.push(Value::Object(group));
    changed + 1
}

/// Takes setup's hooks out: a group left empty goes, an event left empty goes,
/// `hooks` left empty goes. How many hooks were taken out.
pub fn remove(root: &mut Map<String, Value>) -> usize {
    let Some(Value::Object(events)) = root.get_mut("hooks") else {
        return 0;
    };
    let mut removed = 0;
    events.retain(|_, groups| {
        let Value::Array(list) = groups else {
            return true;
        };
        let before = removed;
        list.retain_mut(|group| {
            let Some(Value::Array(hooks)) = group.get_mut("hooks") else {
                return true;
            };
            let n = hooks.len();
            hooks.retain(|hook| {
                !hook
                    .get("command")
                    .and_then(Value::as_str)
                    .is_some_and(is_ours)
            });
            let gone = n - hooks.len();
            removed += gone;
            !(gone > 0 && hooks.is_empty())
        });
        !(removed > before && list.is_empty())
    });
    if removed > 0 && events.is_empty() {
        root.remove("hooks");
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "/opt/bin/hookhost hook";

    #[test]
    fn ours_is_exactly_setups_command() {
        assert!(is_ours("/opt/bin/hookhost hook"));
        assert!(is_ours("'/opt/my dir/hookhost' hook"));
        assert!(is_ours("hookhost hook"));
        assert!(is_ours(
            "/usr/lib/node_modules/hookhost/bin/hookhost.js hook"
        ));
        assert!(!is_ours("hookhost hook --fail-closed"));
        assert!(!is_ours("/opt/bin/hookhost-old hook"));
        assert!(!is_ours("hookhost fire BeforeTool"));
        assert!(!is_ours("echo 'unbalanced"));
    }

    #[test]
    fn add_appends_after_the_users_hooks_and_is_idempotent() {
        let mut root = parse(Some(
            r#"{"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine"}]}]}}"#,
        ))
        .unwrap_or_default();
        assert_eq!(add(&mut root, Style::Claude, CMD).ok(), Some(5));
        let pre = &root["hooks"]["PreToolUse"];
        assert_eq!(pre[0]["hooks"][0]["command"], "mine");
        assert_eq!(pre[1]["matcher"], "*");
        assert_eq!(pre[1]["hooks"][0]["command"], CMD);
        assert_eq!(add(&mut root, Style::Claude, CMD).ok(), Some(0));
        assert_eq!(ours(&root).len(), 5);
        // Moved: the command follows, nothing is added.
        assert_eq!(
            add(&mut root, Style::Claude, "/new/hookhost hook").ok(),
            Some(5)
        );
        assert_eq!(ours(&root).len(), 5);
        assert_eq!(remove(&mut root), 5);
        assert_eq!(
            Value::Object(root),
            json!({"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine"}]}]}})
        );
    }

    #[test]
    fn wrong_shapes_are_named() {
        let mut root = parse(Some(r#"{"hooks": []}"#)).unwrap_or_default();
        assert!(
            matches!(add(&mut root, Style::Claude, CMD), Err(ShapeError::Field(f, _)) if f == "hooks")
        );
        let mut root = parse(Some(r#"{"hooks": {"BeforeTool": {}}}"#)).unwrap_or_default();
        assert!(
            matches!(add(&mut root, Style::Gemini, CMD), Err(ShapeError::Field(f, _)) if f == "hooks.BeforeTool")
        );
        assert!(matches!(parse(Some("[1]")), Err(ShapeError::NotObject)));
        assert!(matches!(parse(Some("{")), Err(ShapeError::Json(_))));
        assert!(parse(Some("// note\n{\"a\": 1}")).is_ok());
        assert!(has_comments("// note\n{}"));
        assert!(!has_comments("{\"a\": \"//x\"}"));
    }
}
