//! `tool-allowlist`: a `BeforeToolSelection` policy that lets the model see
//! only the tools listed in a policy file.
//!
//! The list is read from `/policy/allowed-tools.txt` (override with the
//! `TOOL_ALLOWLIST` variable in the hook's `env`): one tool name per line,
//! `#` starts a comment, blank lines are ignored. Give the plugin the file
//! through a read-only preopen:
//!
//! ```json
//! "preopens": [{"host": "$LLXPRT_PROJECT_DIR/.llxprt/policy", "guest": "/policy"}]
//! ```
//!
//! The answer is `toolConfig {mode: AUTO, allowedFunctionNames: [...]}`; a
//! file that lists no tool answers `mode: NONE` (an empty allow-list must not
//! read as "no restriction"). A missing or unreadable file is a failed hook:
//! a warning on stderr and exit status 1, so the agent proceeds unrestricted
//! (fail-open; configure `"failurePolicy": "block"` to fail closed instead).

use hookhost_guest::{HookInput, HookOutput, HookResult, ToolMode, register_hook};

const DEFAULT_POLICY: &str = "/policy/allowed-tools.txt";

/// Tool names from the policy file's text.
fn parse_allowlist(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect()
}

fn allowlist(input: HookInput) -> HookResult {
    if !matches!(input, HookInput::BeforeToolSelection(_)) {
        return Ok(HookOutput::allow());
    }
    let path = std::env::var("TOOL_ALLOWLIST").unwrap_or_else(|_| DEFAULT_POLICY.to_owned());
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!("tool-allowlist: cannot read {path} ({e}); tools are not restricted")
    })?;
    let names = parse_allowlist(&text);
    Ok(if names.is_empty() {
        HookOutput::allow().tool_config(ToolMode::None, names)
    } else {
        HookOutput::allow().tool_config(ToolMode::Auto, names)
    })
}

register_hook!(allowlist);

#[cfg(test)]
mod tests {
    use super::parse_allowlist;

    #[test]
    fn comments_and_blanks_are_skipped() {
        let text = "# read-only tools\nread_file\n\n  glob  # pattern search\n#write_file\n";
        assert_eq!(parse_allowlist(text), ["read_file", "glob"]);
    }
}
