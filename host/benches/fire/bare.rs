//! The echo-policy run by wasmtime and wasmtime-wasi alone, without hookhost around
//! it: a fresh store and instance per call, in-memory stdin and stdout. The floor
//! under a plugin fire (`floor/wasmtime*`) and under the fan-out
//! (`fanout/wasmtime_*`).

use std::sync::Arc;

use serde_json::json;

use crate::support::*;

/// Store data of the bare-wasmtime floor.
pub struct FloorState {
    wasi: wasmtime_wasi::WasiCtx,
    table: wasmtime::component::ResourceTable,
}

impl wasmtime_wasi::WasiView for FloorState {
    fn ctx(&mut self) -> wasmtime_wasi::WasiCtxView<'_> {
        wasmtime_wasi::WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The echo-policy pre-instantiated for [`FloorState`].
pub type CommandPre = wasmtime_wasi::p2::bindings::CommandPre<FloorState>;

/// A wasmtime engine with hookhost's configuration (pool sized and tuned, fuel,
/// epochs), memories laid out guarded (hookhost's default) or `checked`, without
/// hookhost around it.
pub fn tuned_engine(checked: bool) -> wasmtime::Engine {
    use hookhost::internals::{DEFAULT_SLOTS, MemoryLayout, pool_memory_size, wasmtime_config};
    let options = hookhost::EngineOptions::default();
    let memory = pool_memory_size(options.max_memory);
    let layout = if checked {
        MemoryLayout::Checked(memory)
    } else {
        MemoryLayout::Guarded
    };
    wasmtime::Engine::new(&wasmtime_config(layout, memory, Some(DEFAULT_SLOTS))).unwrap()
}

/// A wasmtime engine with wasmtime's pooling defaults plus fuel and epochs (the
/// configuration of the 21.7 µs anchor).
pub fn defaults_engine() -> wasmtime::Engine {
    use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .allocation_strategy(InstanceAllocationStrategy::Pooling(
            PoolingAllocationConfig::new(),
        ));
    Engine::new(&config).unwrap()
}

/// The echo-policy pre-instantiated against wasmtime-wasi's own linker.
pub fn command_pre(engine: &wasmtime::Engine) -> CommandPre {
    use wasmtime::component::{Component, Linker};
    let component = Component::from_file(engine, echo_policy_wasm()).unwrap();
    let mut linker = Linker::<FloorState>::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker).unwrap();
    CommandPre::new(linker.instantiate_pre(&component).unwrap()).unwrap()
}

/// One call by wasmtime and wasmtime-wasi alone: a fresh store and instance,
/// in-memory stdin and stdout; the answer.
pub fn bare(
    engine: &wasmtime::Engine,
    pre: &CommandPre,
    input: Arc<[u8]>,
) -> impl Future<Output = bytes::Bytes> + Send + 'static {
    use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
    let (engine, pre) = (engine.clone(), pre.clone());
    async move {
        let stdout = MemoryOutputPipe::new(1024 * 1024);
        let wasi = wasmtime_wasi::WasiCtxBuilder::new()
            .stdin(MemoryInputPipe::new(bytes::Bytes::from_owner(input)))
            .stdout(stdout.clone())
            .build();
        let mut store = wasmtime::Store::new(
            &engine,
            FloorState {
                wasi,
                table: wasmtime::component::ResourceTable::new(),
            },
        );
        store.set_fuel(u64::MAX / 2).unwrap();
        store.set_epoch_deadline(1_000_000);
        let command = pre.instantiate_async(&mut store).await.unwrap();
        // The guest ends with `exit(0)`, an error to the caller; its answer is
        // what it wrote.
        let _ = command.wasi_cli_run().call_run(&mut store).await;
        stdout.contents()
    }
}

/// The BeforeTool allow input as the hook reads it (the host adds
/// `hook_event_name`), for calls that bypass the host.
pub fn allow_bytes() -> Arc<[u8]> {
    serde_json::to_vec(&{
        let mut input = allow_input();
        input.insert("hook_event_name".into(), json!("BeforeTool"));
        input
    })
    .unwrap()
    .into()
}
