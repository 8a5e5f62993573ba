//! What a `.wasm` file is, and what it imports — decided from its bytes.

use wasmtime::wasmparser::{BinaryReaderError, Parser, Payload};

/// The two kinds of plugin file hookhost runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmKind {
    /// A WASI 0.2 component exporting `wasi:cli/run`.
    Component,
    /// A WASI preview-1 core module exporting `_start`.
    Module,
}

impl WasmKind {
    /// Detects the kind from the header; `None` for anything that is not Wasm.
    pub fn detect(bytes: &[u8]) -> Option<WasmKind> {
        if Parser::is_component(bytes) {
            Some(WasmKind::Component)
        } else if Parser::is_core_wasm(bytes) {
            Some(WasmKind::Module)
        } else {
            None
        }
    }

    /// A short name for messages and cache keys.
    pub fn as_str(self) -> &'static str {
        match self {
            WasmKind::Component => "component",
            WasmKind::Module => "module",
        }
    }
}

/// The top-level import names of a component (e.g. `wasi:cli/stdout@0.2.0`) or the
/// `module::name` imports of a core module; the parser's error if the bytes are
/// not valid Wasm.
pub fn imports(bytes: &[u8]) -> Result<Vec<String>, BinaryReaderError> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload? {
            Payload::ModuleSection { .. } | Payload::ComponentSection { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(reader) if depth == 0 => {
                for import in reader {
                    let import = import?;
                    names.push(import.name.name.to_owned());
                }
            }
            Payload::ImportSection(reader) if depth == 0 => {
                for import in reader.into_imports() {
                    let import = import?;
                    names.push(format!("{}::{}", import.module, import.name));
                }
            }
            _ => {}
        }
    }
    Ok(names)
}
