//! simd128 version of `portable/challenge.rs`: eight coefficients per v128, in
//! i16 lanes. Runs are summed in i16 in groups of terms small enough that no
//! sum can overflow (32 terms of t1, |·| ≤ 1023: 32·1023 < 2^15), each group's
//! sums widened to i32 and added. The runs start at any coefficient, so their
//! loads are unaligned (v128.load needs no alignment). The load addresses
//! depend on c only, never on the values summed (signing's s1, s2 are secret).

use super::{load, opaque, store};
use crate::backend::{ChallengeKernels, Simd128};
use crate::params::{D, MAX_TAU, N, Q};
use crate::ring::Poly;
use core::arch::wasm32::*;
use zeroize::Zeroize;

/// Product vectors (of eight coefficients) summed at once, in registers.
const BLOCK: usize = 4;

/// ext ‖ −ext with ext = (−x ‖ x), as i16: 4N entries; `x(v)` gives
/// coefficients 8v..8v+7 of x.
struct Ext([v128; 4 * N / 8]);

impl Ext {
    #[inline(always)]
    fn new(x: impl Fn(usize) -> v128) -> Ext {
        let mut e = Ext([i16x8_splat(0); 4 * N / 8]);
        e.fill(x);
        e
    }

    #[inline(always)]
    fn fill(&mut self, x: impl Fn(usize) -> v128) {
        for v in 0..N / 8 {
            let t = x(v);
            let neg = i16x8_neg(t);
            (self.0[v], self.0[N / 8 + v], self.0[2 * N / 8 + v], self.0[3 * N / 8 + v]) = (neg, t, t, neg);
        }
    }

    /// Wipes the entries (signing sums secrets).
    fn wipe(&mut self) {
        // SAFETY: 4N i16 entries are 8N bytes, and any bytes are valid v128s.
        unsafe { core::slice::from_raw_parts_mut(self.0.as_mut_ptr() as *mut u8, 8 * N) }.zeroize();
    }

    /// Σ of the runs at `offsets` into `out`, summed in i16 `group` terms at
    /// a time (the caller's bound on the entries makes `group` of them fit in
    /// i16). One copy of the loop for every caller (each would add ~0.7 KB).
    #[inline(never)]
    fn sum_runs(&self, offsets: &[u16], group: usize, out: &mut Poly) {
        // Every run of N entries (and so each block of one) lies inside ext.
        assert!(offsets.iter().all(|&o| o as usize <= 3 * N));
        let base = self.0.as_ptr() as *const i16;
        for blk in 0..N / (8 * BLOCK) {
            let mut sum32 = [i32x4_splat(0); 2 * BLOCK];
            for terms in offsets.chunks(group) {
                let mut sum = [i16x8_splat(0); BLOCK];
                for &o in terms {
                    // SAFETY: o ≤ 3N (checked above) and the block reads entries
                    // o + 8·BLOCK·blk .. o + 8·BLOCK·(blk + 1) ≤ o + N of the 4N.
                    let run = unsafe { base.add(o as usize + 8 * BLOCK * blk) };
                    // v indexes both the sums and the run's vectors.
                    #[allow(clippy::needless_range_loop)]
                    for v in 0..BLOCK {
                        // SAFETY: as above.
                        sum[v] = i16x8_add(sum[v], unsafe { v128_load(run.add(8 * v) as *const v128) });
                    }
                }
                for v in 0..BLOCK {
                    sum32[2 * v] = i32x4_add(sum32[2 * v], i32x4_extend_low_i16x8(sum[v]));
                    sum32[2 * v + 1] = i32x4_add(sum32[2 * v + 1], i32x4_extend_high_i16x8(sum[v]));
                }
            }
            for (v, s) in sum32.iter().enumerate() {
                store(out, 2 * BLOCK * blk + v, *s);
            }
        }
    }
}

/// Coefficients 8v..8v+7 as i16 (exact below 2^15 in size), of the
/// polynomial whose vector i (coefficients 4i..4i+3) `x(i)` gives.
#[inline(always)]
fn narrow(x: impl Fn(usize) -> v128, v: usize) -> v128 {
    i16x8_narrow_i32x4(x(2 * v), x(2 * v + 1))
}

impl ChallengeKernels for Simd128 {
    fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly) {
        let ext = Ext::new(|v| narrow(|i| load(t1, i), v)); // t1 < 2^10
        let mut ct = Poly::zero();
        // 32 terms of at most 1023: 32736 < 2^15.
        ext.sum_runs(offsets, 32, &mut ct);
        let (q, r22) = (i32x4_splat(opaque(&Q)), i32x4_splat(opaque(&(1 << 22))));
        for i in 0..N / 4 {
            // `field::reduce32` of w − 2^13·ct, below 2^30 in size.
            let x = i32x4_sub(load(w, i), i32x4_shl(load(&ct, i), D));
            let t = i32x4_shr(i32x4_add(x, r22), 23);
            store(w, i, i32x4_sub(x, i32x4_mul(t, q)));
        }
    }

    fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, offsets: &[u16], s: &Poly, eta: i32) {
        let (mask9, half9) = (i32x4_splat(opaque(&511)), i32x4_splat(opaque(&256)));
        // s1 = s mod± 2^9 (|s1| ≤ η < 2^8), s2 = (s − s1)/2^9.
        let s1 = |i: usize| {
            let x = load(s, i);
            i32x4_sub(v128_and(i32x4_add(x, half9), mask9), half9)
        };
        let s2 = |i: usize| i32x4_shr(i32x4_sub(load(s, i), s1(i)), 9);
        if MAX_TAU as i32 * eta < 1 << 7 {
            // Both products below 2^7 in size: one run of s1 + 2^8·s2 (entries at
            // most η·257 ≤ 514, τ ≤ 60 of them: 30840 < 2^15) gives
            // c·s1 + 2^8·c·s2, which splits apart exactly.
            let pair = |i: usize| i32x4_add(s1(i), i32x4_shl(s2(i), 8));
            let mut ext = Ext::new(|v| narrow(pair, v));
            ext.sum_runs(offsets, MAX_TAU, cs2);
            ext.wipe();
            let (mask8, half8) = (i32x4_splat(opaque(&255)), i32x4_splat(opaque(&128)));
            for i in 0..N / 4 {
                let x = load(cs2, i);
                let lo = i32x4_sub(v128_and(i32x4_add(x, half8), mask8), half8);
                store(cs1, i, lo);
                store(cs2, i, i32x4_shr(i32x4_sub(x, lo), 8));
            }
        } else {
            // Entries at most η ≤ 4, τ ≤ 60 of them: no overflow. One buffer for
            // both (a second would be 2 KiB more of stack).
            let mut ext = Ext::new(|v| narrow(s1, v));
            ext.sum_runs(offsets, MAX_TAU, cs1);
            ext.fill(|v| narrow(s2, v));
            ext.sum_runs(offsets, MAX_TAU, cs2);
            ext.wipe();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::backend::{ChallengeKernels, Portable, Simd128};
    use crate::challenge::{tests::challenge, Challenge};
    use crate::params::{N, PAIR_SHIFT, Q};
    use crate::ring::Poly;
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sub_challenge_t1_matches_portable() {
        let mut rng = Rng(41);
        for round in 0..200 {
            let tau = [0, 1, 31, 32, 33, 39, 49, 60][round % 8];
            let c = challenge(&mut rng, tau, round % 16 < 8);
            let c = if round % 3 == 0 { Poly(c.0.map(|x| -x)) } else { c };
            let t1 = if round % 5 == 0 { Poly([1023; N]) } else { rng.poly_in(0, 1023) };
            let w = if round % 7 == 0 { Poly([Q - 1; N]) } else { rng.poly(Q - 1) };
            let ch = Challenge::of_vartime(&c);
            let (mut s, mut p) = (w, w);
            Simd128::sub_challenge_t1(&mut s, ch.offsets(), &t1);
            Portable::sub_challenge_t1(&mut p, ch.offsets(), &t1);
            assert_eq!(s, p, "τ {tau} round {round}");
        }
    }

    #[test]
    fn challenge_times_pair_matches_portable() {
        let mut rng = Rng(43);
        for round in 0..300 {
            let tau = [0, 1, 39, 49, 60][round % 5];
            let eta = [2, 4][(round / 5) % 2];
            let c = challenge(&mut rng, tau, round % 20 < 10);
            let c = if round % 3 == 0 { Poly(c.0.map(|x| -x)) } else { c };
            // Extremes every few rounds: s1 = ±η and s2 = ±η or ∓η everywhere
            // (with an all-plus c of τ = 60, s1 = s2 = η is the largest i16
            // sum of the η = 2 pair path, 60·514).
            let (s1, s2) = match round % 7 {
                0 => (Poly([eta; N]), Poly([-eta; N])),
                1 => (Poly([-eta; N]), Poly([eta; N])),
                2 => (Poly([eta; N]), Poly([eta; N])),
                3 => (Poly([-eta; N]), Poly([-eta; N])),
                4 => (Poly::zero(), rng.poly(eta)),
                _ => (rng.poly(eta), rng.poly(eta)),
            };
            let s = Poly(core::array::from_fn(|i| s1.0[i] + (s2.0[i] << PAIR_SHIFT)));
            let ch = Challenge::of_vartime(&c);
            let (mut a1, mut a2, mut b1, mut b2) = (rng.poly(9), rng.poly(9), rng.poly(9), rng.poly(9));
            Simd128::challenge_times_pair(&mut a1, &mut a2, ch.offsets(), &s, eta);
            Portable::challenge_times_pair(&mut b1, &mut b2, ch.offsets(), &s, eta);
            assert_eq!((a1, a2), (b1, b2), "τ {tau} η {eta} round {round}");
        }
    }
}
