//! Check of a prompt hook's own fields: `prompt` (required, not blank), `model` and
//! `continueOnBlock`,
//! into a [`PromptConfig`]. Which endpoint answers is the user's choice
//! (`tools.hookModel`, else the environment), not the hook's.

use super::report::{Report, show};
use crate::config::settings::shape::field::Field;
use crate::config::settings::shape::hook::HookSettings;
use crate::config::spec::{HookKind, PromptConfig};

/// Checks the prompt fields of `hook`; `None` (with errors) when it cannot run.
pub(super) fn config(at: &str, hook: HookSettings, report: &mut Report<'_>) -> Option<HookKind> {
    let mut ok = true;
    let model = report
        .take_or_flag(&format!("{at}.model"), hook.model, "a model name", &mut ok)
        .flatten()
        .filter(|m| !m.trim().is_empty());
    let continue_on_block = report
        .take_or_flag(
            &format!("{at}.continueOnBlock"),
            hook.continue_on_block,
            "true or false",
            &mut ok,
        )
        .flatten();
    let at = format!("{at}.prompt");
    let prompt = match hook.prompt {
        Field::Ok(p) if !p.trim().is_empty() => p,
        Field::Ok(_) => {
            report.error(&at, "is empty");
            return None;
        }
        Field::Wrong(other) => {
            report.error(&at, format!("expected a string, got {}", show(&other)));
            return None;
        }
        Field::Absent => {
            report.error(&at, "missing (required for a prompt hook)");
            return None;
        }
    };
    ok.then_some(HookKind::Prompt(PromptConfig {
        prompt,
        model,
        continue_on_block,
    }))
}
