//! `secret-scan`: a `BeforeTool` policy that refuses to write secrets into files.
//!
//! It scans the text a tool is about to write — `content` (`write_file`) and
//! `new_string` (`replace`/edit tools) in `tool_input` — for AWS access key
//! IDs, PEM private keys, GitHub tokens and high-entropy values assigned to
//! names like `api_key` or `password`. A finding blocks the call with the kind
//! of secret and its line number; the secret itself is never echoed, because
//! the block reason is shown to the model and the user.

mod scan;

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

/// The `tool_input` keys that hold text about to be written.
const TEXT_KEYS: &[&str] = &["content", "new_string", "new_content"];

fn secret_scan(input: HookInput) -> HookResult {
    let HookInput::BeforeTool(call) = input else {
        return Ok(HookOutput::allow());
    };
    let mut findings = Vec::new();
    for key in TEXT_KEYS {
        if let Some(text) = call.tool_input.get(*key).and_then(Value::as_str) {
            findings.extend(scan::scan(text));
        }
    }
    if findings.is_empty() {
        return Ok(HookOutput::allow());
    }
    let target = ["file_path", "path", "absolute_path"]
        .iter()
        .find_map(|k| call.tool_input.get(*k).and_then(Value::as_str))
        .unwrap_or("the file");
    let list: Vec<String> = findings
        .iter()
        .map(|f| format!("{} on line {}", f.kind, f.line))
        .collect();
    Ok(HookOutput::block(format!(
        "secret-scan: refusing to write {target}: possible {}. Use an environment variable or a secret store instead.",
        list.join(", ")
    )))
}

register_hook!(secret_scan);
