//! `package-allowlist`: package installs must be approved by an allow-list
//! service.
//!
//! On `BeforeTool` it finds, with the SDK's shell parser, the packages a shell
//! command installs:
//! - `npm install|i|add X`, `pnpm add|install|i X`, `yarn add X` (ecosystem
//!   `npm`; `X@1.2.3` and `@scope/x@^2` are asked about as `X` and `@scope/x`);
//! - `pip install X`, `pip3 install X`, `python -m pip install X`,
//!   `uv pip install X` (ecosystem `pypi`; `X==1.0`, `X[extra]>=2` as `X`);
//! - `cargo add X`, `cargo install X` (ecosystem `crates`; `X@1` as `X`),
//!
//! and asks the service at the base URL given as the hook's first argument,
//! one request per package:
//!
//! ```text
//! GET {base}/allow?ecosystem=npm&package=left-pad
//! 200 {"allowed": true, "reason": "approved 2024-05-01"}
//! ```
//!
//! It blocks the command when the service says `"allowed": false` (with the
//! service's `reason`). It is **fail-closed**: when the service cannot be
//! reached, is denied by the host (its host is missing from `allowedHosts`),
//! answers another status than 200 or a body that is not that JSON, the
//! install is blocked too, saying why. So is a package whose name is computed
//! at run time (`npm install $PKG`). Installs from a lock file or manifest
//! (`npm install`, `pip install -r requirements.txt`, `cargo add --path ../x`)
//! name no package and are not checked. Each decision is logged
//! (`wasi:logging`, context `package-allowlist`).
//!
//! ```json
//! {
//!   "type": "plugin",
//!   "path": "policies/package-allowlist.wasm",
//!   "args": ["http://127.0.0.1:8080"],
//!   "allowedHosts": ["127.0.0.1:8080"],
//!   "timeout": 5000,
//!   "failurePolicy": "block"
//! }
//! ```
//!
//! Each request asks the host for a [`TIMEOUT`] (which a host may ignore);
//! the hook's own `timeout` bounds the whole run, and a hook stopped by it
//! fails open unless it sets `"failurePolicy": "block"`, as above. A native
//! build has no HTTP and blocks every install it finds.

use std::time::Duration;

use hookhost_guest::http::{self, HttpError};
use hookhost_guest::shell::{self, SimpleCommand, Word};
use hookhost_guest::{HookInput, HookOutput, HookResult, Value, log, register_hook};

const TAG: &str = "package-allowlist";
/// How long one request may take to connect, to answer, and between body
/// bytes (a request to the host; see the module docs).
const TIMEOUT: Duration = Duration::from_secs(3);
/// The most bytes of an answer the policy reads.
const MAX_ANSWER: usize = 64 * 1024;

/// A package a command installs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Package {
    /// `npm`, `pypi` or `crates`.
    ecosystem: &'static str,
    /// The name, without a version or extras.
    name: String,
}

/// Options of each tool that take the next word as their value.
const NPM_VALUE_OPTIONS: &[&str] = &[
    "--registry",
    "--prefix",
    "--tag",
    "--workspace",
    "-w",
    "--cache",
    "--userconfig",
    "--omit",
    "--include",
    "--install-strategy",
    "--filter",
    "-C",
    "--dir",
];
const PIP_VALUE_OPTIONS: &[&str] = &[
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "--src",
    "--platform",
    "--python-version",
    "--implementation",
    "--abi",
    "--upgrade-strategy",
    "--trusted-host",
    "--proxy",
    "--retries",
    "--timeout",
    "--cache-dir",
    "--log",
    "-p",
    "--python",
];
const CARGO_VALUE_OPTIONS: &[&str] = &[
    "--path",
    "--git",
    "--branch",
    "--tag",
    "--rev",
    "--registry",
    "--rename",
    "-p",
    "--package",
    "--features",
    "-F",
    "--manifest-path",
    "--target",
    "--root",
    "--index",
    "--version",
    "--profile",
    "-Z",
    "--config",
    "-j",
    "--jobs",
    "--lockfile-path",
];

/// The words that are not options (nor option values), in order.
fn operands<'a>(words: &'a [Word], value_options: &[&str]) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if text.starts_with('-') && text.len() > 1 {
            if value_options.contains(&text) {
                words.next();
            }
        } else {
            out.push(word);
        }
    }
    out
}

/// `left-pad@1.3.0` → `left-pad`, `@scope/pkg@^2` → `@scope/pkg`.
fn npm_name(spec: &str) -> &str {
    let at = if let Some(rest) = spec.strip_prefix('@') {
        rest.find('@').map(|i| i + 1)
    } else {
        spec.find('@')
    };
    at.map_or(spec, |i| &spec[..i])
}

/// `requests[socks]>=2.0` → `requests`.
fn pip_name(spec: &str) -> &str {
    spec.split(['=', '<', '>', '!', '~', ';', '[', '@', ' '])
        .next()
        .unwrap_or(spec)
        .trim()
}

/// `serde@1.0` → `serde`.
fn cargo_name(spec: &str) -> &str {
    spec.split('@').next().unwrap_or(spec)
}

/// The packages `command` installs; `Err` with the reason when one of them is
/// computed at run time.
fn installs(command: &SimpleCommand) -> Result<Vec<Package>, String> {
    let Some(program) = command.program() else {
        return Ok(Vec::new());
    };
    let args = command.args();
    let is_pip = |p: &str| {
        p.strip_prefix("pip")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    // (ecosystem, value options, the operands after the subcommand, name of a spec)
    let (ecosystem, value_options, subcommands, name): (_, _, &[&str], fn(&str) -> &str) =
        match program {
            "npm" | "pnpm" => ("npm", NPM_VALUE_OPTIONS, &["install", "i", "add"], npm_name),
            "yarn" => ("npm", NPM_VALUE_OPTIONS, &["add"], npm_name),
            "cargo" => (
                "crates",
                CARGO_VALUE_OPTIONS,
                &["add", "install"],
                cargo_name,
            ),
            p if is_pip(p) => ("pypi", PIP_VALUE_OPTIONS, &["install"], pip_name),
            // `python -m pip install X`, `uv pip install X`: pip's words follow.
            p if p.starts_with("python") || p == "uv" => {
                let words = operands(args, PIP_VALUE_OPTIONS);
                let pip_at = words.iter().position(|w| w.text == "pip");
                let Some(rest) = pip_at.and_then(|i| words.get(i + 1..)) else {
                    return Ok(Vec::new());
                };
                return packages("pypi", rest, &["install"], pip_name);
            }
            _ => return Ok(Vec::new()),
        };
    packages(ecosystem, &operands(args, value_options), subcommands, name)
}

/// The packages named after a subcommand in `subcommands`.
fn packages(
    ecosystem: &'static str,
    operands: &[&Word],
    subcommands: &[&str],
    name: fn(&str) -> &str,
) -> Result<Vec<Package>, String> {
    let Some((subcommand, specs)) = operands.split_first() else {
        return Ok(Vec::new());
    };
    if !subcommands.contains(&subcommand.text.as_str()) {
        return Ok(Vec::new());
    }
    specs
        .iter()
        .map(|spec| match spec.literal() {
            Some(text) => Ok(Package {
                ecosystem,
                name: name(text).to_owned(),
            }),
            None => Err(format!(
                "{TAG}: the {ecosystem} package {:?} is computed at run time and cannot be checked",
                spec.text
            )),
        })
        .filter(|p| p.as_ref().map_or(true, |p| !p.name.is_empty()))
        .collect()
}

/// Percent-encodes a query value (everything but RFC 3986's unreserved).
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The question for `package`.
fn query_url(base: &str, package: &Package) -> String {
    format!(
        "{}/allow?ecosystem={}&package={}",
        base.trim_end_matches('/'),
        encode(package.ecosystem),
        encode(&package.name)
    )
}

/// The service's answer to a 200: `Ok(reason)` when allowed, `Err(reason)`
/// when not or when the answer is not the expected JSON.
fn verdict(answer: &Value) -> Result<String, String> {
    let reason = answer
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or("no reason given")
        .to_owned();
    match answer.get("allowed").and_then(Value::as_bool) {
        Some(true) => Ok(reason),
        Some(false) => Err(reason),
        None => Err("the service's answer has no boolean \"allowed\"".to_owned()),
    }
}

/// Asks the service about `package`: `Ok(reason)` when allowed, else the
/// block reason.
fn ask(base: &str, package: &Package) -> Result<String, String> {
    let Package { ecosystem, name } = package;
    let cannot = |why: String| {
        format!(
            "{TAG}: cannot check the {ecosystem} package {name}: {why}; blocked until the allow-list service answers"
        )
    };
    let response = http::Request::get(query_url(base, package))
        .timeout(TIMEOUT)
        .send()
        .map_err(|e| cannot(e.to_string()))?;
    let status = response.status();
    if status != 200 {
        return Err(cannot(format!("the service answered {status}")));
    }
    let body = response
        .bytes_limited(MAX_ANSWER)
        .map_err(|e| cannot(e.to_string()))?;
    let answer: Value = serde_json_from(&body).map_err(|e| cannot(e.to_string()))?;
    match verdict(&answer) {
        Ok(reason) => Ok(reason),
        Err(reason) if answer.get("allowed").and_then(Value::as_bool) == Some(false) => Err(
            format!("{TAG}: the {ecosystem} package {name} is not allowed: {reason}"),
        ),
        Err(reason) => Err(cannot(reason)),
    }
}

/// Decodes the answer's JSON.
fn serde_json_from(body: &[u8]) -> Result<Value, HttpError> {
    hookhost_guest::serde_json::from_slice(body)
        .map_err(|e| HttpError::Decode(format!("the answer is not JSON: {e}")))
}

/// Logs the block `reason` (without its tag: the log line's context is the
/// tag) and blocks with it.
fn block(reason: String) -> HookResult {
    let text = reason
        .strip_prefix(TAG)
        .and_then(|r| r.strip_prefix(": "))
        .unwrap_or(&reason);
    log::info(TAG, &format!("blocked: {text}"));
    Ok(HookOutput::block(reason))
}

fn package_allowlist(input: HookInput) -> HookResult {
    let (HookInput::BeforeTool(_), Some(call)) = (&input, input.tool_call()) else {
        return Ok(HookOutput::allow());
    };
    let Some(command) = call.shell_command() else {
        return Ok(HookOutput::allow());
    };
    let mut wanted = Vec::new();
    for simple in shell::parse(command).simple_commands() {
        match installs(simple) {
            Ok(packages) => wanted.extend(packages),
            Err(reason) => return block(reason),
        }
    }
    if wanted.is_empty() {
        return Ok(HookOutput::allow());
    }
    let Some(base) = std::env::args().nth(1) else {
        let reason = format!(
            "{TAG}: no allow-list service is configured (the hook's first argument); installs are blocked"
        );
        return block(reason);
    };
    for package in &wanted {
        match ask(&base, package) {
            Ok(reason) => log::info(
                TAG,
                &format!("{} {}: allowed ({reason})", package.ecosystem, package.name),
            ),
            Err(reason) => {
                return block(reason);
            }
        }
    }
    Ok(HookOutput::allow())
}

register_hook!(package_allowlist);

#[cfg(test)]
mod tests {
    use super::{Package, installs, package_allowlist, query_url, verdict};
    use hookhost_guest::{EXIT_BLOCK, EXIT_OK, handle, json, shell};

    fn found(command: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for simple in shell::parse(command).simple_commands() {
            for p in installs(simple)? {
                out.push(format!("{}:{}", p.ecosystem, p.name));
            }
        }
        Ok(out)
    }

    #[test]
    fn finds_installed_packages() {
        for (command, packages) in [
            ("npm install left-pad", vec!["npm:left-pad"]),
            (
                "npm i -D left-pad@1.3.0 @types/node@^20",
                vec!["npm:left-pad", "npm:@types/node"],
            ),
            (
                "cd web && npm add --registry https://r.example react",
                vec!["npm:react"],
            ),
            ("yarn add lodash", vec!["npm:lodash"]),
            ("pip install requests==2.31.0", vec!["pypi:requests"]),
            (
                "pip3 install -U 'uvicorn[standard]>=0.29'",
                vec!["pypi:uvicorn"],
            ),
            ("python3 -m pip install --user httpx", vec!["pypi:httpx"]),
            ("uv pip install rich", vec!["pypi:rich"]),
            ("cargo add serde@1 --features derive", vec!["crates:serde"]),
            ("sudo cargo install ripgrep", vec!["crates:ripgrep"]),
            ("sh -c 'npm install evil'", vec!["npm:evil"]),
        ] {
            assert_eq!(
                found(command),
                Ok(packages.iter().map(|s| s.to_string()).collect()),
                "{command}"
            );
        }
        for command in [
            "npm install",
            "npm run build",
            "pip install -r requirements.txt",
            "cargo add --path ../core",
            "cargo build",
            "echo npm install left-pad",
            "python -m venv .venv",
        ] {
            assert_eq!(found(command), Ok(vec![]), "{command}");
        }
        let dynamic = found("npm install $PKG").unwrap_err();
        assert!(dynamic.contains("computed at run time"), "{dynamic}");
    }

    #[test]
    fn asks_with_an_encoded_query() {
        let package = Package {
            ecosystem: "npm",
            name: "@types/node".to_owned(),
        };
        assert_eq!(
            query_url("http://127.0.0.1:8080/", &package),
            "http://127.0.0.1:8080/allow?ecosystem=npm&package=%40types%2Fnode"
        );
    }

    #[test]
    fn reads_the_verdict() {
        assert_eq!(
            verdict(&json!({"allowed": true, "reason": "ok"})),
            Ok("ok".to_owned())
        );
        assert_eq!(
            verdict(&json!({"allowed": false, "reason": "typosquat"})),
            Err("typosquat".to_owned())
        );
        assert!(verdict(&json!({"allow": "yes"})).is_err());
    }

    #[test]
    fn fails_closed_without_http() {
        let run = |command: &str| {
            let event = json!({"hook_event_name": "BeforeTool",
                "tool_name": "run_shell_command", "tool_input": {"command": command}});
            handle(event.to_string().as_bytes(), package_allowlist)
        };
        assert_eq!(run("npm test").exit_code, EXIT_OK);
        // Natively there is no HTTP (and the test runner's first argument is
        // no service): the install is blocked with the reason.
        let outcome = run("npm install left-pad");
        assert_eq!(outcome.exit_code, EXIT_BLOCK);
        assert!(
            outcome.stdout.contains("package-allowlist"),
            "{}",
            outcome.stdout
        );
    }
}
