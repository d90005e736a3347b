//! Keccak-f[1600] (FIPS 202 §3.3–3.4, Algorithm 7 with 24 rounds), one state
//! at a time and two states at a time.
//!
//! `portable` is the reference. `simd128` keeps two independent states in the
//! two 64-bit lanes of each v128 and is chosen at compile time
//! (`target_feature = "simd128"`), never from input data; elsewhere the
//! two-state permutation runs the portable one twice, so callers are written
//! once.
//!
//! Lane (x, y) of FIPS 202's state array is `a[x + 5·y]`; a lane holds the
//! 64 bits of a column of z in little-endian order (FIPS 202 §3.1.2 and B.1),
//! so byte i of the sponge's string is byte i % 8 of lane i / 8.

/// θ, ρ and π of one round (FIPS 202 Algorithms 1–3) on the state `$s`,
/// written out lane by lane for both permutations: it expands to an array b
/// with b[i] = ρ(θ(A))[PI_SRC[i]], using the `xor` and `rotl` in scope where
/// it is invoked (u64 in `portable`, v128 in `simd128`). χ and ι, which the
/// two write differently, follow at the call site.
macro_rules! theta_rho_pi {
    ($s:expr) => {{
        let s = &*$s;
        // θ (Algorithm 1): column parities c and the column terms d.
        let c0 = xor(xor(xor(s[0], s[5]), xor(s[10], s[15])), s[20]);
        let c1 = xor(xor(xor(s[1], s[6]), xor(s[11], s[16])), s[21]);
        let c2 = xor(xor(xor(s[2], s[7]), xor(s[12], s[17])), s[22]);
        let c3 = xor(xor(xor(s[3], s[8]), xor(s[13], s[18])), s[23]);
        let c4 = xor(xor(xor(s[4], s[9]), xor(s[14], s[19])), s[24]);
        let d0 = xor(c4, rotl(c1, 1));
        let d1 = xor(c0, rotl(c2, 1));
        let d2 = xor(c1, rotl(c3, 1));
        let d3 = xor(c2, rotl(c4, 1));
        let d4 = xor(c3, rotl(c0, 1));
        // The rest of θ, then ρ and π (Algorithms 2 and 3): b[i] = ρ(θ(A))[PI_SRC[i]].
        let b0 = rotl(xor(s[0], d0), 0);
        let b1 = rotl(xor(s[6], d1), 44);
        let b2 = rotl(xor(s[12], d2), 43);
        let b3 = rotl(xor(s[18], d3), 21);
        let b4 = rotl(xor(s[24], d4), 14);
        let b5 = rotl(xor(s[3], d3), 28);
        let b6 = rotl(xor(s[9], d4), 20);
        let b7 = rotl(xor(s[10], d0), 3);
        let b8 = rotl(xor(s[16], d1), 45);
        let b9 = rotl(xor(s[22], d2), 61);
        let b10 = rotl(xor(s[1], d1), 1);
        let b11 = rotl(xor(s[7], d2), 6);
        let b12 = rotl(xor(s[13], d3), 25);
        let b13 = rotl(xor(s[19], d4), 8);
        let b14 = rotl(xor(s[20], d0), 18);
        let b15 = rotl(xor(s[4], d4), 27);
        let b16 = rotl(xor(s[5], d0), 36);
        let b17 = rotl(xor(s[11], d1), 10);
        let b18 = rotl(xor(s[17], d2), 15);
        let b19 = rotl(xor(s[23], d3), 56);
        let b20 = rotl(xor(s[2], d2), 62);
        let b21 = rotl(xor(s[8], d3), 55);
        let b22 = rotl(xor(s[14], d4), 39);
        let b23 = rotl(xor(s[15], d0), 41);
        let b24 = rotl(xor(s[21], d1), 2);
        [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24]
    }};
}

mod portable;
#[cfg(target_feature = "simd128")]
mod simd128;

pub use portable::f1600;
#[cfg(target_feature = "simd128")]
pub use simd128::{f1600_x2, StateX2};
#[cfg(not(target_feature = "simd128"))]
pub use portable::{f1600_x2, StateX2};

/// Number of rounds of Keccak-f[1600] (FIPS 202 §3.4: 12 + 2ℓ with ℓ = 6).
pub const ROUNDS: usize = 24;

/// ι round constants RC[i_r] (FIPS 202 Algorithm 6), built from rc(t)
/// (Algorithm 5): bit 2^j − 1 of RC[i_r] is rc(j + 7·i_r), j = 0..6.
pub static RC: [u64; ROUNDS] = round_constants();

// The ρ and π tables below are what the written-out rounds of `portable.rs`
// and `simd128.rs` were derived from; the tests check the rounds against them.

/// ρ offsets (FIPS 202 Algorithm 2) by lane index x + 5·y, reduced mod 64.
#[cfg(test)]
pub const RHO: [u32; 25] = rho_offsets();

/// π (FIPS 202 Algorithm 3): lane x + 5·y of the output is lane
/// PI_SRC[x + 5·y] = ((x + 3y) mod 5) + 5·x of the input.
#[cfg(test)]
pub const PI_SRC: [usize; 25] = pi_sources();

/// rc(t) of FIPS 202 Algorithm 5: the output bit of an 8-bit LFSR.
const fn rc_bit(t: usize) -> u64 {
    if t % 255 == 0 {
        return 1;
    }
    // R = 10000000 with R[0] first; held as bit i = R[i].
    let mut r: u32 = 1;
    let mut i = 1;
    while i <= t % 255 {
        // R ← 0 ‖ R, then R[0], R[4], R[5], R[6] ^= R[8]; R ← Trunc8(R).
        r <<= 1;
        let r8 = (r >> 8) & 1;
        r ^= r8 | r8 << 4 | r8 << 5 | r8 << 6;
        r &= 0xff;
        i += 1;
    }
    (r & 1) as u64
}

const fn round_constants() -> [u64; ROUNDS] {
    let mut rc = [0u64; ROUNDS];
    let mut ir = 0;
    while ir < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            rc[ir] |= rc_bit(j + 7 * ir) << ((1u32 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    rc
}

#[cfg(test)]
const fn rho_offsets() -> [u32; 25] {
    let mut rho = [0u32; 25];
    let (mut x, mut y) = (1, 0);
    let mut t = 0;
    while t < 24 {
        rho[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    rho
}

#[cfg(test)]
const fn pi_sources() -> [usize; 25] {
    let mut src = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        src[i] = (x + 3 * y) % 5 + 5 * x;
        i += 1;
    }
    src
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn constants_match_fips_202() {
        // Spot values of the tables printed in the Keccak reference (and used
        // by every implementation): first, last and a middle round constant,
        // and the ρ offsets of lanes (1,0), (0,1), (4,4).
        assert_eq!(RC[0], 0x0000000000000001);
        assert_eq!(RC[1], 0x0000000000008082);
        assert_eq!(RC[12], 0x000000008000808b);
        assert_eq!(RC[23], 0x8000000080008008);
        assert_eq!((RHO[0], RHO[1], RHO[5], RHO[24]), (0, 1, 36, 14));
        // π is a permutation fixing lane 0.
        let mut seen = [false; 25];
        PI_SRC.iter().for_each(|&s| seen[s] = true);
        assert!(seen.iter().all(|&b| b) && PI_SRC[0] == 0);
    }

    /// A round driven by the tables, loop by loop as FIPS 202 §3.2 writes it:
    /// the reference for the written-out round of `portable.rs`.
    fn spec_f1600(a: &mut [u64; 25]) {
        for &rc in RC.iter() {
            let mut c = [0u64; 5];
            for x in 0..5 {
                c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
            }
            for x in 0..5 {
                let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
                for y in 0..5 {
                    a[x + 5 * y] ^= d;
                }
            }
            let mut b = [0u64; 25];
            for i in 0..25 {
                b[i] = a[PI_SRC[i]].rotate_left(RHO[PI_SRC[i]]);
            }
            for i in 0..25 {
                let (x, y) = (i % 5, i / 5);
                a[i] = b[i] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
            a[0] ^= rc;
        }
    }

    #[test]
    fn written_out_round_equals_table_driven_round() {
        let mut a = [0u64; 25];
        let mut b = [0u64; 25];
        for i in 0..25 {
            a[i] = (i as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15);
            b[i] = a[i];
        }
        for _ in 0..4 {
            f1600(&mut a);
            spec_f1600(&mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn permutation_of_zero_state() {
        // Keccak-f[1600] applied once and twice to the all-zero state (the
        // Keccak team's KeccakF-1600 intermediate values).
        let mut a = [0u64; 25];
        f1600(&mut a);
        assert_eq!(a[0], 0xF1258F7940E1DDE7);
        assert_eq!(a[1], 0x84D5CCF933C0478A);
        assert_eq!(a[24], 0xEAF1FF7B5CECA249);
        f1600(&mut a);
        assert_eq!(a[0], 0x2D5C954DF96ECB3C);
        assert_eq!(a[24], 0x20D06CD26A8FBF5C);
    }

    /// Two distinct states with every lane different.
    fn two_states() -> [[u64; 25]; 2] {
        let a0: [u64; 25] = core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15));
        [a0, a0.map(|v| !v.rotate_left(17))]
    }

    #[test]
    fn from_lanes_equals_lane_by_lane() {
        let a = two_states();
        let x2 = StateX2::from_lanes(&a);
        for (i, (&v0, &v1)) in a[0].iter().zip(&a[1]).enumerate() {
            assert_eq!(x2.lane(i), (v0, v1), "lane {i}");
        }
    }

    #[test]
    fn read_lanes_equals_lane_by_lane() {
        // Every start lane and every count, odd and even (the v128 path writes
        // two lanes at a time and the last one alone).
        let x2 = StateX2::from_lanes(&two_states());
        for first in 0..25 {
            for n in 0..=25 - first {
                let (mut o0, mut o1) = (vec![0xAAu8; 8 * n], vec![0x55u8; 8 * n]);
                x2.read_lanes(first, &mut o0, &mut o1);
                for k in 0..n {
                    let (v0, v1) = x2.lane(first + k);
                    assert_eq!(o0[8 * k..8 * k + 8], v0.to_le_bytes(), "first {first} n {n} lane {k}");
                    assert_eq!(o1[8 * k..8 * k + 8], v1.to_le_bytes(), "first {first} n {n} lane {k}");
                }
            }
        }
    }

    #[test]
    fn two_states_equal_two_single_permutations() {
        // Random and extreme inputs: all-zero, all-one, single bits, and a
        // simple generator; each lane of the pair must equal the portable one.
        let mut rng = crate::test_rng::Rng(0x9E3779B97F4A7C15u64);
        let mut cases: Vec<[[u64; 25]; 2]> = vec![[[0; 25], [u64::MAX; 25]], [[u64::MAX; 25], [0; 25]]];
        for bit in [0u32, 1, 31, 63] {
            let mut a = [0u64; 25];
            a[(bit as usize * 7) % 25] = 1 << bit;
            cases.push([a, [1u64 << bit; 25]]);
        }
        for _ in 0..20 {
            let mut a = [[0u64; 25]; 2];
            a.iter_mut().flatten().for_each(|w| *w = rng.next());
            cases.push(a);
        }
        for [a, b] in cases {
            let mut x2 = StateX2::from_lanes(&[a, b]);
            for _ in 0..3 {
                f1600_x2(&mut x2);
            }
            let (mut ea, mut eb) = (a, b);
            for _ in 0..3 {
                f1600(&mut ea);
                f1600(&mut eb);
            }
            for i in 0..25 {
                assert_eq!(x2.lane(i), (ea[i], eb[i]), "lane {i}");
            }
        }
    }
}

/// Timing of the permutations and of SHAKE128 (ours and the `sha3` crate's)
/// in wasm, and the three-state permutation's test; compiled only on request,
/// as it measures rather than tests:
/// `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 --cfg keccak_bench"
///  cargo test --release --target wasm32-unknown-unknown --lib -- bench_keccak --nocapture`.
/// The permutations are not inlined, so V8 tiers them up while the loop runs.
#[cfg(all(test, target_arch = "wasm32", keccak_bench))]
mod bench {
    use super::*;
    use crate::bench_clock::{med, now};
    use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};
    /// Six states: two calls of `f1600_x3` against three of `f1600_x2`,
    /// interleaved in one loop (the figures in `simd128.rs`).
    #[test]
    fn bench_keccak_x3() {
        let iters = 1000;
        let (mut t2, mut t3, mut t1) = (vec![], vec![], vec![]);
        let mut a = [1u64; 25];
        let mut x2 = StateX2::default();
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
                simd128::f1600_x3(&mut x2, &mut a);
                simd128::f1600_x3(&mut x2, &mut a);
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
            med(t2), med(t3), med(t1), med(r), a[3] ^ x2.lane(3).0
        );
    }

    #[test]
    fn three_states_equal_three_single_permutations() {
        // The differential test of `two_states_equal_two_single_permutations`
        // with a third state beside the pair.
        let mut rng = crate::test_rng::Rng(0x2545F4914F6CDD1Du64);
        let mut cases: Vec<[[u64; 25]; 3]> = vec![
            [[0; 25], [u64::MAX; 25], [0; 25]],
            [[u64::MAX; 25], [0; 25], [u64::MAX; 25]],
        ];
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
            let mut x2 = StateX2::from_lanes(&[a, b]);
            let mut x1 = c;
            for _ in 0..3 {
                simd128::f1600_x3(&mut x2, &mut x1);
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
                ps.name(), med(e0), med(e1), med(e2)
            );
        }
        console_log!("f1600 {:.0} ns; f1600_x2 {:.0} ns per pair; SHAKE128 per block: ours {:.0} ns, sha3 crate {:.0} ns ({})", med(t1), med(t2), med(t3), med(t4), a[3] ^ x2.lane(3).0);
    }
}
