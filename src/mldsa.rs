//! The ML-DSA algorithms: KeyGen_internal, Sign_internal and Verify_internal
//! (FIPS 204 Algorithms 6–8), written once for all parameter sets. The
//! external wrappers (Algorithms 1–5) are in `lib.rs`; they only build M′.
//!
//! Large temporaries live on the heap, so the code runs on a small stack.
//! Secret intermediates are held in `Zeroizing` and wiped when dropped.

use crate::encode::{pk_decode, pk_encode, sig_decode, sig_encode, sk_decode, sk_encode, w1_encode, SkParts};
use crate::ntt::{inv_ntt_tomont, ntt, pointwise, pointwise_acc};
use crate::params::{Params, MU_BYTES, N, SEED_BYTES, TR_BYTES};
use crate::poly::{decompose, make_hint, power2round, use_hint, Poly};
use crate::sample::{expand_a, expand_mask, expand_s, sample_in_ball, MatrixRows};
use crate::xof::{h, Shake256};
use zeroize::Zeroizing;

fn polys(n: usize) -> Zeroizing<Vec<Poly>> {
    Zeroizing::new(vec![Poly::zero(); n])
}

/// t = NTT^−1(Â ∘ NTT(s1)) + s2 split by Power2Round into (t1, t0)
/// (FIPS 204 Algorithm 6, steps 5–6).
fn power2round_t(p: &Params, a_hat: &[Poly], s1: &[Poly], s2: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    let mut s1_hat = Zeroizing::new(s1.to_vec());
    s1_hat.iter_mut().for_each(ntt);
    let mut t = Zeroizing::new(Poly::zero());
    for i in 0..p.k {
        *t = Poly::zero();
        for j in 0..p.l {
            pointwise_acc(&mut t, &a_hat[i * p.l + j], &s1_hat[j]);
        }
        // |t| < ℓq before the reduction, < q after it and after the inverse NTT;
        // adding s2 (|s2| ≤ η) keeps it within the range `freeze` accepts.
        t.reduce();
        inv_ntt_tomont(&mut t);
        t.add_assign(&s2[i]);
        for c in 0..N {
            let (hi, lo) = power2round(crate::field::freeze(t.0[c]));
            t1[i].0[c] = hi;
            t0[i].0[c] = lo;
        }
    }
}

/// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6). Returns (pk, sk).
pub fn keygen_internal(p: &Params, xi: &[u8; SEED_BYTES]) -> (Vec<u8>, Vec<u8>) {
    // Step 1: (ρ, ρ′, K) ← H(ξ ‖ k ‖ ℓ, 128).
    let mut seeds = Zeroizing::new([0u8; 128]);
    h(&[xi, &[p.k as u8, p.l as u8]], &mut seeds[..]);
    let (rho, rho_prime, key) = (&seeds[..32], &seeds[32..96], &seeds[96..]);
    // Steps 3–4.
    let mut a_hat = vec![Poly::zero(); p.k * p.l];
    expand_a(p, rho, &mut a_hat);
    let (mut s1, mut s2) = (polys(p.l), polys(p.k));
    expand_s(p, rho_prime, &mut s1, &mut s2);
    // Steps 5–6.
    let (mut t1, mut t0) = (vec![Poly::zero(); p.k], polys(p.k));
    power2round_t(p, &a_hat, &s1, &s2, &mut t1, &mut t0);
    // Steps 8–10.
    let mut pk = vec![0u8; p.public_key_len()];
    pk_encode(p, rho, &t1, &mut pk);
    let mut tr = [0u8; TR_BYTES];
    h(&[&pk], &mut tr);
    let mut sk = vec![0u8; p.secret_key_len()];
    sk_encode(p, &SkParts { rho, key, tr: &tr }, &s1, &s2, &t0, &mut sk);
    (pk, sk)
}

/// The public key of an encoded secret key: pkEncode(ρ, t1) with t recomputed
/// from s1 and s2. Returns None when the key is malformed or its tr is not
/// H(pk), i.e. its parts do not belong together.
pub fn public_key(p: &Params, sk: &[u8]) -> Option<Vec<u8>> {
    let (mut s1, mut s2, mut t0) = (polys(p.l), polys(p.k), polys(p.k));
    let parts = sk_decode(p, sk, &mut s1, &mut s2, &mut t0)?;
    let mut a_hat = vec![Poly::zero(); p.k * p.l];
    expand_a(p, parts.rho, &mut a_hat);
    let (mut t1, mut t0_again) = (vec![Poly::zero(); p.k], polys(p.k));
    power2round_t(p, &a_hat, &s1, &s2, &mut t1, &mut t0_again);
    let mut pk = vec![0u8; p.public_key_len()];
    pk_encode(p, parts.rho, &t1, &mut pk);
    let mut tr = [0u8; TR_BYTES];
    h(&[&pk], &mut tr);
    (tr[..] == *parts.tr).then_some(pk)
}

/// μ = H(tr ‖ M′, 64) (FIPS 204 Algorithm 7 step 6, Algorithm 8 step 7), with M′
/// given in pieces so that callers need not concatenate it.
pub fn message_representative(tr: &[u8], m_prime: &[&[u8]]) -> [u8; MU_BYTES] {
    let mut s = Shake256::new().absorb(tr);
    for part in m_prime {
        s = s.absorb(part);
    }
    let mut mu = [0u8; MU_BYTES];
    s.finalize().squeeze(&mut mu);
    mu
}

/// The reasons Sign_internal can fail.
pub enum SignError {
    MalformedSecretKey,
    /// κ would pass 2^16 (IntegerToBytes(κ + r, 2)); never seen with a real key.
    TooManyAttempts,
}

/// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from step 7, given μ.
pub fn sign_mu(p: &Params, sk: &[u8], mu: &[u8; MU_BYTES], rnd: &[u8; 32]) -> Result<Vec<u8>, SignError> {
    let (k, l) = (p.k, p.l);
    // Steps 1–4: decode, and keep s1, s2 and t0 in NTT form.
    let (mut s1, mut s2, mut t0) = (polys(l), polys(k), polys(k));
    let parts = sk_decode(p, sk, &mut s1, &mut s2, &mut t0).ok_or(SignError::MalformedSecretKey)?;
    s1.iter_mut().chain(s2.iter_mut()).chain(t0.iter_mut()).for_each(ntt);
    // Step 5.
    let mut a_hat = vec![Poly::zero(); k * l];
    expand_a(p, parts.rho, &mut a_hat);
    // Step 7: ρ″ ← H(K ‖ rnd ‖ μ, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    h(&[parts.key, rnd, mu], &mut rho_pp[..]);

    let (gamma1, gamma2, beta) = (p.gamma1, p.gamma2, p.beta());
    let (mut y, mut y_hat, mut z) = (polys(l), polys(l), polys(l));
    let (mut w0, mut w1, mut hint) = (polys(k), polys(k), polys(k));
    let mut tmp = polys(1);
    let tmp = &mut tmp[0];
    let mut w1_bytes = Zeroizing::new(vec![0u8; 32 * k * p.w1_bits()]);
    let mut c_tilde = Zeroizing::new([0u8; 64]);
    let c_tilde = &mut c_tilde[..p.c_tilde_bytes()];
    let mut kappa: usize = 0;
    'attempt: loop {
        if kappa + l > u16::MAX as usize + 1 {
            return Err(SignError::TooManyAttempts);
        }
        // Step 11: y ← ExpandMask(ρ″, κ); |y| ≤ γ1.
        expand_mask(p, &rho_pp[..], kappa as u16, &mut y);
        kappa += l;
        y_hat.copy_from_slice(&y);
        y_hat.iter_mut().for_each(ntt);
        // Steps 12–13: w ← NTT^−1(Â ∘ NTT(y)), (w1, w0) by Decompose.
        for i in 0..k {
            *tmp = Poly::zero();
            for j in 0..l {
                pointwise_acc(tmp, &a_hat[i * l + j], &y_hat[j]);
            }
            tmp.reduce(); // < ℓq → < q
            inv_ntt_tomont(tmp); // < q
            tmp.caddq(); // [0, q)
            for c in 0..N {
                let (hi, lo) = decompose(tmp.0[c], gamma2);
                w1[i].0[c] = hi;
                w0[i].0[c] = lo;
            }
        }
        // Step 15: c̃ ← H(μ ‖ w1Encode(w1), λ/4).
        w1_encode(p, &w1, &mut w1_bytes);
        h(&[mu, &w1_bytes], c_tilde);
        // Steps 16–17.
        let mut c_hat = sample_in_ball(c_tilde, p.tau);
        ntt(&mut c_hat);
        // Steps 18, 20, 23: z ← y + NTT^−1(ĉ ∘ ŝ1); reject if ‖z‖∞ ≥ γ1 − β.
        for j in 0..l {
            pointwise(&mut z[j], &c_hat, &s1[j]);
            inv_ntt_tomont(&mut z[j]); // < q
            z[j].add_assign(&y[j]); // < q + γ1
            z[j].center();
            if z[j].exceeds(gamma1 - beta) {
                continue 'attempt;
            }
        }
        let mut hints = 0;
        for i in 0..k {
            // Steps 19, 21, 23: r0 ← LowBits(w − cs2); reject if ‖r0‖∞ ≥ γ2 − β.
            // While ‖w0 − cs2‖∞ < γ2 − β, LowBits(w − cs2) = w0 − cs2 and
            // HighBits(w − cs2) = w1, so no second Decompose is needed.
            pointwise(tmp, &c_hat, &s2[i]);
            inv_ntt_tomont(tmp); // < q
            let r0 = &mut w0[i];
            r0.sub_assign(tmp); // < q + γ2
            r0.center();
            if r0.exceeds(gamma2 - beta) {
                continue 'attempt;
            }
            // Steps 25–28: ct0; reject if ‖ct0‖∞ ≥ γ2; h ← MakeHint(−ct0, w − cs2 + ct0).
            pointwise(tmp, &c_hat, &t0[i]);
            inv_ntt_tomont(tmp);
            tmp.center();
            if tmp.exceeds(gamma2) {
                continue 'attempt;
            }
            for c in 0..N {
                let bit = make_hint(r0.0[c] + tmp.0[c], w1[i].0[c], gamma2);
                hint[i].0[c] = bit;
                hints += bit as usize;
            }
        }
        if hints > p.omega {
            continue 'attempt;
        }
        // Step 33.
        let mut sig = vec![0u8; p.signature_len()];
        sig_encode(p, c_tilde, &z, &hint, &mut sig);
        return Ok(sig);
    }
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) given μ; `pk` and `sig` must
/// have their exact lengths. Â is generated as it is used (two entries at a
/// time, by `MatrixRows`), so verification needs only a few polynomials of
/// memory for it.
pub fn verify_mu(p: &Params, pk: &[u8], mu: &[u8; MU_BYTES], sig: &[u8]) -> bool {
    let (k, l) = (p.k, p.l);
    let mut t1 = vec![Poly::zero(); k];
    let rho = pk_decode(p, pk, &mut t1);
    let (mut z, mut hint) = (vec![Poly::zero(); l], vec![Poly::zero(); k]);
    let Some(c_tilde) = sig_decode(p, sig, &mut z, &mut hint) else {
        return false;
    };
    // Step 13's norm check first: it is cheap and z is already centred.
    if z.iter().any(|zi| zi.exceeds(p.gamma1 - p.beta())) {
        return false;
    }
    let mut c_hat = sample_in_ball(c_tilde, p.tau);
    ntt(&mut c_hat);
    z.iter_mut().for_each(ntt);
    let mut w1 = vec![Poly::zero(); k];
    let mut a_ij = Poly::zero();
    let mut a_rows = MatrixRows::new(p, rho);
    for i in 0..k {
        // Step 9: w′ ← NTT^−1(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d)).
        let mut acc = Poly::zero();
        for zj in z.iter() {
            a_rows.next_entry(&mut a_ij); // Â[i][j]
            pointwise_acc(&mut acc, &a_ij, zj);
        }
        let t1i = &mut t1[i];
        t1i.shift_left_d(); // < 2^23 < q
        ntt(t1i);
        pointwise(&mut a_ij, &c_hat, t1i);
        acc.sub_assign(&a_ij); // < (ℓ + 1)q
        acc.reduce();
        inv_ntt_tomont(&mut acc);
        acc.caddq();
        // Step 10: w1′ ← UseHint(h, w′).
        for c in 0..N {
            w1[i].0[c] = use_hint(hint[i].0[c], acc.0[c], p.gamma2);
        }
    }
    // Steps 12–13.
    let mut w1_bytes = vec![0u8; 32 * k * p.w1_bits()];
    w1_encode(p, &w1, &mut w1_bytes);
    let mut c_tilde2 = [0u8; 64];
    let c_tilde2 = &mut c_tilde2[..p.c_tilde_bytes()];
    h(&[mu, &w1_bytes], c_tilde2);
    *c_tilde2 == *c_tilde
}

/// tr = H(pk, 64).
pub fn public_key_hash(pk: &[u8]) -> [u8; TR_BYTES] {
    let mut tr = [0u8; TR_BYTES];
    h(&[pk], &mut tr);
    tr
}
