//! The fuzz corpora (`fuzz/corpus/<target>/`) and the saved findings
//! (`fuzz/regressions/<target>/`) replayed on the stable toolchain, through the very
//! property functions the fuzz targets run (`fuzz/props.rs`, included here and by
//! every target). `scripts/fuzz.sh` runs the fuzzers themselves (nightly).

use std::path::PathBuf;

#[allow(dead_code)]
mod props {
    include!("../../fuzz/props.rs");
}

/// Every file of `fuzz/corpus/<target>` and `fuzz/regressions/<target>`.
fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = crate::common::repo().join("fuzz");
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        files.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file()),
        );
    }
    files.sort();
    files
}

/// Runs `property` on every input of `target`; a failure names the file.
fn replay(target: &str, property: fn(&[u8])) {
    let files = inputs(target);
    assert!(
        files.len() >= 5,
        "fuzz/corpus/{target} holds only {} files",
        files.len()
    );
    for file in files {
        let data = std::fs::read(&file).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| property(&data)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            panic!("{target}: {} fails: {message}", file.display());
        }
    }
}

#[test]
fn hook_output_corpus() {
    replay("hook_output", props::hook_output);
}

#[test]
fn settings_corpus() {
    replay("settings", props::settings);
}

#[test]
fn matcher_corpus() {
    replay("matcher", props::matcher);
}

#[test]
fn aggregate_corpus() {
    replay("aggregate", props::aggregate);
}

#[test]
fn serve_request_corpus() {
    replay("serve_request", props::serve_request);
}

#[test]
fn dialect_corpus() {
    replay("dialect", props::dialect);
}
