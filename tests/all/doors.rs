//! One front door (issue 39): every way a call reaches the hooks — `fire`, `hook`,
//! `test`, `serve` on stdin and on its socket, `serve --http`'s `/hook` and
//! `/fire` — folds the same load report into the same `errors`, in the same
//! order, each cause once. The settings are broken on purpose: a hook with a
//! wrong field (skipped), a plugin that cannot load (its run failure is that
//! cause again: said once), a program that is not there (its load warning, then
//! how it ran), and a hook that runs fine.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{HttpServer, Project, Server, cmd, group, run};

const MISSING_PROGRAM: &str = "hookhost-doors-no-such-program";

fn broken(p: &Project) {
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "true", "timeout": "5s"}),
        json!({"type": "plugin", "path": p.path("missing.wasm")}),
        cmd(MISSING_PROGRAM),
        cmd("true"),
    ])]}));
}

fn input() -> Value {
    json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
}

/// What `fire` answers: the reference the other doors are held to.
fn fire_errors(p: &Project) -> Vec<String> {
    let fired = p.fire("BeforeTool", input());
    assert_eq!(fired.code, 0, "{fired:#?}");
    let errors = fired.errors();
    assert_eq!(errors.len(), 4, "{errors:#?}");
    let has = |parts: &[&str]| errors.iter().any(|e| parts.iter().all(|p| e.contains(p)));
    assert!(
        has(&["hooks.BeforeTool[0].hooks[0].timeout", "skipped"]),
        "{errors:#?}"
    );
    assert!(
        has(&["hooks.BeforeTool[0].hooks[1]", "missing.wasm"]),
        "{errors:#?}"
    );
    assert!(
        has(&["hooks.BeforeTool[0].hooks[2]", MISSING_PROGRAM]),
        "{errors:#?}"
    );
    // How the missing program ran comes after every load problem.
    assert!(errors[3].contains("exited with code 127"), "{errors:#?}");
    let mut unique = errors.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        errors.len(),
        "a cause said twice: {errors:#?}"
    );
    // The plugin's run failure would repeat its load error's cause.
    let plugin = errors.iter().filter(|e| e.contains("missing.wasm")).count();
    assert_eq!(plugin, 1, "{errors:#?}");
    errors
}

/// The same call as Gemini CLI sends it to a hook (`hook`'s stdin, `/hook`'s body).
fn agent_input() -> Value {
    json!({"hook_event_name": "BeforeTool", "session_id": "s",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
}

/// `hookhost hook` run as Gemini CLI runs it on [`agent_input`]: the run (exit 0
/// asserted) and its answer.
fn hook(p: &Project) -> (crate::common::Run, Value) {
    let mut command = p.command();
    command.arg("hook").env("GEMINI_PROJECT_DIR", p.dir());
    let answer = run(command, agent_input().to_string().as_bytes());
    assert_eq!(answer.code, 0, "{answer:#?}");
    let out = serde_json::from_str(answer.stdout_text().trim()).unwrap_or_default();
    (answer, out)
}

/// How `hook` and `/hook` show the failures of a fire (LLxprt/Gemini dialect, no
/// other message): the errors in order, in `systemMessage`.
fn as_system_message(errors: &[String]) -> String {
    format!("hookhost: {}", errors.join("; "))
}

fn strings(value: &Value) -> Vec<String> {
    let Some(items) = value.as_array() else {
        panic!("not an array: {value}");
    };
    items
        .iter()
        .map(|e| e.as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn fire_folds_the_load_report_each_cause_once() {
    let p = Project::new();
    broken(&p);
    fire_errors(&p);
}

#[test]
fn hook_folds_the_same_errors_as_fire() {
    let p = Project::new();
    broken(&p);
    let errors = fire_errors(&p);
    let (answer, out) = hook(&p);
    assert_eq!(
        out["systemMessage"],
        as_system_message(&errors),
        "{answer:#?}"
    );
}

#[test]
fn test_folds_the_same_errors_as_fire() {
    let p = Project::new();
    broken(&p);
    let errors = fire_errors(&p);
    p.write(
        "cases/one.json",
        json!({"event": "BeforeTool", "input": input(), "expect": {"decision": "allow"}})
            .to_string(),
    );
    let mut command = p.command();
    command
        .arg("test")
        .arg(p.path("cases"))
        .arg("--project-dir")
        .arg(p.dir());
    let replay = run(command, b"");
    assert_eq!(replay.code, 1, "{replay:#?}");
    let want = format!("a hook failed or did not load: {}", errors.join("; "));
    assert!(
        replay.stdout_text().contains(&want),
        "{replay:#?}\nwant: {want}"
    );
}

#[test]
fn serve_on_stdin_folds_the_same_errors_as_fire() {
    let p = Project::new();
    broken(&p);
    let errors = fire_errors(&p);
    let mut server = Server::start(&p);
    server.send("1", "BeforeTool", input());
    let answer = server.next();
    assert_eq!(strings(&answer["output"]["errors"]), errors, "{answer}");
    assert_eq!(server.finish().0, 0);
}

#[test]
fn serve_on_a_socket_folds_the_same_errors_as_fire() {
    let p = Project::new();
    broken(&p);
    let errors = fire_errors(&p);
    let socket = p.outside().join("doors.sock");
    let mut child = p
        .command()
        .arg("serve")
        .arg("--project-dir")
        .arg(p.dir())
        .arg("--socket")
        .arg(&socket)
        .stdin(std::process::Stdio::null())
        .spawn()
        .expect("spawn hookhost serve --socket");
    let start = Instant::now();
    let stream = loop {
        if let Ok(stream) = UnixStream::connect(&socket) {
            break stream;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no socket");
        std::thread::sleep(Duration::from_millis(20));
    };
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let request = json!({"correlationId": "1", "eventName": "BeforeTool", "input": input()});
    writeln!(&stream, "{request}").unwrap();
    let mut line = String::new();
    BufReader::new(&stream)
        .read_line(&mut line)
        .expect("an answer in time");
    let _ = child.kill();
    let _ = child.wait();
    let answer: Value = serde_json::from_str(&line).unwrap_or_default();
    assert_eq!(strings(&answer["output"]["errors"]), errors, "{answer}");
}

#[test]
fn serve_http_hook_and_fire_fold_the_same_errors_as_fire() {
    let p = Project::new();
    broken(&p);
    let errors = fire_errors(&p);
    let server = HttpServer::start(&p, &[]);
    let fired = server.post_ok("/fire/BeforeTool", &input().to_string());
    assert_eq!(fired.status, 200, "{fired:?}");
    assert_eq!(strings(&fired.body["errors"]), errors, "{fired:?}");
    let hooked = server.post_ok("/hook", &agent_input().to_string());
    assert_eq!(hooked.status, 200, "{hooked:?}");
    assert_eq!(
        hooked.body["systemMessage"],
        as_system_message(&errors),
        "{hooked:?}"
    );
    assert!(server.terminate().success());
}

/// Attack on the fold: a hook that fails while quoting another hook's load error
/// word for word (a hostile repository hiding its own failure behind a broken
/// plugin) keeps its failure; only the broken plugin's own run failure — the same
/// hook, by its place, not by its words — is said once.
#[test]
fn a_failure_quoting_a_load_error_is_not_taken_for_it() {
    let p = Project::new();
    let missing = p.path("missing.wasm");
    let cause = format!(
        "cannot load plugin: {}: cannot read: No such file or directory (os error 2)",
        missing.display()
    );
    p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "plugin", "path": missing}),
        cmd(&format!("echo 'hooks.BeforeTool[0].hooks[0]: {cause}' >&2; exit 1")),
    ])]}));
    let fired = p.fire("BeforeTool", input());
    let errors = fired.errors();
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains("hooks.BeforeTool[0].hooks[0]: cannot load plugin"),
        "{errors:#?}"
    );
    assert!(errors[1].contains("exited with code 1"), "{errors:#?}");
    assert!(errors[1].contains(&cause), "{errors:#?}");
    // `hookhost hook` once searched run failures for a load error's words.
    let (answer, out) = hook(&p);
    assert_eq!(
        out["systemMessage"],
        as_system_message(&errors),
        "{answer:#?}"
    );
}
