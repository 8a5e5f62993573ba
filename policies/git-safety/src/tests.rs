//! Native tests: settings, odd inputs, and the corpus
//! `policies/corpus/git-safety.jsonl`. A case with `"branch": "NAME"` runs in
//! a temporary project directory whose `.git/HEAD` names that branch; a case
//! without it runs in `/work/proj`, which has no readable `.git/HEAD`.

use std::path::PathBuf;

use hookhost_guest::{HookInput, Value, json, serde_json};

use super::{Places, Settings, check};

const CORPUS: &str = include_str!("../../corpus/git-safety.jsonl");

/// A project directory whose `.git/HEAD` names `branch` (or holds a bare
/// commit id when `branch` starts with `detached`).
fn project_on(branch: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "git-safety-test-{}-{}",
        std::process::id(),
        branch.replace('/', "_")
    ));
    let git = dir.join(".git");
    std::fs::create_dir_all(&git).unwrap();
    let head = if branch.starts_with("detached") {
        "0123456789abcdef0123456789abcdef01234567\n".to_owned()
    } else {
        format!("ref: refs/heads/{branch}\n")
    };
    std::fs::write(git.join("HEAD"), head).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    dir
}

fn run(command: &str, branch: Option<&str>, settings: &Settings) -> Option<String> {
    let project = match branch {
        Some(b) => project_on(b).to_string_lossy().into_owned(),
        None => "/work/proj".to_owned(),
    };
    let places = Places {
        project: project.clone(),
        home: "/home/u".to_owned(),
    };
    let event = json!({"hook_event_name": "BeforeTool", "cwd": project,
        "tool_name": "run_shell_command", "tool_input": {"command": command}});
    let input = HookInput::from_json(event.to_string().as_bytes()).unwrap();
    let out = check(&input, &places, settings);
    out.is_block().then(|| out.reason.unwrap_or_default())
}

#[test]
fn reasons_and_branches() {
    let s = Settings::default();
    let reason = run("git push --force origin main", None, &s).unwrap_or_default();
    assert!(
        reason.starts_with("git-safety: force-push: `git push --force origin main`"),
        "{reason}"
    );
    assert!(run("git push -f", Some("feature/x"), &s).is_none());
    let reason = run("git push -f", Some("main"), &s).unwrap_or_default();
    assert!(reason.contains("`main`"), "{reason}");
    let reason = run("git push -f", None, &s).unwrap_or_default();
    assert!(reason.contains("cannot tell"), "{reason}");
    assert!(run("git push -f", Some("detached"), &s).is_none());
    assert!(run("git -C sub push -f", Some("main"), &s).is_some());
    let release = Settings::parse(["--protect-branch".to_owned(), "release".to_owned()]).unwrap();
    assert!(run("git push -f origin release", None, &release).is_some());
    assert!(run("git push -f origin main", None, &release).is_some());
    assert!(run("git push -f origin release", None, &s).is_none());
}

#[test]
fn settings_errors_name_the_option() {
    let err = Settings::parse(["--protect".to_owned()]).unwrap_err();
    assert!(
        err.contains("--protect") && err.contains("--protect-branch"),
        "{err}"
    );
    let err = Settings::parse(["--protect-branch".to_owned()]).unwrap_err();
    assert!(err.contains("--protect-branch"), "{err}");
    let s = Settings::parse(["--protect-branch=refs/heads/prod".to_owned()]).unwrap();
    assert!(s.protected.contains(&"prod".to_owned()));
}

#[test]
fn odd_inputs_do_not_panic() {
    let s = Settings::default();
    let _ = run(&"git push -f ".repeat(100_000), None, &s);
    let _ = run("git push \0 -f", None, &s);
    let _ = run("git -c alias.a='!git a' a", None, &s);
    let _ = run("git -c 'alias.a=a' a", None, &s);
    let _ = run("git -C", None, &s);
    let _ = run("git push é$'\\xff' +", None, &s);
    let _ = run(&format!("git {}", "-c x=y ".repeat(50_000)), None, &s);
}

#[test]
fn corpus() {
    let mut failures = Vec::new();
    let (mut harmful, mut blocked, mut harmless, mut false_positives) = (0, 0, 0, 0);
    let mut count = 0;
    for (i, line) in CORPUS.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        count += 1;
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(v["policy"], "git-safety", "line {}", i + 1);
        let branch = v["branch"]
            .as_str()
            .map(|b| project_on(b).to_string_lossy().into_owned());
        let project = branch.unwrap_or_else(|| "/work/proj".to_owned());
        let places = Places {
            project: project.clone(),
            home: "/home/u".to_owned(),
        };
        let settings = match v["args"].as_array() {
            Some(args) => {
                Settings::parse(args.iter().filter_map(Value::as_str).map(str::to_owned)).unwrap()
            }
            None => Settings::default(),
        };
        let event = json!({"hook_event_name": "BeforeTool", "cwd": project,
            "tool_name": v["tool"], "tool_input": v["input"]});
        let input = HookInput::from_json(event.to_string().as_bytes()).unwrap();
        let out = check(&input, &places, &settings);
        let expect_block = v["expect"] == "block";
        if expect_block {
            harmful += 1;
            blocked += usize::from(out.is_block());
        } else {
            harmless += 1;
            false_positives += usize::from(out.is_block());
        }
        if out.is_block() != expect_block {
            failures.push(format!("line {}: {} ({:?})", i + 1, v["why"], out.reason));
        }
    }
    assert!(count >= 80, "{count} cases");
    println!(
        "harmful {harmful}, blocked {blocked}; harmless {harmless}, false positives {false_positives}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
