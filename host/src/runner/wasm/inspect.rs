//! `hookhost plugin inspect FILE`: what a `.wasm` file is, what it imports, and
//! whether hookhost can run it — found by loading it exactly as a hook's file is
//! loaded (default limits, a fresh engine), so the answer cannot disagree with a fire.

use std::fmt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::detect::{WasmKind, imports};
use super::engine::WasmEngine;
use super::linker::{Grant, grant_needed, is_granted, is_granted_module_import};
use super::runtime::EngineOptions;
use crate::config::{DEFAULT_FUEL, DEFAULT_MEMORY_LIMIT, PluginConfig};

/// What [`inspect_plugin`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PluginInspection {
    /// The file inspected.
    pub file: PathBuf,
    /// Its size in bytes.
    pub size: usize,
    /// Its SHA-256, hex (what a hook's `sha256` pins).
    pub sha256: String,
    /// A component or a core module; `None`: not WebAssembly.
    pub kind: Option<WasmKind>,
    /// Its imports, each with what hookhost links for it. Empty when the file is
    /// not WebAssembly or they could not be read.
    pub imports: Vec<(String, &'static str)>,
    /// Why the imports could not be read, if they could not.
    pub imports_unreadable: Option<String>,
    /// Why it does not load as a hook's file would; `None`: it does.
    pub not_runnable: Option<String>,
}

impl PluginInspection {
    /// Whether hookhost can run it.
    pub fn is_runnable(&self) -> bool {
        self.not_runnable.is_none()
    }
}

/// Inspects `file`; `Err` only when it cannot be read.
pub fn inspect_plugin(file: &Path) -> std::io::Result<PluginInspection> {
    let bytes = std::fs::read(file)?;
    let mut inspection = PluginInspection {
        file: file.to_path_buf(),
        size: bytes.len(),
        sha256: hex::encode(Sha256::digest(&bytes)),
        kind: WasmKind::detect(&bytes),
        imports: Vec::new(),
        imports_unreadable: None,
        not_runnable: Some("not WebAssembly".to_owned()),
    };
    let Some(kind) = inspection.kind else {
        return Ok(inspection);
    };
    match imports(&bytes) {
        Ok(names) => {
            inspection.imports = names
                .into_iter()
                .map(|name| {
                    let note = grant(kind, &name);
                    (name, note)
                })
                .collect();
        }
        Err(e) => inspection.imports_unreadable = Some(e.to_string()),
    }
    let config = PluginConfig {
        builtin: None,
        path: file.to_path_buf(),
        source: None,
        sha256: None,
        fuel: DEFAULT_FUEL,
        memory_limit: DEFAULT_MEMORY_LIMIT,
        env: Vec::new(),
        preopens: Vec::new(),
        args: Vec::new(),
        grants: Default::default(),
    };
    inspection.not_runnable = WasmEngine::new(&EngineOptions::default())
        .and_then(|engine| engine.load(&config))
        .err()
        .map(|e| e.to_string());
    Ok(inspection)
}

/// What hookhost links for an import named `name`.
fn grant(kind: WasmKind, name: &str) -> &'static str {
    match kind {
        WasmKind::Component if is_granted(name) => "granted",
        WasmKind::Component => match grant_needed(name) {
            Some(Grant::AllowedHosts) => {
                "linked; needs the hook's \"allowedHosts\" (without it every request is denied)"
            }
            Some(Grant::State) => {
                "linked; needs the hook's \"state\" (without it every open is denied)"
            }
            None => other_component_import(name),
        },
        WasmKind::Module => match name.split_once("::") {
            Some((module, function)) if is_granted_module_import(module, function) => "granted",
            Some(("wasi_snapshot_preview1", _)) => "linked, network denied (every call fails)",
            _ => "not provided",
        },
    }
}

/// What hookhost links for a component import that is neither granted nor a
/// capability.
fn other_component_import(name: &str) -> &'static str {
    if name.starts_with("wasi:sockets/") {
        "linked, network denied (every call fails; use wasi:http and \"allowedHosts\")"
    } else {
        "not provided"
    }
}

/// The report `hookhost plugin inspect` prints.
impl fmt::Display for PluginInspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "file: {}",
            crate::terminal_safe(&self.file.display().to_string())
        )?;
        writeln!(f, "size: {} bytes", self.size)?;
        writeln!(f, "sha256: {}", self.sha256)?;
        let Some(kind) = self.kind else {
            writeln!(f, "kind: not WebAssembly")?;
            return writeln!(f, "runnable: no");
        };
        let kind = match kind {
            WasmKind::Component => "WASI 0.2 component",
            WasmKind::Module => "core module (WASI preview 1)",
        };
        writeln!(f, "kind: {kind}")?;
        match &self.imports_unreadable {
            None => {
                writeln!(f, "imports:")?;
                // Import names are the file's own bytes: made safe to print.
                for (name, note) in &self.imports {
                    writeln!(f, "  {}  ({note})", crate::terminal_safe(name))?;
                }
            }
            Some(e) => writeln!(f, "imports: unreadable ({e})")?,
        }
        match &self.not_runnable {
            None => writeln!(f, "runnable: yes"),
            Some(e) => writeln!(f, "runnable: no — {e}"),
        }
    }
}
