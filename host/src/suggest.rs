//! "Did you mean …?": the closest known name to a mistyped one (events, settings
//! keys, CLI values).

/// The known name closest to `typed`, when it is close enough to be a typo: a
/// case-insensitive match, or a Jaro-Winkler similarity of at least 0.85.
pub fn suggestion<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = typed.to_ascii_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for name in known {
        if name == typed {
            return None;
        }
        let score = if name.eq_ignore_ascii_case(typed) {
            1.0
        } else {
            strsim::jaro_winkler(&lower, &name.to_ascii_lowercase())
        };
        if score >= 0.85 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, name));
        }
    }
    best.map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_are_not() {
        let known = ["enableHooks", "requireHookTrust", "stickyHookBlocks"];
        assert_eq!(suggestion("enabledHooks", known), Some("enableHooks"));
        assert_eq!(suggestion("ENABLEHOOKS", known), Some("enableHooks"));
        assert_eq!(suggestion("colour", known), None);
        assert_eq!(suggestion("enableHooks", known), None);
    }
}
