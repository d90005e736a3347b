//! simd128 NTT: the same functions as `portable/ntt.rs`, four coefficients per v128.
//!
//! Products by a known constant (the twiddles) use signed Shoup multiplication:
//! with z′ = round(z·2^32/q) precomputed, a·z mod± q is
//!     r = a·z − h·q,  h = round(a·z′ / 2^32),
//! where a·z and h·q are taken mod 2^32 (i32x4.mul) and only h needs a widening
//! product: two `i64x2.extmul` per four products instead of Montgomery's four.
//! Bound: writing a·z′/2^32 = a·z/q + a·e/2^32 with |e| ≤ 1/2,
//!     |r| ≤ q/2 + q·|a|/2^33,
//! so |r| < 0.51q for |a| < 6q and |r| < 0.75q for |a| < 256q. The exact r fits
//! in i32, so the wrapping i32 arithmetic gives it exactly.
//!
//! Products of two variables (`pointwise`) use the Montgomery reduction of
//! `field.rs`, bit for bit: r = mulhi(a, b) − mulhi(t, q), t = a·b·q^−1 mod 2^32.
//!
//! Pitfall: LLVM turns an `extmul` whose operand is a constant or any splat
//! (even of a value it cannot know) into sign extension plus `i64x2.mul`,
//! which V8 emulates slowly. Every operand that reaches an `extmul` is
//! therefore a whole v128 read with `simd128::opaque`, which the optimiser
//! cannot see through: the Shoup companions of the twiddles of the layers that use one
//! twiddle for all lanes are stored already splatted (4 × 63 entries per
//! direction), and q likewise.
//!
//! Layout: the forward NTT runs three passes over groups of 4 vectors: layers
//! 1–2 (distances 32 and 16 vectors), layers 3–4 (8 and 4), and layers 5–8,
//! where layers 7 and 8 (distances 2 and 1 coefficients) are in-register
//! shuffles. The inverse runs the same passes in reverse and merges the final
//! scaling into its last layer.

use super::twiddles::{twiddles, Table, Twiddles, F, F_LAST};
use super::{load, opaque, store};
use crate::backend::{NttKernels, Simd128};
use crate::field::QINV;
use crate::params::Q;
use crate::ring::Poly;
use core::arch::wasm32::*;

/// A twiddle for all four lanes: the value z and its Shoup companion z′.
#[derive(Clone, Copy)]
struct Tw {
    z: v128,
    zp: v128,
}

/// q in four lanes, read opaquely at each use (see the pitfall above).
static Q4: Table<4> = Table([Q; 4]);

/// The constants of `mul` and `mont_mul`, read once per transform
/// (`crate::simd128::opaque`) and passed to the inlined helpers: 2^31 in two
/// i64 lanes (the rounding term of the Shoup product), q and q^−1 mod 2^32 in
/// four i32 lanes.
#[derive(Clone, Copy)]
struct NttConsts {
    half: v128,
    q: v128,
    qinv: v128,
}

static NTT_CONSTS: NttConsts =
    NttConsts { half: i64x2(1 << 31, 1 << 31), q: i32x4(Q, Q, Q, Q), qinv: i32x4(QINV, QINV, QINV, QINV) };

impl NttConsts {
    #[inline(always)]
    fn load() -> Self {
        NttConsts { half: opaque(&NTT_CONSTS.half), q: opaque(&NTT_CONSTS.q), qinv: opaque(&NTT_CONSTS.qinv) }
    }
}

/// Twiddle k < 64 in all four lanes; `t` is `fwd` or `inv`, `tps` `fwd_ps` or
/// `inv_ps`.
#[inline(always)]
fn splat<const M: usize>(t: &Table<M>, tps: &Table<256>, k: usize) -> Tw {
    assert!(k < 64);
    Tw { z: i32x4_splat(t.0[k]), zp: opaque(tps.v(4 * k)) }
}

/// Twiddle k < 64 with its value `z` already splatted (from `opaque`,
/// outside the loop; only the Shoup companion must be read in the loop).
#[inline(always)]
fn splat_with(z: v128, tps: &Table<256>, k: usize) -> Tw {
    assert!(k < 64);
    Tw { z, zp: opaque(tps.v(4 * k)) }
}

#[inline(always)]
fn lanes(t: &Table<128>, tp: &Table<128>, p: usize) -> Tw {
    assert!(p < 32);
    Tw { z: opaque(t.v(4 * p)), zp: opaque(tp.v(4 * p)) }
}

/// Forward layer-8 twiddles ζ(128 + 4p + i), i = 0..3, straight from `fwd`.
#[inline(always)]
fn fwd8(tw: &Twiddles, p: usize) -> Tw {
    assert!(p < 32);
    Tw { z: opaque(tw.fwd.v(128 + 4 * p)), zp: opaque(tw.fwd8_p.v(4 * p)) }
}

/// Signed Shoup product a·z mod± q; |r| ≤ q/2 + q·|a|/2^33 (module comment).
#[inline(always)]
fn mul(a: v128, w: Tw, k: NttConsts) -> v128 {
    let lo = i64x2_add(i64x2_extmul_low_i32x4(a, w.zp), k.half);
    let hi = i64x2_add(i64x2_extmul_high_i32x4(a, w.zp), k.half);
    let h = i32x4_shuffle::<1, 3, 5, 7>(lo, hi);
    i32x4_sub(i32x4_mul(a, w.z), i32x4_mul(h, k.q))
}

/// Cooley–Tukey butterfly (a, b) ← (a + b·z, a − b·z).
#[inline(always)]
fn ct(a: &mut v128, b: &mut v128, w: Tw, k: NttConsts) {
    let t = mul(*b, w, k);
    *b = i32x4_sub(*a, t);
    *a = i32x4_add(*a, t);
}

/// Gentleman–Sande butterfly (a, b) ← (a + b, (a − b)·z).
#[inline(always)]
fn gs(a: &mut v128, b: &mut v128, w: Tw, k: NttConsts) {
    let t = *a;
    *a = i32x4_add(t, *b);
    *b = mul(i32x4_sub(t, *b), w, k);
}

/// Checks the stated bound of a stage, |a_i| < hundredths·q/100, in test
/// builds (every test that runs a transform checks every stage); compiled
/// away otherwise, and in the benchmarks' build, which times the shipped code.
#[inline(always)]
fn stage_bound(r: &[v128], hundredths: i64) {
    #[cfg(all(test, not(mldsa_bench)))]
    for v in r {
        // SAFETY: a v128 is four i32 lanes.
        let lanes: [i32; 4] = unsafe { core::mem::transmute(*v) };
        for x in lanes {
            assert!((x as i64).abs() * 100 < hundredths * Q as i64, "stage bound {hundredths}/100 q: {x}");
        }
    }
    #[cfg(not(all(test, not(mldsa_bench))))]
    let _ = (r, hundredths);
}

/// Forward layers 7 and 8 on the coefficients 8p..8p+7 (vectors v0, v1).
///
/// Every shuffle is an interleave (`punpckldq`/`punpckhdq`), one instruction
/// in V8; patterns such as <0, 4, 2, 6> would become two `pshufb` with masks
/// built in registers.
#[inline(always)]
fn fwd78(v0: &mut v128, v1: &mut v128, tw: &Twiddles, p: usize, k: NttConsts) {
    // Layer 7: pairs at distance 2.
    let mut x = i32x4_shuffle::<0, 4, 1, 5>(*v0, *v1); // [a0 a4 a1 a5]
    let mut y = i32x4_shuffle::<2, 6, 3, 7>(*v0, *v1); // [a2 a6 a3 a7]
    ct(&mut x, &mut y, lanes(&tw.fwd7, &tw.fwd7_p, p), k);
    // Layer 8: pairs at distance 1.
    let mut u = i32x4_shuffle::<0, 4, 1, 5>(x, y); // [a0 a2 a4 a6]
    let mut w = i32x4_shuffle::<2, 6, 3, 7>(x, y); // [a1 a3 a5 a7]
    ct(&mut u, &mut w, fwd8(tw, p), k);
    *v0 = i32x4_shuffle::<0, 4, 1, 5>(u, w); // [a0 a1 a2 a3]
    *v1 = i32x4_shuffle::<2, 6, 3, 7>(u, w); // [a4 a5 a6 a7]
}

/// Inverse layers 1 and 2 on the coefficients 8p..8p+7 (vectors v0, v1).
///
/// Every shuffle takes lanes 0–1 from its first operand and 2–3 from its
/// second (the `shufps` form), which V8 emits as one instruction; other
/// two-operand patterns such as <0, 4, 2, 6> fall back to two `pshufb` with
/// masks built in registers (PERF.md).
#[inline(always)]
fn inv12(v0: &mut v128, v1: &mut v128, tw: &Twiddles, p: usize, k: NttConsts) {
    let mut u = i32x4_shuffle::<0, 2, 4, 6>(*v0, *v1); // [a0 a2 a4 a6]
    let mut w = i32x4_shuffle::<1, 3, 5, 7>(*v0, *v1); // [a1 a3 a5 a7]
    gs(&mut u, &mut w, lanes(&tw.inv1, &tw.inv1_p, p), k);
    // After layer 1: a0 = u0, a1 = w0, a2 = u1, a3 = w1, a4 = u2, ...
    let mut x = i32x4_shuffle::<0, 2, 4, 6>(u, w); // [a0 a4 a1 a5]
    let mut y = i32x4_shuffle::<1, 3, 5, 7>(u, w); // [a2 a6 a3 a7]
    gs(&mut x, &mut y, lanes(&tw.inv2, &tw.inv2_p, p), k);
    *v0 = i32x4_shuffle::<0, 2, 4, 6>(x, y); // [a0 a1 a2 a3]
    *v1 = i32x4_shuffle::<1, 3, 5, 7>(x, y); // [a4 a5 a6 a7]
}

impl NttKernels for Simd128 {
    /// Forward NTT in place (FIPS 204 Algorithm 41), output in bit-reversed order.
    ///
    /// Bound: input |a_i| < q gives output |a_i| < q + 8·0.51q < 5.1q (tighter
    /// than the portable 9q): each layer adds a Shoup product, |t| < 0.51q while
    /// |a| < 6q.
    ///
    /// Three passes of two, two and four layers, each over groups of only four
    /// vectors: with at most four data registers and two twiddles live, V8 keeps
    /// everything in its 16 xmm registers (eight vectors spill; PERF.md).
    fn ntt(a: &mut Poly) {
        let tw = twiddles();
        let k = NttConsts::load();
        // Layers 1–2: vectors j, j+16, j+32, j+48; twiddles k = 1, then 2 and 3.
        let z =
            [i32x4_splat(opaque(&tw.fwd.0[1])), i32x4_splat(opaque(&tw.fwd.0[2])), i32x4_splat(opaque(&tw.fwd.0[3]))];
        for j in 0..16 {
            let mut r = load4(a, j, 16);
            let w = splat_with(z[0], &tw.fwd_ps, 1);
            two(ct, &mut r, 0, 2, 1, 3, w, w, k);
            two(ct, &mut r, 0, 1, 2, 3, splat_with(z[1], &tw.fwd_ps, 2), splat_with(z[2], &tw.fwd_ps, 3), k);
            stage_bound(&r, 100 + 2 * 51); // after layer L: q + L·0.51q
            store4(a, j, 16, &r);
        }
        // Layers 3–4 in blocks of 16 vectors c: vectors 16c + j + {0, 4, 8, 12};
        // twiddles k = 4 + c, then 8 + 2c and 9 + 2c.
        for c in 0..4 {
            for j in 0..4 {
                let mut r = load4(a, 16 * c + j, 4);
                let w = splat(&tw.fwd, &tw.fwd_ps, 4 + c);
                two(ct, &mut r, 0, 2, 1, 3, w, w, k);
                two(
                    ct,
                    &mut r,
                    0,
                    1,
                    2,
                    3,
                    splat(&tw.fwd, &tw.fwd_ps, 8 + 2 * c),
                    splat(&tw.fwd, &tw.fwd_ps, 9 + 2 * c),
                    k,
                );
                stage_bound(&r, 100 + 4 * 51);
                store4(a, 16 * c + j, 4, &r);
            }
        }
        // Layers 5–8 on blocks of 16 coefficients m (4 consecutive vectors):
        // k = 16 + m, then 32 + 2m and 33 + 2m, then layers 7–8 in registers.
        for m in 0..16 {
            let mut r = load4(a, 4 * m, 1);
            let w = splat(&tw.fwd, &tw.fwd_ps, 16 + m);
            two(ct, &mut r, 0, 2, 1, 3, w, w, k);
            two(
                ct,
                &mut r,
                0,
                1,
                2,
                3,
                splat(&tw.fwd, &tw.fwd_ps, 32 + 2 * m),
                splat(&tw.fwd, &tw.fwd_ps, 33 + 2 * m),
                k,
            );
            stage_bound(&r, 100 + 6 * 51);
            let [r0, r1, r2, r3] = &mut r;
            fwd78(r0, r1, tw, 2 * m, k);
            fwd78(r2, r3, tw, 2 * m + 1, k);
            stage_bound(&r, 100 + 8 * 51);
            store4(a, 4 * m, 1, &r);
        }
    }

    /// Inverse NTT in place (FIPS 204 Algorithm 42), multiplied by 2^32 so that it
    /// cancels the 2^−32 of one pointwise product.
    ///
    /// Bound: input |a_i| < q gives output |a_i| < 0.75q. Inside, the sums at most
    /// double per layer (< 2^i·q after layer i; the differences are Shoup products,
    /// < 0.63q while |a| < 128q); the last layer's sum, < 256q < 2^31, and
    /// difference are both multiplied by the final factor, giving < 0.75q.
    ///
    /// The passes of `ntt` in reverse: four, two and two layers on four vectors.
    /// Block m of the layer of distance len uses k = 256/len − 1 − m.
    #[cfg_attr(not(test), allow(dead_code))] // the fused forms below are used
    fn inv_ntt_tomont(a: &mut Poly) {
        inv_ntt_from(a, Input::InPlace);
    }

    /// c = NTT^−1(a ∘ b)·2^32 (so a·b in R_q): `pointwise` fused into the first
    /// pass of `inv_ntt_tomont`. Bound: |a_i|, |b_i| < 9q gives products < q
    /// (bit for bit `field::mont_mul`) and output < 0.75q.
    fn pointwise_inv_ntt(c: &mut Poly, a: &Poly, b: &Poly) {
        inv_ntt_from(c, Input::Product(a, b));
    }

    /// c = NTT^−1(Σ_j a_j ∘ b_j)·2^32, the sum reduced once inside the first pass
    /// of the inverse NTT. Needs |Σ| < 256q²; output < 0.75q.
    fn dot_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        assert_eq!(a.len(), b.len());
        inv_ntt_from(c, Input::Dot(a, b, None));
    }

    /// c = NTT^−1(Σ_j a_j ∘ b_j − x ∘ y)·2^32, as `dot_inv_ntt`.
    fn dot_sub_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly], x: &Poly, y: &Poly) {
        assert_eq!(a.len(), b.len());
        inv_ntt_from(c, Input::Dot(a, b, Some((x, y))));
    }
}

/// Vectors i, i + s, i + 2s, i + 3s.
#[inline(always)]
fn load4(a: &Poly, i: usize, s: usize) -> [v128; 4] {
    [load(a, i), load(a, i + s), load(a, i + 2 * s), load(a, i + 3 * s)]
}

#[inline(always)]
fn store4(a: &mut Poly, i: usize, s: usize, r: &[v128; 4]) {
    for (n, v) in r.iter().enumerate() {
        store(a, i + n * s, *v);
    }
}

/// Two butterflies `bf` (`ct` or `gs`): (r[a], r[b]) by w, (r[c], r[d]) by x.
/// (The butterfly, four register positions, two twiddles and the constants.)
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn two(
    bf: fn(&mut v128, &mut v128, Tw, NttConsts),
    r: &mut [v128; 4],
    a: usize,
    b: usize,
    c: usize,
    d: usize,
    w: Tw,
    x: Tw,
    k: NttConsts,
) {
    let (mut p, mut q) = (r[a], r[b]);
    bf(&mut p, &mut q, w, k);
    (r[a], r[b]) = (p, q);
    let (mut p, mut q) = (r[c], r[d]);
    bf(&mut p, &mut q, x, k);
    (r[c], r[d]) = (p, q);
}

/// What the inverse NTT takes as its input vector i.
#[derive(Clone, Copy)]
enum Input<'a> {
    /// The polynomial being transformed.
    InPlace,
    /// x ∘ y, Montgomery-scaled (`mont_mul`).
    Product(&'a Poly, &'a Poly),
    /// Σ_j x_j ∘ y_j (− the optional product), reduced once (`dot_vector`).
    Dot(&'a [Poly], &'a [Poly], Option<(&'a Poly, &'a Poly)>),
}

impl Input<'_> {
    #[inline(always)]
    fn vector(self, a: &Poly, i: usize, k: NttConsts) -> v128 {
        match self {
            Input::InPlace => load(a, i),
            Input::Product(x, y) => mont_mul(load(x, i), load(y, i), k),
            Input::Dot(x, y, minus) => dot_vector(x, y, minus, i, k),
        }
    }
}

/// The inverse NTT of `input` into `a`. The first pass reads each input vector
/// once, before it writes that vector of `a`, so an input computed from other
/// polynomials (a product, a reduced sum) never makes a round trip through
/// memory. One copy for all inputs (the choice is a public, per-call branch),
/// to keep the .wasm small (PERF.md).
#[inline(never)]
fn inv_ntt_from(a: &mut Poly, input: Input) {
    let tw = twiddles();
    let k = NttConsts::load();
    // Layers 1–4 on blocks of 16 coefficients m: layers 1–2 in registers,
    // then k = 63 − 2m and 62 − 2m (distance 1 vector), then 31 − m.
    for m in 0..16 {
        let mut r = [
            input.vector(a, 4 * m, k),
            input.vector(a, 4 * m + 1, k),
            input.vector(a, 4 * m + 2, k),
            input.vector(a, 4 * m + 3, k),
        ];
        stage_bound(&r, 100); // the input contract, |a_i| < q
        {
            let [r0, r1, r2, r3] = &mut r;
            inv12(r0, r1, tw, 2 * m, k);
            inv12(r2, r3, tw, 2 * m + 1, k);
        }
        stage_bound(&r, 400); // after layer L: 2^L·q
        two(gs, &mut r, 0, 1, 2, 3, splat(&tw.inv, &tw.inv_ps, 63 - 2 * m), splat(&tw.inv, &tw.inv_ps, 62 - 2 * m), k);
        let w = splat(&tw.inv, &tw.inv_ps, 31 - m);
        two(gs, &mut r, 0, 2, 1, 3, w, w, k);
        stage_bound(&r, 1600);
        store4(a, 4 * m, 1, &r);
    }
    // Layers 5–6 in blocks of 16 vectors c: vectors 16c + j + {0, 4, 8, 12};
    // k = 15 − 2c and 14 − 2c, then 7 − c.
    for c in 0..4 {
        for j in 0..4 {
            let mut r = load4(a, 16 * c + j, 4);
            two(
                gs,
                &mut r,
                0,
                1,
                2,
                3,
                splat(&tw.inv, &tw.inv_ps, 15 - 2 * c),
                splat(&tw.inv, &tw.inv_ps, 14 - 2 * c),
                k,
            );
            let w = splat(&tw.inv, &tw.inv_ps, 7 - c);
            two(gs, &mut r, 0, 2, 1, 3, w, w, k);
            stage_bound(&r, 6400);
            store4(a, 16 * c + j, 4, &r);
        }
    }
    // Layers 7–8 over vectors j, j+16, j+32, j+48: k = 3 and 2, then 1 merged
    // with the final factor 2^24. The twiddles' values are read once, outside
    // the loop.
    let z = [
        i32x4_splat(opaque(&tw.inv.0[3])),
        i32x4_splat(opaque(&tw.inv.0[2])),
        i32x4_splat(opaque(&F)),
        i32x4_splat(opaque(&F_LAST)),
    ];
    for j in 0..16 {
        // The Shoup companions are read in the loop: a value hoisted out of
        // it gets its sign extension hoisted too, and the extmul becomes an
        // i64x2.mul.
        let (f, f_last) = (Tw { z: z[2], zp: opaque(tw.scale_p.v(0)) }, Tw { z: z[3], zp: opaque(tw.scale_p.v(4)) });
        let mut r = load4(a, j, 16);
        two(gs, &mut r, 0, 1, 2, 3, splat_with(z[0], &tw.inv_ps, 3), splat_with(z[1], &tw.inv_ps, 2), k);
        stage_bound(&r, 12800);
        for i in 0..2 {
            let (s, d) = (i32x4_add(r[i], r[i + 2]), i32x4_sub(r[i], r[i + 2]));
            r[i] = mul(s, f, k);
            r[i + 2] = mul(d, f_last, k);
        }
        stage_bound(&r, 75);
        store4(a, j, 16, &r);
    }
}

/// Montgomery product a·b·2^−32 of four lanes, bit for bit `field::mont_mul`.
#[inline(always)]
fn mont_mul(a: v128, b: v128, k: NttConsts) -> v128 {
    // Read at every call: hoisted out of a loop, q's sign extension would be
    // hoisted too and the extmul become an i64x2.mul.
    let q = opaque(Q4.v(0));
    let t = i32x4_mul(i32x4_mul(a, b), k.qinv);
    let ab = i32x4_shuffle::<1, 3, 5, 7>(i64x2_extmul_low_i32x4(a, b), i64x2_extmul_high_i32x4(a, b));
    let tq = i32x4_shuffle::<1, 3, 5, 7>(i64x2_extmul_low_i32x4(t, q), i64x2_extmul_high_i32x4(t, q));
    i32x4_sub(ab, tq)
}

/// The Montgomery reduction of four exact sums (lanes 0–1 in `lo`, 2–3 in
/// `hi`), bit for bit `field::montgomery_reduce`: t = Σ·q^−1 mod 2^32,
/// r = (Σ − t·q) / 2^32. Needs |Σ| < q·2^31; gives |r| < q.
#[inline(always)]
fn mont_reduce_wide(lo: v128, hi: v128, k: NttConsts) -> v128 {
    // Read opaquely at each call, as in `mont_mul`.
    let q = opaque(Q4.v(0));
    let t = i32x4_mul(i32x4_shuffle::<0, 2, 4, 6>(lo, hi), k.qinv);
    let lo = i64x2_sub(lo, i64x2_extmul_low_i32x4(t, q));
    let hi = i64x2_sub(hi, i64x2_extmul_high_i32x4(t, q));
    i32x4_shuffle::<1, 3, 5, 7>(lo, hi)
}

/// Σ_j a_j ∘ b_j − x ∘ y of vector i (the last term only with `minus`),
/// summed exactly in i64 lanes (two extmuls and two adds per term) and
/// reduced once (Montgomery-scaled). Needs |Σ| < 256q² (see `ntt.rs`);
/// gives |c_i| < q.
#[inline(always)]
fn dot_vector(a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>, i: usize, k: NttConsts) -> v128 {
    let (mut lo, mut hi) = (i64x2_splat(0), i64x2_splat(0));
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (load(x, i), load(y, i));
        lo = i64x2_add(lo, i64x2_extmul_low_i32x4(x, y));
        hi = i64x2_add(hi, i64x2_extmul_high_i32x4(x, y));
    }
    if let Some((x, y)) = minus {
        let (x, y) = (load(x, i), load(y, i));
        lo = i64x2_sub(lo, i64x2_extmul_low_i32x4(x, y));
        hi = i64x2_sub(hi, i64x2_extmul_high_i32x4(x, y));
    }
    mont_reduce_wide(lo, hi, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{NttKernels, Portable, Simd128};
    use crate::params::N;
    use crate::portable::ntt as portable;
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn modq(a: i32) -> i32 {
        a.rem_euclid(Q)
    }

    /// Inputs with |a_i| ≤ bound: random, all ±bound, zero, alternating signs,
    /// one spike, and the values ±bound in every other block.
    fn inputs(bound: i32, seed: u64) -> Vec<Poly> {
        let mut rng = Rng(seed);
        let mut v = vec![Poly([bound; N]), Poly([-bound; N]), Poly::zero()];
        let mut alt = Poly::zero();
        let mut blocks = Poly::zero();
        for i in 0..N {
            alt.0[i] = if i % 2 == 0 { bound } else { -bound };
            blocks.0[i] = if (i / 4) % 2 == 0 { bound } else { -bound };
        }
        let mut spike = Poly::zero();
        spike.0[0] = bound;
        spike.0[255] = -bound;
        v.extend([alt, blocks, spike]);
        for _ in 0..200 {
            v.push(rng.poly(bound));
        }
        // Worst case for growth: signs chosen to follow each twiddle's sign are
        // not practical to enumerate; random sign patterns at ±bound instead.
        for _ in 0..200 {
            let mut p = Poly::zero();
            for c in p.0.iter_mut() {
                *c = if rng.next() & 1 == 0 { bound } else { -bound };
            }
            v.push(p);
        }
        v
    }

    /// ζ^brv8(k) mod± q for k = 0..255, computed independently of the tables'
    /// code (powers of ζ = 1753 by repeated multiplication, the bit reversal
    /// bit by bit) and checked against the portable Montgomery table ZETAS
    /// (evaluated at compile time).
    fn expected_zetas() -> [i32; N] {
        let q = Q as i64;
        let mut pow = [1i64; N];
        for i in 1..N {
            pow[i] = pow[i - 1] * 1753 % q;
        }
        let mut z = [0; N];
        for (k, zk) in z.iter_mut().enumerate().skip(1) {
            let brv = (0..8).fold(0, |r, b| r | ((k >> b) & 1) << (7 - b));
            let v = pow[brv];
            *zk = if v > q / 2 { (v - q) as i32 } else { v as i32 };
            assert_eq!(modq(crate::field::mont_mul(crate::tables::ZETAS[k], 1)), modq(*zk), "ZETAS, k = {k}");
        }
        z
    }

    /// zp = round(z·2^32/q), checked exactly: |zp·q − z·2^32| < q/2 (q is odd,
    /// so there is no tie).
    fn assert_companion(z: i32, zp: i32, what: &str) {
        let err = zp as i64 * Q as i64 - ((z as i64) << 32);
        assert!(2 * err.abs() < Q as i64, "{what}: {zp} is not the Shoup companion of {z}");
    }

    /// Every entry of every run-time table, against the definitions in its
    /// doc comment evaluated from `expected_zetas`.
    #[test]
    fn twiddles_match_fips204_zetas() {
        let z = expected_zetas();
        let tw = twiddles();
        // The unused index 0 (ζ(0) = 1 is not a twiddle) holds 0.
        assert_eq!((tw.fwd.0[0], tw.inv.0[0]), (0, 0));
        assert_eq!(tw.fwd.0[1..], z[1..], "fwd");
        for i in 4..256 {
            assert_companion(z[i / 4], tw.fwd_ps.0[i], "fwd_ps");
            assert_companion(-z[i / 4], tw.inv_ps.0[i], "inv_ps");
        }
        assert_eq!(tw.inv.0[1..], z[1..64].iter().map(|v| -v).collect::<Vec<_>>()[..], "inv");
        for i in 0..128 {
            let (p, odd) = (i / 4, i % 2);
            assert_companion(z[128 + i], tw.fwd8_p.0[i], "fwd8_p");
            assert_eq!(tw.fwd7.0[i], z[64 + 2 * p + odd], "fwd7, i = {i}");
            assert_companion(z[64 + 2 * p + odd], tw.fwd7_p.0[i], "fwd7_p");
            assert_eq!(tw.inv1.0[i], -z[255 - i], "inv1, i = {i}");
            assert_companion(-z[255 - i], tw.inv1_p.0[i], "inv1_p");
            assert_eq!(tw.inv2.0[i], -z[127 - 2 * p - odd], "inv2, i = {i}");
            assert_companion(-z[127 - 2 * p - odd], tw.inv2_p.0[i], "inv2_p");
        }
        // F = 2^24 mod± q and F_LAST = −ζ(1)·2^24 mod± q.
        let centred = |v: i64| {
            let r = v.rem_euclid(Q as i64) as i32;
            if r > Q / 2 {
                r - Q
            } else {
                r
            }
        };
        assert_eq!((F, F_LAST), (centred(1 << 24), centred(-(z[1] as i64) << 24)));
        for i in 0..8 {
            assert_companion(if i < 4 { F } else { F_LAST }, tw.scale_p.0[i], "scale_p");
        }
    }

    #[test]
    fn ntt_matches_portable_mod_q_and_bound() {
        for a in inputs(Q - 1, 1) {
            let (mut s, mut p) = (a, a);
            Simd128::ntt(&mut s);
            Portable::ntt(&mut p);
            for i in 0..N {
                assert_eq!(modq(s.0[i]), modq(p.0[i]), "coefficient {i}");
                // Stated bound: < 5.1q.
                assert!((s.0[i] as i64).abs() * 10 < 51 * Q as i64, "bound {}", s.0[i]);
            }
        }
    }

    #[test]
    fn inv_ntt_matches_portable_mod_q_and_bound() {
        for a in inputs(Q - 1, 2) {
            let (mut s, mut p) = (a, a);
            Simd128::inv_ntt_tomont(&mut s);
            Portable::inv_ntt_tomont(&mut p);
            for i in 0..N {
                assert_eq!(modq(s.0[i]), modq(p.0[i]), "coefficient {i}");
                // Stated bound: < 0.75q.
                assert!((s.0[i] as i64).abs() * 4 < 3 * Q as i64, "bound {}", s.0[i]);
            }
        }
    }

    /// Equal mod q and |x| < 0.75q, the bound of the inverse NTT.
    fn same_inverse(s: &Poly, p: &Poly, what: &str) {
        for i in 0..N {
            assert_eq!(modq(s.0[i]), modq(p.0[i]), "{what}: coefficient {i}");
            assert!((s.0[i] as i64).abs() * 4 < 3 * Q as i64, "{what}: bound {}", s.0[i]);
        }
    }

    #[test]
    fn pointwise_inv_ntt_matches_portable() {
        let (xs, ys) = (inputs(9 * Q - 1, 3), inputs(9 * Q - 1, 4));
        for (a, b) in xs.iter().zip(ys.iter().rev()) {
            let (mut s, mut p) = (Poly::zero(), Poly::zero());
            Simd128::pointwise_inv_ntt(&mut s, a, b);
            Portable::pointwise_inv_ntt(&mut p, a, b);
            same_inverse(&s, &p, "pointwise");
        }
    }

    #[test]
    fn dot_matches_portable() {
        // One factor as from ExpandA ([0, q)), the other as from an NTT (< 9q),
        // ℓ = 1..7 terms, then one product of two NTT outputs subtracted: the
        // largest sums the callers form (bound in ntt.rs).
        let mut rng = Rng(12);
        let big = 9 * Q - 1;
        for l in 1..=7 {
            for round in 0..12 {
                let (a, b): (Vec<Poly>, Vec<Poly>) = (0..l)
                    .map(|_| match round {
                        0 => (Poly([Q - 1; N]), Poly([big; N])),
                        1 => (Poly([Q - 1; N]), Poly([-big; N])),
                        _ => (rng.poly_in(0, Q - 1), rng.poly(big)),
                    })
                    .unzip();
                let x = match round {
                    0 => Poly([-big; N]),
                    1 => Poly([big; N]),
                    _ => rng.poly(big),
                };
                let y = Poly([big; N]);
                // Bit for bit before the inverse NTT (both reduce the same
                // exact sum the same way), equal mod q after it.
                let (mut want, mut want_sub) = (Poly::zero(), Poly::zero());
                portable::dot(&mut want, &a, &b, None);
                portable::dot(&mut want_sub, &a, &b, Some((&x, &y)));
                for i in 0..N / 4 {
                    let got: [i32; 4] = unsafe { core::mem::transmute(dot_vector(&a, &b, None, i, NttConsts::load())) };
                    assert_eq!(got, want.0[4 * i..4 * i + 4], "dot, l = {l}");
                    let got: [i32; 4] =
                        unsafe { core::mem::transmute(dot_vector(&a, &b, Some((&x, &y)), i, NttConsts::load())) };
                    assert_eq!(got, want_sub.0[4 * i..4 * i + 4], "dot − x∘y, l = {l}");
                }
                assert!(want.0.iter().chain(want_sub.0.iter()).all(|v| v.abs() < Q));
                let (mut s, mut p) = (Poly::zero(), Poly::zero());
                Simd128::dot_inv_ntt(&mut s, &a, &b);
                Portable::dot_inv_ntt(&mut p, &a, &b);
                same_inverse(&s, &p, "dot");
                Simd128::dot_sub_inv_ntt(&mut s, &a, &b, &x, &y);
                Portable::dot_sub_inv_ntt(&mut p, &a, &b, &x, &y);
                same_inverse(&s, &p, "dot − x∘y");
            }
        }
    }
}
