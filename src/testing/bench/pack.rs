//! The bit packers per width (FIPS 204 §7.1): the one-byte-at-a-time
//! reference of the tests, the portable backend and the simd128 one,
//! interleaved.

use super::{med, now};
use crate::backend::{EncodeKernels, Portable, Simd128};
use crate::encode::tests::{ref_pack, ref_unpack};
use crate::ring::Poly;
use core::hint::black_box;
use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};
fn width<const B: usize>() {
    let reps = 400;
    let p = crate::test_rng::Rng(B as u64).poly_in(0, (1 << B) - 1);
    let mut buf = vec![0u8; 32 * B];
    let mut q = Poly::zero();
    let mut t: [Vec<f64>; 6] = Default::default();
    for _ in 0..31 {
        let mut s = [0.0; 7];
        s[0] = now();
        for _ in 0..reps {
            ref_pack(black_box(&p), B, &mut buf);
            black_box(&mut buf);
        }
        s[1] = now();
        for _ in 0..reps {
            Portable::pack::<B>(black_box(&p), 0, 0, &mut buf);
            black_box(&mut buf);
        }
        s[2] = now();
        for _ in 0..reps {
            Simd128::pack::<B>(black_box(&p), 0, 0, &mut buf);
            black_box(&mut buf);
        }
        s[3] = now();
        for _ in 0..reps {
            ref_unpack(black_box(&buf), B, &mut q);
            black_box(&mut q);
        }
        s[4] = now();
        for _ in 0..reps {
            Portable::unpack::<B>(black_box(&buf), -1, 5, &mut q);
            black_box(&mut q);
        }
        s[5] = now();
        for _ in 0..reps {
            Simd128::unpack::<B>(black_box(&buf), -1, 5, &mut q);
            black_box(&mut q);
        }
        s[6] = now();
        for k in 0..6 {
            t[k].push((s[k + 1] - s[k]) * 1e6 / reps as f64);
        }
    }
    let m: Vec<f64> = t.into_iter().map(med).collect();
    console_log!(
        "B {B:2}: pack ref {:6.0} ns portable {:6.0} simd {:6.0} | unpack ref {:6.0} portable {:6.0} simd {:6.0}",
        m[0],
        m[1],
        m[2],
        m[3],
        m[4],
        m[5]
    );
}
#[test]
fn bench_pack() {
    width::<3>();
    width::<4>();
    width::<6>();
    width::<10>();
    width::<13>();
    width::<18>();
    width::<20>();
}
