//! A preopen is opened where its grant says, never through a symbolic link.
//!
//! The grant `{"host": "$LLXPRT_PROJECT_DIR/docs"}` in the user's settings means
//! *the project's `docs` directory*. If the repository ships `docs -> /`, opening the
//! path would hand the guest the whole file system (`/etc/shadow` included). Inside
//! the project, every component below the project directory must therefore be a real
//! directory; outside it, the granted directory itself must not be a link (its
//! parents are the user's own choice). The checked path is canonicalised once, at
//! load, and that is what every call opens.

use std::path::{Component, Path, PathBuf};

use crate::config::{PluginConfig, Preopen};

/// Why a preopen grant is refused.
#[derive(Debug, thiserror::Error)]
pub enum PreopenError {
    /// The granted path goes through a symbolic link.
    #[error(
        "preopen {host} ({guest}) goes through the symbolic link {link}; hookhost does not \
         follow links in a grant (grant the directory the link points to instead)"
    )]
    Symlink {
        /// The granted host directory.
        host: PathBuf,
        /// Where the guest would see it.
        guest: String,
        /// The link on the way.
        link: PathBuf,
    },
    /// The granted directory cannot be resolved (missing, unreadable …).
    #[error("preopen {host}: {source}")]
    Resolve {
        /// The granted host directory.
        host: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The granted path is not a directory.
    #[error("preopen {host} is not a directory")]
    NotDirectory {
        /// The granted host path.
        host: PathBuf,
    },
}

/// `config` with every preopen host resolved, or why a preopen is refused.
pub fn checked(config: &PluginConfig, project_dir: &Path) -> Result<PluginConfig, PreopenError> {
    let mut config = config.clone();
    for preopen in &mut config.preopens {
        preopen.host = resolve(preopen, project_dir)?;
    }
    Ok(config)
}

fn resolve(preopen: &Preopen, project_dir: &Path) -> Result<PathBuf, PreopenError> {
    let host = &preopen.host;
    let refuse = |link: &Path| {
        Err(PreopenError::Symlink {
            host: host.clone(),
            guest: preopen.guest.clone(),
            link: link.to_path_buf(),
        })
    };
    match host.strip_prefix(project_dir) {
        Ok(inside) => {
            let mut path = project_dir.to_path_buf();
            for component in inside.components() {
                match component {
                    Component::Normal(name) => path.push(name),
                    // `..` and `.` keep their lexical meaning; links are what is refused.
                    other => path.push(other.as_os_str()),
                }
                if is_symlink(&path) {
                    return refuse(&path);
                }
            }
        }
        Err(_) if is_symlink(host) => return refuse(host),
        Err(_) => {}
    }
    let canonical = host
        .canonicalize()
        .map_err(|source| PreopenError::Resolve {
            host: host.clone(),
            source,
        })?;
    if !canonical.is_dir() {
        return Err(PreopenError::NotDirectory { host: host.clone() });
    }
    Ok(canonical)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(host: PathBuf) -> PluginConfig {
        PluginConfig {
            builtin: None,
            path: "p.wasm".into(),
            source: None,
            sha256: None,
            fuel: 1,
            memory_limit: 1,
            env: Vec::new(),
            preopens: vec![Preopen {
                host,
                guest: "/docs".into(),
                writable: false,
            }],
            args: Vec::new(),
            grants: Default::default(),
        }
    }

    #[test]
    fn a_link_inside_the_project_is_refused_and_a_real_directory_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(project.join("real/sub")).unwrap();
        std::os::unix::fs::symlink("/", project.join("docs")).unwrap();
        std::os::unix::fs::symlink(project.join("real"), project.join("alias")).unwrap();
        let err = checked(&config(project.join("docs")), &project)
            .unwrap_err()
            .to_string();
        assert!(err.contains("symbolic link"), "{err}");
        let err = checked(&config(project.join("alias/sub")), &project)
            .unwrap_err()
            .to_string();
        assert!(err.contains("alias"), "{err}");
        let ok = checked(&config(project.join("real/sub")), &project).unwrap();
        assert_eq!(ok.preopens[0].host, project.join("real/sub"));
    }
}
