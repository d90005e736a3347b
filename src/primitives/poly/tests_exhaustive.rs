//! Exhaustive tests of the coefficient-wise operations against FIPS 204's own
//! definitions, which `spec` below writes out plainly (with `%` and `/`):
//! mod± and ‖·‖∞ (§2.3), Power2Round, Decompose, HighBits, LowBits, MakeHint
//! and UseHint (Algorithms 35–40), for both γ2. The production code is driven
//! through its whole-polynomial entry points (the `Poly` methods, `make_hints`
//! and `use_hints_vartime`), 256 inputs at a time: natively that is `portable/poly.rs`, in
//! `cargo test --target wasm32-unknown-unknown` it is `simd128/poly.rs`.
//!
//! Exhaustive, for both γ2 where γ2 matters:
//! - mod± q: `field::center` for every r in [0, q); the centred output of the
//!   fused `center_exceeds` passes (S = +1, −1, 0) for every sum in [−2q, 2q]
//!   (the callers' sums are below q in size) and in the two outermost 2^20
//!   values of the contract |sum| ≤ 2^31 − 2^22 − 1 at each end.
//! - ‖·‖∞ ≥ bound: `exceeds` (verification's z check) for every value of its
//!   range [−(q−1)/2, (q−1)/2], alone among coefficients at ±(bound − 1),
//!   at γ1 − β of each set. The fused passes' verdicts (signing's checks at
//!   γ1 − β, γ2 − β and γ2): per block of 256 sums everywhere above, and
//!   value by value within 2^8 of ±bound.
//! - Power2Round: every sum in the same ranges as mod± above.
//! - Decompose (HighBits, LowBits) and UseHint (h = 0 and h = 1): every r in
//!   (−q, q), the inputs they document.
//! - MakeHint: every r in [0, q) for each z in a set of 19–23 (0, ±1, ±2,
//!   ±β, ±(β + 1), ±γ2/2, ±(γ2 − 2), ±(γ2 − 1) and 4 random ones; |z| < γ2
//!   is what signing allows, its ct0 check rejects the rest), and every z in
//!   (−γ2, γ2) for 16 r at the edges of Decompose's intervals. Each time also
//!   UseHint(MakeHint(…)) recovers HighBits, through the production code and
//!   through the definitions.
//! - The signer's shortcut (mldsa.rs): for every w in [0, q) and cs2 = ±β,
//!   when ‖w0 − cs2‖∞ < γ2 − β, Decompose(w − cs2) = (w1, w0 − cs2).
//!
//! Sampled: the random z above, and sums between the exhaustive windows of
//! the freeze contract (covered by `field.rs`'s reduction tests).

use super::{make_hints, use_hints_vartime, Poly};
use crate::params::{ParamSet, D, N, Q};
use crate::test_rng::Rng;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const G32: i32 = (Q - 1) / 32;
const G88: i32 = (Q - 1) / 88;
/// The largest |a_i + b_i| the fused passes accept (`field::freeze`'s bound).
const TOP: i32 = i32::MAX - (1 << 22);

/// FIPS 204's definitions. Every input below is within ±(TOP + q), where
/// nothing here overflows an i32.
mod spec {
    use crate::params::{D, Q};

    /// r mod± α (§2.3): the r′ ≡ r (mod α) with −⌈α/2⌉ < r′ ≤ ⌊α/2⌋.
    pub fn mod_pm(r: i32, alpha: i32) -> i32 {
        let r = r.rem_euclid(alpha);
        if r > alpha / 2 {
            r - alpha
        } else {
            r
        }
    }

    /// ‖r‖∞ of one coefficient (§2.3): |r mod± q|. A polynomial's is the largest.
    pub fn norm(r: i32) -> i32 {
        mod_pm(r, Q).abs()
    }

    /// Power2Round (Algorithm 35).
    pub fn power2round(r: i32) -> (i32, i32) {
        let r_plus = r.rem_euclid(Q);
        let r0 = mod_pm(r_plus, 1 << D);
        ((r_plus - r0) / (1 << D), r0)
    }

    /// Decompose (Algorithm 36): (HighBits, LowBits) (Algorithms 37 and 38).
    pub fn decompose(r: i32, gamma2: i32) -> (i32, i32) {
        let r_plus = r.rem_euclid(Q);
        let r0 = mod_pm(r_plus, 2 * gamma2);
        if r_plus - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r_plus - r0) / (2 * gamma2), r0)
        }
    }

    /// MakeHint (Algorithm 39).
    pub fn make_hint(z: i32, r: i32, gamma2: i32) -> bool {
        decompose(r, gamma2).0 != decompose(r + z, gamma2).0
    }

    /// UseHint (Algorithm 40).
    pub fn use_hint(h: bool, r: i32, gamma2: i32) -> i32 {
        let m = (Q - 1) / (2 * gamma2);
        let (r1, r0) = decompose(r, gamma2);
        if h && r0 > 0 {
            (r1 + 1).rem_euclid(m)
        } else if h {
            (r1 - 1).rem_euclid(m)
        } else {
            r1
        }
    }
}

const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

/// Every x in [lo, hi] in polynomials of N consecutive values; the last one
/// is filled up with hi.
fn blocks(lo: i32, hi: i32) -> impl Iterator<Item = Poly> {
    (lo as i64..=hi as i64)
        .step_by(N)
        .map(move |start| Poly(core::array::from_fn(|i| (start + i as i64).min(hi as i64) as i32)))
}

/// The sums the fused passes are tested on exhaustively: [−2q, 2q], and the
/// outermost 2^20 values at each end of |sum| ≤ TOP.
fn sum_ranges() -> [(i32, i32); 3] {
    [(-TOP, -TOP + (1 << 20) - 1), (-2 * Q, 2 * Q), (TOP - (1 << 20) + 1, TOP)]
}

/// Every bound a norm check is called with: γ1 − β and γ2 − β of each set,
/// and γ2 (the ct0 check).
fn norm_bounds() -> Vec<i32> {
    let mut v = Vec::new();
    for ps in SETS {
        let p = ps.params();
        v.extend([p.gamma1 - p.beta(), p.gamma2 - p.beta(), p.gamma2]);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// A second operand for the fused passes: |b_i| ≤ β of ML-DSA-65 (196), a
/// different value in each lane.
fn small_poly() -> Poly {
    Poly(core::array::from_fn(|i| (i as i32 * 77) % 393 - 196))
}

#[test]
fn mod_pm_of_every_r() {
    for r in 0..Q {
        let c = crate::field::center(r);
        assert_eq!(c, spec::mod_pm(r, Q), "r = {r}");
        assert_eq!(c.abs(), spec::norm(r));
    }
}

/// The fused centre-and-check passes (`add_center_exceeds`,
/// `sub_center_exceeds`, `center_exceeds`): every sum of the ranges, as
/// a + b, a − b and a alone; the output is the sum mod± q, the verdict is
/// whether some |output| reaches the bound (a different bound per block).
#[test]
fn center_exceeds_of_every_sum() {
    let bounds = norm_bounds();
    let b = small_poly();
    let mut k = 0;
    for (lo, hi) in sum_ranges() {
        for x in blocks(lo, hi) {
            let bound = bounds[k % bounds.len()];
            k += 1;
            let want: [i32; N] = core::array::from_fn(|i| spec::mod_pm(x.0[i], Q));
            let over = want.iter().any(|c| spec::norm(*c) >= bound);
            let (mut add, mut sub, mut alone) = (x, x, x);
            for i in 0..N {
                add.0[i] -= b.0[i];
                sub.0[i] += b.0[i];
            }
            assert_eq!(add.add_center_exceeds(&b, bound), over, "add from {}", x.0[0]);
            assert_eq!(sub.sub_center_exceeds(&b, bound), over, "sub from {}", x.0[0]);
            assert_eq!(alone.center_exceeds(bound), over, "alone from {}", x.0[0]);
            assert_eq!((add.0, sub.0, alone.0), (want, want, want), "from {}", x.0[0]);
        }
    }
}

/// The fused passes' verdict value by value at each bound: every centred v
/// within 2^8 of ±bound, in every representative v + j·q the callers can
/// form, alone in its lane.
#[test]
fn center_exceeds_verdict_at_every_bound() {
    for bound in norm_bounds() {
        for v in (bound - 256..=bound + 256).flat_map(|v| [v, -v]) {
            for j in -1..=1 {
                let lane = (v & 255) as usize;
                let mut p = Poly::zero();
                p.0[lane] = v + j * Q;
                let want = v.abs() >= bound;
                let mut alone = p;
                assert_eq!(alone.center_exceeds(bound), want, "v = {v}, j = {j}, bound = {bound}");
                assert_eq!(alone.0[lane], v);
                let mut b = Poly::zero();
                b.0[lane] = 196;
                let (mut add, mut sub) = (p, p);
                add.0[lane] -= 196;
                sub.0[lane] += 196;
                assert_eq!(add.add_center_exceeds(&b, bound), want, "v = {v}, j = {j}, bound = {bound}");
                assert_eq!(sub.sub_center_exceeds(&b, bound), want, "v = {v}, j = {j}, bound = {bound}");
            }
        }
    }
}

/// `exceeds` (‖·‖∞ ≥ bound; verification's check of z, bound γ1 − β) for
/// every value of its range, on both sides of the bound: v alone among
/// coefficients at ±(bound − 1), in a lane that moves with v.
fn exceeds_every_value(ps: ParamSet) {
    let half = (Q - 1) / 2;
    {
        let bound = ps.params().gamma1 - ps.params().beta();
        let mut p = Poly(core::array::from_fn(|i| if i % 2 == 0 { bound - 1 } else { -(bound - 1) }));
        assert!(!p.exceeds(bound));
        for v in -half..=half {
            let lane = (v & 255) as usize;
            let keep = p.0[lane];
            p.0[lane] = v;
            assert_eq!(p.exceeds(bound), v.abs() >= bound, "v = {v}, bound = {bound}");
            p.0[lane] = keep;
        }
    }
}

#[test]
fn exceeds_every_value_ml_dsa_44() {
    exceeds_every_value(ParamSet::MlDsa44);
}

#[test]
fn exceeds_every_value_ml_dsa_65() {
    exceeds_every_value(ParamSet::MlDsa65);
}

#[test]
fn exceeds_every_value_ml_dsa_87() {
    exceeds_every_value(ParamSet::MlDsa87);
}

/// `add_power2round_into` for every sum of the ranges, as a + b with b = 0 and
/// with |b| ≤ β, against Power2Round of the sum mod q.
#[test]
fn power2round_of_every_sum() {
    let b = small_poly();
    for (lo, hi) in sum_ranges() {
        for x in blocks(lo, hi) {
            let (mut t1, mut t0, mut u1, mut u0) = (Poly::zero(), Poly::zero(), Poly::zero(), Poly::zero());
            x.add_power2round_into(&Poly::zero(), &mut t1, &mut t0);
            let mut a = x;
            a.0.iter_mut().zip(b.0.iter()).for_each(|(c, d)| *c -= d);
            a.add_power2round_into(&b, &mut u1, &mut u0);
            for i in 0..N {
                let (r1, r0) = spec::power2round(x.0[i]);
                assert!((0..1 << 10).contains(&r1) && -(1 << (D - 1)) < r0 && r0 <= 1 << (D - 1));
                assert_eq!((t1.0[i], t0.0[i]), (r1, r0), "x = {}", x.0[i]);
                assert_eq!((u1.0[i], u0.0[i]), (t1.0[i], t0.0[i]), "x = {}", x.0[i]);
            }
        }
    }
}

/// `decompose_into` for every r in (−q, q): HighBits and LowBits of r mod q.
fn decompose_every_r(g: i32) {
    let (mut w1, mut w0) = (Poly::zero(), Poly::zero());
    for r in blocks(-Q + 1, Q - 1) {
        r.decompose_into(&mut w1, &mut w0, g);
        for i in 0..N {
            let want = spec::decompose(r.0[i], g);
            assert_eq!((w1.0[i], w0.0[i]), want, "r = {}, γ2 = {g}", r.0[i]);
        }
    }
}

#[test]
fn decompose_every_r_gamma2_q_minus_1_over_32() {
    decompose_every_r(G32);
}

#[test]
fn decompose_every_r_gamma2_q_minus_1_over_88() {
    decompose_every_r(G88);
}

/// `use_hints_vartime` for every r in (−q, q), with h = 0 and h = 1 in every lane and
/// alternating between lanes.
fn use_hints_every_r(g: i32) {
    let hs = [Poly::zero(), Poly([1; N]), Poly(core::array::from_fn(|i| (i % 2) as i32))];
    let mut w1 = Poly::zero();
    for r in blocks(-Q + 1, Q - 1) {
        for h in &hs {
            use_hints_vartime(&mut w1, h, &r, g);
            for i in 0..N {
                let want = spec::use_hint(h.0[i] == 1, r.0[i], g);
                assert_eq!(w1.0[i], want, "r = {}, h = {}, γ2 = {g}", r.0[i], h.0[i]);
            }
        }
    }
}

#[test]
fn use_hints_every_r_gamma2_q_minus_1_over_32() {
    use_hints_every_r(G32);
}

#[test]
fn use_hints_every_r_gamma2_q_minus_1_over_88() {
    use_hints_every_r(G88);
}

/// HighBits and LowBits of every coefficient, by the definition.
fn spec_decompose(r: &Poly, g: i32) -> (Poly, Poly) {
    let (mut r1, mut r0) = (Poly::zero(), Poly::zero());
    for i in 0..N {
        (r1.0[i], r0.0[i]) = spec::decompose(r.0[i], g);
    }
    (r1, r0)
}

/// For r (in [0, q), one per lane, with (r1, r0) = Decompose(r)) and z
/// (|z| < γ2): `make_hints` in the signer's form, given r0 + z and r1, is
/// MakeHint(z, r) and counts its ones; `use_hints_vartime` of that hint at r + z
/// gives HighBits(r) back, as FIPS 204's UseHint does (Algorithm 40 on
/// MakeHint(−z, r + z), the pair the verifier sees).
fn check_hints(r: &Poly, (r1, r0): (&Poly, &Poly), z: &Poly, g: i32) {
    let mut h = Poly::zero();
    let n = make_hints(&mut h, r0, z, r1, g);
    let mut moved = Poly::zero();
    for i in 0..N {
        let s = r.0[i] + z.0[i];
        moved.0[i] = if s >= Q { s - Q } else { s }; // in (−γ2, q): `use_hints_vartime` takes (−q, q)
    }
    let mut w1 = Poly::zero();
    use_hints_vartime(&mut w1, &h, &moved, g);
    let mut ones = 0;
    for i in 0..N {
        let (ri, zi) = (r.0[i], z.0[i]);
        let want = spec::make_hint(zi, ri, g);
        assert_eq!(h.0[i], want as i32, "r = {ri}, z = {zi}, γ2 = {g}");
        ones += want as usize;
        assert_eq!(w1.0[i], r1.0[i], "UseHint at r + z: r = {ri}, z = {zi}, γ2 = {g}");
        // MakeHint(−z, r + z) is the same bit, HighBits(r + z) ≠ HighBits(r).
        assert_eq!(spec::use_hint(want, ri + zi, g), r1.0[i], "the definitions: r = {ri}, z = {zi}");
    }
    assert_eq!(n, ones, "hint count");
}

/// The z of `make_hints_every_r`: the edges of |z| < γ2, small values, ±β and
/// ±(β + 1) of the sets with this γ2, ±γ2/2, and four random ones.
fn hint_zs(g: i32, seed: u64) -> Vec<i32> {
    let mut zs = vec![0, 1, -1, 2, -2, g / 2, -g / 2, g - 2, -(g - 2), g - 1, -(g - 1)];
    for ps in SETS.into_iter().filter(|ps| ps.params().gamma2 == g) {
        let b = ps.params().beta();
        zs.extend([b, -b, b + 1, -(b + 1)]);
    }
    let mut rng = Rng(seed);
    zs.extend((0..4).map(|_| rng.range(-g + 1, g - 1)));
    zs
}

fn make_hints_every_r(g: i32, seed: u64) {
    let zs: Vec<Poly> = hint_zs(g, seed).into_iter().map(|z| Poly([z; N])).collect();
    for r in blocks(0, Q - 1) {
        let (r1, r0) = spec_decompose(&r, g);
        for z in &zs {
            check_hints(&r, (&r1, &r0), z, g);
        }
    }
}

#[test]
fn make_hints_every_r_gamma2_q_minus_1_over_32() {
    make_hints_every_r(G32, 32);
}

#[test]
fn make_hints_every_r_gamma2_q_minus_1_over_88() {
    make_hints_every_r(G88, 88);
}

/// Every z in (−γ2, γ2) at the r where Decompose changes interval (the last
/// r of HighBits 0 and 1 and the first of 1 and 2, the last of m − 2 and the
/// first of m − 1, the last of m − 1 and the first of the wrap, where
/// r − r0 = q − 1 gives HighBits 0), next to them, and the middle.
fn make_hints_every_z(g: i32) {
    let rs = [
        0,
        1,
        g - 1,
        g,
        g + 1,
        3 * g,
        3 * g + 1,
        (Q - 1) / 2,
        Q - 1 - 3 * g,
        Q - 3 * g,
        Q - 2 - g,
        Q - 1 - g,
        Q - g,
        Q - g + 1,
        Q - 2,
        Q - 1,
    ];
    for r in rs {
        let rp = Poly([r; N]);
        let (r1, r0) = spec_decompose(&rp, g);
        for z in blocks(-g + 1, g - 1) {
            check_hints(&rp, (&r1, &r0), &z, g);
        }
    }
}

#[test]
fn make_hints_every_z_at_interval_edges() {
    make_hints_every_z(G32);
    make_hints_every_z(G88);
}

/// The shortcut by which signing feeds `make_hints` (mldsa.rs, steps 21–26):
/// with (w1, w0) = Decompose(w) and r0 = w0 − cs2 centred by
/// `sub_center_exceeds`, whenever |r0| < γ2 − β, HighBits(w − cs2) = w1 and
/// LowBits(w − cs2) = r0, so no second Decompose is needed. Every w in [0, q),
/// cs2 = ±β (the extremes), for each set.
#[test]
fn signer_shortcut_gives_low_and_high_bits_of_w_minus_cs2() {
    for ps in SETS {
        let p = ps.params();
        let (g, beta) = (p.gamma2, p.beta());
        let mut used = 0u64;
        for w in blocks(0, Q - 1) {
            let (mut w1, mut w0) = (Poly::zero(), Poly::zero());
            w.decompose_into(&mut w1, &mut w0, g);
            for cs2 in [beta, -beta] {
                let mut r0 = w0;
                r0.sub_center_exceeds(&Poly([cs2; N]), g - beta);
                for i in 0..N {
                    if r0.0[i].abs() < g - beta {
                        used += 1;
                        let want = spec::decompose(w.0[i] - cs2, g);
                        assert_eq!((w1.0[i], r0.0[i]), want, "w = {}, cs2 = {cs2}, {}", w.0[i], ps.name());
                    }
                }
            }
        }
        // Most w qualify: all but about 2β of every 2γ2.
        assert!(used > 2 * (Q as u64) * 9 / 10, "{}: {used}", ps.name());
    }
}
