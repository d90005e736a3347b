//! Coefficient-wise operations on whole polynomials, one coefficient at a
//! time: the reference for `simd128/poly.rs`, which has the same whole-
//! polynomial functions in the same order. Bounds and contracts are stated on
//! `PolyKernels` (`backend.rs`).
//!
//! First the per-coefficient functions of FIPS 204 §7.4 that the loops below
//! apply (the simd128 code computes the same, lane by lane).

use crate::backend::{PolyKernels, Portable};
use crate::field::{caddq, center, freeze};
use crate::params::{D, N, Q};
use crate::ring::Poly;

/// Power2Round (FIPS 204 Algorithm 35) for r ∈ [0, q): returns (r1, r0) with
/// r = r1·2^d + r0 and r0 ∈ (−2^(d−1), 2^(d−1)].
#[inline(always)]
pub fn power2round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// Decompose (FIPS 204 Algorithm 36) for r ∈ [0, q): returns (r1, r0) with
/// r ≡ r1·2γ2 + r0, r0 ∈ (−γ2, γ2], except that r − r0 = q − 1 gives r1 = 0 and
/// r0 − 1. The divisions by 2γ2 are multiply-and-shift, exact for r < q.
#[inline(always)]
pub fn decompose(r: i32, gamma2: i32) -> (i32, i32) {
    let mut r1 = (r + 127) >> 7;
    if gamma2 == (Q - 1) / 32 {
        r1 = (r1 * 1025 + (1 << 21)) >> 22;
        r1 &= 15;
    } else {
        // γ2 = (q − 1)/88
        r1 = (r1 * 11275 + (1 << 23)) >> 24;
        r1 ^= ((43 - r1) >> 31) & r1;
    }
    let mut r0 = r - r1 * 2 * gamma2;
    r0 -= (((Q - 1) / 2 - r0) >> 31) & Q;
    (r1, r0)
}

/// MakeHint (FIPS 204 Algorithm 39) in the form the signer can evaluate
/// without a second Decompose: with r1 = HighBits(w − cs2) and
/// a0 = LowBits(w − cs2) + ct0, the hint is 1 exactly when adding ct0 changes
/// the high bits, i.e. a0 ∉ (−γ2, γ2], or a0 = −γ2 with r1 ≠ 0. Branch-free.
#[inline(always)]
pub fn make_hint(a0: i32, r1: i32, gamma2: i32) -> i32 {
    let above = (a0 > gamma2) as i32;
    let below = (a0 < -gamma2) as i32;
    let edge = ((a0 == -gamma2) as i32) & ((r1 != 0) as i32);
    above | below | edge
}

/// UseHint (FIPS 204 Algorithm 40) for r ∈ [0, q). Variable time (it
/// branches on h and r): verification only, where every input is public.
#[inline(always)]
pub fn use_hint_vartime(h: i32, r: i32, gamma2: i32) -> i32 {
    let (r1, r0) = decompose(r, gamma2);
    if h == 0 {
        return r1;
    }
    if gamma2 == (Q - 1) / 32 {
        if r0 > 0 {
            (r1 + 1) & 15
        } else {
            (r1 - 1) & 15
        }
    } else if r0 > 0 {
        if r1 == 43 {
            0
        } else {
            r1 + 1
        }
    } else if r1 == 0 {
        43
    } else {
        r1 - 1
    }
}

impl PolyKernels for Portable {
    fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool {
        let mut over = 0i32;
        for i in 0..N {
            let c = center(freeze(a.0[i] + S * b.0[i]));
            a.0[i] = c;
            let abs = c - ((c >> 31) & (2 * c));
            over |= (bound - 1) - abs;
        }
        over < 0
    }

    fn exceeds(a: &Poly, bound: i32) -> bool {
        let mut over = 0i32;
        for &c in a.0.iter() {
            let abs = c - ((c >> 31) & (2 * c));
            over |= (bound - 1) - abs;
        }
        over < 0
    }

    fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly) {
        for i in 0..N {
            (t1.0[i], t0.0[i]) = power2round(freeze(a.0[i] + b.0[i]));
        }
    }

    fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
        for i in 0..N {
            (w1.0[i], w0.0[i]) = decompose(caddq(a.0[i]), gamma2);
        }
    }

    fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize {
        let mut count = 0;
        for i in 0..N {
            let bit = make_hint(r0.0[i] + ct0.0[i], r1.0[i], gamma2);
            h.0[i] = bit;
            count += bit as usize;
        }
        count
    }

    fn use_hints_vartime(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32) {
        for i in 0..N {
            w1.0[i] = use_hint_vartime(h.0[i], caddq(r.0[i]), gamma2);
        }
    }
}
