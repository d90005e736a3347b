//! Products by the challenge c of SampleInBall (FIPS 204 Algorithm 29) as sums
//! of shifted copies, without an NTT.
//!
//! c has τ ≤ 60 coefficients ±1 and the rest zero, so c·t = Σ ±X^j·t: in
//! R_q, X^j·t is t turned by j places with the coefficients that wrap round
//! negated. With ext = (−t ‖ t), (X^j·t)_i = ext[256 − j + i] for every i, so
//! each term of c is one run of 256 consecutive entries of ext (or of −ext for
//! a −1): `Challenge` holds the start of each run, and the kernels only add
//! runs. For verification's c·t1 (t1 < 2^10 from the public key) and
//! signing's c·s1, c·s2 (|s| ≤ η) that is τ vector additions per vector of
//! the product, cheaper than the NTTs of t1 (or s) and of c (PERF.md).
//!
//! c must be public (it is: c̃ is declassified before SampleInBall, and is part
//! of the signature): its offsets are read as memory indices. The kernels'
//! bounds and constant-time status are stated on `ChallengeKernels`
//! (`backend.rs`).

use crate::backend::{Active, ChallengeKernels};
use crate::params::{MAX_TAU, N};
use crate::ring::Poly;

/// Where the run of each term of c starts in ext ‖ −ext (2N entries each):
/// 256 − j for +X^j, 2N + 256 − j for −X^j, so every offset is at most 3N
/// and a run of N entries from it stays inside the 4N entries.
pub struct Challenge {
    offsets: [u16; MAX_TAU],
    len: usize,
}

impl Challenge {
    /// The terms of c (coefficients in {−1, 0, 1}, at most `MAX_TAU` nonzero),
    /// in the order of their positions. Variable time: c is public here.
    pub fn of_vartime(c: &Poly) -> Challenge {
        let mut ch = Challenge { offsets: [0; MAX_TAU], len: 0 };
        for (j, &cj) in c.0.iter().enumerate() {
            if cj != 0 {
                debug_assert!(cj == 1 || cj == -1);
                let run = (N - j) as u16 + if cj < 0 { 2 * N as u16 } else { 0 };
                ch.offsets[ch.len] = run;
                ch.len += 1;
            }
        }
        ch
    }

    pub fn offsets(&self) -> &[u16] {
        &self.offsets[..self.len]
    }
}

/// w ← w − 2^d·(c·t1) mod± q (FIPS 204 Algorithm 8 step 9, with w = NTT^−1(Â ∘
/// NTT(z)) already formed; bounds: `ChallengeKernels::sub_challenge_t1`).
pub fn sub_challenge_t1(w: &mut Poly, c: &Challenge, t1: &Poly) {
    Active::sub_challenge_t1(w, c.offsets(), t1)
}

/// c·s1 and c·s2 of a row s = s1 + 2^PAIR_SHIFT·s2 of signing's expanded key
/// (FIPS 204 Algorithm 7 steps 18–19's c·s1[i] and c·s2[i], outside the NTT
/// domain; bounds: `ChallengeKernels::challenge_times_pair`).
pub fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, c: &Challenge, s: &Poly, eta: i32) {
    Active::challenge_times_pair(cs1, cs2, c.offsets(), s, eta)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::params::{D, PAIR_SHIFT, Q};
    use crate::test_rng::Rng;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Random c with `tau` terms ±1 (or all +1 in the first `tau` places).
    pub(crate) fn challenge(rng: &mut Rng, tau: usize, all_plus: bool) -> Poly {
        let mut c = Poly::zero();
        let mut n = 0;
        while n < tau {
            let j = if all_plus { n } else { rng.range(0, N as i32 - 1) as usize };
            if c.0[j] == 0 {
                c.0[j] = if all_plus || rng.next() & 1 == 0 { 1 } else { -1 };
                n += 1;
            }
        }
        c
    }

    /// w − 2^d·(c·t) by the schoolbook product in Z[X]/(X^256 + 1), mod q.
    fn schoolbook(w: &Poly, c: &Poly, t: &Poly) -> [i64; N] {
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = c.0[i] as i64 * t.0[j] as i64;
                if i + j < N {
                    r[i + j] += p
                } else {
                    r[i + j - N] -= p
                }
            }
        }
        core::array::from_fn(|i| (w.0[i] as i64 - (r[i] << D)).rem_euclid(Q as i64))
    }

    /// c·x in Z[X]/(X^256 + 1), exactly.
    fn exact(c: &Poly, x: &Poly) -> Poly {
        let mut r = [0i32; N];
        for i in 0..N {
            for j in 0..N {
                let p = c.0[i] * x.0[j];
                if i + j < N {
                    r[i + j] += p
                } else {
                    r[i + j - N] -= p
                }
            }
        }
        Poly(r)
    }

    /// Signing's products come out exact, also when a coefficient of one is
    /// ±β = ±τ·η, the largest there is, for each set's (τ, η).
    #[test]
    fn pair_products_are_exact_up_to_beta() {
        let mut rng = Rng(2024);
        for (tau, eta) in [(39, 2), (49, 4), (60, 2)] {
            for round in 0..8 {
                // Rounds 0–3: c = +1 at 0..τ, s1 = ±η and s2 = ±η everywhere, so
                // the products reach +β and −β (and the packed sums their
                // largest); then random c and s.
                let c = challenge(&mut rng, tau, round < 4);
                let (s1, s2) = match round {
                    0 => (Poly([eta; N]), Poly([-eta; N])),
                    1 => (Poly([-eta; N]), Poly([eta; N])),
                    2 => (Poly([eta; N]), Poly([eta; N])),
                    3 => (Poly([-eta; N]), Poly([-eta; N])),
                    _ => (rng.poly(eta), rng.poly(eta)),
                };
                let (want1, want2) = (exact(&c, &s1), exact(&c, &s2));
                if round < 4 {
                    let beta = tau as i32 * eta;
                    assert_eq!(want1.0.iter().map(|x| x.abs()).max(), Some(beta));
                    assert_eq!(want2.0.iter().map(|x| x.abs()).max(), Some(beta));
                }
                let s = Poly(core::array::from_fn(|i| s1.0[i] + (s2.0[i] << PAIR_SHIFT)));
                let (mut cs1, mut cs2) = (rng.poly(9), rng.poly(9));
                challenge_times_pair(&mut cs1, &mut cs2, &Challenge::of_vartime(&c), &s, eta);
                assert_eq!((cs1, cs2), (want1, want2), "τ {tau}, η {eta}, round {round}");
            }
        }
    }

    #[test]
    fn sub_challenge_t1_matches_schoolbook() {
        let mut rng = Rng(29);
        for tau in [0, 1, 39, 49, 60] {
            for round in 0..6 {
                // Round 0: every term +1, t1 = 1023 and w = −(q − 1), the most
                // negative difference there is; round 1 every term −1 and
                // w = q − 1, the most positive; then random.
                let c = challenge(&mut rng, tau, round < 2);
                let (t1, w) = match round {
                    0 => (Poly([1023; N]), Poly([-(Q - 1); N])),
                    1 => (Poly([1023; N]), Poly([Q - 1; N])),
                    _ => (rng.poly_in(0, 1023), rng.poly(Q - 1)),
                };
                let c = if round == 1 { Poly(c.0.map(|x| -x)) } else { c };
                let ch = Challenge::of_vartime(&c);
                assert_eq!(ch.offsets().len(), tau);
                let mut got = w;
                sub_challenge_t1(&mut got, &ch, &t1);
                assert!(got.0.iter().all(|x| x.abs() < Q), "bound, τ {tau} round {round}");
                assert_eq!(
                    got.0.map(|x| (x as i64).rem_euclid(Q as i64)),
                    schoolbook(&w, &c, &t1),
                    "τ {tau} round {round}"
                );
            }
        }
    }
}
