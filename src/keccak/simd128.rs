//! Two Keccak-f[1600] states at once, state 0 in lane 0 and state 1 in lane 1
//! of each v128. Same functions in the same order as `portable.rs`, which is
//! the reference (see the differential test in `mod.rs`).
//!
//! wasm has no 64-bit lane rotation: rotl(x, n) = (x << n) | (x >> (64 − n)).

use super::{PI_SRC, RC, RHO, ROUNDS};
use core::arch::wasm32::*;

#[inline(always)]
fn rotl(x: v128, n: u32) -> v128 {
    if n == 0 {
        x
    } else {
        v128_or(i64x2_shl(x, n), u64x2_shr(x, 64 - n))
    }
}

/// One round, as `portable::round`.
#[inline(always)]
fn round(a: &mut [v128; 25], rc: v128) {
    let mut c = [i64x2_splat(0); 5];
    for x in 0..5 {
        c[x] = v128_xor(v128_xor(v128_xor(a[x], a[x + 5]), v128_xor(a[x + 10], a[x + 15])), a[x + 20]);
    }
    for x in 0..5 {
        let d = v128_xor(c[(x + 4) % 5], rotl(c[(x + 1) % 5], 1));
        for y in 0..5 {
            a[x + 5 * y] = v128_xor(a[x + 5 * y], d);
        }
    }
    let mut b = [i64x2_splat(0); 25];
    for i in 0..25 {
        b[i] = rotl(a[PI_SRC[i]], RHO[PI_SRC[i]]);
    }
    for y in 0..5 {
        for x in 0..5 {
            // v128_andnot(p, q) = p & !q.
            a[x + 5 * y] = v128_xor(b[x + 5 * y], v128_andnot(b[(x + 2) % 5 + 5 * y], b[(x + 1) % 5 + 5 * y]));
        }
    }
    a[0] = v128_xor(a[0], rc);
}

/// Keccak-f[1600] on both states.
pub fn f1600_x2(s: &mut StateX2) {
    let mut a = s.0;
    for ir in 0..ROUNDS {
        round(&mut a, u64x2_splat(RC[ir]));
    }
    s.0 = a;
}

/// Two states, lane i of both in one v128.
#[derive(Clone)]
pub struct StateX2([v128; 25]);

impl Default for StateX2 {
    fn default() -> Self {
        StateX2([i64x2_splat(0); 25])
    }
}

impl StateX2 {
    /// Lane i of state 0 and of state 1.
    #[inline(always)]
    pub fn lane(&self, i: usize) -> (u64, u64) {
        (u64x2_extract_lane::<0>(self.0[i]), u64x2_extract_lane::<1>(self.0[i]))
    }
    #[inline(always)]
    pub fn xor_lane(&mut self, i: usize, v0: u64, v1: u64) {
        self.0[i] = v128_xor(self.0[i], u64x2(v0, v1));
    }
    pub fn clear(&mut self) {
        self.0 = [i64x2_splat(0); 25];
    }
}
