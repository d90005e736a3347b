//! Verification's c·t1 per row: as sums of runs (`challenge.rs`) against the
//! NTT route it replaces (the NTT of t1·2^d, and the product in the inverse's
//! first pass, which `dot_sub_inv_ntt` costs over `dot_inv_ntt`), plus the
//! NTT of c once per signature.

use super::{med, now};
use crate::backend::{Active, ChallengeKernels, NttKernels};
use crate::challenge::{tests::challenge, Challenge};
use crate::ring::Poly;
use core::hint::black_box;
use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};

/// Not inlined, as in the shipped module (inlined into the timing loop, V8
/// compiles it several times slower).
#[inline(never)]
fn runs(w: &mut Poly, offsets: &[u16], t1: &Poly) {
    Active::sub_challenge_t1(w, offsets, t1)
}

#[test]
fn bench_challenge() {
    let mut rng = crate::test_rng::Rng(5);
    let t1 = rng.poly_in(0, 1023);
    let reps = 400;
    for (tau, l) in [(39, 4), (49, 5), (60, 7)] {
        let c = challenge(&mut rng, tau, false);
        let ch = Challenge::of_vartime(&c);
        let (mut x, y) = (t1, rng.poly(8_000_000));
        let (a, b) = (vec![y; l], vec![y; l]);
        let mut w = rng.poly(8_000_000);
        let mut t: [Vec<f64>; 4] = Default::default();
        for _ in 0..31 {
            let s0 = now();
            for _ in 0..reps {
                runs(black_box(&mut w), black_box(ch.offsets()), black_box(&t1));
            }
            let s1 = now();
            for _ in 0..reps {
                x = t1;
                Active::ntt(black_box(&mut x));
            }
            let s2 = now();
            for _ in 0..reps {
                Active::dot_inv_ntt(&mut w, black_box(&a), black_box(&b));
            }
            let s3 = now();
            for _ in 0..reps {
                Active::dot_sub_inv_ntt(&mut w, black_box(&a), black_box(&b), black_box(&x), black_box(&y));
            }
            let s4 = now();
            for (k, d) in [s1 - s0, s2 - s1, s3 - s2, s4 - s3].into_iter().enumerate() {
                t[k].push(d * 1e6 / reps as f64);
            }
        }
        let m: Vec<f64> = t.into_iter().map(med).collect();
        console_log!(
            "τ {tau}, ℓ {l}: c·t1 as runs {:4.0} ns a row | NTT(t1) {:4.0} + product in the inverse {:4.0} (dot_inv_ntt {:4.0}, dot_sub_inv_ntt {:4.0})",
            m[0], m[1], m[3] - m[2], m[2], m[3]
        );
    }
}
