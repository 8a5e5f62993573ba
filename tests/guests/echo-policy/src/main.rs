//! `echo-policy`: a well-behaved policy whose answer the tests can predict.
//!
//! For `BeforeTool`, driven by `tool_input`:
//! - `path` starting with `/etc` → block (exit 2), reason names the path;
//! - `rewrite: true` → `hookSpecificOutput.tool_input` is the input plus
//!   `rewritten: true`;
//! - `echo_env: true` → `systemMessage` lists the environment variable names
//!   the guest sees, sorted: `env: A,B,C`;
//! - `echo_args: true` → `systemMessage` lists the arguments: `args: a b`.
//!
//! For every event: when the configured `env` has `ECHO_ENV`, the env names
//! are reported as above; when it has `ECHO_INPUT`, `systemMessage` carries the
//! received input as compact JSON (`input: {…}`). Message parts are joined with
//! `; `. Otherwise the answer is `{}`.

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

fn flag(input: &HookInput, key: &str) -> bool {
    input
        .tool_input()
        .and_then(|t| t.get(key))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

fn env_names() -> String {
    let mut names: Vec<String> = std::env::vars().map(|(k, _)| k).collect();
    names.sort();
    format!("env: {}", names.join(","))
}

fn policy(input: HookInput) -> HookResult {
    let mut messages = Vec::new();
    if std::env::var_os("ECHO_INPUT").is_some() {
        messages.push(format!(
            "input: {}",
            hookhost_guest::serde_json::to_string(&input)?
        ));
    }
    if std::env::var_os("ECHO_ENV").is_some() || flag(&input, "echo_env") {
        messages.push(env_names());
    }
    if flag(&input, "echo_args") {
        let args: Vec<String> = std::env::args().collect();
        messages.push(format!("args: {}", args.join(" ")));
    }

    let mut output = HookOutput::allow();
    if let HookInput::BeforeTool(call) = &input {
        let path = call
            .tool_input
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or("");
        if path.starts_with("/etc") {
            output = HookOutput::block(format!("echo-policy: writing to {path} is prohibited"));
        } else if flag(&input, "rewrite") {
            let mut rewritten = call.tool_input.clone();
            rewritten.insert("rewritten".to_owned(), Value::Bool(true));
            output = output.tool_input(rewritten);
        }
    }
    if !messages.is_empty() {
        output = output.system_message(messages.join("; "));
    }
    Ok(output)
}

register_hook!(policy);
