//! Coefficient-wise operations on whole polynomials, one coefficient at a
//! time: the reference for `simd128.rs`, which has the same functions in the
//! same order. Bounds and contracts are stated on the `Poly` methods and free
//! functions of `poly.rs` that call these.

use super::{decompose, make_hint, power2round, use_hint, Poly};
use crate::field::{caddq, center, freeze, reduce32};
use crate::params::N;

pub fn reduce(a: &mut Poly) {
    for c in a.0.iter_mut() {
        *c = reduce32(*c);
    }
}

pub fn caddq_all(a: &mut Poly) {
    for c in a.0.iter_mut() {
        *c = caddq(*c);
    }
}

pub fn center_all(a: &mut Poly) {
    for c in a.0.iter_mut() {
        *c = center(freeze(*c));
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

pub fn power2round_all(a: &Poly, t1: &mut Poly, t0: &mut Poly) {
    for i in 0..N {
        (t1.0[i], t0.0[i]) = power2round(freeze(a.0[i]));
    }
}

pub fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
    for i in 0..N {
        (w1.0[i], w0.0[i]) = decompose(a.0[i], gamma2);
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
        w1.0[i] = use_hint(h.0[i], r.0[i], gamma2);
    }
}
