//! Prints the npm package's JavaScript tables (sizes, pre-hash functions) as
//! an ES module, from the crate's own definitions (src/bindings/js_tables.rs);
//! scripts/build.mjs writes its output to build/tables.js.

fn main() {
    // A native program; `cargo test --target wasm32-unknown-unknown` builds
    // the examples too, where the module is not compiled.
    #[cfg(not(target_arch = "wasm32"))]
    print!("{}", mldsa_simd::js_tables::es_module());
}
