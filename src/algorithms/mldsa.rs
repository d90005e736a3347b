//! The ML-DSA algorithms: KeyGen_internal, Sign_internal and Verify_internal
//! (FIPS 204 Algorithms 6–8), written once for all parameter sets. The
//! external wrappers (Algorithms 1–5) are in `lib.rs`; they only build M′.
//!
//! Large temporaries live on the heap, so the code runs on a small stack.
//! Secret intermediates are held in `Zeroizing` or `SecretVec` and wiped
//! when dropped.

use crate::challenge::{challenge_times_pair, sub_challenge_t1, Challenge};
use crate::ct;
use crate::encode::{
    pk_decode, pk_encode, sig_decode_vartime, sig_encode_vartime, sk_decode, sk_encode, w1_encode, SkParts,
};
use crate::ntt::{dot_inv_ntt, dot_sub_inv_ntt, ntt_all_in_place, ntt_in_place, pointwise_inv_ntt};
use crate::params::{Params, MU_BYTES, N, SEED_BYTES, TR_BYTES};
use crate::poly::{make_hints, use_hints_vartime, NttPoly, Poly, PAIR_SHIFT};
use crate::sample::schedule::{MaskStream, MatrixRows};
use crate::sample::{expand_a, expand_s, sample_in_ball_from_vartime, sample_in_ball_vartime};
use crate::xof::{h, Shake256, SHAKE256_RATE};
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// A heap vector of secrets, wiped when dropped. In the .wasm the global
/// allocator wipes every block it frees (`wasm/allocator.rs`, one
/// memory.fill), so there the vector is only freed: wiping it before would
/// clear the same memory twice. On other targets it is zeroized on drop, as
/// a `Zeroizing<Vec<T>>` would be. Deref gives the vector itself.
struct SecretVec<T: Zeroize>(Vec<T>);

#[cfg(not(target_arch = "wasm32"))]
impl<T: Zeroize> Drop for SecretVec<T> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<T: Zeroize> core::ops::Deref for SecretVec<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Zeroize> core::ops::DerefMut for SecretVec<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

fn polys(n: usize) -> SecretVec<Poly> {
    SecretVec(vec![Poly::zero(); n])
}

fn ntt_polys(n: usize) -> SecretVec<NttPoly> {
    SecretVec(vec![NttPoly::zero(); n])
}

/// t = NTT^−1(Â ∘ ŝ1) + s2 split by Power2Round into (t1, t0), ŝ1 = NTT(s1)
/// (FIPS 204 Algorithm 6, steps 3–6). Â is used once, so it is generated as
/// it is used (steps 3 and 5 interleaved) and never held whole in memory.
fn power2round_t(p: &Params, rho: &[u8], s1_hat: &[NttPoly], s2: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    let mut a_rows = MatrixRows::new(p, rho);
    let mut a_row = vec![NttPoly::zero(); p.l];
    let mut t = Zeroizing::new(Poly::zero());
    for i in 0..p.k {
        a_rows.next_row(&mut a_row); // Â[i][0..ℓ]
                                     // Σ_j Â[i][j]·ŝ1[j] < ℓ·9q² (Â < q, ŝ1 < 9q), reduced once; |t| < q
                                     // after the inverse NTT; adding s2 (|s2| ≤ η) keeps it within the
                                     // range `freeze` accepts.
        dot_inv_ntt(&mut t, &a_row, s1_hat);
        t.add_power2round_into(&s2[i], &mut t1[i], &mut t0[i]);
        // Declassified: t1 is the public key (pkEncode, Algorithm 22); t0 stays secret.
        ct::declassify(&t1[i]);
    }
}

/// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6), encoding pk and sk straight
/// into `pk` and `sk`, which must have exactly their lengths (the caller checks).
pub fn keygen_into(p: &Params, xi: &[u8; SEED_BYTES], pk: &mut [u8], sk: &mut [u8]) {
    // Step 1: (ρ, ρ′, K) ← H(ξ ‖ k ‖ ℓ, 128).
    let mut seeds = Zeroizing::new([0u8; 128]);
    h(&[xi, &[p.k as u8, p.l as u8]], &mut seeds[..]);
    // Declassified: ρ is public, the first part of pk (pkEncode, Algorithm 22).
    ct::declassify(&seeds[..32]);
    let (rho, rho_prime, key) = (&seeds[..32], &seeds[32..96], &seeds[96..]);
    // Step 4, with s1 drawn where NTT(s1) goes (step 5) and kept for skEncode.
    let (mut s1_hat, mut s2) = (ntt_polys(p.l), polys(p.k));
    let mut s1 = SecretVec(Vec::with_capacity(p.l));
    ntt_all_in_place(&mut s1_hat, |s| {
        expand_s(p, rho_prime, s, &mut s2);
        s1.extend_from_slice(s);
        Some(())
    });
    // Steps 3, 5–6.
    let (mut t1, mut t0) = (vec![Poly::zero(); p.k], polys(p.k));
    power2round_t(p, rho, &s1_hat, &s2, &mut t1, &mut t0);
    // Steps 8–10.
    pk_encode(p, rho, &t1, pk);
    let mut tr = [0u8; TR_BYTES];
    h(&[pk], &mut tr);
    sk_encode(p, &SkParts { rho, key, tr: &tr }, &s1, &s2, &t0, sk);
}

/// The public key of an encoded secret key: pkEncode(ρ, t1) with t recomputed
/// from s1 and s2. Returns None when the key is malformed or its parts do not
/// belong together: tr is not H(pk), or the stored t0 is not the recomputed
/// one (such a key would sign, but its signatures would not verify).
pub fn public_key(p: &Params, sk: &[u8]) -> Option<Vec<u8>> {
    // s1 is decoded where NTT(s1) goes: only that form is needed here.
    let (mut s1_hat, mut s2, mut t0) = (ntt_polys(p.l), polys(p.k), polys(p.k));
    let parts = ntt_all_in_place(&mut s1_hat, |s1| sk_decode(p, sk, s1, &mut s2, &mut t0))?;
    let (mut t1, mut t0_again) = (vec![Poly::zero(); p.k], polys(p.k));
    power2round_t(p, parts.rho, &s1_hat, &s2, &mut t1, &mut t0_again);
    let mut pk = vec![0u8; p.public_key_len()];
    pk_encode(p, parts.rho, &t1, &mut pk);
    let mut tr = [0u8; TR_BYTES];
    h(&[&pk], &mut tr);
    // Compared without branching on the secret t0; only the verdict leaks.
    let mut diff = 0;
    for (a, b) in t0.iter().zip(t0_again.iter()) {
        for c in 0..N {
            diff |= a.0[c] ^ b.0[c];
        }
    }
    // Declassified: the verdict only. For a key from KeyGen it is always true;
    // otherwise the caller learns what the error says, that the key is malformed.
    (tr[..] == *parts.tr && ct::declassified(diff == 0)).then_some(pk)
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

/// Why Sign_internal can fail.
pub enum SignError {
    /// κ would pass 2^16 (IntegerToBytes(κ + r, 2)); never seen with a real key.
    TooManyAttempts,
}

/// The memory of an expanded key, for reuse (`api::KeyStorage`): one block
/// for its elements of T_q, one for a secret key's packed rows.
pub struct Storage {
    pub ntt: Vec<NttPoly>,
    pub rows: Vec<Poly>,
}

/// `n` zero elements in `storage` when it has room (its old contents were
/// wiped by `wipe`), else in a new block.
fn zeroed<T: Zeroize + Copy>(mut storage: Vec<T>, n: usize, zero: T) -> SecretVec<T> {
    storage.clear();
    storage.resize(n, zero);
    SecretVec(storage)
}

/// Takes a block back, wiped (its whole capacity) and empty, for reuse by
/// another key without a new allocation.
fn wipe<T: Zeroize>(v: &mut SecretVec<T>) -> Vec<T> {
    let mut storage = core::mem::take(&mut **v);
    storage.zeroize();
    storage
}

/// Signing's secret rows s1[i] + 2^PAIR_SHIFT·s2[i] for i < k, with s1[i] = 0
/// for i ≥ ℓ (ℓ ≤ k in every set, `params.rs` checks it at compile time), in
/// normal form: the products c·s1 and c·s2 are sums of shifted copies of
/// them (`challenge.rs`), cheaper than NTTs. A type of their own, in a block
/// of their own: no secret is kept in storage typed for T_q, and only
/// `challenge_times_pair` reads them.
pub struct PackedSecretRows(SecretVec<Poly>);

impl PackedSecretRows {
    /// s2 is decoded straight into the rows; this adds s1 beside it:
    /// row i ← s1[i] + 2^PAIR_SHIFT·row i.
    fn pack(s1: &[Poly], mut rows: SecretVec<Poly>) -> PackedSecretRows {
        for (i, s) in rows.iter_mut().enumerate() {
            s.0.iter_mut().for_each(|c| *c <<= PAIR_SHIFT);
            if let Some(s1) = s1.get(i) {
                s.0.iter_mut().zip(s1.0.iter()).for_each(|(c, a)| *c += a);
            }
        }
        PackedSecretRows(rows)
    }

    /// Row i, for `challenge_times_pair`.
    fn row(&self, i: usize) -> &Poly {
        &self.0[i]
    }
}

/// A secret key decoded and expanded for signing: FIPS 204 Algorithm 7 steps
/// 1–5 (s1, s2, t̂0 and Â), done once so that repeated signing skips them.
/// The elements of T_q live in one heap block, `polys` = Â (k·ℓ) ‖ t̂0 (k),
/// s1 and s2 in another (`PackedSecretRows`, k): (k·ℓ + 2k) KiB in all,
/// 72 KiB for ML-DSA-87. Everything is wiped when it is dropped or its
/// storage is taken back (`into_storage`).
pub struct ExpandedSecretKey {
    p: &'static Params,
    /// K ‖ tr, on the heap like the polynomials, so that moving the key moves
    /// no secret bytes (a move leaves the old bytes where they were).
    key_tr: Zeroizing<Vec<u8>>,
    /// Â, then NTT(t0).
    polys: SecretVec<NttPoly>,
    s: PackedSecretRows,
}

impl ExpandedSecretKey {
    /// skDecode and steps 2–5 of Algorithm 7, into `storage` (any capacity;
    /// reused when it has room). A malformed key gives the storage back, wiped.
    pub fn new(p: &'static Params, sk: &[u8], storage: Storage) -> Result<ExpandedSecretKey, Storage> {
        let (k, l) = (p.k, p.l);
        let mut store = zeroed(storage.ntt, k * l + k, NttPoly::zero());
        let mut rows = zeroed(storage.rows, k, Poly::zero());
        let (a_hat, t0_hat) = store.split_at_mut(k * l);
        let mut s1 = polys(l);
        // s2 and t0 are decoded where they are kept, t0 transformed there.
        let parts = ntt_all_in_place(t0_hat, |t0| sk_decode(p, sk, &mut s1, &mut rows, t0));
        let Some(parts) = parts else {
            return Err(Storage { ntt: wipe(&mut store), rows: wipe(&mut rows) });
        };
        let s = PackedSecretRows::pack(&s1, rows);
        expand_a(p, parts.rho, a_hat);
        let mut key_tr = Zeroizing::new(Vec::with_capacity(32 + TR_BYTES));
        key_tr.extend_from_slice(parts.key);
        key_tr.extend_from_slice(parts.tr);
        Ok(ExpandedSecretKey { p, key_tr, polys: store, s })
    }

    /// Wipes the key and gives back its storage, for `new`.
    pub fn into_storage(mut self) -> Storage {
        Storage { ntt: wipe(&mut self.polys), rows: wipe(&mut self.s.0) }
    }

    /// tr = H(pk, 64), for computing μ.
    pub fn tr(&self) -> &[u8] {
        &self.key_tr[32..]
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from step 7, given μ.
    pub fn sign_mu(&self, mu: &[u8; MU_BYTES], rnd: &[u8; 32]) -> Result<Vec<u8>, SignError> {
        let p = self.p;
        let (k, l) = (p.k, p.l);
        let (a_hat, t0) = self.polys.split_at(k * l);
        // Step 7: ρ″ ← H(K ‖ rnd ‖ μ, 64).
        let mut rho_pp = Zeroizing::new([0u8; 64]);
        h(&[&self.key_tr[..32], rnd, mu], &mut rho_pp[..]);

        let (gamma1, gamma2, beta) = (p.gamma1, p.gamma2, p.beta());
        // Every temporary in two heap blocks (normal and NTT forms), wiped when
        // dropped. Some take turns: y is no longer needed once z = y + cs1 is
        // formed (a new attempt draws a new y), so z takes its place; w1 is no
        // longer needed once c̃ is hashed and its row's hint is made, so the
        // hint takes its place; one row holds cs1[i], then a row of hints.
        let mut scratch = polys(l + 2 * k + 2);
        let (y_then_z, rest) = scratch.split_at_mut(l);
        let (w0, rest) = rest.split_at_mut(k);
        let (w1_then_hint, rest) = rest.split_at_mut(k);
        let (tmp, cs1_then_hint) = rest.split_at_mut(1);
        let (tmp, cs1_then_hint) = (&mut tmp[0], &mut cs1_then_hint[0]);
        let (mut y_hat, mut c_hat) = (ntt_polys(l), NttPoly::zero());
        // μ ‖ w1Encode(w1), the input of c̃'s hash, with μ written once.
        let mut mu_w1 = SecretVec(vec![0u8; MU_BYTES + 32 * k * p.w1_bits()]);
        mu_w1[..MU_BYTES].copy_from_slice(mu);
        let mut c_tilde = Zeroizing::new([0u8; 64]);
        let c_tilde = &mut c_tilde[..p.c_tilde_bytes()];
        // The first block of H(c̃), which SampleInBall reads (public, as c̃).
        let mut c_block = [0u8; SHAKE256_RATE];
        let mut kappa: usize = 0;
        let mut mask = MaskStream::new(p, &rho_pp[..]);
        'attempt: loop {
            if kappa + l > u16::MAX as usize + 1 {
                return Err(SignError::TooManyAttempts);
            }
            // Step 11: y ← ExpandMask(ρ″, κ); |y| ≤ γ1.
            mask.fill(kappa as u16, y_then_z);
            kappa += l;
            ntt_all_in_place(&mut y_hat, |y_hat| {
                y_hat.copy_from_slice(y_then_z);
                Some(())
            });
            // Steps 12–13: w ← NTT^−1(Â ∘ NTT(y)), (w1, w0) by Decompose.
            for i in 0..k {
                // Σ_j Â[i][j]·ŷ[j] < ℓ·9q² (Â < q, ŷ < 9q), reduced once: < q.
                dot_inv_ntt(tmp, &a_hat[i * l..(i + 1) * l], &y_hat); // < q
                tmp.decompose_into(&mut w1_then_hint[i], &mut w0[i], gamma2);
            }
            // Step 15: c̃ ← H(μ ‖ w1Encode(w1), λ/4), and the first block of
            // H(c̃) that SampleInBall reads, on one state of the two-lane
            // Keccak while the other draws y for the next attempt (`MaskStream`).
            w1_encode(p, w1_then_hint, &mut mu_w1[MU_BYTES..]);
            mask.hash_beside(kappa as u16, &mu_w1, c_tilde, &mut c_block);
            // Declassified: c̃ before SampleInBall, which branches on it. An
            // accepted attempt publishes c̃ in the signature; a rejected one's
            // c̃ = H(μ ‖ w1) is a function of μ and the discarded y alone, not of
            // s1, s2, t0 (Dilithium round-3 specification v3.1, §5.5).
            ct::declassify(c_tilde);
            ct::declassify(&c_block);
            // Steps 16–17: c, as the runs its products add (`challenge.rs`).
            let mut c = Poly::zero();
            sample_in_ball_from_vartime(c_tilde, &c_block, p.tau, &mut c);
            let c_runs = Challenge::of_vartime(&c);
            // Steps 18–21, a row at a time: c·s1[i] and c·s2[i], exactly.
            // Step 23 rejects when ‖z‖∞ ≥ γ1 − β or ‖r0‖∞ ≥ γ2 − β; each row is
            // checked as soon as it is known, r0 first because it rejects more
            // often (57–68% of the attempts depending on the set, z 34–46%), so a
            // rejected attempt usually stops early. The outcome is the same in
            // any order. While ‖w0 − cs2‖∞ < γ2 − β, LowBits(w − cs2) = w0 − cs2
            // and HighBits(w − cs2) = w1, so no second Decompose is needed.
            // The early exit also reveals which check failed, and in which row.
            // That is allowed (Dilithium round-3 specification v3.1, §5.5): given
            // c, a coefficient of z passes for exactly 2(γ1 − β) − 1 of the 2γ1
            // values of y_i whatever (cs1)_i is (|cs1_i| ≤ β), so where z fails is
            // independent of s1; the same holds for r0 if the low bits of w are
            // uniform, the spec's assumption; and the attempt's y is discarded.
            // The ct0 and hint-count checks come after every row has passed.
            for i in 0..k {
                // Rows i ≥ ℓ have no s1 part: their cs1 is zero, and unused.
                challenge_times_pair(cs1_then_hint, tmp, &c_runs, self.s.row(i), p.eta); // tmp = cs2[i]; both |·| ≤ β
                                                                                         // r0 = w0 − cs2, |·| < γ2 + β, centred and checked in one pass.
                                                                                         // Declassified here and in the three checks below: the rejection
                                                                                         // decision of steps 23 and 28, which the number of attempts makes
                                                                                         // visible anyway.
                if ct::declassified(w0[i].sub_center_exceeds(tmp, gamma2 - beta)) {
                    ct::count_rejection(1);
                    continue 'attempt;
                }
                // z = y + cs1, |·| ≤ γ1 + β, centred and checked in one pass.
                if i < l && ct::declassified(y_then_z[i].add_center_exceeds(cs1_then_hint, gamma1 - beta)) {
                    ct::count_rejection(0);
                    continue 'attempt;
                }
            }
            // c·t0 in T_q (t0 is too large for the runs' i16 sums): NTT(c)
            // only for an attempt whose rows all passed (usually the last).
            ntt_in_place(&mut c_hat, |x| *x = c);
            let mut hints = 0;
            for i in 0..k {
                // Steps 25–28: ct0; reject if ‖ct0‖∞ ≥ γ2; h ← MakeHint(−ct0, w − cs2 + ct0).
                pointwise_inv_ntt(tmp, &c_hat, &t0[i]); // < q
                if ct::declassified(tmp.center_exceeds(gamma2)) {
                    ct::count_rejection(2);
                    continue 'attempt;
                }
                hints += make_hints(cs1_then_hint, &w0[i], tmp, &w1_then_hint[i], gamma2);
                w1_then_hint[i] = *cs1_then_hint;
            }
            if ct::declassified(hints > p.omega) {
                ct::count_rejection(3);
                continue 'attempt;
            }
            // Step 33. Declassified: the accepted (z, h) are the signature
            // being output (sigEncode, Algorithm 26), whose hint packing branches.
            ct::declassify(&y_then_z[..]);
            ct::declassify(&w1_then_hint[..]);
            let mut sig = vec![0u8; p.signature_len()];
            sig_encode_vartime(p, c_tilde, y_then_z, w1_then_hint, &mut sig);
            return Ok(sig);
        }
    }
}

/// Where verification takes Â from: a cached copy, or generated from ρ as it
/// is used, a row at a time (the pqm4 lesson: a few polynomials of memory
/// instead of k·ℓ).
enum Matrix<'a> {
    Cached(&'a [NttPoly]),
    FromSeed(Box<MatrixRows<'a>>),
}

/// How verification takes t1: as NTT(t1·2^d), for a key expanded once, or
/// decoded (t1 < 2^10), for one verification. One product c·t1 per row costs
/// less than the NTTs of t1 and c (`challenge.rs`); an expanded key has
/// NTT(t1·2^d) already, and then NTT(c) once and a product per row cost less.
enum T1<'a> {
    Ntt(&'a [NttPoly]),
    Plain(&'a [Poly]),
}

/// c and t1 in the forms of `T1`'s product. One per verification, on the
/// stack: boxing the large variant would add an allocation for nothing.
#[allow(clippy::large_enum_variant)]
enum Product<'a> {
    Ntt(NttPoly, &'a [NttPoly]),
    Runs(Challenge, &'a [Poly]),
}

/// NTT(t1·2^d) for every row (FIPS 204 Algorithm 8, step 9's right-hand factor).
fn t1_hat(p: &Params, pk: &[u8], t1_hat: &mut [NttPoly]) {
    ntt_all_in_place(t1_hat, |t1| {
        pk_decode(p, pk, t1);
        t1.iter_mut().for_each(Poly::shift_left_d); // < 2^23 < q
        Some(())
    });
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) given μ; `pk` and `sig` must
/// have their exact lengths. Â is generated as it is used.
pub fn verify_mu(p: &Params, pk: &[u8], mu: &[u8; MU_BYTES], sig: &[u8]) -> bool {
    verify_mu_rows(p, pk, MatrixRows::new(p, &pk[..SEED_BYTES]), mu, sig)
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on M′ (in pieces); `pk` and
/// `sig` must have their exact lengths. tr = H(pk) is computed beside the
/// first entries of Â (`MatrixRows::beside_hash`).
pub fn verify_m_prime(p: &Params, pk: &[u8], m_prime: &[&[u8]], sig: &[u8]) -> bool {
    let mut tr = [0u8; TR_BYTES];
    let rows = MatrixRows::beside_hash(p, &pk[..SEED_BYTES], pk, &mut tr);
    let mu = message_representative(&tr, m_prime);
    verify_mu_rows(p, pk, rows, &mu, sig)
}

fn verify_mu_rows(p: &Params, pk: &[u8], rows: MatrixRows, mu: &[u8; MU_BYTES], sig: &[u8]) -> bool {
    let mut t1 = vec![Poly::zero(); p.k];
    pk_decode(p, pk, &mut t1);
    verify_core(p, Matrix::FromSeed(Box::new(rows)), T1::Plain(&t1), mu, sig)
}

/// A public key expanded for verifying: Â and NTT(t1·2^d) (FIPS 204 Algorithm 8
/// steps 1, 5 and part of 9) and tr (step 6), done once so that repeated
/// verification skips them. The polynomials live in one heap block,
/// `polys` = Â (k·ℓ) ‖ NTT(t1·2^d) (k): (k·ℓ + k) KiB.
pub struct ExpandedPublicKey {
    p: &'static Params,
    tr: [u8; TR_BYTES],
    polys: SecretVec<NttPoly>,
    /// The storage's block for secret rows, unused here (and wiped, as it was
    /// given), kept to be given back.
    rows: Vec<Poly>,
}

impl ExpandedPublicKey {
    /// `pk` must have its exact length; `storage` as for `ExpandedSecretKey::new`.
    pub fn new(p: &'static Params, pk: &[u8], storage: Storage) -> ExpandedPublicKey {
        let mut polys = zeroed(storage.ntt, p.k * p.l + p.k, NttPoly::zero());
        let (a_hat, t1) = polys.split_at_mut(p.k * p.l);
        expand_a(p, &pk[..SEED_BYTES], a_hat);
        t1_hat(p, pk, t1);
        ExpandedPublicKey { p, tr: public_key_hash(pk), polys, rows: storage.rows }
    }

    /// Gives back the storage, wiped, for `new`.
    pub fn into_storage(mut self) -> Storage {
        Storage { ntt: wipe(&mut self.polys), rows: core::mem::take(&mut self.rows) }
    }

    pub fn tr(&self) -> &[u8; TR_BYTES] {
        &self.tr
    }

    /// Verify_internal given μ; `sig` must have its exact length.
    pub fn verify_mu(&self, mu: &[u8; MU_BYTES], sig: &[u8]) -> bool {
        let (a_hat, t1_hat) = self.polys.split_at(self.p.k * self.p.l);
        verify_core(self.p, Matrix::Cached(a_hat), T1::Ntt(t1_hat), mu, sig)
    }
}

/// FIPS 204 Algorithm 8 from step 2, given Â (or ρ), t1 (in either form of
/// `T1`) and μ.
fn verify_core(p: &Params, mut a: Matrix, t1: T1, mu: &[u8; MU_BYTES], sig: &[u8]) -> bool {
    let (k, l) = (p.k, p.l);
    let (mut z_hat, mut hint) = (vec![NttPoly::zero(); l], vec![Poly::zero(); k]);
    // z is decoded where NTT(z) goes. Step 13's norm check comes first: it is
    // cheap, z is already centred, and a z that fails needs no NTT.
    let Some(c_tilde) = ntt_all_in_place(&mut z_hat, |z| {
        let c_tilde = sig_decode_vartime(p, sig, z, &mut hint)?;
        (!z.iter().any(|zi| zi.exceeds(p.gamma1 - p.beta()))).then_some(c_tilde)
    }) else {
        return false;
    };
    // Steps 7–8: c ← SampleInBall(c̃), in the form t1's calls for.
    let c = match t1 {
        T1::Ntt(t1_hat) => {
            let mut c_hat = NttPoly::zero();
            ntt_in_place(&mut c_hat, |c| sample_in_ball_vartime(c_tilde, p.tau, c));
            Product::Ntt(c_hat, t1_hat)
        }
        T1::Plain(t1) => {
            let mut c = Poly::zero();
            sample_in_ball_vartime(c_tilde, p.tau, &mut c);
            Product::Runs(Challenge::of_vartime(&c), t1)
        }
    };
    let mut w1 = vec![Poly::zero(); k];
    let mut a_row = vec![NttPoly::zero(); if matches!(a, Matrix::FromSeed(_)) { l } else { 0 }];
    let mut w = Poly::zero();
    for i in 0..k {
        let a_row: &[NttPoly] = match &mut a {
            Matrix::Cached(a_hat) => &a_hat[i * l..(i + 1) * l],
            Matrix::FromSeed(rows) => {
                rows.next_row(&mut a_row); // Â[i][0..ℓ]
                &a_row
            }
        };
        // Step 9: w′ ← NTT^−1(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d)); the sum is
        // < ℓ·9q² + 81q² (Â < q, the NTT outputs < 9q), reduced once: < q.
        // Or NTT^−1(Â ∘ NTT(z)) (< q) − 2^d·(c·t1), reduced: < q.
        match &c {
            Product::Ntt(c_hat, t1_hat) => dot_sub_inv_ntt(&mut w, a_row, &z_hat, c_hat, &t1_hat[i]),
            Product::Runs(c, t1) => {
                dot_inv_ntt(&mut w, a_row, &z_hat);
                sub_challenge_t1(&mut w, c, &t1[i]);
            }
        }
        // Step 10: w1′ ← UseHint(h, w′).
        use_hints_vartime(&mut w1[i], &hint[i], &w, p.gamma2);
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
