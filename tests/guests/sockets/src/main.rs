//! `sockets`: a guest that imports `wasi:sockets` by opening a TCP connection.
//!
//! Its import list names `wasi:sockets/*` (network, instance-network, tcp,
//! tcp-create-socket, udp, udp-create-socket, ip-name-lookup). hookhost grants
//! no network: it links sockets in deny-all mode, so the component runs and the
//! connection fails. It connects to `addr` from `tool_input` (default
//! `127.0.0.1:80`) and reports the result in `systemMessage`: `connect ok` or
//! `connect error: …` (under deny-all: `connect error: Permission denied …`).

use std::net::TcpStream;

use hookhost_guest::{HookInput, HookOutput, HookResult, Value, register_hook};

fn sockets(input: HookInput) -> HookResult {
    let addr = input
        .tool_input()
        .and_then(|t| t.get("addr"))
        .and_then(Value::as_str)
        .unwrap_or("127.0.0.1:80")
        .to_owned();
    let result = match TcpStream::connect(&addr) {
        Ok(_) => "connect ok".to_owned(),
        Err(e) => format!("connect error: {e}"),
    };
    Ok(HookOutput::allow().system_message(result))
}

register_hook!(sockets);
