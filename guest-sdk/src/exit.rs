//! Ending the hook with a status the host can read.
//!
//! On `wasm32-wasip2`, Rust's `std::process::exit(code)` calls
//! `wasi:cli/exit.exit(err)` for every non-zero code, which carries no number:
//! the host sees status 1 (a failed hook) where we meant 2 (block). So on that
//! target non-zero codes go through `wasi:cli/exit.exit-with-code` (WASI 0.2.12),
//! imported through bindings generated from the repository's `wit/`.
//! Preview 1 (`proc_exit`) and native processes carry the code as is.

use std::io::Write;

#[cfg(all(target_os = "wasi", target_env = "p2"))]
mod bindings {
    // Only `wasi:cli/exit` is needed. A small world in the same resolve keeps
    // the generated code (and the component's import list) to that interface,
    // while the WIT definitions stay the ones hookhost itself publishes.
    wit_bindgen::generate!({
        inline: "
            package hookhost:guest-sdk;
            world exit-only {
                import wasi:cli/exit@0.2.12;
            }
        ",
        path: "wit",
        world: "hookhost:guest-sdk/exit-only",
        generate_all,
    });
}

/// Flushes stdout and stderr, then ends the instance (or process) with `code`.
pub(crate) fn exit(code: u8) -> ! {
    // Nothing unwinds past this point, so buffered output must go out now.
    // A failed flush cannot be reported anywhere useful; the exit code still can.
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();

    #[cfg(all(target_os = "wasi", target_env = "p2"))]
    if code != 0 {
        bindings::wasi::cli::exit::exit_with_code(code);
    }

    // Native, wasm32-wasip1, and status 0 on wasip2 (`exit(ok)` is exact).
    // Also the fallback should `exit-with-code` ever return.
    std::process::exit(i32::from(code))
}
