//! Types hookhost recognises but does not run (`agent`, `mcp_tool`): a load error
//! naming the hook, and a failure on every fire that its `failurePolicy` governs —
//! never a silently dropped hook.

use serde_json::json;

use crate::common::{Project, group};

#[test]
fn agent_and_mcp_tool_hooks_are_named_failures() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "agent", "prompt": "check it"}),
        json!({"type": "mcp_tool", "server": "s", "tool": "t", "failurePolicy": "block"}),
    ])]}));
    let check = p.check(&[]);
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check.stderr.contains("hooks[0].type: an \"agent\" hook"),
        "{}",
        check.stderr
    );
    assert!(
        check.stderr.contains("hooks[1].type: an \"mcp_tool\" hook"),
        "{}",
        check.stderr
    );
    let fired = p.fire("BeforeTool", json!({"tool_name": "t"}));
    assert_eq!(fired.final_output()["decision"], "block", "{fired:#?}");
    assert!(
        fired
            .errors()
            .iter()
            .any(|e| e.contains("hooks[0].type: an \"agent\" hook")),
        "{:?}",
        fired.errors()
    );
}

#[test]
fn a_misspelt_type_is_named_with_a_suggestion() {
    let p = Project::new();
    p.settings(json!({"BeforeTool": [group(vec![json!({"type": "htpp", "url": "http://x"})])]}));
    let check = p.check(&[]);
    assert!(
        check.stderr.contains("did you mean \"http\""),
        "{}",
        check.stderr
    );
}
