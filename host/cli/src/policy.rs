//! `hookhost policy list | show NAME`: the builtin policies, switched on with
//! `"source": "builtin:NAME"` in a plugin hook (see `hookhost::BUILTINS`).

use std::process::ExitCode;

use crate::{Failure, Outcome};

/// What to do.
#[derive(Debug, clap::Subcommand)]
pub enum PolicyCommand {
    /// Every builtin policy: name, what it guards against, digest, what it reads.
    List,
    /// One builtin: what it blocks, what it allows, its settings, examples, and
    /// the hook that switches it on.
    Show {
        /// The policy's name (`hookhost policy list`).
        name: String,
    },
}

/// Runs `hookhost policy …`.
pub fn run(command: &PolicyCommand) -> Outcome {
    match command {
        PolicyCommand::List => {
            // Written once: a closed stdout (`| head`) must not panic.
            let mut out = String::new();
            for b in &hookhost::BUILTINS {
                out += &format!("{:<16} {}\n", b.name, b.summary);
                out += &format!("{:<16} {}  ({} bytes)\n", "", b.digest(), b.bytes().len());
                out += &format!("{:<16} reads {}\n", "", b.reads);
            }
            out += &format!(
                "\nall five run in one component, the pack ({}): several builtin hooks \
                 of one call run in one instance of it\n",
                hookhost::BUILTIN_PACK.digest()
            );
            out += "switch one on: a plugin hook with \"source\": \"builtin:NAME\" \
                    (`hookhost policy show NAME` has the settings)\n";
            crate::write_stdout(&out);
            Ok(ExitCode::SUCCESS)
        }
        PolicyCommand::Show { name } => {
            let b =
                hookhost::find_builtin(name).map_err(|e| Failure::of("policy", e.to_string()))?;
            crate::write_stdout(&format!(
                "{}\n\n## Switch it on\n\ndigest {} (runs in the builtin pack, {}); reads {}\n\n{}\n",
                b.readme.trim_end(),
                b.digest(),
                hookhost::BUILTIN_PACK.digest(),
                b.reads,
                example(b.name)
            ));
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The hook that switches `name` on in monitor mode, for a user to paste.
fn example(name: &str) -> String {
    let hook = serde_json::json!({
        "hooks": {"BeforeTool": [{"hooks": [{
            "type": "plugin",
            "source": format!("builtin:{name}"),
            "name": name,
            "mode": "monitor"
        }]}]}
    });
    format!(
        "~/.llxprt/settings.json (drop \"mode\": \"monitor\" to enforce once the trace looks right):\n{}",
        serde_json::to_string_pretty(&hook).unwrap_or_default()
    )
}
