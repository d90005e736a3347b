//! Pseudorandom sampling (FIPS 204 §7.3), in the order of the standard:
//! SampleInBall (Algorithm 29), RejNTTPoly (30), RejBoundedPoly (31),
//! ExpandA (32), ExpandS (33) and ExpandMask (34). The parsers of RejNTTPoly
//! and RejBoundedPoly are the active backend's (`SampleKernels`, `backend.rs`).
//! Where two SHAKE states run at once on the two-lane Keccak, the pairs are
//! here (`_x2`); the schedules that interleave the samplers with a hash,
//! `MatrixRows` and `MaskStream`, are in `schedule`.

use crate::backend::{Active, SampleKernels};
use crate::encode::unpack_offset;
use crate::params::{Params, N};
use crate::ring::{NttPoly, Poly};
use crate::xof::{Shake128, Shake128x2, Shake256, Shake256x2, SHAKE128_RATE, SHAKE256_RATE};
use alloc::vec::Vec;
use zeroize::Zeroize;

#[path = "sample/schedule.rs"]
pub mod schedule;
/// Adversarial and random input streams for the parsers' differential tests.
#[cfg(test)]
#[path = "sample/streams.rs"]
pub(crate) mod streams;

/// SampleInBall (FIPS 204 Algorithm 29): c with τ coefficients ±1, the rest 0,
/// written over `c` (in place, so that the NTT can follow in the same memory).
///
/// Variable time: its loop and memory indices depend on c̃. The signer may
/// call it because c̃ is public: it is in the signature for the accepted
/// attempt, and for a rejected one it is a hash of μ and the discarded y
/// only (Sign_internal declassifies it, with the reason, before the call).
pub fn sample_in_ball_vartime(c_tilde: &[u8], tau: usize, c: &mut Poly) {
    let mut first = [0u8; SHAKE256_RATE];
    Shake256::new().absorb(c_tilde).finalize().squeeze(&mut first);
    sample_in_ball_from_vartime(c_tilde, &first, tau, c);
}

/// SampleInBall given the first block of H(c̃) (`first`), which is almost
/// always all it reads: 8 bytes of signs and about τ + 8 of positions. Should
/// it need more, H(c̃) is recomputed and squeezed past that block.
pub fn sample_in_ball_from_vartime(c_tilde: &[u8], first: &[u8; SHAKE256_RATE], tau: usize, c: &mut Poly) {
    let mut xof = None;
    let mut buf = *first;
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap());
    let mut pos = 8;
    *c = Poly::zero();
    for (n, i) in (N - tau..N).enumerate() {
        let j = loop {
            if pos == SHAKE256_RATE {
                let xof = xof.get_or_insert_with(|| {
                    let mut x = Shake256::new().absorb(c_tilde).finalize();
                    x.squeeze(&mut buf);
                    x
                });
                xof.squeeze(&mut buf);
                pos = 0;
            }
            let j = buf[pos] as usize;
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c.0[i] = c.0[j];
        c.0[j] = 1 - 2 * ((signs >> n) & 1) as i32;
    }
}

/// Bytes squeezed up front for one RejNTTPoly: five SHAKE128 blocks give 280
/// candidates, and 256 of them are accepted with probability about 1 − 2^−100
/// (each is accepted with probability q/2^23 ≈ 0.999); more blocks follow
/// only when needed.
const REJ_NTT_FIRST: usize = 5 * SHAKE128_RATE;

/// RejNTTPoly (FIPS 204 Algorithm 30) with seed ρ‖s‖r: a uniform element of T_q,
/// sampled in T_q directly (no NTT). Coefficients are in [0, q). Variable
/// time: how many blocks are squeezed and where each coefficient lands depend
/// on the stream. Allowed: ρ is public (part of pk), so Â is too.
pub fn rej_ntt_poly_vartime(rho: &[u8], s: u8, r: u8) -> NttPoly {
    let mut xof = Shake128::new().absorb(rho).absorb(&[s, r]).finalize();
    let mut buf = [0u8; REJ_NTT_FIRST];
    xof.squeeze(&mut buf);
    let mut a_hat = NttPoly::zero();
    let a = a_hat.coefficients_mut();
    let mut n = 0;
    Active::rej_ntt_parse_vartime(&buf, a, &mut n);
    while n < N {
        let block = &mut buf[..SHAKE128_RATE];
        xof.squeeze(block);
        Active::rej_ntt_parse_vartime(block, a, &mut n);
    }
    a_hat
}

/// Two RejNTTPoly at once on a two-lane SHAKE128: a0 from ρ‖s0‖r0 and a1 from
/// ρ‖s1‖r1. The same outputs as two `rej_ntt_poly_vartime` calls; variable
/// time for the same reason (ρ is public).
pub fn rej_ntt_poly_x2_vartime(rho: &[u8], (s0, r0): (u8, u8), (s1, r1): (u8, u8), a0: &mut NttPoly, a1: &mut NttPoly) {
    let (a0, a1) = (a0.coefficients_mut(), a1.coefficients_mut());
    let mut xof = Shake128x2::new([rho, &[s0, r0]], [rho, &[s1, r1]]);
    let mut buf0 = [0u8; REJ_NTT_FIRST];
    let mut buf1 = [0u8; REJ_NTT_FIRST];
    xof.squeeze(&mut buf0, &mut buf1);
    let (mut n0, mut n1) = (0, 0);
    Active::rej_ntt_parse_vartime(&buf0, a0, &mut n0);
    Active::rej_ntt_parse_vartime(&buf1, a1, &mut n1);
    while n0 < N || n1 < N {
        let (b0, b1) = (&mut buf0[..SHAKE128_RATE], &mut buf1[..SHAKE128_RATE]);
        xof.squeeze(b0, b1);
        Active::rej_ntt_parse_vartime(b0, a0, &mut n0);
        Active::rej_ntt_parse_vartime(b1, a1, &mut n1);
    }
}

/// RejBoundedPoly (FIPS 204 Algorithm 31) with seed ρ′‖IntegerToBytes(nonce, 2):
/// coefficients in [−η, η].
pub fn rej_bounded_poly(rho_prime: &[u8], nonce: u16, eta: i32) -> Poly {
    let mut xof = Shake256::new().absorb(rho_prime).absorb(&nonce.to_le_bytes()).finalize();
    let mut buf = [0u8; SHAKE256_RATE];
    let mut a = Poly::zero();
    let mut n = 0;
    while n < N {
        xof.squeeze(&mut buf);
        Active::rej_bounded_parse(&buf, eta, &mut a, &mut n);
    }
    buf.zeroize();
    a
}

/// Two RejBoundedPoly at once on a two-lane SHAKE256, with nonces n0 and n1.
/// The same outputs as two `rej_bounded_poly` calls.
pub fn rej_bounded_poly_x2(rho_prime: &[u8], nonces: [u16; 2], eta: i32, a0: &mut Poly, a1: &mut Poly) {
    let (k0, k1) = (nonces[0].to_le_bytes(), nonces[1].to_le_bytes());
    let mut xof = Shake256x2::new([rho_prime, &k0], [rho_prime, &k1]);
    let mut buf0 = [0u8; SHAKE256_RATE];
    let mut buf1 = [0u8; SHAKE256_RATE];
    let (mut n0, mut n1) = (0, 0);
    while n0 < N || n1 < N {
        xof.squeeze(&mut buf0, &mut buf1);
        Active::rej_bounded_parse(&buf0, eta, a0, &mut n0);
        Active::rej_bounded_parse(&buf1, eta, a1, &mut n1);
    }
    buf0.zeroize();
    buf1.zeroize();
}

/// ExpandA (FIPS 204 Algorithm 32), row-major: a_hat[r·ℓ + s] = Â[r][s] ∈ T_q,
/// generated two entries at a time in that order, straight into `a_hat`.
pub fn expand_a(p: &Params, rho: &[u8], a_hat: &mut [NttPoly]) {
    let mut at = (0u8, 0u8);
    let after = |(s, r): (u8, u8)| if s as usize + 1 == p.l { (0, r + 1) } else { (s + 1, r) };
    let mut pairs = a_hat[..p.k * p.l].chunks_exact_mut(2);
    for pair in &mut pairs {
        let [a0, a1] = pair else { unreachable!() };
        let next = after(at);
        rej_ntt_poly_x2_vartime(rho, at, next, a0, a1);
        at = after(next);
    }
    if let [last] = pairs.into_remainder() {
        *last = rej_ntt_poly_vartime(rho, at.0, at.1);
    }
}

/// ExpandS (FIPS 204 Algorithm 33): s1 ∈ S_η^ℓ and s2 ∈ S_η^k from ρ′.
/// The ℓ + k polynomials (nonces 0, 1, …, ℓ + k − 1) are drawn two at a
/// time; when ℓ + k is odd the last one is drawn alone.
pub fn expand_s(p: &Params, rho_prime: &[u8], s1: &mut [Poly], s2: &mut [Poly]) {
    let mut all: Vec<&mut Poly> = s1.iter_mut().chain(s2.iter_mut()).collect();
    let mut nonce = 0u16;
    let mut pairs = all.chunks_exact_mut(2);
    for pair in &mut pairs {
        let [a0, a1] = pair else { unreachable!() };
        rej_bounded_poly_x2(rho_prime, [nonce, nonce + 1], p.eta, a0, a1);
        nonce += 2;
    }
    if let [last] = pairs.into_remainder() {
        **last = rej_bounded_poly(rho_prime, nonce, p.eta);
    }
}

/// SHAKE256 blocks squeezed for one polynomial of ExpandMask: 32·(1 +
/// bitlen(γ1 − 1)) = 576 or 640 bytes, more than four blocks of 136.
const MASK_BLOCKS: usize = 5;

/// ExpandMask (FIPS 204 Algorithm 34) steps 4–5 for one r: y_r =
/// BitUnpack(v, γ1 − 1, γ1), with v the first 32·c bytes of
/// H(ρ″ ‖ IntegerToBytes(κ + r, 2)) (c = 1 + bitlen(γ1 − 1)); coefficients in
/// (−γ1, γ1]. The signer squeezes v on the two-lane schedule of
/// `schedule::MaskStream`, which draws the next attempt's y beside c̃'s hash.
pub fn mask_poly_from(p: &Params, v: &[u8], y: &mut Poly) {
    let bits = p.z_bits();
    unpack_offset(&v[..32 * bits], p.gamma1, bits, y);
}

/// ExpandMask (FIPS 204 Algorithm 34) on one lane, y[r] from nonce κ + r mod
/// 2^16: the reference of `schedule::MaskStream`, which gives the same y.
#[cfg(test)]
pub fn expand_mask(p: &Params, rho_pp: &[u8], kappa: u16, y: &mut [Poly]) {
    for (r, yr) in y.iter_mut().enumerate() {
        let mut v = [0u8; MASK_BLOCKS * SHAKE256_RATE];
        let nonce = kappa.wrapping_add(r as u16);
        Shake256::new().absorb(rho_pp).absorb(&nonce.to_le_bytes()).finalize().squeeze(&mut v);
        mask_poly_from(p, &v, yr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamSet, Q};
    use crate::xof::h;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sample_in_ball_has_tau_signs() {
        for (i, tau) in [39usize, 49, 60].into_iter().enumerate() {
            for seed in 0u8..20 {
                let mut c = Poly([7; N]);
                sample_in_ball_vartime(&[seed ^ i as u8; 48], tau, &mut c);
                assert_eq!(c.0.iter().filter(|&&x| x != 0).count(), tau);
                assert!(c.0.iter().all(|&x| (-1..=1).contains(&x)));
            }
        }
    }

    /// SampleInBall over a byte stream, as Algorithm 29 reads it.
    fn sample_in_ball_reference(stream: &[u8], tau: usize) -> Poly {
        let mut c = Poly::zero();
        let signs = u64::from_le_bytes(stream[..8].try_into().unwrap());
        let mut pos = 8;
        for (n, i) in (N - tau..N).enumerate() {
            while stream[pos] as usize > i {
                pos += 1;
            }
            let j = stream[pos] as usize;
            pos += 1;
            c.0[i] = c.0[j];
            c.0[j] = 1 - 2 * ((signs >> n) & 1) as i32;
        }
        c
    }

    /// Given its first block of H(c̃), SampleInBall equals Algorithm 29; when
    /// that block runs out (a first block that rejects its 128 positions)
    /// it goes on with the rest of H(c̃).
    #[test]
    fn sample_in_ball_from_first_block() {
        for (k, tau) in [39usize, 49, 60].into_iter().enumerate() {
            let c_tilde = [k as u8 * 3 + 1; 48];
            let mut full = [0u8; 4 * SHAKE256_RATE];
            h(&[&c_tilde], &mut full);
            let first: [u8; SHAKE256_RATE] = full[..SHAKE256_RATE].try_into().unwrap();
            let (mut a, mut b) = (Poly::zero(), Poly::zero());
            sample_in_ball_from_vartime(&c_tilde, &first, tau, &mut a);
            sample_in_ball_vartime(&c_tilde, tau, &mut b);
            assert_eq!(a, b);
            assert_eq!(a, sample_in_ball_reference(&full, tau));
            let mut odd = [0xffu8; SHAKE256_RATE];
            odd[..8].copy_from_slice(&first[..8]);
            let mut stream = full;
            stream[..SHAKE256_RATE].copy_from_slice(&odd);
            sample_in_ball_from_vartime(&c_tilde, &odd, tau, &mut a);
            assert_eq!(a, sample_in_ball_reference(&stream, tau), "τ {tau}, first block used up");
        }
    }

    #[test]
    fn rejection_samplers_stay_in_range() {
        for nonce in 0..40u16 {
            let a = rej_ntt_poly_vartime(&[nonce as u8; 32], 3, 1);
            assert!(a.coefficients().0.iter().all(|&x| (0..Q).contains(&x)));
            for eta in [2, 4] {
                let s = rej_bounded_poly(&[7u8; 64], nonce, eta);
                assert!(s.0.iter().all(|&x| (-eta..=eta).contains(&x)));
                for v in -eta..=eta {
                    assert!(s.0.contains(&v), "value {v} never drawn (eta {eta})");
                }
            }
        }
    }

    /// The branch-free parsers on extreme input: all-rejected candidates
    /// advance nothing, accepted ones land in order, and a buffer parsed in
    /// pieces (as when more blocks are squeezed) gives what it gives at once.
    #[test]
    fn parsers_keep_exactly_the_accepted_values() {
        let mut a = Poly::zero();
        let mut n = 0;
        Active::rej_ntt_parse_vartime(&[0xff; 168], &mut a, &mut n); // z = 2^23 − 1 ≥ q
        assert_eq!(n, 0);
        // q − 1 is accepted, q rejected, 0 accepted.
        let (qm1, q) = ((Q - 1).to_le_bytes(), Q.to_le_bytes());
        Active::rej_ntt_parse_vartime(&[qm1[0], qm1[1], qm1[2], q[0], q[1], q[2], 0, 0, 0x80], &mut a, &mut n);
        assert_eq!((n, a.0[0], a.0[1]), (2, Q - 1, 0));
        for eta in [2, 4] {
            let mut n = 0;
            Active::rej_bounded_parse(&[0xff; 136], eta, &mut a, &mut n); // z = 15 is rejected for both η
            assert_eq!(n, 0);
            // Half-bytes 0, 15, 8, 14, 9, 0: η = 2 keeps 0, 8, 14, 9, 0; η = 4 keeps 0, 8, 0.
            Active::rej_bounded_parse(&[0xf0, 0xe8, 0x09], eta, &mut a, &mut n);
            let want: &[i32] = if eta == 2 { &[2, -1, -2, -2, 2] } else { &[4, -4, 4] };
            assert_eq!(&a.0[..n], want, "eta {eta}");
        }
        // Top bytes 0xFF: z = 0x7F‖b1‖b0 is rejected when b1‖b0 ≥ 0xE001 (about 1 in 8).
        let buf: Vec<u8> = (0..5 * 168).map(|i| if i % 3 == 2 { 0xff } else { (i * 97 + 13) as u8 }).collect();
        let (mut whole, mut parts) = (Poly::zero(), Poly::zero());
        let (mut n1, mut n2) = (0, 0);
        Active::rej_ntt_parse_vartime(&buf, &mut whole, &mut n1);
        for block in buf.chunks(168) {
            Active::rej_ntt_parse_vartime(block, &mut parts, &mut n2);
        }
        assert_eq!((n1, whole), (n2, parts));
        assert!(n1 > 0 && n1 < N, "the buffer is meant to reject many candidates");
    }

    /// The two-lane samplers against the one-lane ones, for every parameter
    /// set (odd and even counts) and a few seeds, including all-zero and
    /// all-0xFF seeds.
    #[test]
    fn two_lane_samplers_equal_one_lane() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            for seed in [0u8, 0xff, 0x5a] {
                let rho: Vec<u8> = (0..64u8).map(|i| seed ^ i.wrapping_mul(seed | 1)).collect();
                let mut a_hat = vec![NttPoly::zero(); p.k * p.l];
                expand_a(p, &rho[..32], &mut a_hat);
                for r in 0..p.k {
                    for s in 0..p.l {
                        assert_eq!(
                            a_hat[r * p.l + s],
                            rej_ntt_poly_vartime(&rho[..32], s as u8, r as u8),
                            "Â[{r}][{s}]"
                        );
                    }
                }
                let mut rows = schedule::MatrixRows::new(p, &rho[..32]);
                let mut row = vec![NttPoly::zero(); p.l];
                for r in 0..p.k {
                    rows.next_row(&mut row);
                    assert_eq!(row[..], a_hat[r * p.l..(r + 1) * p.l], "row {r} of Â");
                }
                let (mut s1, mut s2) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k]);
                expand_s(p, &rho, &mut s1, &mut s2);
                for (r, s) in s1.iter().chain(s2.iter()).enumerate() {
                    assert_eq!(*s, rej_bounded_poly(&rho, r as u16, p.eta), "s[{r}]");
                }
                // κ near 2^16 checks the wrap of IntegerToBytes(κ + r, 2).
                for kappa in [0u16, 65533] {
                    let mut y = vec![Poly::zero(); p.l];
                    schedule::MaskStream::new(p, &rho).fill(kappa, &mut y);
                    for (r, yr) in y.iter().enumerate() {
                        let nonce = kappa.wrapping_add(r as u16);
                        assert_eq!(*yr, mask_reference(p, &rho, nonce), "y[{r}] κ {kappa}");
                    }
                }
            }
        }
    }

    /// ExpandMask one polynomial at a time equals Algorithm 34 as written,
    /// across the 2^16 wrap of the nonce.
    #[test]
    fn expand_mask_is_algorithm_34() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            let rho_pp = [0x6bu8; 64];
            let mut y = vec![Poly::zero(); p.l];
            expand_mask(p, &rho_pp, 65534, &mut y);
            for (r, yr) in y.iter().enumerate() {
                assert_eq!(*yr, mask_reference(p, &rho_pp, 65534u16.wrapping_add(r as u16)), "{ps:?} y[{r}]");
            }
        }
    }

    /// y_r straight from Algorithm 34: one-lane SHAKE256(ρ″ ‖ IntegerToBytes(nonce, 2)).
    fn mask_reference(p: &Params, rho_pp: &[u8], nonce: u16) -> Poly {
        let mut v = [0u8; 640];
        let v = &mut v[..32 * p.z_bits()];
        Shake256::new().absorb(rho_pp).absorb(&nonce.to_le_bytes()).finalize().squeeze(v);
        let mut y = Poly::zero();
        crate::encode::unpack_bits(v, p.z_bits(), &mut y);
        y.0.iter_mut().for_each(|c| *c = p.gamma1 - *c);
        y
    }
}
