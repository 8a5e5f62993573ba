//! Whole rules: parsing (and what is rejected), tool names in either dialect, and each
//! kind of pattern against calls as the agents send them.

use super::*;
use serde_json::json;

pub(super) fn input(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn rule(text: &str) -> Rule {
    Rule::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn hits(text: &str, tool: &str, tool_input: Value) -> bool {
    rule(text).matches_in(tool, &input(tool_input), Path::new("/proj"), None)
}

#[test]
fn the_issue_case_git_status_prefix() {
    let cmd = |c: &str| json!({ "command": c });
    assert!(hits(
        "Bash(git status*)",
        "run_shell_command",
        cmd("git status --short")
    ));
    assert!(!hits(
        "Bash(git status*)",
        "run_shell_command",
        cmd("rm -rf /")
    ));
    assert!(hits(
        "Bash(echo guarded*)",
        "run_shell_command",
        cmd("echo guarded run")
    ));
    assert!(!hits(
        "Bash(echo guarded*)",
        "run_shell_command",
        cmd("echo free")
    ));
    // The rule's tool is not the call's.
    assert!(!hits("Bash(git status*)", "write_file", cmd("git status")));
}

#[test]
fn tool_names_in_either_dialect() {
    let cmd = json!({ "command": "git push" });
    assert!(hits("Bash(git *)", "run_shell_command", cmd.clone()));
    assert!(hits(
        "run_shell_command(git *)",
        "run_shell_command",
        cmd.clone()
    ));
    // A call that arrives under Claude's name is understood too.
    assert!(hits("run_shell_command(git *)", "Bash", cmd.clone()));
    assert!(hits("Bash", "run_shell_command", json!({})));
    assert!(hits("Bash(*)", "run_shell_command", json!({})));
    assert!(hits("write_file", "write_file", json!({})));
    assert!(!hits("Write", "replace", json!({})));
    assert!(!hits("Bash", "bash_output", json!({})));
}

#[test]
fn file_rules_in_either_dialect_and_edit_covers_the_editing_tools() {
    let file = json!({ "file_path": "/proj/src/main.ts" });
    assert!(hits("Write(src/**)", "write_file", file.clone()));
    assert!(hits("write_file(src/**)", "write_file", file.clone()));
    assert!(hits("Edit(*.ts)", "replace", file.clone()));
    assert!(hits("Edit(*.ts)", "write_file", file.clone()));
    assert!(hits("Edit(*.ts)", "multi_edit", file.clone()));
    assert!(!hits("Write(*.ts)", "replace", file.clone()));
    assert!(!hits("Read(*.ts)", "write_file", file));
    // LLxprt's read_file takes `absolute_path`.
    let read = json!({ "absolute_path": "/proj/.env" });
    assert!(hits("Read(.env)", "read_file", read));
    // A missing argument does not match.
    assert!(!hits("Edit(*.ts)", "replace", json!({ "old_string": "x" })));
    assert!(!hits(
        "Bash(git *)",
        "run_shell_command",
        json!({ "command": 3 })
    ));
}

#[test]
fn mcp_rules_name_a_server_a_tool_or_a_glob() {
    let call = |rule: &str, tool: &str| hits(rule, tool, json!({}));
    assert!(call("mcp__server__tool", "mcp__server__tool"));
    assert!(!call("mcp__server__tool", "mcp__server__tool2"));
    assert!(call("mcp__server", "mcp__server__anything"));
    assert!(!call("mcp__server", "mcp__server2__anything"));
    assert!(!call("mcp__server", "mcp__server"));
    assert!(call("mcp__server__*", "mcp__server__x"));
    assert!(!call("mcp__server__*", "mcp__other__x"));
    assert!(call("mcp__github__get_*", "mcp__github__get_issue"));
    assert!(!call("mcp__github__get_*", "mcp__github__create_issue"));
    assert!(call("mcp__*", "mcp__a__b"));
    assert!(!call("mcp__*", "run_shell_command"));
    assert!(call("*", "run_shell_command"));
    assert!(call("B*", "run_shell_command"));
    assert!(hits(
        "mcp__db__query(database:prod*)",
        "mcp__db__query",
        json!({ "database": "production" })
    ));
}

#[test]
/// Seen (issue 36, item 2): a `domain:` deny compared the URL's text.
fn seen_web_fetch_hosts_are_read_as_the_agent_reads_them() {
    for url in [
        "https://evil%2Ecom/x",
        "https://evil\u{3002}com/x",
        "https://evil\u{ff0e}com/x",
        "https://\u{ff45}\u{ff56}\u{ff49}\u{ff4c}.com/x",
        "https://ev\til.com/x",
        "https://EVIL.COM./x",
        "https://user:pw@evil.com:8443/x",
        "https://evil.com\\@good.com/",
    ] {
        assert!(
            hits(
                "WebFetch(domain:evil.com)",
                "WebFetch",
                json!({ "url": url })
            ),
            "{url}"
        );
    }
    assert!(!hits(
        "WebFetch(domain:evil.com)",
        "WebFetch",
        json!({ "url": "https://notevil.com/" })
    ));
}

#[test]
fn web_fetch_domains() {
    let url = |u: &str| json!({ "url": u, "prompt": "summarise" });
    assert!(hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        url("https://Example.COM./a")
    ));
    assert!(hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        url("http://u:p@example.com:8080")
    ));
    assert!(!hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        url("https://api.example.com")
    ));
    assert!(!hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        url("https://example.com.evil.io")
    ));
    assert!(hits(
        "WebFetch(domain:*.example.com)",
        "web_fetch",
        url("https://a.b.example.com")
    ));
    assert!(!hits(
        "WebFetch(domain:*.example.com)",
        "web_fetch",
        url("https://example.com")
    ));
    assert!(hits(
        "WebFetch(domain:example.*)",
        "web_fetch",
        url("https://example.org")
    ));
    assert!(!hits(
        "WebFetch(domain:example.*)",
        "web_fetch",
        url("https://example.evil.com")
    ));
    assert!(hits("WebFetch(domain:*)", "web_fetch", json!({})));
    assert!(!hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        json!({})
    ));
    // Gemini/LLxprt web_fetch: URLs inside the prompt.
    let prompt = json!({ "prompt": "compare https://a.io/x and https://example.com/y" });
    assert!(hits(
        "WebFetch(domain:example.com)",
        "web_fetch",
        prompt.clone()
    ));
    assert!(!hits("WebFetch(domain:b.io)", "web_fetch", prompt));
}

#[test]
fn agents_skills_and_parameters() {
    let agent = json!({ "subagent_type": "Explore", "model": "opus" });
    assert!(hits("Agent(Explore)", "agent", agent.clone()));
    assert!(hits("Agent(Explore)", "task", agent.clone()));
    assert!(hits("Task(Explore)", "agent", agent.clone()));
    assert!(!hits("Agent(Plan)", "agent", agent.clone()));
    assert!(hits("Agent(model:opus)", "agent", agent.clone()));
    assert!(!hits("Agent(model:sonnet)", "agent", agent.clone()));
    assert!(!hits("Agent(isolation:*)", "agent", agent));
    assert!(hits(
        "Agent(my-plugin:*)",
        "agent",
        json!({ "subagent_type": "my-plugin:review" })
    ));
    assert!(hits(
        "Agent(Explore)",
        "task",
        json!({ "subagent_name": "Explore" })
    ));
    let bg = json!({ "command": "sleep 9", "run_in_background": true });
    assert!(hits(
        "Bash(run_in_background:true)",
        "run_shell_command",
        bg.clone()
    ));
    assert!(!hits(
        "Bash(run_in_background:false)",
        "run_shell_command",
        bg
    ));
    let skill = json!({ "skill": "deploy prod" });
    assert!(hits("Skill(deploy *)", "skill", skill.clone()));
    assert!(!hits("Skill(dep *)", "skill", skill));
    assert!(hits(
        "TodoWrite(todos:*)",
        "write_todos",
        json!({ "todos": "x" })
    ));
    assert!(!hits(
        "TodoWrite(todos:*)",
        "write_todos",
        json!({ "todos": ["x"] })
    ));
}

#[test]
fn rules_that_do_not_parse_are_errors() {
    let err = |text: &str| Rule::parse(text).err();
    assert_eq!(err(""), Some(RuleError::Empty));
    assert_eq!(err("   "), Some(RuleError::Empty));
    assert!(matches!(err("Bash("), Some(RuleError::Unbalanced { .. })));
    assert!(matches!(
        err("Bash(bash:<(*)"),
        Some(RuleError::Unbalanced { .. })
    ));
    assert!(matches!(err("Bash)"), Some(RuleError::Unbalanced { .. })));
    assert!(matches!(err("Bash(a)|Write"), Some(RuleError::List { .. })));
    assert!(matches!(err("Bash|Write"), Some(RuleError::List { .. })));
    assert!(matches!(err("Edit, Write"), Some(RuleError::List { .. })));
    assert!(matches!(
        err("Edit(*.ts)|Write(*.ts)"),
        Some(RuleError::List { .. })
    ));
    assert!(matches!(
        err("Bash(x) trailing"),
        Some(RuleError::Trailing { .. })
    ));
    assert!(matches!(err("Ba sh"), Some(RuleError::ToolName { .. })));
    assert!(matches!(err("(x)"), Some(RuleError::ToolName { .. })));
    assert!(matches!(err("Stop Task"), Some(RuleError::ToolName { .. })));
    assert!(matches!(err("mcp__"), Some(RuleError::ToolName { .. })));
    assert!(matches!(
        err("mcp__server__"),
        Some(RuleError::ToolName { .. })
    ));
    assert!(matches!(
        err("Bash()"),
        Some(RuleError::EmptyPattern { .. })
    ));
    for text in [
        "Glob(xyz)",
        "Grep(src/**)",
        "Glob(path:src)",
        "TodoWrite(x)",
        "mcp__server__tool(x)",
        "mcp__server(x)",
        "bash(git *)",
        "WebFetch(https://example.com)",
        "WebFetch(domain:)",
        "Bash(command:rm *)",
        "Read(file_path:/etc/passwd)",
        "WebFetch(url:https://x)",
        "Read(!secret)",
        "Read(~alice/x)",
        "Read(a/../b)",
    ] {
        let e = err(text);
        assert!(
            matches!(e, Some(RuleError::Pattern { .. })),
            "{text}: {e:?}"
        );
    }
    let message = err("Glob(xyz)").map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("Read("), "{message}");
}

#[test]
fn rules_display_as_written() {
    for text in [
        "Bash(git status*)",
        "Read(~/.ssh/**)",
        "mcp__s",
        "Bash(echo \")\")",
    ] {
        assert_eq!(rule(text).to_string(), text);
    }
    assert_eq!(rule("  Bash  ").to_string(), "Bash");
    assert!(hits(
        "Read(it's(1).txt)",
        "read_file",
        json!({ "file_path": "/proj/it's(1).txt" })
    ));
    assert!(hits(
        "WebFetch(domain : a.io)",
        "web_fetch",
        json!({ "url": "https://a.io" })
    ));
    assert!(hits("Agent(*)", "agent", json!({})));
    // Parentheses nest, and quoted ones do not count.
    assert!(hits(
        "Bash(echo \")\")",
        "run_shell_command",
        json!({ "command": "echo \")\"" })
    ));
}

#[test]
fn wildcards_match_whole_texts() {
    assert!(wildcard("", ""));
    assert!(wildcard("*", ""));
    assert!(wildcard("a*c", "abbbc"));
    assert!(wildcard("a*b*c", "a-b-b-c"));
    assert!(!wildcard("a*c", "abcd"));
    assert!(wildcard("é*", "éa"));
    assert!(!wildcard("abc", "ab"));
}
