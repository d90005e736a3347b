//! Pseudorandom sampling (FIPS 204 §7.3): SampleInBall, RejNTTPoly,
//! RejBoundedPoly, ExpandA, ExpandS and ExpandMask.

use crate::encode::unpack_bits;
use crate::params::{Params, N, Q};
use crate::poly::Poly;
use crate::xof::{Shake128, Shake256, SHAKE128_RATE, SHAKE256_RATE};
use zeroize::Zeroize;

/// SampleInBall (FIPS 204 Algorithm 29): c with τ coefficients ±1, the rest 0.
///
/// The memory indices here depend on c̃. That is the one exception of the
/// signer's constant-time rule: c̃ is published in the signature, and the c̃ of
/// a rejected attempt is a hash of the commitment only, which reveals nothing
/// about s1, s2 (the reference implementation relies on the same argument).
pub fn sample_in_ball(c_tilde: &[u8], tau: usize) -> Poly {
    let mut xof = Shake256::new().absorb(c_tilde).finalize();
    let mut buf = [0u8; SHAKE256_RATE];
    xof.squeeze(&mut buf);
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap());
    let mut pos = 8;
    let mut c = Poly::zero();
    for (n, i) in (N - tau..N).enumerate() {
        let j = loop {
            if pos == SHAKE256_RATE {
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
    c
}

/// RejNTTPoly (FIPS 204 Algorithm 30) with seed ρ‖s‖r: a uniform element of T_q.
/// Coefficients are in [0, q). The input is public, so rejection may branch.
pub fn rej_ntt_poly(rho: &[u8], s: u8, r: u8) -> Poly {
    let mut xof = Shake128::new().absorb(rho).absorb(&[s, r]).finalize();
    let mut buf = [0u8; SHAKE128_RATE];
    let mut a = Poly::zero();
    let mut n = 0;
    while n < N {
        xof.squeeze(&mut buf);
        for b in buf.chunks_exact(3) {
            // CoeffFromThreeBytes (Algorithm 14).
            let z = (b[0] as i32) | (b[1] as i32) << 8 | ((b[2] & 0x7f) as i32) << 16;
            if z < Q {
                a.0[n] = z;
                n += 1;
                if n == N {
                    break;
                }
            }
        }
    }
    a
}

/// RejBoundedPoly (FIPS 204 Algorithm 31) with seed ρ′‖IntegerToBytes(nonce, 2):
/// coefficients in [−η, η].
///
/// Which half-bytes are rejected depends on the secret stream; FIPS 204
/// allows that (rejected values are discarded). The accepted value is mapped
/// without division: for z < 15, z mod 5 = z − 5·⌊205·z / 1024⌋.
pub fn rej_bounded_poly(rho_prime: &[u8], nonce: u16, eta: i32) -> Poly {
    let mut xof = Shake256::new().absorb(rho_prime).absorb(&nonce.to_le_bytes()).finalize();
    let mut buf = [0u8; SHAKE256_RATE];
    let mut a = Poly::zero();
    let mut n = 0;
    'outer: loop {
        xof.squeeze(&mut buf);
        for &b in buf.iter() {
            for z in [(b & 15) as i32, (b >> 4) as i32] {
                // CoeffFromHalfByte (Algorithm 15).
                let coeff = if eta == 2 {
                    if z >= 15 {
                        continue;
                    }
                    2 - (z - 5 * ((205 * z) >> 10))
                } else {
                    if z >= 9 {
                        continue;
                    }
                    4 - z
                };
                a.0[n] = coeff;
                n += 1;
                if n == N {
                    break 'outer;
                }
            }
        }
    }
    buf.zeroize();
    a
}

/// ExpandS (FIPS 204 Algorithm 33): s1 ∈ S_η^ℓ and s2 ∈ S_η^k from ρ′.
pub fn expand_s(p: &Params, rho_prime: &[u8], s1: &mut [Poly], s2: &mut [Poly]) {
    for (r, s) in s1.iter_mut().enumerate() {
        *s = rej_bounded_poly(rho_prime, r as u16, p.eta);
    }
    for (r, s) in s2.iter_mut().enumerate() {
        *s = rej_bounded_poly(rho_prime, (p.l + r) as u16, p.eta);
    }
}

/// ExpandA (FIPS 204 Algorithm 32), row-major: a_hat[r·ℓ + s] = Â[r][s].
pub fn expand_a(p: &Params, rho: &[u8], a_hat: &mut [Poly]) {
    for r in 0..p.k {
        for s in 0..p.l {
            a_hat[r * p.l + s] = rej_ntt_poly(rho, s as u8, r as u8);
        }
    }
}

/// ExpandMask (FIPS 204 Algorithm 34): y with coefficients in (−γ1, γ1].
pub fn expand_mask(p: &Params, rho_pp: &[u8], kappa: u16, y: &mut [Poly]) {
    let bits = p.z_bits();
    let mut buf = [0u8; 32 * 20];
    let v = &mut buf[..32 * bits];
    for (r, yr) in y.iter_mut().enumerate() {
        let nonce = kappa.wrapping_add(r as u16);
        let mut xof = Shake256::new().absorb(rho_pp).absorb(&nonce.to_le_bytes()).finalize();
        xof.squeeze(v);
        unpack_bits(v, bits, yr);
        for c in yr.0.iter_mut() {
            *c = p.gamma1 - *c;
        }
    }
    buf.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSet;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sample_in_ball_has_tau_signs() {
        for (i, tau) in [39usize, 49, 60].into_iter().enumerate() {
            for seed in 0u8..20 {
                let c = sample_in_ball(&[seed ^ i as u8; 48], tau);
                assert_eq!(c.0.iter().filter(|&&x| x != 0).count(), tau);
                assert!(c.0.iter().all(|&x| (-1..=1).contains(&x)));
            }
        }
    }

    #[test]
    fn rejection_samplers_stay_in_range() {
        for nonce in 0..40u16 {
            let a = rej_ntt_poly(&[nonce as u8; 32], 3, 1);
            assert!(a.0.iter().all(|&x| (0..Q).contains(&x)));
            for eta in [2, 4] {
                let s = rej_bounded_poly(&[7u8; 64], nonce, eta);
                assert!(s.0.iter().all(|&x| (-eta..=eta).contains(&x)));
                for v in -eta..=eta {
                    assert!(s.0.contains(&v), "value {v} never drawn (eta {eta})");
                }
            }
        }
    }

    #[test]
    fn mask_in_range() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa87] {
            let p = ps.params();
            let mut y = vec![Poly::zero(); p.l];
            expand_mask(p, &[1u8; 64], 65530, &mut y);
            for yr in &y {
                assert!(yr.0.iter().all(|&c| c > -p.gamma1 && c <= p.gamma1));
            }
        }
    }
}
