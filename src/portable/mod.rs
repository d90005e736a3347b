//! The reference backend (`backend::Portable`): plain Rust, compiled
//! everywhere, and what the simd128 backend is tested against. One file per
//! facade, each with the functions `backend::Backend` lists for it.

pub(crate) mod challenge;
pub(crate) mod encode;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod poly;
pub(crate) mod sample;
pub(crate) mod sha;
