//! The clock and median shared by the wasm micro-benchmarks, which are
//! compiled only on request (`--cfg keccak_bench`, `pack_bench`,
//! `sample_bench` or `sha_bench`; each module's comment has its command).

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
