//! Keccak-f[1600] and SHAKE128: our permutations against each other and
//! against the `sha3` crate, the shapes of the one-state and of the two-state
//! permutation, the samplers one polynomial at a time against two
//! at once, ExpandA three ways, and the three-state permutation (a pair in
//! v128 lanes beside a scalar state) with its differential test. The
//! permutations are not inlined, so V8 tiers them up while the loop runs.

use super::{med, now};
use crate::backend::{KeccakKernels, Simd128, StatePair};
use crate::keccak::{f1600, f1600_x2, StateX2};
use crate::portable::keccak::{complement, round as scalar_round};
use crate::simd128::keccak as simd;
use crate::tables::{RC, ROUNDS};
use core::arch::wasm32::*;
use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};

/// Six states: two calls of `f1600_x3` against three of `f1600_x2`,
/// interleaved in one loop (the finding in PERF.md).
#[test]
fn bench_keccak_x3() {
    let iters = 1000;
    let (mut t2, mut t3, mut t1) = (vec![], vec![], vec![]);
    let mut a = [1u64; 25];
    let mut x2 = StateX2::default();
    let mut p = simd::StateX2::default();
    for _ in 0..61 {
        let t = now();
        for _ in 0..iters {
            f1600_x2(&mut x2);
            f1600_x2(&mut x2);
            f1600_x2(&mut x2);
        }
        t2.push((now() - t) * 1e6 / (6 * iters) as f64);
        let t = now();
        for _ in 0..iters {
            f1600_x3(&mut p, &mut a);
            f1600_x3(&mut p, &mut a);
        }
        t3.push((now() - t) * 1e6 / (6 * iters) as f64);
        let t = now();
        for _ in 0..iters {
            for _ in 0..6 {
                f1600(&mut a);
            }
        }
        t1.push((now() - t) * 1e6 / (6 * iters) as f64);
    }
    let r: Vec<f64> = t3.iter().zip(&t2).map(|(a, b)| a / b).collect();
    console_log!(
        "per state: f1600_x2 {:.1} ns, f1600_x3 {:.1} ns, f1600 {:.1} ns; x3/x2 median of ratios {:.3} ({})",
        med(t2),
        med(t3),
        med(t1),
        med(r),
        a[3] ^ x2.lane(3).0 ^ p.lane(3).0
    );
}

#[test]
fn three_states_equal_three_single_permutations() {
    // The differential test of `two_states_equal_two_single_permutations`
    // with a third state beside the pair.
    let mut rng = crate::test_rng::Rng(0x2545F4914F6CDD1Du64);
    let mut cases: Vec<[[u64; 25]; 3]> =
        vec![[[0; 25], [u64::MAX; 25], [0; 25]], [[u64::MAX; 25], [0; 25], [u64::MAX; 25]]];
    for bit in [0u32, 1, 31, 63] {
        let mut a = [0u64; 25];
        a[(bit as usize * 7) % 25] = 1 << bit;
        cases.push([[1u64 << bit; 25], a, a]);
    }
    for _ in 0..20 {
        let mut a = [[0u64; 25]; 3];
        a.iter_mut().flatten().for_each(|w| *w = rng.next());
        cases.push(a);
    }
    for [a, b, c] in cases {
        let mut x2 = simd::StateX2::from_lanes(&[a, b]);
        let mut x1 = c;
        for _ in 0..3 {
            f1600_x3(&mut x2, &mut x1);
        }
        let (mut ea, mut eb, mut ec) = (a, b, c);
        for _ in 0..3 {
            f1600(&mut ea);
            f1600(&mut eb);
            f1600(&mut ec);
        }
        for i in 0..25 {
            assert_eq!(x2.lane(i), (ea[i], eb[i]), "lane {i}");
        }
        assert_eq!(x1, ec);
    }
}

#[test]
fn bench_keccak() {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let iters = 2000;
    let (mut t1, mut t2, mut t3, mut t4) = (vec![], vec![], vec![], vec![]);
    let mut a = [1u64; 25];
    let mut x2 = StateX2::default();
    let mut out = [0u8; 168 * 20];
    for _ in 0..41 {
        let t = now();
        for _ in 0..iters {
            f1600(&mut a);
        }
        t1.push((now() - t) * 1e6 / iters as f64);
        let t = now();
        for _ in 0..iters {
            f1600_x2(&mut x2);
        }
        t2.push((now() - t) * 1e6 / iters as f64);
        let t = now();
        for _ in 0..iters / 20 {
            crate::xof::Shake128::new().absorb(&a[0].to_le_bytes()).finalize().squeeze(&mut out);
        }
        t3.push((now() - t) * 1e6 / iters as f64);
        let t = now();
        for _ in 0..iters / 20 {
            let mut r = sha3::Shake128::default();
            r.update(&a[0].to_le_bytes());
            r.finalize_xof().read(&mut out);
        }
        t4.push((now() - t) * 1e6 / iters as f64);
    }
    // One polynomial alone against a pair (what a dummy lane would cost).
    use crate::poly::{NttPoly, Poly};
    use crate::sample::{rej_bounded_poly, rej_bounded_poly_x2, rej_ntt_poly_vartime, rej_ntt_poly_x2_vartime};
    let seed = [7u8; 64];
    let (mut p0, mut p1) = (Poly::zero(), Poly::zero());
    let (mut a0, mut a1) = (NttPoly::zero(), NttPoly::zero());
    let mut tp = [vec![], vec![], vec![], vec![]];
    let reps = 200;
    for r in 0..41u16 {
        let s0 = now();
        for i in 0..reps {
            a0 = rej_ntt_poly_vartime(&seed[..32], i as u8, r as u8);
        }
        let s1 = now();
        for i in 0..reps {
            rej_ntt_poly_x2_vartime(&seed[..32], (i as u8, r as u8), (i as u8, 1), &mut a0, &mut a1);
        }
        let s2 = now();
        for i in 0..reps {
            p1 = rej_bounded_poly(&seed, i + r, 4);
        }
        let s3 = now();
        for i in 0..reps {
            rej_bounded_poly_x2(&seed, [i, r], 4, &mut p0, &mut p1);
        }
        let s4 = now();
        for (k, d) in [s1 - s0, s2 - s1, s3 - s2, s4 - s3].into_iter().enumerate() {
            tp[k].push(d * 1e6 / reps as f64);
        }
    }
    let [n1, n2, b1, b2] = tp;
    console_log!(
        "RejNTTPoly: one {:.0} ns, two at once {:.0} ns; RejBoundedPoly(η = 4): one {:.0} ns, two at once {:.0} ns ({})",
        med(n1), med(n2), med(b1), med(b2), p0.0[0] ^ p1.0[1] ^ a0.coefficients().0[0] ^ a1.coefficients().0[1]
    );
    // ExpandA of ML-DSA-44/65/87: one entry at a time on the `sha3` crate
    // (the code before this module), one at a time on our scalar Keccak, and
    // `expand_a` (two entries at a time).
    for ps in [crate::params::ParamSet::MlDsa44, crate::params::ParamSet::MlDsa65, crate::params::ParamSet::MlDsa87] {
        let p = ps.params();
        let (mut m_old, mut m) = (vec![Poly::zero(); p.k * p.l], vec![NttPoly::zero(); p.k * p.l]);
        let mut te = [vec![], vec![], vec![]];
        let old = |rho: &[u8], s: u8, r: u8| {
            let mut x = sha3::Shake128::default();
            x.update(rho);
            x.update(&[s, r]);
            let mut rd = x.finalize_xof();
            let mut a = Poly::zero();
            let mut n = 0;
            let mut buf = [0u8; 168];
            while n < crate::params::N {
                rd.read(&mut buf);
                for b in buf.chunks_exact(3) {
                    let z = (b[0] as i32) | (b[1] as i32) << 8 | ((b[2] & 0x7f) as i32) << 16;
                    if z < crate::params::Q && n < crate::params::N {
                        a.0[n] = z;
                        n += 1;
                    }
                }
            }
            a
        };
        for r in 0..21u8 {
            let rho = [r; 32];
            let s0 = now();
            for i in 0..p.k * p.l {
                m_old[i] = old(&rho, (i % p.l) as u8, (i / p.l) as u8);
            }
            let s1 = now();
            for i in 0..p.k * p.l {
                m[i] = rej_ntt_poly_vartime(&rho, (i % p.l) as u8, (i / p.l) as u8);
            }
            let s2 = now();
            crate::sample::expand_a(p, &rho, &mut m);
            let s3 = now();
            for (k, d) in [s1 - s0, s2 - s1, s3 - s2].into_iter().enumerate() {
                te[k].push(d * 1e3);
            }
        }
        let [e0, e1, e2] = te;
        console_log!(
            "ExpandA {}: sha3 crate one at a time {:.1} µs, ours one at a time {:.1} µs, two at a time {:.1} µs",
            ps.name(),
            med(e0),
            med(e1),
            med(e2)
        );
    }
    console_log!(
        "f1600 {:.0} ns; f1600_x2 {:.0} ns per pair; SHAKE128 per block: ours {:.0} ns, sha3 crate {:.0} ns ({})",
        med(t1),
        med(t2),
        med(t3),
        med(t4),
        a[3] ^ x2.lane(3).0
    );
}

/// Keccak-f[1600] on three states, the pair in `st` and a third in `a`: the
/// v128 round and portable's scalar round in one loop. Only for the
/// measurement in PERF.md.
#[inline(never)]
fn f1600_x3(st: &mut simd::StateX2, a: &mut [u64; 25]) {
    let mut s = st.0;
    let mut q = *a;
    complement(&mut q);
    for rc in RC.iter().take(ROUNDS) {
        simd::round(&mut s, u64x2_splat(*rc));
        scalar_round(&mut q, *rc);
    }
    complement(&mut q);
    st.0 = s;
    *a = q;
}

/// Shapes of the one-state permutation other implementations use, against
/// `f1600` (one written-out round per loop iteration, lanes in locals, lane
/// complementing), interleaved in one loop: all 24 rounds written out (as
/// liboqs's KeccakP-1600 with full unrolling), two rounds per iteration, and
/// plain χ (¬a ∧ b, no complementing). Each is checked against `f1600` first.
/// (The lanes are wasm locals in all of them: LLVM keeps a local [u64; 25]
/// indexed by constants in locals, which a `let [a0, …, a24]` version does by hand.)
#[test]
fn bench_keccak_variants() {
    let variants: [(&str, fn(&mut [u64; 25])); 4] = [
        ("loop of 1 round", f1600),
        ("24 rounds written out", f1600_unrolled),
        ("loop of 2 rounds", f1600_two),
        ("plain chi", f1600_plain),
    ];
    let start: [u64; 25] = core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15));
    for (name, f) in variants.iter().skip(1) {
        let (mut a, mut b) = (start, start);
        for _ in 0..3 {
            f1600(&mut a);
            f(&mut b);
        }
        assert_eq!(a, b, "{name}");
    }
    let mut a = start;
    let timed: Vec<(&str, fn(&mut [u64; 25]), f64)> = variants.iter().map(|&(name, f)| (name, f, 1.0)).collect();
    let line = interleaved(&mut a, &timed);
    console_log!("one-state Keccak-f[1600], median ns (median ratio to f1600): {line} ({})", a[0]);
}

/// Times the `variants` (name, function, permutations a call) on `state`:
/// 101 rounds of 2000 calls each, the order reversed every other round.
/// Returns "name median-ns (median of the per-round ratios to the first)" for each.
fn interleaved<S>(state: &mut S, variants: &[(&str, fn(&mut S), f64)]) -> String {
    let iters = 2000;
    let mut t: Vec<Vec<f64>> = vec![vec![]; variants.len()];
    for r in 0..101 {
        for k in 0..variants.len() {
            let k = if r % 2 == 0 { k } else { variants.len() - 1 - k };
            let s = now();
            for _ in 0..iters {
                (variants[k].1)(state);
            }
            t[k].push((now() - s) * 1e6 / (iters as f64 * variants[k].2));
        }
    }
    let base = t[0].clone();
    let line: Vec<String> = variants
        .iter()
        .zip(&t)
        .map(|((name, ..), v)| {
            let r = med(v.iter().zip(&base).map(|(x, y)| x / y).collect());
            format!("{name} {:.0} ns ({r:.3})", med(v.clone()))
        })
        .collect();
    line.join(", ")
}

/// `f1600` with the 24 rounds written out.
#[inline(never)]
fn f1600_unrolled(a: &mut [u64; 25]) {
    let mut s = *a;
    complement(&mut s);
    macro_rules! rounds {
        ($($i:literal)*) => { $( scalar_round(&mut s, RC[$i]); )* };
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
    complement(&mut s);
    *a = s;
}

/// `f1600` with two rounds per loop iteration (the state renamed, not copied,
/// between them: SSA makes the two the same).
#[inline(never)]
fn f1600_two(a: &mut [u64; 25]) {
    let mut s = *a;
    complement(&mut s);
    for rc in RC[..ROUNDS].chunks_exact(2) {
        scalar_round(&mut s, rc[0]);
        scalar_round(&mut s, rc[1]);
    }
    complement(&mut s);
    *a = s;
}

/// `f1600` without lane complementing: χ as FIPS 202 Algorithm 4 writes it.
#[inline(never)]
fn f1600_plain(a: &mut [u64; 25]) {
    #[inline(always)]
    fn xor(a: u64, b: u64) -> u64 {
        a ^ b
    }
    #[inline(always)]
    fn rotl(x: u64, n: u32) -> u64 {
        x.rotate_left(n)
    }
    let mut s = *a;
    for &rc in RC.iter().take(ROUNDS) {
        let b = crate::portable::keccak::theta_rho_pi!(&s);
        for y in 0..5 {
            for x in 0..5 {
                s[5 * y + x] = b[5 * y + x] ^ (!b[5 * y + (x + 1) % 5] & b[5 * y + (x + 2) % 5]);
            }
        }
        s[0] ^= rc;
    }
    *a = s;
}

/// Shapes of the two-state permutation against `f1600_x2` (ρ's rotations by 8
/// and 56 as byte shuffles, one round per loop iteration), interleaved in one
/// loop: every rotation by two shifts and an or, two rounds per loop
/// iteration, and two pairs (four states) permuted in one loop. Each is
/// checked against `f1600_x2` first.
#[test]
fn bench_keccak_x2_variants() {
    // (name, permutation, pairs a call)
    let variants: [(&str, fn(&mut simd::StateX2), f64); 4] = [
        ("f1600_x2", Simd128::f1600_x2, 1.0),
        ("shifts for 8 and 56", x2_shapes::f1600_x2_shifts, 1.0),
        ("loop of 2 rounds", x2_shapes::f1600_x2_two, 1.0),
        ("two pairs in one loop", x2_shapes::f1600_x2_twice, 2.0),
    ];
    let start: [[u64; 25]; 2] = core::array::from_fn(|k| {
        core::array::from_fn(|i| (25 * k as u64 + i as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15))
    });
    for (name, f, _) in variants.iter().skip(1) {
        let (mut a, mut b) = (simd::StateX2::from_lanes(&start), simd::StateX2::from_lanes(&start));
        for _ in 0..4 {
            Simd128::f1600_x2(&mut a);
            f(&mut b);
        }
        assert!((0..25).all(|i| a.lane(i) == b.lane(i)), "{name}");
    }
    let mut a = simd::StateX2::from_lanes(&start);
    let line = interleaved(&mut a, &variants);
    console_log!("two-state Keccak-f[1600], median ns a pair (median ratio to f1600_x2): {line} ({})", a.lane(0).0);
}

/// The shapes of `bench_keccak_x2_variants`, on `simd::round` or on the same
/// θ, ρ, π (`theta_rho_pi!`) with another rotation.
mod x2_shapes {
    use super::simd::{self, StateX2};
    use crate::tables::{RC, ROUNDS};
    use core::arch::wasm32::*;

    type W = v128;

    #[inline(always)]
    fn xor(a: W, b: W) -> W {
        v128_xor(a, b)
    }

    /// Every rotation by two shifts and an or (the shipped one shuffles
    /// bytes for 8 and 56).
    #[inline(always)]
    fn rotl(x: W, n: u32) -> W {
        if n == 0 {
            x
        } else {
            v128_or(i64x2_shl(x, n), u64x2_shr(x, 64 - n))
        }
    }

    #[inline(never)]
    pub(super) fn f1600_x2_shifts(st: &mut StateX2) {
        let mut s = st.0;
        for &rc in RC.iter().take(ROUNDS) {
            let b = crate::portable::keccak::theta_rho_pi!(&s);
            for y in 0..5 {
                for x in 0..5 {
                    let (b1, b2) = (b[5 * y + (x + 1) % 5], b[5 * y + (x + 2) % 5]);
                    s[5 * y + x] = xor(b[5 * y + x], v128_andnot(b2, b1));
                }
            }
            s[0] = xor(s[0], u64x2_splat(rc));
        }
        st.0 = s;
    }

    #[inline(never)]
    pub(super) fn f1600_x2_two(st: &mut StateX2) {
        let mut s = st.0;
        for rc in RC[..ROUNDS].chunks_exact(2) {
            simd::round(&mut s, u64x2_splat(rc[0]));
            simd::round(&mut s, u64x2_splat(rc[1]));
        }
        st.0 = s;
    }

    /// A second pair beside the one timed (its value is never checked).
    static mut OTHER: [W; 25] = [u64x2(1, 2); 25];

    /// Two pairs, one round of each per iteration: independent chains that
    /// the core could overlap. Permutes `st` and the pair in `OTHER`.
    #[inline(never)]
    pub(super) fn f1600_x2_twice(st: &mut StateX2) {
        // SAFETY: single-threaded test; no other reference to OTHER is live.
        let other = unsafe { &mut *core::ptr::addr_of_mut!(OTHER) };
        let (mut s, mut t) = (st.0, *other);
        for &rc in RC.iter().take(ROUNDS) {
            simd::round(&mut s, u64x2_splat(rc));
            simd::round(&mut t, u64x2_splat(rc));
        }
        st.0 = s;
        *other = t;
    }
}
