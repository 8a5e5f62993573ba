//! Why an `if` rule is rejected: a rule that cannot be understood is an error the
//! settings check reports, never a rule that matches everything by accident.

/// Why a rule does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// Nothing but blanks.
    #[error("the rule is empty")]
    Empty,
    /// More than one rule (`Bash(a)|Write`, `Edit, Write`).
    #[error(
        "{rule:?} is a list of rules; an `if` holds exactly one rule (write one hook per rule)"
    )]
    List {
        /// The rule as written.
        rule: String,
    },
    /// A `(` without its `)`, or a `)` without its `(`.
    #[error("{rule:?} has unbalanced parentheses")]
    Unbalanced {
        /// The rule as written.
        rule: String,
    },
    /// Text after the pattern's closing parenthesis.
    #[error("{rule:?} has {rest:?} after the closing parenthesis")]
    Trailing {
        /// The rule as written.
        rule: String,
        /// What follows the `)`.
        rest: String,
    },
    /// The tool name has characters no tool name has.
    #[error("{name:?} is not a tool name (letters, digits, `_`, `-` and `*` only)")]
    ToolName {
        /// The tool name as written.
        name: String,
    },
    /// `Tool()`.
    #[error("{rule:?} has an empty pattern; write {tool} alone to match every call")]
    EmptyPattern {
        /// The rule as written.
        rule: String,
        /// The tool as written.
        tool: String,
    },
    /// A pattern that has no meaning for its tool.
    #[error("{rule:?}: {why}")]
    Pattern {
        /// The rule as written.
        rule: String,
        /// What is wrong with the pattern.
        why: PatternError,
    },
}

/// What is wrong with a rule's pattern for its tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// `Bash(command:…)`: the primary field, which `param:value` cannot match.
    #[error(
        "`{name}` is {tool}'s primary field, which a `param:value` rule cannot match (a compound \
         command would bypass it); write the tool's own pattern instead, e.g. Bash(rm *), \
         Read(./path), WebFetch(domain:host)"
    )]
    PrimaryField {
        /// The field.
        name: String,
        /// The tool.
        tool: String,
    },
    /// A path pattern that does not parse.
    #[error("{0}")]
    Path(&'static str),
    /// A `WebFetch` rule that is not `domain:<host>`.
    #[error("WebFetch rules take `domain:<host>` (e.g. WebFetch(domain:example.com)), not a URL")]
    NotDomain,
    /// `domain:` with something that is no host name.
    #[error("{0:?} is not a host name for `domain:`")]
    NotHost(String),
    /// A path rule for a search tool, which Claude Code never consults.
    #[error(
        "Claude Code never consults a path rule for {0}; write {0} alone, Read(<path>) for the \
         files it reads, or {0}(param:value)"
    )]
    Search(String),
    /// A pattern for a tool that takes none.
    #[error("{0} takes no pattern; write {0} alone or {0}(param:value)")]
    NoPattern(String),
}
