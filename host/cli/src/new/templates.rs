//! The files of each `hookhost new` scaffold: templates under `host/templates/`,
//! embedded in the binary.

/// One file of a scaffold: where it goes, its template, whether it is a script,
/// whether it is copied as it is (an SDK's source) rather than rendered.
pub(super) struct Template {
    pub(super) path: &'static str,
    pub(super) text: &'static str,
    pub(super) executable: bool,
    pub(super) verbatim: bool,
}

const fn file(path: &'static str, text: &'static str) -> Template {
    Template {
        path,
        text,
        executable: false,
        verbatim: false,
    }
}

const fn script(path: &'static str, text: &'static str) -> Template {
    Template {
        path,
        text,
        executable: true,
        verbatim: false,
    }
}

/// A file of an SDK, copied byte for byte.
const fn sdk(path: &'static str, text: &'static str) -> Template {
    Template {
        path,
        text,
        executable: false,
        verbatim: true,
    }
}

/// Files every scaffold gets.
pub(super) const COMMON: &[Template] = &[
    file(
        "settings.json",
        include_str!("../../assets/templates/common/settings.json"),
    ),
    file(
        "cases/01-write-etc.json",
        include_str!("../../assets/templates/common/cases/01-write-etc.json"),
    ),
    file(
        "cases/02-sudo.json",
        include_str!("../../assets/templates/common/cases/02-sudo.json"),
    ),
    file(
        "cases/03-project-file.json",
        include_str!("../../assets/templates/common/cases/03-project-file.json"),
    ),
    file(
        "cases/04-claude-style.json",
        include_str!("../../assets/templates/common/cases/04-claude-style.json"),
    ),
];

/// The Rust guest SDK, vendored into a Rust scaffold (under `vendor/`, with the
/// plugin world its bindings read from its own `wit/`), so that the scaffold builds
/// with only the `hookhost` binary.
pub(super) const GUEST_SDK: &[Template] = &[
    file(
        "hookhost-guest/Cargo.toml",
        include_str!("../../assets/templates/rust/guest-sdk-Cargo.toml"),
    ),
    sdk(
        "hookhost-guest/src/lib.rs",
        include_str!("../../assets/guest-sdk/src/lib.rs"),
    ),
    sdk(
        "hookhost-guest/src/exit.rs",
        include_str!("../../assets/guest-sdk/src/exit.rs"),
    ),
    sdk(
        "hookhost-guest/src/input.rs",
        include_str!("../../assets/guest-sdk/src/input.rs"),
    ),
    sdk(
        "hookhost-guest/src/llm.rs",
        include_str!("../../assets/guest-sdk/src/llm.rs"),
    ),
    sdk(
        "hookhost-guest/src/output.rs",
        include_str!("../../assets/guest-sdk/src/output.rs"),
    ),
    sdk(
        "hookhost-guest/src/secrets.rs",
        include_str!("../../assets/guest-sdk/src/secrets.rs"),
    ),
    sdk(
        "hookhost-guest/src/shell.rs",
        include_str!("../../assets/guest-sdk/src/shell.rs"),
    ),
    sdk(
        "hookhost-guest/src/tests.rs",
        include_str!("../../assets/guest-sdk/src/tests.rs"),
    ),
    sdk(
        "hookhost-guest/src/http.rs",
        include_str!("../../assets/guest-sdk/src/http.rs"),
    ),
    sdk(
        "hookhost-guest/src/log.rs",
        include_str!("../../assets/guest-sdk/src/log.rs"),
    ),
    sdk(
        "hookhost-guest/src/state.rs",
        include_str!("../../assets/guest-sdk/src/state.rs"),
    ),
];

/// The shell reading the Rust guest SDK re-exports as `hookhost_guest::shell`,
/// vendored beside it (its unit tests stay in hookhost's tree).
pub(super) const SHELL: &[Template] = &[
    file(
        "hookhost-shell/Cargo.toml",
        include_str!("../../assets/templates/rust/shell-Cargo.toml"),
    ),
    sdk(
        "hookhost-shell/src/lib.rs",
        include_str!("../../assets/shell/src/lib.rs"),
    ),
    sdk(
        "hookhost-shell/src/ast.rs",
        include_str!("../../assets/shell/src/ast.rs"),
    ),
    sdk(
        "hookhost-shell/src/download.rs",
        include_str!("../../assets/shell/src/download.rs"),
    ),
    sdk(
        "hookhost-shell/src/expand.rs",
        include_str!("../../assets/shell/src/expand.rs"),
    ),
    sdk(
        "hookhost-shell/src/program.rs",
        include_str!("../../assets/shell/src/program.rs"),
    ),
    sdk(
        "hookhost-shell/src/kinds.rs",
        include_str!("../../assets/shell/src/kinds.rs"),
    ),
    sdk(
        "hookhost-shell/src/strings.rs",
        include_str!("../../assets/shell/src/strings.rs"),
    ),
    sdk(
        "hookhost-shell/src/runs.rs",
        include_str!("../../assets/shell/src/runs.rs"),
    ),
    sdk(
        "hookhost-shell/src/parser/mod.rs",
        include_str!("../../assets/shell/src/parser/mod.rs"),
    ),
    sdk(
        "hookhost-shell/src/parser/lex.rs",
        include_str!("../../assets/shell/src/parser/lex.rs"),
    ),
    sdk(
        "hookhost-shell/src/parser/grammar.rs",
        include_str!("../../assets/shell/src/parser/grammar.rs"),
    ),
    sdk(
        "hookhost-shell/src/parser/redirect.rs",
        include_str!("../../assets/shell/src/parser/redirect.rs"),
    ),
];

/// The plugin world, for toolchains that read WIT (componentize-py, ComponentizeJS).
pub(super) const WIT: &[Template] = &[
    sdk("wit/hook.wit", include_str!("../../assets/wit/hook.wit")),
    sdk(
        "wit/deps/cli/cli.wit",
        include_str!("../../assets/wit/deps/cli/cli.wit"),
    ),
    sdk(
        "wit/deps/clocks/clocks.wit",
        include_str!("../../assets/wit/deps/clocks/clocks.wit"),
    ),
    sdk(
        "wit/deps/filesystem/filesystem.wit",
        include_str!("../../assets/wit/deps/filesystem/filesystem.wit"),
    ),
    sdk(
        "wit/deps/io/io.wit",
        include_str!("../../assets/wit/deps/io/io.wit"),
    ),
    sdk(
        "wit/deps/random/random.wit",
        include_str!("../../assets/wit/deps/random/random.wit"),
    ),
    sdk(
        "wit/deps/sockets/sockets.wit",
        include_str!("../../assets/wit/deps/sockets/sockets.wit"),
    ),
    sdk(
        "wit/deps/http/http.wit",
        include_str!("../../assets/wit/deps/http/http.wit"),
    ),
    sdk(
        "wit/deps/keyvalue/store.wit",
        include_str!("../../assets/wit/deps/keyvalue/store.wit"),
    ),
    sdk(
        "wit/deps/logging/logging.wit",
        include_str!("../../assets/wit/deps/logging/logging.wit"),
    ),
];

/// The case of the scaffolds whose SDK parses shell commands (Rust, Python, JS).
const DOWNLOAD_CASE: Template = file(
    "cases/05-download-into-shell.json",
    include_str!("../../assets/templates/shell-cases/05-download-into-shell.json"),
);

pub(super) const RUST: &[Template] = &[
    DOWNLOAD_CASE,
    file(
        "Cargo.toml",
        include_str!("../../assets/templates/rust/policy-Cargo.toml"),
    ),
    file(
        "src/main.rs",
        include_str!("../../assets/templates/rust/src/main.rs"),
    ),
    file(
        "README.md",
        include_str!("../../assets/templates/rust/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/rust/gitignore"),
    ),
];

pub(super) const PYTHON: &[Template] = &[
    DOWNLOAD_CASE,
    sdk(
        "hookhost_guest.py",
        include_str!("../../assets/guest-sdk/python/hookhost_guest.py"),
    ),
    file(
        "app.py",
        include_str!("../../assets/templates/python/app.py"),
    ),
    file(
        "policy.py",
        include_str!("../../assets/templates/python/policy.py"),
    ),
    file(
        "test_policy.py",
        include_str!("../../assets/templates/python/test_policy.py"),
    ),
    script(
        "build.sh",
        include_str!("../../assets/templates/python/build.sh"),
    ),
    file(
        "README.md",
        include_str!("../../assets/templates/python/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/python/gitignore"),
    ),
];

pub(super) const JS: &[Template] = &[
    DOWNLOAD_CASE,
    sdk(
        "hookhost-guest.js",
        include_str!("../../assets/guest-sdk/js/hookhost-guest.js"),
    ),
    file(
        "index.js",
        include_str!("../../assets/templates/js/index.js"),
    ),
    file(
        "policy.js",
        include_str!("../../assets/templates/js/policy.js"),
    ),
    file(
        "policy.test.js",
        include_str!("../../assets/templates/js/policy.test.js"),
    ),
    file(
        "package.json",
        include_str!("../../assets/templates/js/package.json"),
    ),
    script(
        "build.sh",
        include_str!("../../assets/templates/js/build.sh"),
    ),
    file(
        "README.md",
        include_str!("../../assets/templates/js/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/js/gitignore"),
    ),
];

pub(super) const GO: &[Template] = &[
    file("go.mod", include_str!("../../assets/templates/go/go.mod")),
    file("main.go", include_str!("../../assets/templates/go/main.go")),
    file(
        "main_test.go",
        include_str!("../../assets/templates/go/main_test.go"),
    ),
    script(
        "build.sh",
        include_str!("../../assets/templates/go/build.sh"),
    ),
    file(
        "README.md",
        include_str!("../../assets/templates/go/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/go/gitignore"),
    ),
    // The Go guest SDK, vendored: a module of its own that go.mod's `replace` names.
    sdk(
        "hookhost-guest/go.mod",
        include_str!("../../assets/guest-sdk/go/go.mod"),
    ),
    sdk(
        "hookhost-guest/hookhost.go",
        include_str!("../../assets/guest-sdk/go/hookhost.go"),
    ),
    sdk(
        "hookhost-guest/secrets.go",
        include_str!("../../assets/guest-sdk/go/secrets.go"),
    ),
];

pub(super) const C: &[Template] = &[
    file(
        "policy.c",
        include_str!("../../assets/templates/c/policy.c"),
    ),
    file(
        "test_policy.c",
        include_str!("../../assets/templates/c/test_policy.c"),
    ),
    script(
        "build.sh",
        include_str!("../../assets/templates/c/build.sh"),
    ),
    file(
        "README.md",
        include_str!("../../assets/templates/c/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/c/gitignore"),
    ),
    // The C guest SDK: one header.
    sdk(
        "hookhost.h",
        include_str!("../../assets/guest-sdk/c/hookhost.h"),
    ),
];
