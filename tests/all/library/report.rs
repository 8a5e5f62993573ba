//! The load report and an agent's call as the library gives them (issue 39):
//! `HookSystem::report()` says what loading found, each problem of a hook with its
//! place; `fire_call` folds it into the result as every door of the CLI does; and
//! `fire` given an agent's event name detects the dialect by the same rule as
//! `AgentCall`.

use hookhost::dialect::{AgentCall, CallSource, Dialect};
use hookhost::{HookEvent, HookSystem, Severity};
use serde_json::json;

use super::{build, object};
use crate::common::{Project, cmd, group, say};

#[tokio::test]
async fn the_report_names_each_problem_and_fire_call_folds_it_in_once() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![
        json!({"type": "command", "command": "true", "timeout": "5s"}),
        json!({"type": "plugin", "path": p.path("missing.wasm")}),
        cmd("hookhost-report-no-such-program"),
        cmd(&say("ran")),
    ])]}));
    let hooks = build(&p, &settings);
    let report = hooks.report();
    let failures: Vec<_> = report.failures().collect();
    assert_eq!(failures.len(), 3, "{:?}", report.diagnostics());
    let place = |hook: usize| {
        failures
            .iter()
            .find(|d| d.at.as_ref().and_then(|at| at.hook) == Some(hook))
            .unwrap_or_else(|| panic!("no failure of hook {hook}: {failures:?}"))
    };
    assert_eq!(
        place(0).at.as_ref().and_then(|at| at.field.as_deref()),
        Some("timeout")
    );
    assert_eq!(place(1).severity, Severity::Error);
    assert_eq!(place(2).severity, Severity::Unenforced);
    assert!(place(2).fails() && !place(2).is_error());
    // A bare fire is the engine alone; fire_call is what every door answers.
    let input = object(json!({"tool_name": "run_shell_command", "tool_input": {}}));
    let bare = hooks.fire(HookEvent::BeforeTool, &input).await;
    assert!(
        bare.errors.iter().all(|e| !e.contains("timeout")),
        "{:?}",
        bare.errors
    );
    let call = AgentCall::fired(HookEvent::BeforeTool, Dialect::Llxprt);
    let folded = hooks.fire_call(&call, input).await;
    let loads: Vec<&String> = failures.iter().map(|d| &d.message).collect();
    assert_eq!(folded.errors[..3].iter().collect::<Vec<_>>(), loads);
    // The plugin's run failure is its load error again: said once. The missing
    // program's run (exit 127) is news: kept, after the load problems.
    assert_eq!(folded.errors.len(), 4, "{:?}", folded.errors);
    assert!(
        folded.errors[3].contains("exited with code 127"),
        "{:?}",
        folded.errors
    );
    assert_eq!(folded.system_message(), Some("ran"));
    // check fails on the same problems.
    assert_eq!(report.check_failures().count(), 3);
}

#[tokio::test]
async fn switched_off_hooks_fail_the_check_even_when_the_builder_turns_hooks_on() {
    let p = Project::new();
    let settings = p.settings_raw(&json!({"tools": {"enableHooks": false},
        "hooks": {"BeforeTool": [group(vec![cmd("true")])]}}));
    let on = HookSystem::builder()
        .project_dir(p.dir())
        .settings_files([&settings])
        .enable_hooks(true)
        .build();
    assert_eq!(on.report().failures().count(), 0);
    let off: Vec<_> = on.report().check_failures().collect();
    assert_eq!(off.len(), 1, "{off:?}");
    assert!(off[0].message.contains("NONE of them runs"), "{off:?}");
    // As the settings say (hooks off): the same problem is a failure of every fire.
    let as_set = build(&p, &settings);
    assert_eq!(as_set.report().failures().count(), 1);
    assert_eq!(as_set.report().check_failures().count(), 1);
}

#[tokio::test]
async fn fire_by_name_detects_the_dialect_as_an_agent_call_does() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![cmd("cat > seen.json")])]}));
    let hooks = build(&p, &settings);
    // Claude Code's skill shell line: the BeforeTool hooks guard it, by either door.
    let stdin = json!({"hook_event_name": "PreSkillShellCommand", "permission_mode": "default",
        "session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let (call, input) =
        AgentCall::parse(stdin.to_string().as_bytes(), CallSource::Stdin).expect("a call");
    assert_eq!(
        (call.event(), call.dialect()),
        (HookEvent::BeforeTool, Dialect::Claude)
    );
    let result = hooks.fire("PreSkillShellCommand", input.clone()).await;
    assert_eq!(result.executions.len(), 1, "{result:?}");
    assert_eq!(p.read_json("seen.json")["tool_name"], "run_shell_command");
    std::fs::remove_file(p.path("seen.json")).expect("remove");
    let result = hooks.fire_call(&call, input).await;
    assert_eq!(result.executions.len(), 1, "{result:?}");
    assert_eq!(p.read_json("seen.json")["tool_name"], "run_shell_command");
}
