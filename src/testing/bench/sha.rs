//! SHA-256 and SHA-512 over 64 KiB (FIPS 180-4): the `sha2` crate, the
//! plain-loop compression functions `prehash/sha.rs` had before (kept here),
//! and ours, interleaved.

use super::{med, now};
use crate::prehash::sha::{Sha2, Variant, IV_512, K64};
use sha2::Digest;
use wasm_bindgen_test::{console_log, wasm_bindgen_test as test};

/// SHA-256 compression of one 64-byte block (§6.2.2), the first 64 bytes of `block`.
#[inline(never)]
fn old32(h: &mut [u32; 8], block: &[u8; 128]) {
    let mut w = [0u32; 64];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
    }
    for i in 16..64 {
        let (a, b) = (w[i - 15], w[i - 2]);
        let s0 = a.rotate_right(7) ^ a.rotate_right(18) ^ (a >> 3);
        let s1 = b.rotate_right(17) ^ b.rotate_right(19) ^ (b >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *h;
    for i in 0..64 {
        let [a, b, c, d, e, f, g, hh] = v;
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let k = (K64[i] >> 32) as u32;
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(k).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        v = [t1.wrapping_add(s0).wrapping_add(maj), a, b, c, d.wrapping_add(t1), e, f, g];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

/// SHA-512 compression of one 128-byte block (§6.4.2).
#[inline(never)]
fn old64(h: &mut [u64; 8], block: &[u8; 128]) {
    let mut w = [0u64; 80];
    for i in 0..16 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&block[8 * i..8 * i + 8]);
        w[i] = u64::from_be_bytes(b);
    }
    for i in 16..80 {
        let (a, b) = (w[i - 15], w[i - 2]);
        let s0 = a.rotate_right(1) ^ a.rotate_right(8) ^ (a >> 7);
        let s1 = b.rotate_right(19) ^ b.rotate_right(61) ^ (b >> 6);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *h;
    for i in 0..80 {
        let [a, b, c, d, e, f, g, hh] = v;
        let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K64[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        v = [t1.wrapping_add(s0).wrapping_add(maj), a, b, c, d.wrapping_add(t1), e, f, g];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

#[test]
fn bench_sha() {
    let m: Vec<u8> = (0..65536u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let mut buf = [0u8; 128];
    let mut sink = 0u8;
    let mut ts = [vec![], vec![], vec![], vec![], vec![], vec![]];
    for _ in 0..31 {
        let mut k = 0;
        let mut time = |ts: &mut [Vec<f64>; 6], f: &mut dyn FnMut() -> u8| {
            let t = now();
            sink ^= f();
            ts[k].push((now() - t) * 1e3);
            k += 1;
        };
        time(&mut ts, &mut || sha2::Sha256::digest(&m)[0]);
        time(&mut ts, &mut || {
            let mut h = IV_512.map(|x| (x >> 32) as u32);
            for c in m.chunks_exact(64) {
                buf[..64].copy_from_slice(c);
                old32(&mut h, &buf);
            }
            h[0] as u8
        });
        time(&mut ts, &mut || {
            let mut h = Sha2::new(Variant::Sha256);
            h.update(&m);
            h.finalize()[0]
        });
        time(&mut ts, &mut || sha2::Sha512::digest(&m)[0]);
        time(&mut ts, &mut || {
            let mut h = IV_512;
            for c in m.chunks_exact(128) {
                buf.copy_from_slice(c);
                old64(&mut h, &buf);
            }
            h[0] as u8
        });
        time(&mut ts, &mut || {
            let mut h = Sha2::new(Variant::Sha512);
            h.update(&m);
            h.finalize()[0]
        });
    }
    let [a, b, c, d, e, f] = ts.map(med);
    console_log!(
        "64 KiB, µs (median of 31): SHA-256 sha2 crate {a:.0}, old {b:.0} ({:.2}x), new {c:.0} ({:.2}x); \
         SHA-512 sha2 crate {d:.0}, old {e:.0} ({:.2}x), new {f:.0} ({:.2}x) [{sink}]",
        b / a,
        c / a,
        e / d,
        f / d
    );
}
