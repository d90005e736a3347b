//! The reference of `challenge.rs`: every run added one coefficient at a time
//! in i32. The memory indices depend on c only, never on the values summed.

use crate::backend::{ChallengeKernels, Portable};
use crate::field::reduce32;
use crate::params::{D, N, PAIR_SHIFT};
use crate::ring::Poly;

/// sum ← c·x exactly (|x_i| < 2^15, τ ≤ 60), as the sum of the runs of
/// ext ‖ −ext with ext = (−x ‖ x). Written into the caller's memory, so that
/// no copy of a secret sum is left behind.
fn runs(offsets: &[u16], x: &Poly, sum: &mut [i32; N]) {
    let mut ext = [0i32; 4 * N];
    for i in 0..N {
        let t = x.0[i];
        (ext[i], ext[N + i], ext[2 * N + i], ext[3 * N + i]) = (-t, t, t, -t);
    }
    sum.fill(0);
    for &o in offsets {
        let run = &ext[o as usize..o as usize + N];
        for i in 0..N {
            sum[i] += run[i];
        }
    }
    zeroize::Zeroize::zeroize(&mut ext[..]);
}

impl ChallengeKernels for Portable {
    fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly) {
        let mut ct = [0i32; N];
        runs(offsets, t1, &mut ct);
        for (wi, &c) in w.0.iter_mut().zip(&ct) {
            // |ct_i| ≤ 60·1023, so |w_i − 2^13·ct_i| < q + 2^29 < 2^31 − 2^22.
            *wi = reduce32(*wi - (c << D));
        }
    }

    fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, offsets: &[u16], s: &Poly, _eta: i32) {
        // s = s1 + 2^9·s2 with |s1|, |s2| < 2^8.
        let half = 1 << (PAIR_SHIFT - 1);
        let mut parts = [Poly::zero(); 2];
        for i in 0..N {
            let s1 = ((s.0[i] + half) & ((1 << PAIR_SHIFT) - 1)) - half;
            (parts[0].0[i], parts[1].0[i]) = (s1, (s.0[i] - s1) >> PAIR_SHIFT);
        }
        runs(offsets, &parts[0], &mut cs1.0);
        runs(offsets, &parts[1], &mut cs2.0);
        zeroize::Zeroize::zeroize(&mut parts[..]);
    }
}
