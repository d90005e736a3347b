//! The wasm simd128 backend (`backend::Simd128`), the one place for simd128
//! code: the vector helpers every kernel shares, then one file per facade
//! implementing the kernel trait of that facade (`backend.rs`; same order as in
//! `src/kernels/portable/`), and the NTT's run-time twiddle tables.

use crate::params::N;
use crate::ring::Poly;
use core::arch::wasm32::*;

pub(crate) mod challenge;
pub(crate) mod encode;
pub(crate) mod keccak;
pub(crate) mod ntt;
mod once;
pub(crate) mod poly;
pub(crate) mod sample;
pub(crate) mod sha;
mod twiddles;

/// `*v`, read at run time as a value the optimiser cannot see through (a
/// volatile read): the one way the simd128 code hides a value, for two
/// invariants.
/// - Every operand of an `i64x2.extmul_*_i32x4` is a whole v128 read this
///   way: LLVM rewrites an extmul whose operand is a constant or any splat
///   (even of a value it cannot know) into sign extension plus `i64x2.mul`,
///   which V8 on x64 emulates with several instructions.
/// - A vector constant a loop uses is read this way once, before the loop,
///   and passed in a family's constants struct (`NttConsts`, `ReduceConsts`,
///   `DecomposeConsts`, `ParseConsts`, or locals): as a literal, V8 rebuilds
///   it before every use inside the loop; as a value it stays in a register
///   or is reloaded from one stack slot. A constant that is a splat is read
///   as the scalar and splatted: `i32x4_splat(opaque(&x))`. (One exception:
///   the two byte masks of the two-lane Keccak's rotations, read in each
///   round; see `keccak::rotl`.)
#[inline(always)]
pub(crate) fn opaque<T: Copy>(v: &T) -> T {
    // SAFETY: a reference is valid and aligned for reads.
    unsafe { core::ptr::read_volatile(v) }
}

/// Vector i (coefficients 4i..4i+3) of a polynomial.
#[inline(always)]
pub(crate) fn load(a: &Poly, i: usize) -> v128 {
    // Checked always (a safe function); it folds away for the kernels' loop counters.
    assert!(i < N / 4);
    // SAFETY: i < 64 vectors of 4 coefficients; v128.load needs no alignment.
    unsafe { v128_load(a.0.as_ptr().add(4 * i) as *const v128) }
}

#[inline(always)]
pub(crate) fn store(a: &mut Poly, i: usize, v: v128) {
    assert!(i < N / 4);
    // SAFETY: as in `load`.
    unsafe { v128_store(a.0.as_mut_ptr().add(4 * i) as *mut v128, v) }
}
