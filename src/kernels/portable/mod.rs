//! The reference backend (`backend::Portable`): plain Rust, compiled
//! everywhere, and what the simd128 backend is tested against. One file per
//! facade, each implementing the kernel trait of that facade (`backend.rs`),
//! whose methods state the contracts.

pub(crate) mod challenge;
pub(crate) mod encode;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod poly;
pub(crate) mod sample;
pub(crate) mod sha;
