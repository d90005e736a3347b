//! Coefficient-wise operations on whole polynomials, one coefficient at a
//! time: the reference for `simd128.rs`, which has the same functions in the
//! same order. Bounds and contracts are stated on the `Poly` methods and free
//! functions of `poly.rs` that call these.

use super::{decompose, make_hint, power2round, use_hint_vartime, Poly, PAIR_SHIFT};
use crate::field::{caddq, center, freeze};
use crate::params::N;

pub fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool {
    let mut over = 0i32;
    for i in 0..N {
        let c = center(freeze(a.0[i] + S * b.0[i]));
        a.0[i] = c;
        let abs = c - ((c >> 31) & (2 * c));
        over |= (bound - 1) - abs;
    }
    over < 0
}

pub fn split_pair(v: &mut Poly, lo: &mut Poly) {
    for i in 0..N {
        let c = center(caddq(v.0[i]));
        let a = ((c + (1 << (PAIR_SHIFT - 1))) & ((1 << PAIR_SHIFT) - 1)) - (1 << (PAIR_SHIFT - 1));
        lo.0[i] = a;
        v.0[i] = (c - a) >> PAIR_SHIFT;
    }
}

pub fn exceeds(a: &Poly, bound: i32) -> bool {
    let mut over = 0i32;
    for &c in a.0.iter() {
        let abs = c - ((c >> 31) & (2 * c));
        over |= (bound - 1) - abs;
    }
    over < 0
}

pub fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly) {
    for i in 0..N {
        (t1.0[i], t0.0[i]) = power2round(freeze(a.0[i] + b.0[i]));
    }
}

pub fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
    for i in 0..N {
        (w1.0[i], w0.0[i]) = decompose(caddq(a.0[i]), gamma2);
    }
}

pub fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize {
    let mut count = 0;
    for i in 0..N {
        let bit = make_hint(r0.0[i] + ct0.0[i], r1.0[i], gamma2);
        h.0[i] = bit;
        count += bit as usize;
    }
    count
}

pub fn use_hints(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32) {
    for i in 0..N {
        w1.0[i] = use_hint_vartime(h.0[i], caddq(r.0[i]), gamma2);
    }
}
