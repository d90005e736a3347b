//! The wasm micro-benchmarks, at the top of the module graph: they time the
//! kernels and primitives from outside and nothing else uses them. Compiled
//! only on request, into the wasm test build (results in the test output):
//!
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -C link-arg=-zstack-size=65536 --cfg mldsa_bench"
//!  cargo test --release --target wasm32-unknown-unknown --lib -- bench_ --nocapture`
//!
//! (the flags replace those of .cargo/config.toml, hence the first two; one
//! benchmark alone: `-- bench_challenge`, `bench_keccak`, `bench_keccak_x3`, `bench_pack`,
//! `bench_parsers` or `bench_sha`). Their findings are in PERF.md.

// Tables of variants as arrays of (name, fn, …), and loops over parallel
// arrays of timings: clearer here than the type aliases and iterator chains
// clippy would have.
#![allow(clippy::type_complexity, clippy::needless_range_loop)]

mod challenge;
mod keccak;
mod pack;
mod sample;
mod sha;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`, in milliseconds.
    #[wasm_bindgen(js_namespace = performance)]
    pub fn now() -> f64;
}

/// The median of the samples.
pub fn med(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}
