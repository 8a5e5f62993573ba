//! A policy's settings come from the hook's `args`: one repeatable option
//! given as `--NAME VALUE` or `--NAME=VALUE`. [`values`] reads them in order,
//! so a policy checks each value (and reports the first fault) as it goes.

/// The values of the option `name` (`--allow-path`, …) in `args`, in order:
/// `Ok(Some(VALUE))` for `name VALUE` and `name=VALUE`, `Ok(None)` for `name`
/// at the end with no value, `Err(ARG)` for an argument that is not `name`.
pub fn values<I>(args: I, name: &str) -> Values<'_, I::IntoIter>
where
    I: IntoIterator<Item = String>,
{
    Values {
        args: args.into_iter(),
        name,
    }
}

/// The iterator of [`values`].
#[derive(Debug)]
pub struct Values<'a, I> {
    args: I,
    name: &'a str,
}

impl<I: Iterator<Item = String>> Iterator for Values<'_, I> {
    type Item = Result<Option<String>, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let arg = self.args.next()?;
        if arg == self.name {
            return Some(Ok(self.args.next()));
        }
        match arg
            .strip_prefix(self.name)
            .and_then(|rest| rest.strip_prefix('='))
        {
            Some(value) => Some(Ok(Some(value.to_owned()))),
            None => Some(Err(arg)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::values;

    fn read(args: &[&str]) -> Vec<Result<Option<String>, String>> {
        values(args.iter().map(|a| (*a).to_owned()), "--x").collect()
    }

    #[test]
    fn both_spellings_and_faults() {
        assert_eq!(
            read(&["--x", "a", "--x=b=c", "--x="]),
            [
                Ok(Some("a".into())),
                Ok(Some("b=c".into())),
                Ok(Some(String::new()))
            ]
        );
        assert_eq!(read(&["--x"]), [Ok(None)]);
        assert_eq!(read(&["--xy=1"]), [Err("--xy=1".to_owned())]);
        assert_eq!(read(&["-x"]), [Err("-x".to_owned())]);
    }
}
