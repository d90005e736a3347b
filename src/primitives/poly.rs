//! Polynomials of R_q and the coefficient-wise operations of FIPS 204 §7.4:
//! Power2Round, Decompose, HighBits/LowBits, MakeHint, UseHint, and the
//! infinity-norm check. Functions used on secret data are branch-free and
//! division-free.
//!
//! The whole-polynomial forms below are the active backend's (`backend.rs`);
//! the per-coefficient functions they apply, as FIPS 204 writes them
//! (Algorithms 35, 36, 39, 40), are the reference in `portable/poly.rs`.

use crate::backend::{Active, PolyKernels};
use crate::params::D;
pub use crate::params::PAIR_SHIFT;
pub use crate::ring::{NttPoly, Poly};

impl Poly {
    /// self ← self + b mod± q (centred), then ‖self‖∞ ≥ bound?, in one pass
    /// (`PolyKernels::center_exceeds`).
    pub fn add_center_exceeds(&mut self, b: &Poly, bound: i32) -> bool {
        Active::center_exceeds::<1>(self, b, bound)
    }

    /// self ← self − b mod± q (centred), then ‖self‖∞ ≥ bound?; as `add_center_exceeds`.
    pub fn sub_center_exceeds(&mut self, b: &Poly, bound: i32) -> bool {
        Active::center_exceeds::<-1>(self, b, bound)
    }

    /// self ← self mod± q (centred), then ‖self‖∞ ≥ bound?; as `add_center_exceeds`.
    pub fn center_exceeds(&mut self, bound: i32) -> bool {
        static ZERO: Poly = Poly::zero();
        Active::center_exceeds::<0>(self, &ZERO, bound)
    }

    /// Multiplies by 2^d; for t1 (< 2^10) the result stays below q.
    pub fn shift_left_d(&mut self) {
        for c in self.0.iter_mut() {
            *c <<= D;
        }
    }

    /// ‖a‖∞ ≥ bound? (`PolyKernels::exceeds`).
    pub fn exceeds(&self, bound: i32) -> bool {
        Active::exceeds(self, bound)
    }

    /// Power2Round (FIPS 204 Algorithm 35) of every coefficient of self + b
    /// (`PolyKernels::power2round_all`).
    pub fn add_power2round_into(&self, b: &Poly, t1: &mut Poly, t0: &mut Poly) {
        Active::power2round_all(self, b, t1, t0)
    }

    /// Decompose (FIPS 204 Algorithm 36) of every coefficient
    /// (`PolyKernels::decompose_all`).
    pub fn decompose_into(&self, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
        Active::decompose_all(self, w1, w0, gamma2)
    }
}

/// MakeHint (FIPS 204 Algorithm 39) of every coefficient, in the signer's form
/// (`PolyKernels::make_hints`); returns the number of ones.
pub fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize {
    Active::make_hints(h, r0, ct0, r1, gamma2)
}

/// UseHint (FIPS 204 Algorithm 40) of every coefficient, for verification
/// only (`PolyKernels::use_hints_vartime`).
pub fn use_hints_vartime(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32) {
    Active::use_hints_vartime(w1, h, r, gamma2)
}

#[cfg(test)]
#[path = "poly/tests_exhaustive.rs"]
mod tests_exhaustive;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{N, Q};
    use crate::portable::poly::{decompose, make_hint, power2round, use_hint_vartime};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const G32: i32 = (Q - 1) / 32;
    const G88: i32 = (Q - 1) / 88;

    /// Decompose exactly as FIPS 204 Algorithm 36 writes it, with `%` and `/`.
    fn decompose_spec(r: i32, gamma2: i32) -> (i32, i32) {
        let r = r.rem_euclid(Q);
        let mut r0 = r % (2 * gamma2);
        if r0 > gamma2 {
            r0 -= 2 * gamma2;
        }
        if r - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r - r0) / (2 * gamma2), r0)
        }
    }

    /// MakeHint as FIPS 204 Algorithm 39 writes it: HighBits(r) ≠ HighBits(r + z).
    fn make_hint_spec(z: i32, r: i32, gamma2: i32) -> i32 {
        let r1 = decompose_spec(r, gamma2).0;
        let v1 = decompose_spec(r + z, gamma2).0;
        (r1 != v1) as i32
    }

    fn use_hint_spec(h: i32, r: i32, gamma2: i32) -> i32 {
        let m = (Q - 1) / (2 * gamma2);
        let (r1, r0) = decompose_spec(r, gamma2);
        match (h, r0 > 0) {
            (1, true) => (r1 + 1).rem_euclid(m),
            (1, false) => (r1 - 1).rem_euclid(m),
            _ => r1,
        }
    }

    #[test]
    fn decompose_matches_spec_for_every_r() {
        for g in [G32, G88] {
            for r in 0..Q {
                assert_eq!(decompose(r, g), decompose_spec(r, g), "r={r} g={g}");
            }
        }
    }

    #[test]
    fn power2round_matches_spec() {
        for r in (0..Q).step_by(7).chain([Q - 1, 4095, 4096, 4097]) {
            let (r1, r0) = power2round(r);
            let mut want0 = r.rem_euclid(1 << D);
            if want0 > 1 << (D - 1) {
                want0 -= 1 << D;
            }
            assert_eq!((r1, r0), ((r - want0) >> D, want0), "r={r}");
            assert!(r1 < 1 << 10);
        }
    }

    #[test]
    fn hints_match_spec() {
        let mut rng = crate::test_rng::Rng(12345);
        for g in [G32, G88] {
            for i in 0..300_000 {
                let x = rng.next();
                let w = (x % Q as u64) as i32;
                // z plays −ct0 + (small shift); keep |z| around γ2 so both hint values occur.
                let z = ((x >> 32) % (4 * g as u64 + 1)) as i32 - 2 * g;
                let z = if i % 5 == 0 { [-g + 1, g - 1, 0, -g / 2, g / 2][i % 25 / 5] } else { z };
                // The signer's form: r = w − cs2 (here w), ct0 = z.
                let (r1, r0) = decompose(w, g);
                let spec = make_hint_spec(z, w, g);
                if r0.abs() < g - 78 && z.abs() < g {
                    // The signer only calls make_hint after checking ‖r0‖∞ < γ2 − β and
                    // ‖ct0‖∞ < γ2 (β ≥ 78 for every set); the two forms agree there.
                    assert_eq!(make_hint(r0 + z, r1, g), spec, "w={w} z={z} g={g}");
                }
                let h = (x >> 60) as i32 & 1;
                assert_eq!(use_hint_vartime(h, w, g), use_hint_spec(h, w, g), "w={w} h={h}");
                // Theorem behind UseHint: it recovers HighBits(r + z) from r and the hint.
                if z.abs() <= g {
                    let r = (w + z).rem_euclid(Q);
                    let target = decompose_spec(w, g).0;
                    assert_eq!(use_hint_vartime(make_hint_spec(-z, r, g), r, g), target);
                }
            }
        }
    }

    #[test]
    fn whole_polynomial_forms_match_the_coefficient_functions() {
        // In wasm this checks the simd128 backend against the scalar functions.
        let mut rng = crate::test_rng::Rng(777);
        let mut next = |m: u64| (rng.next() % m) as i32;
        for g in [G32, G88] {
            for _ in 0..200 {
                let mut a = Poly::zero();
                a.0.iter_mut().for_each(|c| *c = next(Q as u64));
                a.0[0] = Q - 1;
                let (mut w1, mut w0, mut t1, mut t0, mut h) =
                    (Poly::zero(), Poly::zero(), Poly::zero(), Poly::zero(), Poly::zero());
                a.decompose_into(&mut w1, &mut w0, g);
                a.add_power2round_into(&Poly::zero(), &mut t1, &mut t0);
                let mut ct0 = Poly::zero();
                ct0.0.iter_mut().for_each(|c| *c = next(2 * g as u64 + 1) - g);
                let n = make_hints(&mut h, &w0, &ct0, &w1, g);
                let mut used = Poly::zero();
                use_hints_vartime(&mut used, &h, &a, g);
                let mut want_n = 0;
                for i in 0..N {
                    assert_eq!((w1.0[i], w0.0[i]), decompose(a.0[i], g));
                    assert_eq!((t1.0[i], t0.0[i]), power2round(a.0[i]));
                    let bit = make_hint(w0.0[i] + ct0.0[i], w1.0[i], g);
                    assert_eq!(h.0[i], bit);
                    assert_eq!(used.0[i], use_hint_vartime(bit, a.0[i], g));
                    want_n += bit as usize;
                }
                assert_eq!(n, want_n);
            }
        }
    }

    #[test]
    fn norm_check_is_exact_at_the_bound() {
        let b = 1000;
        let mut p = Poly::zero();
        assert!(!p.exceeds(b));
        for v in [b - 1, -(b - 1)] {
            p.0[17] = v;
            assert!(!p.exceeds(b));
        }
        for v in [b, -b, (Q - 1) / 2, -(Q - 1) / 2] {
            p.0[255] = v;
            assert!(p.exceeds(b), "{v}");
        }
    }

    #[test]
    fn fused_center_and_norm_check() {
        let mut p = Poly::zero();
        p.0[0] = Q + 5;
        p.0[1] = -Q - 5;
        p.0[2] = Q - 1;
        assert!(!p.center_exceeds(6));
        assert_eq!(&p.0[..3], &[5, -5, -1]);
        let mut b = Poly::zero();
        b.0[3] = 6;
        let mut s = p;
        assert!(s.add_center_exceeds(&b, 6), "6 is at the bound");
        assert_eq!(&s.0[..4], &[5, -5, -1, 6]);
        assert!(!p.sub_center_exceeds(&b, 7));
        assert_eq!(&p.0[..4], &[5, -5, -1, -6]);
        // Decompose and UseHint take (−q, q): −(q − 1) is 1.
        let (mut w1, mut w0, mut u) = (Poly::zero(), Poly::zero(), Poly::zero());
        let c = Poly([-(Q - 1); N]);
        c.decompose_into(&mut w1, &mut w0, G32);
        use_hints_vartime(&mut u, &Poly([1; N]), &c, G32);
        for i in 0..N {
            assert_eq!((w1.0[i], w0.0[i]), decompose(1, G32));
            assert_eq!(u.0[i], use_hint_vartime(1, 1, G32));
        }
    }
}
