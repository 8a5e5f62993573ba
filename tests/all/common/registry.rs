//! A real OCI registry for the distribution tests: Debian's `docker-registry` (the
//! CNCF distribution registry), started on a free loopback port with a temporary
//! storage directory and stopped (killed and reaped) when dropped.

use std::io::Write as _;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// How long a registry may take to accept connections (generous: the machine is
/// shared with other builds).
const START_LIMIT: Duration = Duration::from_secs(60);

/// A running registry.
pub struct Registry {
    child: Option<Child>,
    _dir: TempDir,
    /// `127.0.0.1:PORT`.
    pub host: String,
}

/// A system program, installed with apt when missing (once per test run; CI's
/// `.ci/run` installs them up front).
fn ensure(program: &str, package: &str) -> PathBuf {
    static INSTALL: Mutex<()> = Mutex::new(());
    let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    let path = PathBuf::from("/usr/bin").join(program);
    if !path.exists() {
        let status = Command::new("apt-get")
            .args(["install", "-y", package])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .expect("run apt-get");
        assert!(
            status.success() && path.exists(),
            "the distribution tests need {program}: apt-get install -y {package}"
        );
    }
    path
}

impl Registry {
    /// A registry anyone may push to.
    pub fn start() -> Registry {
        Registry::start_with_auth(None)
    }

    /// A registry that requires HTTP basic auth for `user`/`password`.
    pub fn with_basic_auth(user: &str, password: &str) -> Registry {
        Registry::start_with_auth(Some((user, password)))
    }

    fn start_with_auth(auth: Option<(&str, &str)>) -> Registry {
        let binary = ensure("docker-registry", "docker-registry");
        let dir = tempfile::tempdir().expect("registry dir");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let host = format!("127.0.0.1:{port}");
        let storage = dir.path().join("storage");
        std::fs::create_dir(&storage).expect("storage dir");
        let mut config = format!(
            "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\n  \
             delete:\n    enabled: true\nhttp:\n  addr: {host}\n",
            storage.display()
        );
        if let Some((user, password)) = auth {
            let htpasswd = dir.path().join("htpasswd");
            let out = Command::new(ensure("htpasswd", "apache2-utils"))
                .args(["-Bbn", user, password])
                .output()
                .expect("htpasswd (apt-get install -y apache2-utils)");
            assert!(out.status.success(), "htpasswd failed");
            std::fs::write(&htpasswd, &out.stdout).expect("write htpasswd");
            config.push_str(&format!(
                "auth:\n  htpasswd:\n    realm: hookhost-tests\n    path: {}\n",
                htpasswd.display()
            ));
        }
        let config_path = dir.path().join("config.yml");
        std::fs::File::create(&config_path)
            .and_then(|mut f| f.write_all(config.as_bytes()))
            .expect("write registry config");
        let child = Command::new(binary)
            .arg("serve")
            .arg(&config_path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start docker-registry");
        let registry = Registry {
            child: Some(child),
            _dir: dir,
            host,
        };
        let start = Instant::now();
        while TcpStream::connect(&registry.host).is_err() {
            assert!(
                start.elapsed() < START_LIMIT,
                "docker-registry did not listen on {} within {START_LIMIT:?}",
                registry.host
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        registry
    }

    /// `oci://HOST/REPO:TAG`.
    pub fn reference(&self, repo_tag: &str) -> String {
        format!("oci://{}/{repo_tag}", self.host)
    }

    /// Stops the registry (the next fetch finds nobody listening).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        self.stop();
    }
}
