//! The wasm simd128 backend (`backend::Simd128`), the one place for simd128
//! code: the vector helpers every kernel shares, then one file per facade with
//! the functions `backend::Backend` lists for it (same names and order as in
//! `src/portable/`), and the NTT's run-time twiddle tables.

use crate::params::N;
use crate::ring::Poly;
use core::arch::wasm32::*;

pub(crate) mod encode;
pub(crate) mod keccak;
pub(crate) mod ntt;
mod once;
pub(crate) mod poly;
pub(crate) mod sample;
mod twiddles;

/// Vector i (coefficients 4i..4i+3) of a polynomial.
#[inline(always)]
pub(crate) fn load(a: &Poly, i: usize) -> v128 {
    debug_assert!(i < N / 4);
    // SAFETY: i < 64 vectors of 4 coefficients; v128.load needs no alignment.
    unsafe { v128_load(a.0.as_ptr().add(4 * i) as *const v128) }
}

#[inline(always)]
pub(crate) fn store(a: &mut Poly, i: usize, v: v128) {
    debug_assert!(i < N / 4);
    // SAFETY: as in `load`.
    unsafe { v128_store(a.0.as_mut_ptr().add(4 * i) as *mut v128, v) }
}
