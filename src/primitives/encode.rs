//! Bit packing of keys and signatures (FIPS 204 §7.1–7.2).
//!
//! Coefficient i occupies bits [i·b, (i+1)·b) of the output, least
//! significant first (SimpleBitPack, Algorithm 16; BitPack, Algorithm 17, is
//! SimpleBitPack of b − w). The routines are specialised per width and depend
//! only on it, never on the values, so packing secrets is constant-time.

use crate::backend::{Active, EncodeKernels};
use crate::params::{Params, D, SEED_BYTES, TR_BYTES};
use crate::ring::Poly;

// The packers are the active backend's (`backend.rs`), generic over the width
// B, and store or return (c ⊕ x) + y, which covers SimpleBitPack (x = y = 0)
// and BitPack (x = −1, y = b + 1: b − c) without a temporary polynomial.

/// The one place a run-time width picks a routine. The widths of FIPS 204:
/// η (3, 4), t0 (13), t1 (10), z (18, 20), w1 (4, 6); w1 is never unpacked.
/// The contract of both (x, y and the bytes read and written) is
/// `EncodeKernels`'s (`backend.rs`).
fn pack_with(p: &Poly, bits: usize, x: i32, y: i32, out: &mut [u8]) {
    match bits {
        3 => Active::pack::<3>(p, x, y, out),
        4 => Active::pack::<4>(p, x, y, out),
        6 => Active::pack::<6>(p, x, y, out),
        10 => Active::pack::<10>(p, x, y, out),
        13 => Active::pack::<13>(p, x, y, out),
        18 => Active::pack::<18>(p, x, y, out),
        20 => Active::pack::<20>(p, x, y, out),
        _ => unreachable!(),
    }
}

fn unpack_with(inp: &[u8], bits: usize, x: i32, y: i32, p: &mut Poly) {
    match bits {
        3 => Active::unpack::<3>(inp, x, y, p),
        4 => Active::unpack::<4>(inp, x, y, p),
        10 => Active::unpack::<10>(inp, x, y, p),
        13 => Active::unpack::<13>(inp, x, y, p),
        18 => Active::unpack::<18>(inp, x, y, p),
        20 => Active::unpack::<20>(inp, x, y, p),
        _ => unreachable!(),
    }
}

/// SimpleBitPack (Algorithm 16): the low `bits` bits of each coefficient into
/// `out` (32·bits bytes), coefficient i at bits [i·bits, (i+1)·bits).
pub fn pack_bits(p: &Poly, bits: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * bits);
    pack_with(p, bits, 0, 0, out);
}

/// SimpleBitUnpack (Algorithm 18): 256 coefficients of `bits` bits each from
/// `inp` (32·bits bytes). Every coefficient comes back in [0, 2^bits).
pub fn unpack_bits(inp: &[u8], bits: usize, p: &mut Poly) {
    debug_assert_eq!(inp.len(), 32 * bits);
    unpack_with(inp, bits, 0, 0, p);
}

/// BitPack(w, a, b) (Algorithm 17) for coefficients in [−a, b]: stores b − w.
pub fn pack_offset(p: &Poly, b: i32, bits: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * bits);
    pack_with(p, bits, -1, b + 1, out);
}

/// BitUnpack (Algorithm 19): b − (stored value), in [b − 2^bits + 1, b].
pub fn unpack_offset(inp: &[u8], b: i32, bits: usize, p: &mut Poly) {
    debug_assert_eq!(inp.len(), 32 * bits);
    unpack_with(inp, bits, -1, b + 1, p);
}

const T1_BITS: usize = 23 - D as usize;

// The blocks of a key or signature are split off one at a time, not taken
// with `chunks_exact` or indexed as buf[i·len..]: both let LLVM compute a trip
// count as length / block size, which for wasm32 stays an integer division,
// and scripts/wasm-div-scan.mjs refuses those in code keygen and signing reach.

/// Splits the first `len` bytes off `rest`.
#[inline(always)]
fn take<'a>(rest: &mut &'a [u8], len: usize) -> &'a [u8] {
    let (head, tail) = rest.split_at(len);
    *rest = tail;
    head
}

#[inline(always)]
fn take_mut<'a>(rest: &mut &'a mut [u8], len: usize) -> &'a mut [u8] {
    let (head, tail) = core::mem::take(rest).split_at_mut(len);
    *rest = tail;
    head
}

/// pkEncode (Algorithm 22): ρ ‖ SimpleBitPack(t1[i], 2^10 − 1) for each i.
pub fn pk_encode(p: &Params, rho: &[u8], t1: &[Poly], pk: &mut [u8]) {
    pk[..SEED_BYTES].copy_from_slice(rho);
    let mut rest = &mut pk[SEED_BYTES..];
    for t in &t1[..p.k] {
        pack_bits(t, T1_BITS, take_mut(&mut rest, 32 * T1_BITS));
    }
}

/// pkDecode (Algorithm 23): returns ρ; every 10-bit value is a valid t1 coefficient.
pub fn pk_decode<'a>(p: &Params, pk: &'a [u8], t1: &mut [Poly]) -> &'a [u8] {
    let mut rest = &pk[SEED_BYTES..];
    for t in &mut t1[..p.k] {
        unpack_bits(take(&mut rest, 32 * T1_BITS), T1_BITS, t);
    }
    &pk[..SEED_BYTES]
}

/// Borrowed parts of an encoded secret key.
pub struct SkParts<'a> {
    pub rho: &'a [u8],
    pub key: &'a [u8],
    pub tr: &'a [u8],
}

/// skEncode (Algorithm 24): ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0.
pub fn sk_encode(p: &Params, parts: &SkParts, s1: &[Poly], s2: &[Poly], t0: &[Poly], sk: &mut [u8]) {
    sk[..32].copy_from_slice(parts.rho);
    sk[32..64].copy_from_slice(parts.key);
    sk[64..64 + TR_BYTES].copy_from_slice(parts.tr);
    let eb = p.eta_bits();
    let mut rest = &mut sk[64 + TR_BYTES..];
    for s in s1.iter().chain(s2.iter()) {
        pack_offset(s, p.eta, eb, take_mut(&mut rest, 32 * eb));
    }
    for t in t0 {
        pack_offset(t, 1 << (D - 1), D as usize, take_mut(&mut rest, 32 * D as usize));
    }
}

/// skDecode (Algorithm 25). Returns None when a coefficient of s1 or s2 lies
/// outside [−η, η], which no key from KeyGen has. The range check scans every
/// coefficient and only the verdict can leak.
pub fn sk_decode<'a>(
    p: &Params,
    sk: &'a [u8],
    s1: &mut [Poly],
    s2: &mut [Poly],
    t0: &mut [Poly],
) -> Option<SkParts<'a>> {
    let eb = p.eta_bits();
    let mut bad = 0i32;
    let mut rest = &sk[64 + TR_BYTES..];
    for s in s1.iter_mut().chain(s2.iter_mut()) {
        unpack_offset(take(&mut rest, 32 * eb), p.eta, eb, s);
        for &c in s.0.iter() {
            // c ∈ [η − (2^eb − 1), η]; negative when c < −η.
            bad |= c + p.eta;
        }
    }
    for t in t0 {
        unpack_offset(take(&mut rest, 32 * D as usize), 1 << (D - 1), D as usize, t);
    }
    // Declassified: the verdict only. A key from KeyGen always passes; a
    // malformed one is refused with an error that says so.
    if crate::ct::declassified(bad < 0) {
        return None;
    }
    Some(SkParts { rho: &sk[..32], key: &sk[32..64], tr: &sk[64..64 + TR_BYTES] })
}

/// sigEncode (Algorithm 26): c̃ ‖ BitPack(z[i], γ1 − 1, γ1) ‖ HintBitPack(h).
/// Variable time: HintBitPack (Algorithm 20) branches on the hint. Call it
/// only on the accepted (z, h), which are public as the signature being
/// output (Sign_internal declassifies them before the call).
pub fn sig_encode_vartime(p: &Params, c_tilde: &[u8], z: &[Poly], h: &[Poly], sig: &mut [u8]) {
    let ct = p.c_tilde_bytes();
    let zb = p.z_bits();
    sig[..ct].copy_from_slice(c_tilde);
    let mut rest = &mut sig[ct..];
    for zi in &z[..p.l] {
        pack_offset(zi, p.gamma1, zb, take_mut(&mut rest, 32 * zb));
    }
    let y = &mut sig[ct + 32 * zb * p.l..];
    y.fill(0);
    let mut index = 0;
    for (i, hi) in h.iter().enumerate().take(p.k) {
        for (j, &bit) in hi.0.iter().enumerate() {
            if bit != 0 {
                y[index] = j as u8;
                index += 1;
            }
        }
        y[p.omega + i] = index as u8;
    }
}

/// sigDecode (Algorithm 27) with HintBitUnpack (Algorithm 21). Returns c̃, or
/// None for a malformed hint: a count above ω or below the previous one,
/// indices not strictly increasing within a polynomial, or non-zero padding.
/// Variable time (it branches and indexes on the hint bytes): verification
/// only, where the signature is public.
pub fn sig_decode_vartime<'a>(p: &Params, sig: &'a [u8], z: &mut [Poly], h: &mut [Poly]) -> Option<&'a [u8]> {
    let ct = p.c_tilde_bytes();
    let zb = p.z_bits();
    let mut rest = &sig[ct..];
    for zi in &mut z[..p.l] {
        unpack_offset(take(&mut rest, 32 * zb), p.gamma1, zb, zi);
    }
    let y = &sig[ct + 32 * zb * p.l..];
    let mut index = 0usize;
    for (i, hi) in h.iter_mut().enumerate().take(p.k) {
        *hi = Poly::zero();
        let end = y[p.omega + i] as usize;
        if end < index || end > p.omega {
            return None;
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return None;
            }
            hi.0[y[index] as usize] = 1;
            index += 1;
        }
    }
    if y[index..p.omega].iter().any(|&b| b != 0) {
        return None;
    }
    Some(&sig[..ct])
}

/// w1Encode (Algorithm 28): SimpleBitPack of each w1[i] with bitlen((q−1)/(2γ2) − 1) bits.
pub fn w1_encode(p: &Params, w1: &[Poly], out: &mut [u8]) {
    let b = p.w1_bits();
    let mut rest = out;
    for w in w1 {
        pack_bits(w, b, take_mut(&mut rest, 32 * b));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::params::{ParamSet, N};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The reference: the original one-byte-at-a-time packer, for any width.
    pub(crate) fn ref_pack(p: &Poly, bits: usize, out: &mut [u8]) {
        let mask = (1u64 << bits) - 1;
        let (mut acc, mut have, mut o) = (0u64, 0usize, 0usize);
        for &c in p.0.iter() {
            acc |= (c as u32 as u64 & mask) << have;
            have += bits;
            while have >= 8 {
                out[o] = acc as u8;
                o += 1;
                acc >>= 8;
                have -= 8;
            }
        }
    }

    pub(crate) fn ref_unpack(inp: &[u8], bits: usize, p: &mut Poly) {
        let mask = (1u64 << bits) - 1;
        let (mut acc, mut have, mut i) = (0u64, 0usize, 0usize);
        for c in p.0.iter_mut() {
            while have < bits {
                acc |= (inp[i] as u64) << have;
                i += 1;
                have += 8;
            }
            *c = (acc & mask) as i32;
            acc >>= bits;
            have -= bits;
        }
    }

    /// Inputs for width B: random, all zero, all ones, alternating bits and
    /// alternating extremes.
    fn fields(bits: usize, seed: u64) -> Vec<Poly> {
        let max = (1i32 << bits) - 1;
        let mut rng = crate::test_rng::Rng(seed);
        let mut v: Vec<Poly> = (0..8).map(|_| rng.poly_in(0, max)).collect();
        v.push(Poly([0; N]));
        v.push(Poly([max; N]));
        v.push(Poly([0x5555_5555 & max; N]));
        v.push(Poly([0x2aaa_aaaa & max; N]));
        v.push(Poly(core::array::from_fn(|i| if i % 2 == 0 { max } else { 0 })));
        v.push(Poly(core::array::from_fn(|i| if i % 2 == 0 { 0 } else { max })));
        v
    }

    fn bytes(bits: usize, seed: u64) -> Vec<Vec<u8>> {
        let mut rng = crate::test_rng::Rng(seed);
        let mut v: Vec<Vec<u8>> = (0..8).map(|_| (0..32 * bits).map(|_| rng.next() as u8).collect()).collect();
        for b in [0x00, 0xff, 0x55, 0xaa] {
            v.push(vec![b; 32 * bits]);
        }
        v.push((0..32 * bits).map(|i| if i % 2 == 0 { 0xff } else { 0 }).collect());
        v
    }

    /// Both backends against the reference, plain and with an offset b (the
    /// bounds FIPS 204 uses: η, 2^12, γ1), and each backend's round trip.
    fn check_width<const B: usize>(offsets: &[i32]) {
        for (n, a) in fields(B, B as u64).iter().enumerate() {
            let mut want = vec![0u8; 32 * B];
            ref_pack(a, B, &mut want);
            for &b in [0].iter().chain(offsets) {
                // The coefficients that store a: c = b − a (plain: c = a).
                let c = if b == 0 { *a } else { Poly(a.0.map(|f| b - f)) };
                let (x, y) = if b == 0 { (0, 0) } else { (-1, b + 1) };
                let mut got = vec![0u8; 32 * B];
                Portable::pack::<B>(&c, x, y, &mut got);
                assert_eq!(got, want, "portable pack B {B} b {b} input {n}");
                let mut got = vec![0u8; 32 * B];
                Active::pack::<B>(&c, x, y, &mut got);
                assert_eq!(got, want, "backend pack B {B} b {b} input {n}");
                let mut back = Poly::zero();
                Active::unpack::<B>(&got, x, y, &mut back);
                assert_eq!(back, c, "round trip B {B} b {b} input {n}");
            }
        }
        for (n, inp) in bytes(B, 100 + B as u64).iter().enumerate() {
            let mut want = Poly::zero();
            ref_unpack(inp, B, &mut want);
            for &b in [0].iter().chain(offsets) {
                let want = if b == 0 { want } else { Poly(want.0.map(|f| b - f)) };
                let (x, y) = if b == 0 { (0, 0) } else { (-1, b + 1) };
                let mut got = Poly::zero();
                Portable::unpack::<B>(inp, x, y, &mut got);
                assert_eq!(got, want, "portable unpack B {B} b {b} input {n}");
                let mut got = Poly::zero();
                Active::unpack::<B>(inp, x, y, &mut got);
                assert_eq!(got, want, "backend unpack B {B} b {b} input {n}");
            }
        }
    }

    #[test]
    fn packers_match_the_reference_at_every_width() {
        check_width::<3>(&[2]);
        check_width::<4>(&[4]);
        check_width::<6>(&[]);
        check_width::<10>(&[]);
        check_width::<13>(&[1 << 12]);
        check_width::<18>(&[1 << 17]);
        check_width::<20>(&[1 << 19]);
    }

    fn pseudo(seed: u64, lo: i32, hi: i32) -> Poly {
        crate::test_rng::Rng(seed | 1).poly_in(lo, hi)
    }

    #[test]
    fn bit_packing_round_trips_every_width() {
        for bits in [3, 4, 10, 13, 18, 20] {
            let mut a = pseudo(bits as u64, 0, (1 << bits) - 1);
            a.0[0] = (1 << bits) - 1;
            a.0[255] = 0;
            let mut buf = vec![0u8; 32 * bits];
            pack_bits(&a, bits, &mut buf);
            let mut b = Poly::zero();
            unpack_bits(&buf, bits, &mut b);
            assert_eq!(a, b, "bits {bits}");
        }
        // Known layout: 10-bit values 1, 2, 3, ... little-endian.
        let mut p = Poly::zero();
        p.0[0] = 0x3ff;
        p.0[1] = 1;
        let mut out = [0u8; 320];
        pack_bits(&p, 10, &mut out);
        assert_eq!(&out[..3], &[0xff, 0x07, 0x00]);
    }

    #[test]
    fn sk_round_trip_and_range_check() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            let s1: Vec<Poly> = (0..p.l).map(|i| pseudo(i as u64 + 1, -p.eta, p.eta)).collect();
            let s2: Vec<Poly> = (0..p.k).map(|i| pseudo(i as u64 + 50, -p.eta, p.eta)).collect();
            let t0: Vec<Poly> = (0..p.k).map(|i| pseudo(i as u64 + 90, -(1 << 12) + 1, 1 << 12)).collect();
            let parts = SkParts { rho: &[1; 32], key: &[2; 32], tr: &[3; 64] };
            let mut sk = vec![0u8; ps.secret_key_len()];
            sk_encode(p, &parts, &s1, &s2, &t0, &mut sk);
            let (mut a, mut b, mut c) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k], vec![Poly::zero(); p.k]);
            let got = sk_decode(p, &sk, &mut a, &mut b, &mut c).expect("valid key");
            assert_eq!((got.rho, got.key, got.tr), (&[1u8; 32][..], &[2u8; 32][..], &[3u8; 64][..]));
            assert_eq!((a, b, c), (s1, s2, t0));
            // An out-of-range s1 coefficient (all-ones field = η − 7 or η − 15) is refused.
            let mut bad = sk.clone();
            bad[128] |= (1 << p.eta_bits()) - 1;
            let (mut a, mut b, mut c) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k], vec![Poly::zero(); p.k]);
            assert!(sk_decode(p, &bad, &mut a, &mut b, &mut c).is_none());
        }
    }

    #[test]
    fn sig_round_trip_and_malformed_hints() {
        let ps = ParamSet::MlDsa44;
        let p = ps.params();
        let z: Vec<Poly> = (0..p.l).map(|i| pseudo(i as u64 + 7, -p.gamma1 + 1, p.gamma1)).collect();
        let mut h = vec![Poly::zero(); p.k];
        h[0].0[3] = 1;
        h[0].0[200] = 1;
        h[2].0[0] = 1;
        let mut sig = vec![0u8; ps.signature_len()];
        sig_encode_vartime(p, &[9; 32], &z, &h, &mut sig);
        let (mut z2, mut h2) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k]);
        assert_eq!(sig_decode_vartime(p, &sig, &mut z2, &mut h2), Some(&[9u8; 32][..]));
        assert_eq!((&z2, &h2), (&z, &h));

        let hints = ps.signature_len() - p.omega - p.k;
        let mutate = |f: &dyn Fn(&mut [u8])| {
            let mut s = sig.clone();
            f(&mut s[hints..]);
            let (mut z2, mut h2) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k]);
            sig_decode_vartime(p, &s, &mut z2, &mut h2).map(|c| c.to_vec())
        };
        // Indices out of order within a polynomial.
        assert!(mutate(&|y| y.swap(0, 1)).is_none());
        // Repeated index.
        assert!(mutate(&|y| y[1] = y[0]).is_none());
        // A count that goes down, and one above ω.
        assert!(mutate(&|y| y[80 + 1] = 1).is_none());
        assert!(mutate(&|y| y[80 + 3] = 81).is_none());
        // Non-zero padding after the last index.
        assert!(mutate(&|y| y[79] = 1).is_none());
        // Order restarts with each polynomial: an index below the previous
        // polynomial's last one is fine (h[0] ends at 200, h[2] starts at 0).
        assert!(h[0].0[200] == 1 && h[2].0[0] == 1);
        assert!(mutate(&|y| {
            // Move h[2]'s only index to h[1]: counts 2, 3, 3, 3 with y[2] = 0 < y[1] = 200.
            y[80 + 1] = 3;
        })
        .is_some());
    }
}
