//! Placeholder, replaced by the real permission-rule module (branch `rule`).

use std::path::Path;

use serde_json::{Map, Value};

/// A permission rule.
#[derive(Debug, Clone)]
pub struct Rule {
    text: String,
}

/// Why a rule does not parse.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// Empty.
    #[error("the rule is empty")]
    Empty,
}

impl Rule {
    /// Parses a rule.
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        if text.trim().is_empty() {
            return Err(RuleError::Empty);
        }
        Ok(Rule {
            text: text.to_owned(),
        })
    }

    /// Whether the call matches.
    pub fn matches(&self, _tool_name: &str, _tool_input: &Map<String, Value>, _cwd: &Path) -> bool {
        false
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
