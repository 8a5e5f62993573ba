//! The `hookhost` command line: the only place that chooses exit codes.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
