//! PowerShell's forms of running downloaded code: `iex (irm URL)`,
//! `Invoke-Expression (Invoke-RestMethod URL)`, `iwr URL | iex`,
//! `(New-Object Net.WebClient).DownloadString(URL) | iex`,
//! `& ([scriptblock]::Create((irm URL)))`, and `iwr URL -OutFile x.ps1;
//! .\x.ps1` — in a command line that is PowerShell, or in the script of
//! `powershell -Command …` / `pwsh -c …` / `-EncodedCommand …`.

use crate::hosts::{host, host_allowed, urls_in_text};
use hookhost_guest::shell::Reading;

/// What runs a string as code.
const EXECUTES: &[&str] = &[
    "iex",
    "invoke-expression",
    "[scriptblock]::create",
    "invoke-command",
];
/// What fetches from the network.
const FETCHES: &[&str] = &[
    "irm",
    "iwr",
    "invoke-restmethod",
    "invoke-webrequest",
    "downloadstring",
    "downloaddata",
    "downloadfile",
    "net.webclient",
    "start-bitstransfer",
    "curl",
    "wget",
    "system.net.http",
];
/// A command line starting with one of these is PowerShell, not sh.
const PS_STARTS: &[&str] = &[
    "iex",
    "invoke-expression",
    "irm",
    "iwr",
    "invoke-restmethod",
    "invoke-webrequest",
    "(new-object",
    "& (",
    "&(",
    "[scriptblock]",
    "$wc",
    "start-bitstransfer",
    "set-executionpolicy",
];

/// The PowerShell scripts in `command`: the line itself when it is
/// PowerShell, and the scripts given to `powershell`/`pwsh`.
pub fn scripts(command: &str, reading: &Reading) -> Vec<String> {
    let mut out = Vec::new();
    let lower = command.trim_start().to_ascii_lowercase();
    let is_ps_program = |p: &str| {
        let p = p.to_ascii_lowercase();
        let p = p.strip_suffix(".exe").unwrap_or(&p).to_owned();
        PS_STARTS.iter().any(|s| *s == p)
            || matches!(p.as_str(), "invoke-expression" | "new-object")
    };
    if PS_STARTS.iter().any(|s| lower.starts_with(s))
        || reading
            .invocations
            .iter()
            .any(|i| i.program().is_some_and(is_ps_program))
    {
        out.push(command.to_owned());
    }
    for inv in &reading.invocations {
        let Some(program) = inv.program() else {
            continue;
        };
        let program = program.to_ascii_lowercase();
        if !matches!(
            program.strip_suffix(".exe").unwrap_or(&program),
            "pwsh" | "powershell"
        ) {
            continue;
        }
        let args = inv.args();
        for (i, arg) in args.iter().enumerate() {
            let flag = arg.to_ascii_lowercase();
            if matches!(flag.as_str(), "-c" | "-command" | "/c" | "-com" | "-comm") {
                out.push(args.get(i + 1..).unwrap_or_default().join(" "));
                break;
            }
            if matches!(flag.as_str(), "-e" | "-ec" | "-enc" | "-encodedcommand") {
                out.extend(args.get(i + 1).and_then(|b| decode_utf16_base64(b)));
                break;
            }
            if !flag.starts_with('-') {
                // `powershell "iex (irm …)"`: the rest is the command.
                out.push(args.get(i..).unwrap_or_default().join(" "));
                break;
            }
        }
    }
    out
}

/// Whether `token` occurs in `text` (lower case) as a word of its own.
fn has_token(text: &str, token: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    text.match_indices(token).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + token.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(|c| word(c) && !token.ends_with(':'))
    })
}

/// Why the PowerShell `script` runs downloaded code, unless every URL in it
/// is from an allowed host.
pub fn check(script: &str, allowed: &[String]) -> Option<String> {
    let lower = script.to_ascii_lowercase();
    let fetch = FETCHES.iter().find(|t| has_token(&lower, t))?;
    if all_allowed(script, allowed) {
        return None;
    }
    if let Some(exec) = EXECUTES.iter().find(|t| has_token(&lower, t)) {
        return Some(format!(
            "PowerShell runs downloaded code (`{fetch}` into `{exec}`)"
        ));
    }
    saved_and_run(&lower).map(|file| {
        format!("PowerShell saves a download to {file} (`{fetch}` -OutFile) and runs it")
    })
}

/// Whether `script` names URLs and all of them are from allowed hosts.
pub fn all_allowed(script: &str, allowed: &[String]) -> bool {
    let urls = urls_in_text(script);
    !allowed.is_empty()
        && !urls.is_empty()
        && urls
            .iter()
            .all(|u| host(u).is_some_and(|h| host_allowed(&h, allowed)))
}

/// `… -OutFile NAME …` followed by running NAME (`.\NAME`, `& NAME`, `-File NAME`).
fn saved_and_run(lower: &str) -> Option<String> {
    let (_, after) = lower.split_once("-outfile")?;
    let name: String = after
        .trim_start()
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | ';' | ')'))
        .collect();
    let base = name.rsplit(['\\', '/']).next().unwrap_or(&name).to_owned();
    if base.is_empty() {
        return None;
    }
    let rest = after
        .get(after.find(&name).map_or(0, |at| at + name.len())..)
        .unwrap_or_default();
    let runs = rest.match_indices(&base).any(|(at, _)| {
        let before = rest[..at]
            .trim_end_matches(['\\', '/', '.', '\'', '"', '$'])
            .trim_end();
        before.ends_with('&')
            || before.ends_with("-file")
            || rest[..at].ends_with(".\\")
            || rest[..at].ends_with("./")
            || before.ends_with(';')
            || before.ends_with("&&")
    });
    runs.then_some(name)
}

/// `-EncodedCommand`'s argument: base64 of UTF-16LE text.
fn decode_utf16_base64(text: &str) -> Option<String> {
    let mut bytes = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push(((acc >> bits) & 0xff) as u8);
        }
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    Some(String::from_utf16_lossy(&units))
}
