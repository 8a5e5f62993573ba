//! `hookhost init`: a project with hooks enabled and one working example hook.

use std::path::Path;
use std::process::ExitCode;

use crate::{Failure, Outcome};

/// The example hook `init` installs (the same as `examples/shell/protect-paths.sh`).
const PROTECT_PATHS: &str = include_str!("../assets/protect-paths.sh");

const SETTINGS: &str = r#"{
  "tools": { "enableHooks": true },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace|edit",
        "hooks": [
          {
            "type": "command",
            "name": "protect-paths",
            "description": "Refuse writes outside the project and to secrets",
            "command": "\"$LLXPRT_PROJECT_DIR\"/.llxprt/hooks/protect-paths.sh",
            "timeout": 5000
          }
        ]
      }
    ]
  }
}
"#;

pub fn run(project_dir: &Path, force: bool) -> Outcome {
    let dir = project_dir.join(".llxprt");
    let settings = dir.join("settings.json");
    let hook = dir.join("hooks").join("protect-paths.sh");
    if settings.exists() && !force {
        return Err(Failure::from(format_args!(
            "{} exists; add hooks to it by hand, or rerun with --force to replace it",
            settings.display()
        )));
    }
    let written = (|| -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(dir.join("hooks"))?;
        std::fs::write(&settings, SETTINGS)?;
        std::fs::write(&hook, PROTECT_PATHS)?;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))
    })();
    written.map_err(|e| Failure::from(format_args!("cannot write {}: {e}", dir.display())))?;
    println!("wrote {}", settings.display());
    println!("wrote {}", hook.display());
    println!("try it:");
    println!(
        "  echo '{{\"tool_name\":\"write_file\",\"tool_input\":{{\"file_path\":\"/etc/passwd\"}}}}' | hookhost fire BeforeTool --project-dir {} --explain",
        project_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
