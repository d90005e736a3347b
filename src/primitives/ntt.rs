//! The number-theoretic transform of FIPS 204 (Algorithms 41 and 42) and the
//! products in T_q, behind one small interface.
//!
//! The kernels are the active backend's (`backend.rs`): `portable/ntt.rs` is
//! the reference, `simd128/ntt.rs` the same functions with bounds at least as
//! tight, tested against it in wasm.
//!
//! Domains are types (`crate::ring`): the forward NTT turns a [`Poly`]
//! (normal form) into an [`NttPoly`] (T_q) in the same memory
//! (`ntt_in_place`, `ntt_all_in_place`: a 1 KiB value moved from one type to
//! the other would be copied); the products take only `NttPoly`s and are
//! always followed by the inverse NTT, which takes them in its first pass
//! (`pointwise_inv_ntt`, `dot_inv_ntt`, `dot_sub_inv_ntt`) and returns a
//! `Poly`, so they never make a round trip through memory. A product
//! multiplies in Montgomery form (scaled by 2^−32) and the inverse NTT scales
//! by 2^32, so NTT^−1(NTT(a) ∘ NTT(b)) here is a·b: the Montgomery factor
//! never shows outside these functions, and neither type carries one.
//!
//! The bounds each kernel needs and gives, and what is bit-exact across
//! backends, are stated on `NttKernels` (`backend.rs`). Matrix–vector products
//! reduce once per sum, which needs |Σ| < 256q²: the callers' sums are one
//! factor from ExpandA ([0, q)) times one NTT output (< 9q) per term, at most
//! ℓ = 7 of them, plus at most one product of two NTT outputs (< 81q²):
//! |Σ| < 7·9q² + 81q² = 144q².

use crate::backend::{Active, NttKernels};
use crate::ring::{NttPoly, Poly};

/// NTT (FIPS 204 Algorithm 41) of the polynomial that `fill` writes, in the
/// memory of `out`: no copy (bounds: `NttKernels::ntt`). `fill` sees that
/// memory as a normal-form polynomial holding whatever `out` held, and writes
/// every coefficient (a sampler or a copy).
#[inline(always)]
pub fn ntt_in_place(out: &mut NttPoly, fill: impl FnOnce(&mut Poly)) {
    let a = out.coefficients_mut();
    fill(a);
    Active::ntt(a);
}

/// NTT (FIPS 204 Algorithm 41) of every polynomial that `fill` writes, in
/// the memory of `out`: no copy. `fill` sees that memory as normal-form
/// polynomials (holding whatever `out` held), writes every coefficient (a
/// decoder or a copy) and says whether to go on: on
/// Some the transforms follow (`NttKernels::ntt`), on None `out` is
/// zeroed (zero is the same in both forms, and the memory may hold secrets),
/// so in either case `out` holds nothing that is not an element of T_q.
pub fn ntt_all_in_place<R>(out: &mut [NttPoly], fill: impl FnOnce(&mut [Poly]) -> Option<R>) -> Option<R> {
    let a = NttPoly::coefficients_of_mut(out);
    let done = fill(a);
    if done.is_some() {
        a.iter_mut().for_each(Active::ntt);
    } else {
        a.fill(Poly::zero());
    }
    done
}

/// NTT (FIPS 204 Algorithm 41) by value, for tests: the algorithms transform
/// in place (`ntt_in_place`), as a value moved into an `NttPoly` is copied.
#[cfg(test)]
pub fn ntt(a: Poly) -> NttPoly {
    let mut a_hat = NttPoly::zero();
    ntt_in_place(&mut a_hat, |x| *x = a);
    a_hat
}

/// NTT^−1(â ∘ b̂) (FIPS 204 Algorithms 45 and 42) = a·b in R_q
/// (`NttKernels::pointwise_inv_ntt`).
#[inline(always)]
pub fn pointwise_inv_ntt(c: &mut Poly, a: &NttPoly, b: &NttPoly) {
    Active::pointwise_inv_ntt(c, a.coefficients(), b.coefficients())
}

/// NTT^−1(Σ_j â_j ∘ b̂_j) = Σ_j a_j·b_j in R_q (a row of Â ∘ NTT(y), FIPS 204
/// Algorithm 48 then 42; `NttKernels::dot_inv_ntt`).
#[inline(always)]
pub fn dot_inv_ntt(c: &mut Poly, a: &[NttPoly], b: &[NttPoly]) {
    Active::dot_inv_ntt(c, NttPoly::coefficients_of(a), NttPoly::coefficients_of(b))
}

/// NTT^−1(Σ_j â_j ∘ b̂_j − x̂ ∘ ŷ) = Σ_j a_j·b_j − x·y in R_q (verification's
/// Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d); `NttKernels::dot_sub_inv_ntt`).
#[inline(always)]
pub fn dot_sub_inv_ntt(c: &mut Poly, a: &[NttPoly], b: &[NttPoly], x: &NttPoly, y: &NttPoly) {
    Active::dot_sub_inv_ntt(
        c,
        NttPoly::coefficients_of(a),
        NttPoly::coefficients_of(b),
        x.coefficients(),
        y.coefficients(),
    )
}

/// NTT^−1 (FIPS 204 Algorithm 42) alone, times 2^32: tests only, since the
/// algorithms take the inverse only of products (`NttKernels::inv_ntt_tomont`).
#[cfg(test)]
pub fn inv_ntt_tomont(a_hat: NttPoly) -> Poly {
    let mut a = *a_hat.coefficients();
    Active::inv_ntt_tomont(&mut a);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::mont_mul;
    use crate::params::{N, Q};
    use crate::poly::{NttPoly, Poly};
    use crate::tables::{pow_mod, ZETAS};
    use crate::test_rng::Rng;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn modq(a: i64) -> i32 {
        a.rem_euclid(Q as i64) as i32
    }

    /// Schoolbook product in Z_q[X]/(X^256 + 1).
    fn negacyclic(a: &Poly, b: &Poly) -> [i32; N] {
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = a.0[i] as i64 * b.0[j] as i64 % Q as i64;
                if i + j < N {
                    r[i + j] += p;
                } else {
                    r[i + j - N] -= p;
                }
            }
        }
        r.map(modq)
    }

    #[test]
    fn zetas_agree_with_fips204_appendix_b() {
        // FIPS 204 Appendix B lists ζ^brv8(k) mod q; the first entries:
        let plain = [1, 4808194, 3765607, 3761513, 5178923, 5496691, 5234739, 5178987];
        let r_inv = pow_mod(1 << 32, (Q - 2) as u32, Q as i64);
        for (i, want) in plain.iter().enumerate().skip(1) {
            assert_eq!(modq(ZETAS[i] as i64 * r_inv), *want, "zeta {i}");
        }
        assert!(ZETAS[1..].iter().all(|z| z.abs() <= Q / 2));
    }

    #[test]
    fn ntt_product_matches_schoolbook() {
        let mut rng = Rng(7);
        for bound in [1, 4, 1 << 19, Q - 1] {
            let (a, b) = (rng.poly(bound), rng.poly(bound));
            let (ah, bh) = (ntt(a), ntt(b));
            let mut c = Poly::zero();
            pointwise_inv_ntt(&mut c, &ah, &bh);
            assert!(c.0.iter().all(|x| x.abs() < Q), "inverse NTT output bound");
            assert_eq!(c.0.map(|x| modq(x as i64)), negacyclic(&a, &b), "bound {bound}");
        }
    }

    #[test]
    fn bounds_hold_on_extreme_inputs() {
        // Forward: |input| < q gives |output| < 9q (each of 8 layers adds < q).
        let below_9q = |a: &NttPoly| a.coefficients().0.iter().all(|x| x.abs() < 9 * Q);
        for v in [Q - 1, -(Q - 1)] {
            assert!(below_9q(&ntt(Poly([v; N]))));
        }
        let mut rng = Rng(99);
        for _ in 0..50 {
            assert!(below_9q(&ntt(rng.poly(Q - 1))));
        }
        // Inverse: |input| < q gives |output| < q, also at the extremes.
        for v in [Q - 1, -(Q - 1)] {
            let a = inv_ntt_tomont(NttPoly::from_coefficients(Poly([v; N])));
            assert!(a.0.iter().all(|x| x.abs() < Q));
        }
        // The largest matrix–vector sums (bound in the module comment): seven
        // products of an ExpandA entry (< q) by an NTT output (< 9q), minus one
        // product of two NTT outputs, reduce to below q and to the right value.
        let a = Poly([Q - 1; N]);
        let mut big = Poly([9 * Q - 1; N]);
        big.0[3] = -(9 * Q - 1);
        let (a_hat, big_hat) = (NttPoly::from_coefficients(a), NttPoly::from_coefficients(big));
        let (mut c, mut w) = (Poly::zero(), Poly::zero());
        dot_inv_ntt(&mut c, &[a_hat; 7], &[big_hat; 7]);
        dot_sub_inv_ntt(
            &mut w,
            &[a_hat; 7],
            &[big_hat; 7],
            &big_hat,
            &NttPoly::from_coefficients(Poly([-(9 * Q - 1); N])),
        );
        let (mut want_c, mut want_w) = (Poly::zero(), Poly::zero());
        for i in 0..N {
            let p = mont_mul(a.0[i], big.0[i]) as i64;
            let sq = mont_mul(big.0[i], 9 * Q - 1) as i64;
            want_c.0[i] = modq(7 * p);
            want_w.0[i] = modq(7 * p + sq);
        }
        let want_c = inv_ntt_tomont(NttPoly::from_coefficients(want_c));
        let want_w = inv_ntt_tomont(NttPoly::from_coefficients(want_w));
        for i in 0..N {
            assert!(c.0[i].abs() < Q && w.0[i].abs() < Q);
            assert_eq!(modq(c.0[i] as i64), modq(want_c.0[i] as i64));
            assert_eq!(modq(w.0[i] as i64), modq(want_w.0[i] as i64));
        }
    }

    /// The in-place forms transform what `fill` wrote, exactly as `ntt` does;
    /// a refused fill leaves zeros (the NTT of zero), not the values it wrote.
    #[test]
    fn in_place_forms_transform_what_fill_writes() {
        let mut rng = Rng(11);
        let a: Vec<Poly> = (0..3).map(|_| rng.poly(Q - 1)).collect();
        let mut one = NttPoly::from_coefficients(Poly([5; N]));
        ntt_in_place(&mut one, |x| *x = a[0]);
        assert_eq!(one, ntt(a[0]));
        let mut all = vec![NttPoly::from_coefficients(Poly([5; N])); 3];
        let filled = ntt_all_in_place(&mut all, |x| {
            x.copy_from_slice(&a);
            Some(())
        });
        assert_eq!(filled, Some(()));
        assert!(all.iter().zip(&a).all(|(x, y)| *x == ntt(*y)));
        let refused = ntt_all_in_place(&mut all, |x| {
            x.copy_from_slice(&a);
            None::<()>
        });
        assert_eq!(refused, None);
        assert!(all.iter().all(|x| *x == NttPoly::zero()));
    }

    #[test]
    fn round_trip_is_identity_times_mont() {
        let mut rng = Rng(3);
        let a = rng.poly(Q - 1);
        // The inverse takes |input| < q (its stated contract; the simd128
        // backend checks its stage bounds against it in tests).
        let mut b_hat = ntt(a);
        b_hat.coefficients_mut().0.iter_mut().for_each(|c| *c = crate::field::reduce32(*c));
        let b = inv_ntt_tomont(b_hat);
        // inv_ntt_tomont(ntt(a)) = a·2^32; one Montgomery step by 1 undoes it.
        for i in 0..N {
            assert_eq!(modq(mont_mul(b.0[i], 1) as i64), modq(a.0[i] as i64));
        }
    }
}
