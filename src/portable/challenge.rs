//! The reference of `challenge.rs`: every run added one coefficient at a time
//! in i32.

use crate::field::reduce32;
use crate::params::{D, N};
use crate::ring::Poly;

pub fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly) {
    // ext ‖ −ext with ext = (−t1 ‖ t1): 4N entries, each run N of them.
    let mut ext = [0i32; 4 * N];
    for i in 0..N {
        let t = t1.0[i];
        (ext[i], ext[N + i], ext[2 * N + i], ext[3 * N + i]) = (-t, t, t, -t);
    }
    let mut ct = [0i32; N];
    for &o in offsets {
        let run = &ext[o as usize..o as usize + N];
        for i in 0..N {
            ct[i] += run[i];
        }
    }
    for i in 0..N {
        // |ct_i| ≤ 60·1023, so |w_i − 2^13·ct_i| < q + 2^29 < 2^31 − 2^22.
        w.0[i] = reduce32(w.0[i] - (ct[i] << D));
    }
}
