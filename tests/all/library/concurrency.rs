//! Concurrency through the library (issue 9): one system fires concurrently, one `.wasm`
//! named by many hooks is loaded once, a plugin that does not wait finishes in the first
//! poll, parallel hooks overlap on one thread, and dropping a fire kills its hooks.

use hookhost::HookEvent;
use serde_json::{Value, json};

use super::{build, object};
use crate::common::{Project, cmd, group};

#[tokio::test]
async fn one_system_fires_concurrently() {
    let p = Project::new();
    let settings = p.settings(json!({"BeforeTool": [group(vec![cmd(
        "python3 -c 'import json,sys; e=json.load(sys.stdin); print(json.dumps({\"systemMessage\": e[\"tool_name\"]}))'"
    )])]}));
    let hooks = build(&p, &settings);
    let fires = (0..8).map(|i| {
        let hooks = &hooks;
        async move {
            let result = hooks
                .fire(
                    HookEvent::BeforeTool,
                    object(json!({"tool_name": format!("tool-{i}")})),
                )
                .await;
            (i, result)
        }
    });
    for (i, result) in futures::future::join_all(fires).await {
        assert_eq!(
            result.system_message(),
            Some(format!("tool-{i}").as_str()),
            "{:?}",
            result.errors
        );
    }
}

/// Issue 9: one `.wasm` named by 32 hooks (different args, so no dedup) is read,
/// compiled, mapped and pre-instantiated once; every hook still runs with its own
/// settings.
#[tokio::test]
async fn one_wasm_named_by_many_hooks_is_loaded_once() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let hooks: Vec<Value> = (0..32)
        .map(|i| json!({"type": "plugin", "path": "policy.wasm", "args": [format!("hook-{i}")]}))
        .collect();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let plugins: Vec<&hookhost::internals::Plugin> = system
        .hooks(HookEvent::BeforeTool)
        .filter_map(|hook| match &hook.runner {
            hookhost::internals::Runner::Plugin(plugin) => Some(plugin.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(plugins.len(), 32, "{:?}", system.report().diagnostics());
    assert!(plugins.iter().all(|p| p.shares_module_with(plugins[0])));
    let result = system
        .fire(
            HookEvent::BeforeTool,
            object(json!({"tool_name": "write_file", "tool_input": {"echo_args": true}})),
        )
        .await;
    let message = result.system_message().unwrap_or_default().to_owned();
    assert!(
        message.contains("hook-0") && message.contains("hook-31"),
        "{message}"
    );
}

/// Issue 9: a plugin that does not wait for anything finishes in the first poll of
/// its fire — it is not parked on the executor and resumed by another thread (which
/// is what `serve` answers inline on). Before `set_epoch_deadline`, every call's
/// first epoch check found the deadline (epoch 0) passed and yielded once: not one
/// of the fires finished in its first poll. An epoch tick during a call (every 5 ms)
/// still yields, and a loaded machine may stretch any call over one, so the test
/// asks for some, not all.
#[tokio::test]
async fn a_plugin_that_does_not_wait_finishes_in_the_first_poll() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": [
        {"type": "plugin", "path": "policy.wasm"}
    ]}]}));
    let system = build(&p, &settings);
    let input = object(json!({"tool_name": "write_file", "tool_input": {"path": "/etc/x"}}));
    let mut first_poll = 0;
    for _ in 0..20 {
        let mut fire = std::pin::pin!(system.fire(HookEvent::BeforeTool, &input));
        let polled = fire
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        let result = match polled {
            std::task::Poll::Ready(result) => {
                first_poll += 1;
                result
            }
            std::task::Poll::Pending => fire.await,
        };
        assert!(result.is_blocked(), "{result:?}");
    }
    assert!(
        first_poll >= 1,
        "{first_poll} of 20 fires finished in the first poll"
    );
}

/// Issue 9 (fan-out): the hooks of a parallel fire are shared by the firing task and
/// helpers that each run one hook at a time when it computes — but a hook that waits
/// must not hold the others back. On a one-thread runtime (`fire_blocking`) four
/// sleeping command hooks and two plugins still overlap.
#[test]
fn parallel_hooks_overlap_on_a_one_thread_runtime() {
    let p = Project::new();
    std::fs::copy(hookhost_tests::ECHO_POLICY, p.path("policy.wasm")).unwrap();
    let mut hooks: Vec<Value> = (0..4)
        .map(|i| {
            cmd(&format!(
                "sleep 0.5; echo '{{\"systemMessage\": \"slept {i}\"}}'"
            ))
        })
        .collect();
    hooks.insert(
        1,
        json!({"type": "plugin", "path": "policy.wasm", "args": ["a"]}),
    );
    hooks.push(json!({"type": "plugin", "path": "policy.wasm", "args": ["b"]}));
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let started = std::time::Instant::now();
    let result = system.fire_blocking(
        HookEvent::BeforeTool,
        object(json!({"tool_name": "read_file", "tool_input": {"path": "notes.md"}})),
    );
    let took = started.elapsed();
    assert_eq!(result.executions.len(), 6, "{:?}", result.errors);
    assert!(result.executions.iter().all(|e| e.success), "{result:?}");
    let message = result.system_message().unwrap_or_default();
    assert!(
        (0..4).all(|i| message.contains(&format!("slept {i}"))),
        "{message}"
    );
    // One after another they take 2 s at least; together 0.5 s, and a loaded
    // machine (the whole suite on two cores) has been seen past 1.5 s.
    assert!(
        took < std::time::Duration::from_millis(1900),
        "four 0.5 s hooks took {took:?}: they ran one after another"
    );
}

/// Dropping a parallel fire (an agent's own timeout, a cancelled request) kills the
/// hooks it started, whichever worker was running them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_parallel_fire_kills_its_hooks() {
    let p = Project::new();
    std::fs::create_dir(p.path("pids")).unwrap();
    let hooks: Vec<Value> = (0..4)
        .map(|i| cmd(&format!("echo $$ > pids/{i}; exec sleep 30")))
        .collect();
    let settings = p.settings(json!({"BeforeTool": [{"hooks": hooks}]}));
    let system = build(&p, &settings);
    let fire = system.fire(HookEvent::BeforeTool, object(json!({"tool_name": "x"})));
    let pids_dir = p.path("pids");
    let all_started = async {
        while std::fs::read_dir(&pids_dir).map_or(0, |d| d.count()) < 4 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        // A pid file is written before it is flushed to its end: give it a moment.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    tokio::select! {
        _ = fire => panic!("the hooks sleep 30 s; the fire cannot end first"),
        _ = all_started => {}
    }
    // The fire is dropped here.
    for i in 0..4 {
        let pid = crate::common::read_pid(&p, &format!("pids/{i}"));
        assert!(
            crate::common::wait_gone(pid, std::time::Duration::from_secs(5)),
            "hook {i} (pid {pid}) outlived its dropped fire"
        );
    }
}
