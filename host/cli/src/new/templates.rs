//! The files of each `hookhost new` scaffold: templates under `host/templates/`,
//! embedded in the binary.

/// One file of a scaffold: where it goes, its template, whether it is a script.
pub(super) struct Template {
    pub(super) path: &'static str,
    pub(super) text: &'static str,
    pub(super) executable: bool,
}

const fn file(path: &'static str, text: &'static str) -> Template {
    Template {
        path,
        text,
        executable: false,
    }
}

const fn script(path: &'static str, text: &'static str) -> Template {
    Template {
        path,
        text,
        executable: true,
    }
}

/// Files every scaffold gets.
pub(super) const COMMON: &[Template] = &[
    file(
        "settings.json",
        include_str!("../../../templates/common/settings.json"),
    ),
    file(
        "cases/01-write-etc.json",
        include_str!("../../../templates/common/cases/01-write-etc.json"),
    ),
    file(
        "cases/02-sudo.json",
        include_str!("../../../templates/common/cases/02-sudo.json"),
    ),
    file(
        "cases/03-project-file.json",
        include_str!("../../../templates/common/cases/03-project-file.json"),
    ),
    file(
        "cases/04-claude-style.json",
        include_str!("../../../templates/common/cases/04-claude-style.json"),
    ),
];

/// The Rust guest SDK, vendored into a Rust scaffold (under `vendor/`, beside the
/// plugin world its bindings read from `../wit`), so that the scaffold builds with
/// only the `hookhost` binary.
pub(super) const GUEST_SDK: &[Template] = &[
    file(
        "hookhost-guest/Cargo.toml",
        include_str!("../../../templates/rust/guest-sdk-Cargo.toml"),
    ),
    file(
        "hookhost-guest/src/lib.rs",
        include_str!("../../../../guest-sdk/src/lib.rs"),
    ),
    file(
        "hookhost-guest/src/exit.rs",
        include_str!("../../../../guest-sdk/src/exit.rs"),
    ),
    file(
        "hookhost-guest/src/input.rs",
        include_str!("../../../../guest-sdk/src/input.rs"),
    ),
    file(
        "hookhost-guest/src/llm.rs",
        include_str!("../../../../guest-sdk/src/llm.rs"),
    ),
    file(
        "hookhost-guest/src/output.rs",
        include_str!("../../../../guest-sdk/src/output.rs"),
    ),
    file(
        "hookhost-guest/src/secrets.rs",
        include_str!("../../../../guest-sdk/src/secrets.rs"),
    ),
    file(
        "hookhost-guest/src/shell.rs",
        include_str!("../../../../guest-sdk/src/shell.rs"),
    ),
    file(
        "hookhost-guest/src/tests.rs",
        include_str!("../../../../guest-sdk/src/tests.rs"),
    ),
];

/// The plugin world, for toolchains that read WIT (componentize-py, ComponentizeJS).
pub(super) const WIT: &[Template] = &[
    file("wit/hook.wit", include_str!("../../../../wit/hook.wit")),
    file(
        "wit/deps/cli/cli.wit",
        include_str!("../../../../wit/deps/cli/cli.wit"),
    ),
    file(
        "wit/deps/clocks/clocks.wit",
        include_str!("../../../../wit/deps/clocks/clocks.wit"),
    ),
    file(
        "wit/deps/filesystem/filesystem.wit",
        include_str!("../../../../wit/deps/filesystem/filesystem.wit"),
    ),
    file(
        "wit/deps/io/io.wit",
        include_str!("../../../../wit/deps/io/io.wit"),
    ),
    file(
        "wit/deps/random/random.wit",
        include_str!("../../../../wit/deps/random/random.wit"),
    ),
    file(
        "wit/deps/sockets/sockets.wit",
        include_str!("../../../../wit/deps/sockets/sockets.wit"),
    ),
];

pub(super) const RUST: &[Template] = &[
    file(
        "Cargo.toml",
        include_str!("../../../templates/rust/Cargo.toml"),
    ),
    file(
        "src/main.rs",
        include_str!("../../../templates/rust/src/main.rs"),
    ),
    file(
        "README.md",
        include_str!("../../../templates/rust/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../../templates/rust/gitignore"),
    ),
];

pub(super) const PYTHON: &[Template] = &[
    file("app.py", include_str!("../../../templates/python/app.py")),
    file(
        "policy.py",
        include_str!("../../../templates/python/policy.py"),
    ),
    file(
        "test_policy.py",
        include_str!("../../../templates/python/test_policy.py"),
    ),
    script(
        "build.sh",
        include_str!("../../../templates/python/build.sh"),
    ),
    file(
        "README.md",
        include_str!("../../../templates/python/README.md"),
    ),
    file(
        ".gitignore",
        include_str!("../../../templates/python/gitignore"),
    ),
];

pub(super) const JS: &[Template] = &[
    file("index.js", include_str!("../../../templates/js/index.js")),
    file("policy.js", include_str!("../../../templates/js/policy.js")),
    file(
        "policy.test.js",
        include_str!("../../../templates/js/policy.test.js"),
    ),
    file(
        "package.json",
        include_str!("../../../templates/js/package.json"),
    ),
    script("build.sh", include_str!("../../../templates/js/build.sh")),
    file("README.md", include_str!("../../../templates/js/README.md")),
    file(
        ".gitignore",
        include_str!("../../../templates/js/gitignore"),
    ),
];
