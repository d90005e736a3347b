//! Two Keccak-f[1600] states at once, state 0 in lane 0 and state 1 in lane 1
//! of each v128. Same functions in the same order, and the same θ, ρ, π, as
//! `portable/keccak.rs`, which is the reference (see the differential test in
//! `keccak.rs`); χ uses v128.andnot on the plain state instead of portable's
//! lane complementing. One state at a time is the portable permutation.
//!
//! One round per loop iteration, the state in locals, χ as a loop over the
//! 25 outputs, ρ's rotations by 8 and 56 as byte shuffles: 184 v128
//! operations a round, which V8 compiles with about as many moves and spills
//! again. Where the vector ports are the limit this shape was the fastest one
//! measured; where the time follows the whole instruction count, the
//! alternatives are within a few per cent either way, by engine. The shapes
//! are timed in `bench_keccak_x2_variants` (src/testing/bench/keccak.rs): χ written
//! out lane by lane with every rotation by shifts (equivalent code, but V8
//! orders and allocates it differently), longer loop bodies, a state in
//! memory, two pairs or a third scalar state in one loop did not pay; the
//! figures, per engine and machine, are in PERF.md.

use crate::backend::{KeccakKernels, Portable, Simd128, StatePair};
use crate::portable::keccak::theta_rho_pi;
use crate::tables::{RC, ROUNDS};
use core::arch::wasm32::*;

type W = v128;

#[inline(always)]
fn xor(a: W, b: W) -> W {
    v128_xor(a, b)
}

/// ¬a ∧ b.
#[inline(always)]
fn andn(a: W, b: W) -> W {
    v128_andnot(b, a)
}

/// wasm has no 64-bit lane rotation: rotl(x, n) = (x << n) | (x >> (64 − n)),
/// except by 8 and 56, whole bytes, which are one byte shuffle within each
/// lane. That is an `i8x16.swizzle` by a mask read opaquely: LLVM would turn
/// a swizzle by a constant into an `i8x16.shuffle`, whose mask V8 rebuilds
/// from immediates at every use; V8 emits the swizzle as `vpaddusb` (its
/// out-of-range clamp) and `vpshufb`, two operations and a mask load instead
/// of three operations. The masks are read in the round, one v128 load each,
/// not once per permutation as `simd128::opaque` asks of loop constants:
/// `theta_rho_pi!` calls `rotl(x, n)` by name, so it cannot be handed them.
#[inline(always)]
fn rotl(x: W, n: u32) -> W {
    match n {
        0 => x,
        8 => i8x16_swizzle(x, super::opaque(&ROTL8)),
        56 => i8x16_swizzle(x, super::opaque(&ROTL56)),
        _ => v128_or(i64x2_shl(x, n), u64x2_shr(x, 64 - n)),
    }
}

/// Byte j of each 64-bit lane of rotl(x, 8) is byte j − 1 (mod 8) of x; of
/// rotl(x, 56), byte j + 1 (mod 8).
static ROTL8: W = u8x16(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
static ROTL56: W = u8x16(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);

/// One round, as `portable::round`.
#[inline(always)]
pub(crate) fn round(s: &mut [W; 25], rc: W) {
    let b = theta_rho_pi!(s);
    // χ (Algorithm 4): A′[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]); then ι.
    for y in 0..5 {
        for x in 0..5 {
            s[5 * y + x] = xor(b[5 * y + x], andn(b[5 * y + (x + 1) % 5], b[5 * y + (x + 2) % 5]));
        }
    }
    s[0] = xor(s[0], rc);
}

/// Two states, lane i of both in one v128.
#[derive(Clone)]
pub struct StateX2(pub(crate) [v128; 25]);

impl Default for StateX2 {
    fn default() -> Self {
        StateX2([i64x2_splat(0); 25])
    }
}

impl StatePair for StateX2 {
    /// Lane i of state 0 and of state 1.
    #[inline(always)]
    fn lane(&self, i: usize) -> (u64, u64) {
        (u64x2_extract_lane::<0>(self.0[i]), u64x2_extract_lane::<1>(self.0[i]))
    }
    /// The pair of states a[0] and a[1]. Two lanes at a time: lanes i and
    /// i + 1 of each state in one v128, then one i64x2 shuffle per output
    /// lane (instead of building each v128 from two scalars).
    #[inline(always)]
    fn from_lanes(a: &[[u64; 25]; 2]) -> Self {
        let mut s = Self::default();
        for i in (0..24).step_by(2) {
            let v0 = u64x2(a[0][i], a[0][i + 1]);
            let v1 = u64x2(a[1][i], a[1][i + 1]);
            s.0[i] = i64x2_shuffle::<0, 2>(v0, v1);
            s.0[i + 1] = i64x2_shuffle::<1, 3>(v0, v1);
        }
        s.0[24] = u64x2(a[0][24], a[1][24]);
        s
    }
    /// Writes lanes first.. of state 0 to out0 and of state 1 to out1, eight
    /// little-endian bytes a lane (the squeeze of whole lanes); both outputs
    /// the same length, a multiple of 8, and first + out0.len() / 8 ≤ 25.
    /// Two lanes at a time: one i64x2 shuffle gathers lane i and i + 1 of one
    /// state into a v128, stored as 16 output bytes.
    #[inline(always)]
    fn read_lanes(&self, first: usize, out0: &mut [u8], out1: &mut [u8]) {
        assert!(out0.len() == out1.len() && out0.len() % 8 == 0);
        let lanes = &self.0[first..first + out0.len() / 8];
        let (mut o0, mut o1) = (out0.chunks_exact_mut(16), out1.chunks_exact_mut(16));
        let mut pairs = lanes.chunks_exact(2);
        for ((p, c0), c1) in (&mut pairs).zip(&mut o0).zip(&mut o1) {
            let v0 = i64x2_shuffle::<0, 2>(p[0], p[1]);
            let v1 = i64x2_shuffle::<1, 3>(p[0], p[1]);
            // SAFETY: c0 and c1 are 16 writable bytes; v128_store is unaligned.
            unsafe {
                v128_store(c0.as_mut_ptr() as *mut v128, v0);
                v128_store(c1.as_mut_ptr() as *mut v128, v1);
            }
        }
        if let [v] = pairs.remainder() {
            o0.into_remainder().copy_from_slice(&u64x2_extract_lane::<0>(*v).to_le_bytes());
            o1.into_remainder().copy_from_slice(&u64x2_extract_lane::<1>(*v).to_le_bytes());
        }
    }
    /// XORs `bytes` into lanes first.. of state `which` alone: each word,
    /// splatted, is masked to its half of the v128 (no branch on `which`,
    /// one copy of the loop).
    #[inline(always)]
    fn xor_lanes(&mut self, which: usize, first: usize, bytes: &[u8]) {
        assert!(bytes.len() % 8 == 0);
        let half = half_mask(which);
        for (v, w) in self.0[first..first + bytes.len() / 8].iter_mut().zip(bytes.chunks_exact(8)) {
            let w = u64::from_le_bytes(w.try_into().unwrap());
            *v = v128_xor(*v, v128_and(u64x2_splat(w), half));
        }
    }
    /// Replaces state `which` by `a`: its half of each v128 selected from the
    /// splatted lane.
    #[inline(always)]
    fn set_state(&mut self, which: usize, a: &[u64; 25]) {
        let half = half_mask(which);
        for (v, &w) in self.0.iter_mut().zip(a) {
            *v = v128_bitselect(u64x2_splat(w), *v, half);
        }
    }
    /// Wipes both states (zeroize has no v128 impl, hence the volatile writes:
    /// a plain store before a drop could be optimised away).
    fn clear(&mut self) {
        for v in self.0.iter_mut() {
            // SAFETY: `v` is a valid, aligned, exclusive reference.
            unsafe { core::ptr::write_volatile(v, i64x2_splat(0)) };
        }
    }
}

/// All ones in the 64-bit half of a v128 that holds state `which` (0 or 1).
#[inline(always)]
fn half_mask(which: usize) -> v128 {
    assert!(which < 2);
    let m = 0u64.wrapping_sub(which as u64);
    u64x2(!m, m)
}

impl KeccakKernels for Simd128 {
    /// The portable permutation.
    #[inline(always)]
    fn f1600(a: &mut [u64; 25]) {
        Portable::f1600(a)
    }

    type StateX2 = StateX2;

    /// Not inlined, as `Portable::f1600`.
    #[inline(never)]
    fn f1600_x2(st: &mut StateX2) {
        let mut s = st.0;
        for rc in RC.iter().take(ROUNDS) {
            round(&mut s, u64x2_splat(*rc));
        }
        st.0 = s;
    }
}
