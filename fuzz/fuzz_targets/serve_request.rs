//! Fuzz target `serve_request`: see `props::serve_request` in `fuzz/props.rs` for the input format and
//! the properties checked.
#![no_main]

#[allow(dead_code)]
mod props {
    include!("../props.rs");
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| props::serve_request(data));
