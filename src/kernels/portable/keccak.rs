//! Portable Keccak-f[1600]: the reference for `simd128/keccak.rs`, which has
//! the same functions in the same order and shares θ, ρ, π (`theta_rho_pi!`
//! below). Only χ differs: here it runs on a lane-complemented state (scalar wasm has no
//! and-not), there on the plain state (v128.andnot is one instruction).
//!
//! The round is written out lane by lane (indices and ρ offsets from FIPS 202
//! Algorithms 2 and 3, the tables `RHO` and `PI_SRC`; a test checks it
//! against a round driven by those tables) so that the compiler keeps the
//! state in locals instead of memory, one round per loop iteration: in V8 that
//! was the fastest shape, against 2 or 24 rounds written out and plain χ
//! (`bench_keccak_variants` in src/testing/bench/keccak.rs), named lanes instead of
//! the array, and the next round's column parities folded into χ (PERF.md).

use crate::backend::{KeccakKernels, Portable, StatePair};
use crate::tables::{RC, ROUNDS};

/// θ, ρ and π of one round (FIPS 202 Algorithms 1–3) on the state `$s`,
/// written out lane by lane for both permutations: it expands to an array b
/// with b[i] = ρ(θ(A))[PI_SRC[i]], using the `xor` and `rotl` in scope where
/// it is invoked (u64 here, v128 in `simd128/keccak.rs`). χ and ι, which the
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
        [
            b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22,
            b23, b24,
        ]
    }};
}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use theta_rho_pi;

type W = u64;

#[inline(always)]
fn xor(a: W, b: W) -> W {
    a ^ b
}

#[inline(always)]
fn and(a: W, b: W) -> W {
    a & b
}

#[inline(always)]
fn or(a: W, b: W) -> W {
    a | b
}

#[inline(always)]
fn not(a: W) -> W {
    !a
}

/// ¬a ∧ b.
#[inline(always)]
fn andn(a: W, b: W) -> W {
    !a & b
}

/// ¬a ∨ b.
#[inline(always)]
fn orn(a: W, b: W) -> W {
    !a | b
}

#[inline(always)]
fn rotl(x: W, n: u32) -> W {
    x.rotate_left(n)
}

/// Lanes held complemented between rounds ("lane complementing", from the
/// Keccak team's implementation overview, §2.2): scalar wasm has no and-not,
/// so χ's 25 negations cost an instruction each; holding these six lanes
/// complemented turns all but 8 of them into plain ∧ / ∨. θ, ρ, π are linear,
/// so a complemented input lane gives a complemented b; which b are
/// complemented follows from this set (columns 0–3 have odd counts, so c0–c3,
/// hence d0 and d3, are complemented), and the χ formulas below were chosen so
/// that the output again has exactly these lanes complemented (the test
/// `written_out_round_equals_table_driven_round` checks the whole permutation).
pub(crate) const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// Negates the `COMPLEMENTED` lanes: into the form `round` works on, and back.
#[inline(always)]
pub(crate) fn complement(s: &mut [W; 25]) {
    for &i in COMPLEMENTED.iter() {
        s[i] = !s[i];
    }
}

/// One round Rnd(A, i_r) = ι(χ(π(ρ(θ(A)))), i_r) (FIPS 202 §3.3), on a state
/// whose `COMPLEMENTED` lanes are held negated, in and out.
#[inline(always)]
pub(crate) fn round(s: &mut [W; 25], rc: W) {
    let [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24] =
        theta_rho_pi!(s);
    // χ (Algorithm 4): A′[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]), on
    // the complemented lanes (see `COMPLEMENTED`): with some inputs and the
    // output held complemented, ¬u ∧ v becomes u ∨ v, u ∧ v, ¬u ∨ v, … and only
    // 8 of the 25 negations remain. Then ι (lane 0 is held uncomplemented).
    s[0] = xor(b0, or(b1, b2));
    s[1] = xor(b1, orn(b2, b3));
    s[2] = xor(b2, and(b3, b4));
    s[3] = xor(b3, or(b4, b0));
    s[4] = xor(b4, and(b0, b1));
    s[5] = xor(b5, or(b6, b7));
    s[6] = xor(b6, and(b7, b8));
    s[7] = xor(b7, orn(b9, b8));
    s[8] = xor(b8, or(b9, b5));
    s[9] = xor(b9, and(b5, b6));
    s[10] = xor(b10, or(b11, b12));
    s[11] = xor(b11, and(b12, b13));
    s[12] = xor(b12, andn(b13, b14));
    s[13] = not(xor(b13, or(b14, b10)));
    s[14] = xor(b14, and(b10, b11));
    s[15] = xor(b15, and(b16, b17));
    s[16] = xor(b16, or(b17, b18));
    s[17] = xor(b17, orn(b18, b19));
    s[18] = not(xor(b18, and(b19, b15)));
    s[19] = xor(b19, or(b15, b16));
    s[20] = xor(b20, andn(b21, b22));
    s[21] = not(xor(b21, or(b22, b23)));
    s[22] = xor(b22, and(b23, b24));
    s[23] = xor(b23, or(b24, b20));
    s[24] = xor(b24, and(b20, b21));
    s[0] = xor(s[0], rc);
}

impl KeccakKernels for Portable {
    /// Keccak-p[1600, 24] = Keccak-f[1600] (FIPS 202 Algorithm 7), the
    /// one-state permutation of both backends. Not inlined: one copy serves
    /// every caller, and V8 can tier it up on its own.
    #[inline(never)]
    fn f1600(a: &mut [u64; 25]) {
        let mut s = *a;
        complement(&mut s);
        for rc in RC.iter().take(ROUNDS) {
            round(&mut s, *rc);
        }
        complement(&mut s);
        *a = s;
    }

    type StateX2 = StateX2;

    /// The one-state permutation twice.
    fn f1600_x2(s: &mut StateX2) {
        Self::f1600(&mut s.0[0]);
        Self::f1600(&mut s.0[1]);
    }
}

/// Two independent states; without simd128 they are simply two arrays.
#[derive(Clone, Default)]
#[cfg_attr(target_feature = "simd128", allow(dead_code))]
pub struct StateX2([[u64; 25]; 2]);

impl StatePair for StateX2 {
    /// Lane i of state 0 and of state 1.
    #[inline(always)]
    fn lane(&self, i: usize) -> (u64, u64) {
        (self.0[0][i], self.0[1][i])
    }
    /// The pair of states a[0] and a[1].
    #[inline(always)]
    fn from_lanes(a: &[[u64; 25]; 2]) -> Self {
        StateX2(*a)
    }
    /// Writes lanes first.. of state 0 to out0 and of state 1 to out1, eight
    /// little-endian bytes a lane; both outputs the same length, a multiple of
    /// 8, and first + out0.len() / 8 ≤ 25.
    #[inline(always)]
    fn read_lanes(&self, first: usize, out0: &mut [u8], out1: &mut [u8]) {
        assert!(out0.len() == out1.len() && out0.len() % 8 == 0);
        for (out, st) in [out0, out1].into_iter().zip(&self.0) {
            let n = out.len() / 8;
            for (c, v) in out.chunks_exact_mut(8).zip(&st[first..first + n]) {
                c.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    /// XORs `bytes` into lanes first.. of state `which` alone.
    #[inline(always)]
    fn xor_lanes(&mut self, which: usize, first: usize, bytes: &[u8]) {
        assert!(bytes.len() % 8 == 0);
        for (l, w) in self.0[which][first..first + bytes.len() / 8].iter_mut().zip(bytes.chunks_exact(8)) {
            *l ^= u64::from_le_bytes(w.try_into().unwrap());
        }
    }
    /// Replaces state `which` by `a`.
    #[inline(always)]
    fn set_state(&mut self, which: usize, a: &[u64; 25]) {
        self.0[which] = *a;
    }
    /// Wipes both states.
    fn clear(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}
