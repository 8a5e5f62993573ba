//! Reading an `if` rule's text: the tool name and the pattern between its parentheses,
//! and the pattern compiled for the kind of tool it names.

use super::Spec;
use super::error::{PatternError, RuleError};
use super::path::PathPattern;
use super::shell::CommandPattern;
use super::tool::{Kind, ToolSel};

/// The tool name and the pattern between the first `(` and its `)`.
pub(super) fn split(text: &str) -> Result<(&str, Option<&str>), RuleError> {
    let rule = || text.to_owned();
    let Some(open) = text.find('(') else {
        if text.contains(')') {
            return Err(RuleError::Unbalanced { rule: rule() });
        }
        if is_list(text) {
            return Err(RuleError::List { rule: rule() });
        }
        return Ok((text, None));
    };
    let name = &text[..open];
    if is_list(name) {
        return Err(RuleError::List { rule: rule() });
    }
    let inner = &text[open + 1..];
    // The pattern ends at the `)` that ends the rule, counting parentheses in quotes
    // (`Read(it's(1).txt)`) or, failing that, not (`Bash(echo ")")`); else at the
    // first `)` that closes it (to say what follows).
    let ends_rule = |close: &usize| inner[close + 1..].trim().is_empty();
    let close = closing_paren(inner, false)
        .filter(ends_rule)
        .or_else(|| closing_paren(inner, true).filter(ends_rule))
        .or_else(|| closing_paren(inner, false))
        .ok_or_else(|| RuleError::Unbalanced { rule: rule() })?;
    let rest = inner[close + 1..].trim();
    if rest.is_empty() {
        Ok((name, Some(&inner[..close])))
    } else if is_list(rest) {
        Err(RuleError::List { rule: rule() })
    } else {
        Err(RuleError::Trailing {
            rule: rule(),
            rest: rest.to_owned(),
        })
    }
}

/// Whether a rule's top level joins rules (`A|B`, `A, B`, `A && B`).
fn is_list(top_level: &str) -> bool {
    top_level.contains(['|', ',']) || top_level.contains("&&")
}

/// The index in `inner` of the `)` closing the pattern: parentheses nest, and those
/// after a backslash (and, with `quotes`, inside quotes) do not count.
fn closing_paren(inner: &str, quotes: bool) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in inner.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => escaped = true,
            (Some('"'), '"') => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') if quotes => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => return Some(i),
            (None, ')') => depth -= 1,
            (None, _) => {}
        }
    }
    None
}

/// The pattern of a rule for `tool`.
pub(super) fn spec(tool: &ToolSel, pattern: &str) -> Result<Spec, PatternError> {
    let kind = tool.kind();
    let tool_name = match tool {
        ToolSel::Named(name) => name.as_str(),
        ToolSel::McpServer(prefix) => prefix.trim_end_matches('_'),
        ToolSel::Glob(glob) => glob.as_str(),
    };
    if let Some((name, value)) = param_form(pattern) {
        if kind.primary().contains(&name) {
            return Err(PatternError::PrimaryField {
                name: name.to_owned(),
                tool: tool_name.to_owned(),
            });
        }
        if kind.params().is_none_or(|known| known.contains(&name)) {
            return Ok(Spec::Param {
                name: name.to_owned(),
                value: value.to_owned(),
            });
        }
    }
    let pattern = pattern.trim();
    match kind {
        Kind::Shell if pattern == "*" => Ok(Spec::Any),
        Kind::Shell => Ok(Spec::Command(CommandPattern::new(pattern))),
        Kind::File => PathPattern::parse(pattern)
            .map(Spec::Path)
            .map_err(PatternError::Path),
        Kind::Web => domain(pattern),
        Kind::Agent | Kind::Skill if pattern == "*" => Ok(Spec::Any),
        Kind::Agent => Ok(Spec::Agent(pattern.to_owned())),
        Kind::Skill => Ok(Spec::Skill(pattern.to_owned())),
        Kind::Search => Err(PatternError::Search(tool_name.to_owned())),
        Kind::Other => Err(PatternError::NoPattern(tool_name.to_owned())),
    }
}

/// `param:value` with whitespace around the colon ignored; `param` an identifier.
fn param_form(pattern: &str) -> Option<(&str, &str)> {
    let (name, value) = pattern.split_once(':')?;
    let name = name.trim();
    let mut chars = name.chars();
    let ident = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then(|| (name, value.trim()))
}

/// `WebFetch(domain:host)`.
fn domain(pattern: &str) -> Result<Spec, PatternError> {
    let Some(("domain", host)) = param_form(pattern) else {
        return Err(PatternError::NotDomain);
    };
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() || host.contains(['/', ':', ' ']) {
        return Err(PatternError::NotHost(host));
    }
    if host == "*" {
        return Ok(Spec::Any);
    }
    Ok(Spec::Domain(host))
}
