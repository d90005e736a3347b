//! # mldsa-simd
//!
//! ML-DSA (FIPS 204) signatures for ML-DSA-44, ML-DSA-65 and ML-DSA-87:
//! key generation from a 32-byte seed ξ or fresh randomness, hedged or
//! deterministic signing with a context string, verification, HashML-DSA with
//! twelve pre-hash functions, and the internal interface on M′ or on an
//! external μ.
//!
//! The core has no WebAssembly bindings in it and builds and tests natively;
//! `wasm/` (only on `wasm32`) exposes it to the npm package.
//!
//! ```
//! use mldsa_simd::{keygen_internal, sign, verify, ParamSet};
//! let ps = ParamSet::MlDsa65;
//! let (pk, sk) = keygen_internal(ps, &[7u8; 32]).unwrap();
//! let sig = sign(ps, &sk, b"hello", b"my-app", None).unwrap();
//! assert!(verify(ps, &pk, b"hello", &sig, b"my-app"));
//! assert!(!verify(ps, &pk, b"hello", &sig, b"other-app"));
//! ```
//!
//! Conventions: inputs of the wrong length, a context over 255 bytes or a
//! malformed secret key give an [`Error`]; verification gives `false` for any
//! bad input and never fails otherwise. No input can make the code panic.
//! Every verify takes its inputs in the order of ML-DSA.Verify(pk, M, σ, ctx)
//! (FIPS 204 Algorithm 3): [`verify`] (pk, msg, sig, ctx),
//! [`VerifyingKey::verify`] (msg, sig, ctx), and the internal and μ forms
//! (pk, M′ or μ, sig); the npm package's wasm exports do the same.
//!
//! The crate needs only `core` and `alloc`. The shipped .wasm is built with
//! the `panic-trap` feature, which makes it `no_std` on wasm32 with a panic
//! handler that traps (`src/bindings/wasm/panic.rs`), so std's panic and formatting code is
//! not linked; every other build (native, tests) has std.

#![cfg_attr(all(target_arch = "wasm32", feature = "panic-trap", not(test)), no_std)]
// No `unsafe` but in the modules that say why they need it (`#[allow(unsafe_code)]`).
#![deny(unsafe_code)]

extern crate alloc;

// The modules live in one folder per layer of the crate, lowest first (each
// may use its own layer and the ones below; scripts/module-graph.mjs --check
// holds them to it): base/ (sizes, the field, the polynomial types,
// constant-time marks), kernels/ (the Backend trait and its two
// implementations), primitives/ (Keccak, the NTT, polynomials, packing,
// sampling, pre-hashes), algorithms/ (FIPS 204's, and the DER/PEM codecs),
// then at the root the public API, the key formats and this crate root,
// then bindings/ (the wasm exports, the JS tables) and testing/ (fuzzing
// hooks, benchmarks, tests), which nothing below uses. The `path`
// attributes keep each module's name short (crate::ntt, not
// crate::primitives::ntt).

// ---- base/
#[path = "base/field.rs"]
mod field;
#[path = "base/params.rs"]
mod params;
// Constant-time testing marks (feature `ct-testing`, for scripts/ct.sh): public
// only then, for the harness examples/ctgrind.rs; otherwise empty functions.
// unsafe: the valgrind client request is inline assembly.
#[cfg(feature = "ct-testing")]
#[allow(unsafe_code)]
#[path = "base/ct.rs"]
pub mod ct;
#[cfg(not(feature = "ct-testing"))]
#[allow(unsafe_code)]
#[path = "base/ct.rs"]
mod ct;
#[path = "base/ring.rs"]
mod ring;
#[path = "base/tables.rs"]
mod tables;

// ---- kernels/
#[path = "kernels/backend.rs"]
mod backend;
// The reference backend; on wasm32 with simd128 only its tests and its
// scalar fallbacks (Keccak on one state, the parsers' tails) are used.
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
#[path = "kernels/portable/mod.rs"]
mod portable;
// unsafe: v128 loads and stores through pointers (each after an `assert!` of
// its bounds), and the run-time tables' fill-once cell.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code)]
#[path = "kernels/simd128/mod.rs"]
mod simd128;

// ---- primitives/
#[path = "primitives/challenge.rs"]
mod challenge;
#[path = "primitives/encode.rs"]
mod encode;
#[path = "primitives/keccak.rs"]
mod keccak;
#[path = "primitives/ntt.rs"]
mod ntt;
#[path = "primitives/poly.rs"]
mod poly;
#[path = "primitives/prehash.rs"]
mod prehash;
#[path = "primitives/sample.rs"]
mod sample;
#[path = "primitives/xof.rs"]
mod xof;

// ---- algorithms/
#[path = "algorithms/der.rs"]
mod der;
#[path = "algorithms/mldsa.rs"]
mod mldsa;
#[path = "algorithms/pem.rs"]
mod pem;

// ---- the public API, the key formats (and this root)
mod api;
mod keyformat;

// ---- bindings/
// unsafe: JavaScript passes buffers as pointers into linear memory, and the
// module has its own allocator.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
#[path = "bindings/wasm/mod.rs"]
mod wasm;
// The package's JavaScript tables, generated from the crate (examples/js_tables.rs).
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
#[path = "bindings/js_tables.rs"]
pub mod js_tables;

// ---- testing/
// Decode/encode round trips for the fuzz targets in fuzz/ (cargo feature `fuzzing`).
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
#[path = "testing/fuzzing.rs"]
pub mod fuzzing;

pub use api::*;
pub use keyformat::{parse_pkcs8, public_key_from_spki, public_key_to_spki, Pkcs8Key, PrivateKey, PrivateKeyForm};
pub use params::ParamSet;
pub use pem::{base64url_decode, base64url_encode, pem_decode, pem_encode, Base64Error, PemError};
pub use prehash::{HashAlg, Prehasher, NIST_HASH_OID_PREFIX};

// unsafe: the benchmarks' simd128 variants, as in `simd128`.
#[cfg(all(test, target_arch = "wasm32", target_feature = "simd128", mldsa_bench))]
#[allow(unsafe_code)]
#[path = "testing/bench/mod.rs"]
mod bench;
// The deterministic generator of the tests; public for examples/ctgrind.rs (feature ct-testing).
#[cfg(any(test, feature = "ct-testing"))]
#[doc(hidden)]
#[path = "testing/test_rng.rs"]
pub mod test_rng;
#[cfg(test)]
#[path = "testing/tests.rs"]
mod tests;
