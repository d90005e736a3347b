//! simd128 version of `portable/challenge.rs`: eight coefficients per v128, in
//! i16 lanes. A run of t1 terms (|·| ≤ 1023) sums exactly in i16 for up to 32
//! terms (32·1023 < 2^15), so the terms go in groups of 32, each group's sums
//! widened to i32 and added. The runs start at any coefficient, so their loads
//! are unaligned (v128.load needs no alignment).

use super::{load, opaque, store};
use crate::params::{D, N, Q};
use crate::ring::Poly;
use core::arch::wasm32::*;

/// Terms per group: 32·1023 ≤ i16::MAX.
const GROUP: usize = 32;
/// Product vectors (of eight) summed at once: their sums stay in registers.
const BLOCK: usize = 4;

pub fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly) {
    // ext ‖ −ext with ext = (−t1 ‖ t1), as i16: 4N entries.
    let mut ext = [i16x8_splat(0); 4 * N / 8];
    for v in 0..N / 8 {
        let t = i16x8_narrow_i32x4(load(t1, 2 * v), load(t1, 2 * v + 1)); // exact: < 2^10
        let neg = i16x8_neg(t);
        (ext[v], ext[N / 8 + v], ext[2 * N / 8 + v], ext[3 * N / 8 + v]) = (neg, t, t, neg);
    }
    // Every run of N entries (plus a block's start) lies inside ext.
    assert!(offsets.iter().all(|&o| o as usize <= 3 * N));
    let base = ext.as_ptr() as *const i16;
    let (q, r22) = (i32x4_splat(opaque(&Q)), i32x4_splat(opaque(&(1 << 22))));
    for blk in 0..N / (8 * BLOCK) {
        let mut ct = [i32x4_splat(0); 2 * BLOCK];
        for group in offsets.chunks(GROUP) {
            let mut sum = [i16x8_splat(0); BLOCK];
            for &o in group {
                // SAFETY: o ≤ 3N (checked above) and the block reads entries
                // o + 8·BLOCK·blk .. o + 8·BLOCK·(blk + 1) ≤ o + N of the 4N.
                let run = unsafe { base.add(o as usize + 8 * BLOCK * blk) };
                for v in 0..BLOCK {
                    // SAFETY: as above.
                    sum[v] = i16x8_add(sum[v], unsafe { v128_load(run.add(8 * v) as *const v128) });
                }
            }
            for v in 0..BLOCK {
                ct[2 * v] = i32x4_add(ct[2 * v], i32x4_extend_low_i16x8(sum[v]));
                ct[2 * v + 1] = i32x4_add(ct[2 * v + 1], i32x4_extend_high_i16x8(sum[v]));
            }
        }
        for (v, c) in ct.iter().enumerate() {
            let i = 2 * BLOCK * blk + v;
            // `field::reduce32` of w − 2^13·ct, below 2^30 in size.
            let x = i32x4_sub(load(w, i), i32x4_shl(*c, D));
            let t = i32x4_shr(i32x4_add(x, r22), 23);
            store(w, i, i32x4_sub(x, i32x4_mul(t, q)));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::backend::{Backend, Portable, Simd128};
    use crate::challenge::{tests::challenge, Challenge};
    use crate::params::{N, Q};
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
}
