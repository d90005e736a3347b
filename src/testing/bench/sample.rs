//! The parsers of RejNTTPoly and RejBoundedPoly (FIPS 204 Algorithms 30, 31):
//! simd128 against portable and against the parsers before either (one
//! candidate per iteration), interleaved.

use super::{med, now};
use crate::backend::{Portable, SampleKernels, Simd128};
use crate::params::{N, Q};
use crate::ring::Poly;
use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};
#[inline(never)]
fn ntt_before(buf: &[u8], a: &mut Poly, n: &mut usize) {
    for b in buf.chunks_exact(3) {
        if *n == N {
            return;
        }
        let z = (b[0] as i32) | (b[1] as i32) << 8 | ((b[2] & 0x7f) as i32) << 16;
        a.0[*n] = z;
        *n += (z < Q) as usize;
    }
}
#[inline(never)]
fn bounded_before(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
    let bound = if eta == 2 { 15 } else { 9 };
    for &b in buf.iter() {
        for z in [(b & 15) as i32, (b >> 4) as i32] {
            if *n == N {
                return;
            }
            a.0[*n] = if eta == 2 { 2 - (z - 5 * ((205 * z) >> 10)) } else { 4 - z };
            *n += (z < bound) as usize;
        }
    }
}
#[test]
fn bench_parsers() {
    let mut rng = crate::test_rng::Rng(5);
    let ntt_buf: Vec<u8> = (0..840).map(|_| rng.next() as u8).collect();
    let bnd_buf: Vec<u8> = (0..136 * 2).map(|_| rng.next() as u8).collect();
    type F = fn(&[u8], &mut Poly, &mut usize);
    type G = fn(&[u8], i32, &mut Poly, &mut usize);
    let nf: [F; 3] = [ntt_before, Portable::rej_ntt_parse_vartime, Simd128::rej_ntt_parse_vartime];
    let bf: [G; 3] = [bounded_before, Portable::rej_bounded_parse, Simd128::rej_bounded_parse];
    let reps = 500;
    let mut a = Poly::zero();
    let mut t = vec![vec![]; 9];
    let mut sink = 0;
    for _ in 0..41 {
        for (k, f) in nf.iter().enumerate() {
            let s = now();
            for _ in 0..reps {
                let mut n = 0;
                f(&ntt_buf, &mut a, &mut n);
                sink += n;
            }
            t[k].push((now() - s) * 1e6 / reps as f64);
        }
        for (e, eta) in [2, 4].into_iter().enumerate() {
            for (k, f) in bf.iter().enumerate() {
                let s = now();
                for _ in 0..reps {
                    let mut n = 0;
                    f(&bnd_buf[..136], eta, &mut a, &mut n);
                    f(&bnd_buf[136..], eta, &mut a, &mut n);
                    sink += n;
                }
                t[3 + 3 * e + k].push((now() - s) * 1e6 / reps as f64);
            }
        }
    }
    let m: Vec<f64> = t.into_iter().map(med).collect();
    console_log!("rej_ntt_parse_vartime (one poly) ns: before {:.0}, portable {:.0}, simd {:.0}", m[0], m[1], m[2]);
    console_log!("rej_bounded_parse η=2 (one poly) ns: before {:.0}, portable {:.0}, simd {:.0}", m[3], m[4], m[5]);
    console_log!(
        "rej_bounded_parse η=4 (one poly) ns: before {:.0}, portable {:.0}, simd {:.0} ({sink})",
        m[6],
        m[7],
        m[8]
    );
}
