//! simd128 versions of `portable/poly.rs` (same kernels, same order), four
//! coefficients per v128. Everything is lane-wise i32 arithmetic, compares and
//! masks: no branch and no memory index depends on a coefficient. The only
//! data-dependent outputs are the verdict of `exceeds` and the hint count,
//! which FIPS 204 lets the signer reveal (rejection decision; the hints are
//! part of the signature).

use super::{load, opaque, store};
use crate::backend::{PolyKernels, Simd128};
use crate::params::{D, N, Q};
use crate::ring::Poly;
use core::arch::wasm32::*;

/// The constants of the reductions below, read once per call
/// (`crate::simd128::opaque`).
#[derive(Clone, Copy)]
struct ReduceConsts {
    q: v128,
    /// 2^22, the rounding term of `reduce32`.
    r22: v128,
    /// (q − 1)/2, the threshold of `center`.
    half: v128,
}

impl ReduceConsts {
    #[inline(always)]
    fn load() -> Self {
        ReduceConsts {
            q: i32x4_splat(opaque(&Q)),
            r22: i32x4_splat(opaque(&(1 << 22))),
            half: i32x4_splat(opaque(&((Q - 1) / 2))),
        }
    }
}

/// `field::reduce32` in each lane.
#[inline(always)]
fn reduce32(a: v128, k: ReduceConsts) -> v128 {
    let t = i32x4_shr(i32x4_add(a, k.r22), 23);
    i32x4_sub(a, i32x4_mul(t, k.q))
}

/// `field::caddq` in each lane.
#[inline(always)]
fn caddq(a: v128, k: ReduceConsts) -> v128 {
    i32x4_add(a, v128_and(i32x4_shr(a, 31), k.q))
}

/// `field::freeze`: [0, q).
#[inline(always)]
fn freeze(a: v128, k: ReduceConsts) -> v128 {
    caddq(reduce32(a, k), k)
}

/// `field::center` of a value in [0, q).
#[inline(always)]
fn center(f: v128, k: ReduceConsts) -> v128 {
    i32x4_sub(f, v128_and(i32x4_shr(i32x4_sub(k.half, f), 31), k.q))
}

impl PolyKernels for Simd128 {
    fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool {
        let k = ReduceConsts::load();
        let b1 = i32x4_splat(opaque(&(bound - 1)));
        let mut over = i32x4_splat(0);
        for i in 0..N / 4 {
            let x = match S {
                1 => i32x4_add(load(a, i), load(b, i)),
                -1 => i32x4_sub(load(a, i), load(b, i)),
                _ => load(a, i),
            };
            let c = center(freeze(x, k), k);
            store(a, i, c);
            over = v128_or(over, i32x4_sub(b1, i32x4_abs(c)));
        }
        i32x4_bitmask(over) != 0
    }

    fn exceeds(a: &Poly, bound: i32) -> bool {
        let b1 = i32x4_splat(opaque(&(bound - 1)));
        let mut over = i32x4_splat(0);
        for i in 0..N / 4 {
            over = v128_or(over, i32x4_sub(b1, i32x4_abs(load(a, i))));
        }
        i32x4_bitmask(over) != 0
    }

    fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly) {
        // The rounding term and the mask of r1·2^d, opaque (see `opaque`):
        // LLVM would turn the shifts back into a literal mask.
        let (k, round, high) =
            (ReduceConsts::load(), i32x4_splat(opaque(&((1 << (D - 1)) - 1))), i32x4_splat(opaque(&(-1 << D))));
        for i in 0..N / 4 {
            let r = freeze(i32x4_add(load(a, i), load(b, i)), k);
            let s = i32x4_add(r, round);
            store(t1, i, i32x4_shr(s, D));
            // r1·2^d = s with its low d bits cleared.
            store(t0, i, i32x4_sub(r, v128_and(s, high)));
        }
    }

    fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
        let narrow = gamma2 == (Q - 1) / 32; // public parameter
        let c = DecomposeConsts::load(narrow, gamma2);
        for i in 0..N / 4 {
            let (r1, r0) = decompose(load(a, i), narrow, c);
            store(w1, i, r1);
            store(w0, i, r0);
        }
    }

    /// r1 ∈ [0, m) (a `decompose` output), so r1 ≠ 0 is tested as r1 > 0: one
    /// compare in V8, where ≠ is a compare and a NOT with an all-ones constant.
    fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize {
        let (g, ng, zero) = (i32x4_splat(opaque(&gamma2)), i32x4_splat(opaque(&(-gamma2))), i32x4_splat(0));
        let one = i32x4_splat(opaque(&1));
        let mut count = zero;
        for i in 0..N / 4 {
            let a0 = i32x4_add(load(r0, i), load(ct0, i));
            let out = v128_or(i32x4_gt(a0, g), i32x4_lt(a0, ng));
            let edge = v128_and(i32x4_eq(a0, ng), i32x4_gt(load(r1, i), zero));
            let mask = v128_or(out, edge); // −1 where the hint is 1
            store(h, i, v128_and(mask, one));
            count = i32x4_sub(count, mask);
        }
        let total = i32x4_extract_lane::<0>(count)
            + i32x4_extract_lane::<1>(count)
            + i32x4_extract_lane::<2>(count)
            + i32x4_extract_lane::<3>(count);
        total as usize
    }

    fn use_hints_vartime(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32) {
        let zero = i32x4_splat(0);
        let narrow = gamma2 == (Q - 1) / 32; // public parameter
        let c = DecomposeConsts::load(narrow, gamma2);
        let (one, m) = (i32x4_splat(opaque(&1)), i32x4_splat(opaque(&44)));
        for i in 0..N / 4 {
            let (r1, r0) = decompose(load(r, i), narrow, c);
            // d = 0 without a hint, else +1 when r0 > 0 and −1 otherwise: the
            // mask of r0 ≤ 0 (−1 or 0) ORed with 1.
            let down = i32x4_lt(r0, one);
            let d = v128_and(v128_or(down, one), i32x4_neg(load(h, i)));
            let mut v = i32x4_add(r1, d);
            if narrow {
                // m = 16: reduce mod 16.
                v = v128_and(v, c.top);
            } else {
                // m = 44: −1 becomes 43 and 44 becomes 0.
                v = i32x4_add(v, v128_and(i32x4_lt(v, zero), m));
                v = i32x4_sub(v, v128_and(i32x4_eq(v, m), m));
            }
            store(w1, i, v);
        }
    }
}

/// The constants of `decompose` for one γ2, read once per call.
#[derive(Clone, Copy)]
struct DecomposeConsts {
    k: ReduceConsts,
    c127: v128,
    /// The multiplier and rounding term of r1: 1025 and 2^21 (narrow), 11275
    /// and 2^23.
    mul: v128,
    round: v128,
    /// 15 (narrow: the mask), or 43 (the largest r1 kept).
    top: v128,
    g2x2: v128,
}

impl DecomposeConsts {
    #[inline(always)]
    fn load(narrow: bool, gamma2: i32) -> Self {
        let (mul, round, top) = if narrow { (1025, 1 << 21, 15) } else { (11275, 1 << 23, 43) };
        DecomposeConsts {
            k: ReduceConsts::load(),
            c127: i32x4_splat(opaque(&127)),
            mul: i32x4_splat(opaque(&mul)),
            round: i32x4_splat(opaque(&round)),
            top: i32x4_splat(opaque(&top)),
            g2x2: i32x4_splat(opaque(&(2 * gamma2))),
        }
    }
}

/// `poly::decompose` of caddq(r) in each lane, r ∈ (−q, q); `narrow` is
/// γ2 = (q−1)/32 (a public parameter), `c` its constants.
#[inline(always)]
fn decompose(r: v128, narrow: bool, c: DecomposeConsts) -> (v128, v128) {
    let r = caddq(r, c.k);
    // r < q, so r1 < 2^16 here and the products below stay below 2^30.
    let mut r1 = i32x4_shr(i32x4_add(r, c.c127), 7);
    if narrow {
        r1 = i32x4_shr(i32x4_add(i32x4_mul(r1, c.mul), c.round), 22);
        r1 = v128_and(r1, c.top);
    } else {
        r1 = i32x4_shr(i32x4_add(i32x4_mul(r1, c.mul), c.round), 24);
        // r1 = 44 (only from r ≥ q − γ2) wraps to 0.
        r1 = v128_xor(r1, v128_and(i32x4_shr(i32x4_sub(c.top, r1), 31), r1));
    }
    let r0 = i32x4_sub(r, i32x4_mul(r1, c.g2x2));
    (r1, center(r0, c.k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{PolyKernels, Portable, Simd128};
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The largest input `field::reduce32` accepts.
    const TOP: i32 = i32::MAX - (1 << 22);
    const G32: i32 = (Q - 1) / 32;
    const G88: i32 = (Q - 1) / 88;

    /// Random polynomials in [lo, hi], the constants lo, hi, 0 (if inside),
    /// and lo/hi alternating and in blocks of four lanes.
    fn inputs(lo: i32, hi: i32, seed: u64) -> Vec<Poly> {
        let mut rng = Rng(seed);
        let mut v = vec![Poly([lo; N]), Poly([hi; N])];
        if lo <= 0 && 0 <= hi {
            v.push(Poly::zero());
        }
        let (mut alt, mut blocks) = (Poly::zero(), Poly::zero());
        for i in 0..N {
            alt.0[i] = if i % 2 == 0 { lo } else { hi };
            blocks.0[i] = if (i / 4) % 2 == 0 { hi } else { lo };
        }
        v.extend([alt, blocks]);
        for _ in 0..300 {
            v.push(rng.poly_in(lo, hi));
        }
        v
    }

    #[test]
    fn center_exceeds_matches_portable() {
        // Sums anywhere in the range `freeze` accepts, and in the ranges the
        // signer forms (INTT output ± y or w0), with bounds around the values.
        let big = inputs(i32::MIN / 2, TOP / 2, 1);
        let small = inputs(-(Q - 1), Q - 1, 2).into_iter().chain(inputs(-2 * Q, 2 * Q, 3)).collect::<Vec<_>>();
        let mut rng = Rng(13);
        for (k, (a, b)) in big.iter().zip(small.iter().rev()).chain(small.iter().zip(big.iter())).enumerate() {
            let bound = [1, 78, G88, G32, (1 << 19) - 196, (Q - 1) / 8, rng.range(1, (Q - 1) / 8)][k % 7];
            let (mut s, mut p) = (*a, *a);
            assert_eq!(Simd128::center_exceeds::<1>(&mut s, b, bound), Portable::center_exceeds::<1>(&mut p, b, bound));
            assert_eq!(s, p, "add");
            let (mut s, mut p) = (*a, *a);
            assert_eq!(
                Simd128::center_exceeds::<-1>(&mut s, b, bound),
                Portable::center_exceeds::<-1>(&mut p, b, bound)
            );
            assert_eq!(s, p, "sub");
            let (mut s, mut p) = (*a, *a);
            assert_eq!(Simd128::center_exceeds::<0>(&mut s, b, bound), Portable::center_exceeds::<0>(&mut p, b, bound));
            assert_eq!(s, p, "centre only");
        }
        // The verdict at the bound, both signs, for small values.
        for bound in [2, 78, G88] {
            for v in [bound - 1, bound, -(bound - 1), -bound] {
                let (mut s, mut p) = (Poly::zero(), Poly::zero());
                let mut b = Poly::zero();
                b.0[200] = v;
                let want = v.abs() >= bound;
                assert_eq!(Simd128::center_exceeds::<1>(&mut s, &b, bound), want);
                assert_eq!(Portable::center_exceeds::<1>(&mut p, &b, bound), want);
            }
        }
    }

    #[test]
    fn exceeds_matches_portable() {
        let mut rng = Rng(5);
        for bound in [1, 2, 78, G88 - 78, G88, G32, (1 << 17) - 78, (1 << 19) - 196, (Q - 1) / 8] {
            for a in inputs(-(bound - 1), bound - 1, 6) {
                assert!(!Simd128::exceeds(&a, bound) && !Portable::exceeds(&a, bound));
                // One coefficient at or over the bound, anywhere, flips the verdict.
                let mut b = a;
                let i = rng.range(0, N as i32 - 1) as usize;
                b.0[i] = [bound, -bound, (Q - 1) / 2, -(Q - 1) / 2][i % 4];
                assert!(Simd128::exceeds(&b, bound) && Portable::exceeds(&b, bound), "bound {bound} at {i}");
            }
            for a in inputs(-(Q - 1) / 2, (Q - 1) / 2, 7) {
                assert_eq!(Simd128::exceeds(&a, bound), Portable::exceeds(&a, bound));
            }
        }
    }

    #[test]
    fn power2round_matches_portable() {
        for a in inputs(i32::MIN, TOP, 8).into_iter().chain(inputs(0, Q - 1, 9)) {
            let (mut s1, mut s0, mut p1, mut p0) = (Poly::zero(), Poly::zero(), Poly::zero(), Poly::zero());
            Simd128::power2round_all(&a, &Poly::zero(), &mut s1, &mut s0);
            Portable::power2round_all(&a, &Poly::zero(), &mut p1, &mut p0);
            assert_eq!((s1, s0), (p1, p0));
            // The keygen form: t (< q) plus s2 (|s2| ≤ η).
            let (t, s2) = (Rng(a.0[7] as u64 | 1).poly(Q - 1), Rng(a.0[9] as u64 | 1).poly(4));
            Simd128::power2round_all(&t, &s2, &mut s1, &mut s0);
            Portable::power2round_all(&t, &s2, &mut p1, &mut p0);
            assert_eq!((s1, s0), (p1, p0));
        }
    }

    #[test]
    fn decompose_matches_portable_for_every_r() {
        for g in [G32, G88] {
            let (mut s1, mut s0, mut p1, mut p0) = (Poly::zero(), Poly::zero(), Poly::zero(), Poly::zero());
            let mut a = Poly::zero();
            // Every r in (−q, q).
            for start in (-Q + 1..Q).step_by(N) {
                for (i, c) in a.0.iter_mut().enumerate() {
                    *c = (start + i as i32).min(Q - 1);
                }
                Simd128::decompose_all(&a, &mut s1, &mut s0, g);
                Portable::decompose_all(&a, &mut p1, &mut p0, g);
                assert_eq!((s1, s0), (p1, p0), "from r = {start}, g = {g}");
            }
        }
    }

    #[test]
    fn use_hints_match_portable_for_every_r() {
        let mut rng = Rng(11);
        for g in [G32, G88] {
            let (mut s, mut p, mut a) = (Poly::zero(), Poly::zero(), Poly::zero());
            for start in (-Q + 1..Q).step_by(N) {
                for (i, c) in a.0.iter_mut().enumerate() {
                    *c = (start + i as i32).min(Q - 1);
                }
                for h in [Poly::zero(), Poly([1; N]), Poly(core::array::from_fn(|_| (rng.next() & 1) as i32))] {
                    Simd128::use_hints_vartime(&mut s, &h, &a, g);
                    Portable::use_hints_vartime(&mut p, &h, &a, g);
                    assert_eq!(s, p, "from r = {start}, g = {g}");
                }
            }
        }
    }

    #[test]
    fn make_hints_match_portable() {
        let mut rng = Rng(10);
        for g in [G32, G88] {
            let m = (Q - 1) / (2 * g);
            let edges = [-g - 1, -g, -g + 1, -1, 0, 1, g - 1, g, g + 1];
            for round in 0..400 {
                let (mut r0, mut ct0, mut r1) = (Poly::zero(), Poly::zero(), Poly::zero());
                for i in 0..N {
                    r1.0[i] = if rng.next() % 4 == 0 { 0 } else { rng.range(0, m - 1) };
                    if round % 2 == 0 {
                        // a0 = r0 + ct0 on and around ±γ2.
                        let e = edges[rng.range(0, edges.len() as i32 - 1) as usize];
                        ct0.0[i] = rng.range(-g + 1, g - 1);
                        r0.0[i] = e - ct0.0[i];
                    } else {
                        r0.0[i] = rng.range(-g + 1, g);
                        ct0.0[i] = rng.range(-g + 1, g - 1);
                    }
                }
                let (mut hs, mut hp) = (Poly::zero(), Poly::zero());
                let ns = Simd128::make_hints(&mut hs, &r0, &ct0, &r1, g);
                let np = Portable::make_hints(&mut hp, &r0, &ct0, &r1, g);
                assert_eq!((hs, ns), (hp, np));
            }
        }
    }
}
