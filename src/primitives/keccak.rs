//! Keccak-f[1600] (FIPS 202 §3.3–3.4, Algorithm 7 with 24 rounds), one state
//! at a time and two states at a time, on the active backend (`backend.rs`).
//!
//! Both backends permute one state with the portable code
//! (`portable/keccak.rs`, the reference). For two states, simd128 keeps them
//! in the two 64-bit lanes of each v128 (`simd128/keccak.rs`); the portable
//! backend runs the one-state permutation twice, so callers are written once.
//!
//! Lane (x, y) of FIPS 202's state array is `a[x + 5·y]`; a lane holds the
//! 64 bits of a column of z in little-endian order (FIPS 202 §3.1.2 and B.1),
//! so byte i of the sponge's string is byte i % 8 of lane i / 8.

use crate::backend::{Active, KeccakKernels};

/// Keccak-f[1600] on one state.
#[inline(always)]
pub fn f1600(a: &mut [u64; 25]) {
    Active::f1600(a)
}

/// Two independent states, permuted together by `f1600_x2`: two lanes of
/// each v128 on simd128, two arrays elsewhere.
pub type StateX2 = <Active as KeccakKernels>::StateX2;

/// Keccak-f[1600] on both states.
#[inline(always)]
pub fn f1600_x2(s: &mut StateX2) {
    Active::f1600_x2(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::StatePair;
    use crate::tables::{PI_SRC, RC, RHO};
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
    /// the reference for the written-out round of `portable/keccak.rs`.
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
    fn xor_lanes_changes_one_state() {
        // Every start lane and count, into each state in turn: the lanes
        // written are XORed, every other lane of both states is unchanged.
        let a = two_states();
        for which in 0..2 {
            for first in 0..25 {
                for n in 0..=25 - first {
                    let bytes: Vec<u8> = (0..8 * n).map(|i| (i as u8).wrapping_mul(37) ^ 0x5A).collect();
                    let mut x2 = StateX2::from_lanes(&a);
                    x2.xor_lanes(which, first, &bytes);
                    let mut want = a;
                    for k in 0..n {
                        want[which][first + k] ^= u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().unwrap());
                    }
                    for (i, (w0, w1)) in want[0].iter().zip(&want[1]).enumerate() {
                        assert_eq!(x2.lane(i), (*w0, *w1), "which {which} first {first} n {n} lane {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn set_state_replaces_one_state() {
        let [a, b] = two_states();
        for which in 0..2 {
            let mut x2 = StateX2::from_lanes(&[a, b]);
            let c = a.map(|v| v.rotate_left(9) ^ 0x0123_4567_89AB_CDEF);
            x2.set_state(which, &c);
            let want = if which == 0 { [c, b] } else { [a, c] };
            for (i, (w0, w1)) in want[0].iter().zip(&want[1]).enumerate() {
                assert_eq!(x2.lane(i), (*w0, *w1), "which {which} lane {i}");
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
