//! The public Rust API (re-exported at the crate root): ML-DSA.KeyGen, Sign
//! and Verify (FIPS 204 Algorithms 1–3), HashML-DSA (Algorithms 4–5), the
//! internal interface (Algorithms 6–8) on M′ or on an external μ, and the
//! prepared keys. Each function checks its inputs' lengths and hands them to
//! `mldsa.rs`.

use crate::params::{ParamSet, MAX_EXPANDED_NTT_POLYS, MAX_SECRET_ROWS, MU_BYTES, RND_BYTES, SEED_BYTES};
use crate::prehash::HashAlg;
use crate::{mldsa, xof};
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// Why an operation refused its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An input has the wrong length.
    Length { what: &'static str, expected: usize, got: usize },
    /// The context string is longer than 255 bytes.
    ContextTooLong { got: usize },
    /// The secret key does not decode (a coefficient of s1 or s2 is outside
    /// [−η, η]) or, for [`public_key`], its parts do not belong together.
    MalformedSecretKey,
    /// The operating system or browser gave no random bytes.
    Randomness,
    /// Signing gave up after 2^16/ℓ attempts; with a key from KeyGen this
    /// happens with probability far below 2^−1000.
    SigningFailed,
    /// A key in SPKI, PKCS#8 or another format is not what the format allows;
    /// the text says what is wrong and where.
    Format(&'static str),
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Length { what, expected, got } => write!(f, "{what}: expected {expected} bytes, got {got}"),
            Error::ContextTooLong { got } => write!(f, "context: expected at most 255 bytes, got {got}"),
            Error::MalformedSecretKey => {
                write!(f, "secretKey: malformed (not an ML-DSA secret key of this parameter set)")
            }
            Error::Randomness => write!(f, "no random bytes available from the system"),
            Error::SigningFailed => write!(f, "signing failed after the maximum number of attempts"),
            Error::Format(what) => f.write_str(what),
        }
    }
}

impl core::error::Error for Error {}

fn check_len(what: &'static str, got: &[u8], expected: usize) -> Result<(), Error> {
    if got.len() == expected {
        Ok(())
    } else {
        Err(Error::Length { what, expected, got: got.len() })
    }
}

fn check_ctx(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        Err(Error::ContextTooLong { got: ctx.len() })
    } else {
        Ok(())
    }
}

/// 32 bytes from the system's random source (crypto.getRandomValues in a
/// browser or Node); without the `system-rng` feature (the shipped .wasm,
/// whose caller passes every seed and rnd in) there is none.
fn random_32() -> Result<Zeroizing<[u8; 32]>, Error> {
    #[cfg(feature = "system-rng")]
    {
        let mut r = Zeroizing::new([0u8; 32]);
        getrandom::fill(&mut r[..]).map_err(|_| Error::Randomness)?;
        Ok(r)
    }
    #[cfg(not(feature = "system-rng"))]
    Err(Error::Randomness)
}

/// The signing randomness: `None` draws 32 fresh bytes (hedged signing);
/// `Some(rnd)` must be 32 bytes, all zero for the deterministic variant.
fn signing_rnd(rnd: Option<&[u8]>) -> Result<Zeroizing<[u8; RND_BYTES]>, Error> {
    match rnd {
        None => random_32(),
        Some(r) => {
            check_len("rnd", r, RND_BYTES)?;
            let mut out = Zeroizing::new([0u8; RND_BYTES]);
            out.copy_from_slice(r);
            Ok(out)
        }
    }
}

/// ML-DSA.KeyGen (FIPS 204 Algorithm 1): a key pair from fresh randomness. Returns (pk, sk).
pub fn keygen(ps: ParamSet) -> Result<(Vec<u8>, Vec<u8>), Error> {
    keygen_internal(ps, &random_32()?[..])
}

/// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6): the key pair of the 32-byte seed ξ. Returns (pk, sk).
pub fn keygen_internal(ps: ParamSet, xi: &[u8]) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let (mut pk, mut sk) = (vec![0u8; ps.public_key_len()], vec![0u8; ps.secret_key_len()]);
    keygen_into(ps, xi, &mut pk, &mut sk)?;
    Ok((pk, sk))
}

/// `keygen_internal` writing the key pair into `pk` and `sk`, which must have
/// exactly the lengths of the set's public and secret key.
pub fn keygen_into(ps: ParamSet, xi: &[u8], pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
    check_len("seed", xi, SEED_BYTES)?;
    check_len("publicKey", pk, ps.public_key_len())?;
    check_len("secretKey", sk, ps.secret_key_len())?;
    let mut seed = Zeroizing::new([0u8; SEED_BYTES]);
    seed.copy_from_slice(xi);
    mldsa::keygen_into(ps.params(), &seed, pk, sk);
    Ok(())
}

/// The public key that belongs to an encoded secret key.
pub fn public_key(ps: ParamSet, sk: &[u8]) -> Result<Vec<u8>, Error> {
    check_len("secretKey", sk, ps.secret_key_len())?;
    mldsa::public_key(ps.params(), sk).ok_or(Error::MalformedSecretKey)
}

/// The memory of one expanded key, a [`SigningKey`] or a [`VerifyingKey`] of
/// any set, for reuse: a key made with `new_in` takes it, and `into_storage`
/// wipes the key and gives it back, so that a pool of keys (the npm package's
/// prepared keys) holds a fixed amount of memory however many keys come and go.
pub struct KeyStorage(mldsa::Storage);

impl KeyStorage {
    /// No memory yet: the key made with it allocates what it needs.
    pub fn empty() -> KeyStorage {
        KeyStorage(mldsa::Storage { ntt: Vec::new(), rows: Vec::new() })
    }
    /// Room for the largest expanded key of any set (72 KiB): one block for
    /// the elements of T_q, one for a secret key's packed rows.
    pub fn for_any_key() -> KeyStorage {
        KeyStorage(mldsa::Storage {
            ntt: Vec::with_capacity(MAX_EXPANDED_NTT_POLYS),
            rows: Vec::with_capacity(MAX_SECRET_ROWS),
        })
    }
}

/// A secret key prepared for repeated signing: decoded once, with Â, s1, s2
/// and NTT(t0) cached (FIPS 204 Algorithm 7 steps 1–5), all on the
/// heap (the elements of T_q in one block, the packed s1, s2 in another, K ‖ tr in a third). Wiped on drop. The one-shot functions ([`sign`], …) build one of
/// these and sign once.
pub struct SigningKey {
    ps: ParamSet,
    inner: mldsa::ExpandedSecretKey,
}

impl SigningKey {
    /// Decodes and expands an encoded secret key.
    pub fn new(ps: ParamSet, sk: &[u8]) -> Result<SigningKey, Error> {
        SigningKey::new_in(ps, sk, KeyStorage::empty()).map_err(|(e, _)| e)
    }

    /// As [`SigningKey::new`], in `storage`; on error the storage comes back, wiped.
    pub fn new_in(ps: ParamSet, sk: &[u8], storage: KeyStorage) -> Result<SigningKey, (Error, KeyStorage)> {
        if let Err(e) = check_len("secretKey", sk, ps.secret_key_len()) {
            return Err((e, storage));
        }
        match mldsa::ExpandedSecretKey::new(ps.params(), sk, storage.0) {
            Ok(inner) => Ok(SigningKey { ps, inner }),
            Err(storage) => Err((Error::MalformedSecretKey, KeyStorage(storage))),
        }
    }

    /// Wipes the key and gives back its memory.
    pub fn into_storage(self) -> KeyStorage {
        KeyStorage(self.inner.into_storage())
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// ML-DSA.Sign (FIPS 204 Algorithm 2); see [`sign`].
    pub fn sign(&self, msg: &[u8], ctx: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        check_ctx(ctx)?;
        self.sign_m_prime(&[&[0, ctx.len() as u8], ctx, msg], rnd)
    }

    /// HashML-DSA.Sign (FIPS 204 Algorithm 4) with PH(M) given; see [`sign_prehashed`].
    pub fn sign_prehashed(&self, oid: &[u8], digest: &[u8], ctx: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        check_ctx(ctx)?;
        self.sign_m_prime(&[&[1, ctx.len() as u8], ctx, oid, digest], rnd)
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on M′.
    pub fn sign_internal(&self, m_prime: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        self.sign_m_prime(&[m_prime], rnd)
    }

    /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from an external μ (64 bytes).
    pub fn sign_mu(&self, mu: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        check_len("mu", mu, MU_BYTES)?;
        let mut m = Zeroizing::new([0u8; MU_BYTES]);
        m.copy_from_slice(mu);
        self.sign_with_mu(&m, rnd)
    }

    /// A [`MuBuilder`] started with this key's tr.
    pub fn mu_builder(&self) -> MuBuilder {
        MuBuilder::with_tr(self.inner.tr())
    }

    fn sign_m_prime(&self, m_prime: &[&[u8]], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        let mu = Zeroizing::new(mldsa::message_representative(self.inner.tr(), m_prime));
        self.sign_with_mu(&mu, rnd)
    }

    fn sign_with_mu(&self, mu: &[u8; MU_BYTES], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        let rnd = signing_rnd(rnd)?;
        self.inner.sign_mu(mu, &rnd).map_err(|e| match e {
            mldsa::SignError::TooManyAttempts => Error::SigningFailed,
        })
    }
}

/// A public key prepared for repeated verification: Â, NTT(t1·2^d) and
/// tr = H(pk) cached (FIPS 204 Algorithm 8 steps 1, 5, 6). Verifying with it
/// skips ExpandA, the largest part of a one-shot verification; the cost is
/// (k·ℓ + k) KiB of memory (64 KiB for ML-DSA-87).
pub struct VerifyingKey {
    ps: ParamSet,
    inner: mldsa::ExpandedPublicKey,
}

impl VerifyingKey {
    pub fn new(ps: ParamSet, pk: &[u8]) -> Result<VerifyingKey, Error> {
        VerifyingKey::new_in(ps, pk, KeyStorage::empty()).map_err(|(e, _)| e)
    }

    /// As [`VerifyingKey::new`], in `storage`; on error the storage comes back.
    pub fn new_in(ps: ParamSet, pk: &[u8], storage: KeyStorage) -> Result<VerifyingKey, (Error, KeyStorage)> {
        if let Err(e) = check_len("publicKey", pk, ps.public_key_len()) {
            return Err((e, storage));
        }
        Ok(VerifyingKey { ps, inner: mldsa::ExpandedPublicKey::new(ps.params(), pk, storage.0) })
    }

    /// Gives back the key's memory, wiped.
    pub fn into_storage(self) -> KeyStorage {
        KeyStorage(self.inner.into_storage())
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3); see [`verify`].
    pub fn verify(&self, msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
        ctx.len() <= 255 && self.verify_m_prime(&[&[0, ctx.len() as u8], ctx, msg], sig)
    }

    /// HashML-DSA.Verify (FIPS 204 Algorithm 5) with PH(M) given.
    pub fn verify_prehashed(&self, oid: &[u8], digest: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
        ctx.len() <= 255 && self.verify_m_prime(&[&[1, ctx.len() as u8], ctx, oid, digest], sig)
    }

    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on M′.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &[u8]) -> bool {
        self.verify_m_prime(&[m_prime], sig)
    }

    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) from an external μ (64 bytes).
    pub fn verify_mu(&self, mu: &[u8], sig: &[u8]) -> bool {
        match <&[u8; MU_BYTES]>::try_from(mu) {
            Ok(mu) => sig.len() == self.ps.signature_len() && self.inner.verify_mu(mu, sig),
            Err(_) => false,
        }
    }

    /// A [`MuBuilder`] started with this key's tr.
    pub fn mu_builder(&self) -> MuBuilder {
        MuBuilder::with_tr(self.inner.tr())
    }

    fn verify_m_prime(&self, m_prime: &[&[u8]], sig: &[u8]) -> bool {
        let mu = mldsa::message_representative(self.inner.tr(), m_prime);
        sig.len() == self.ps.signature_len() && self.inner.verify_mu(&mu, sig)
    }
}

/// ML-DSA.Sign (FIPS 204 Algorithm 2): M′ = 0 ‖ |ctx| ‖ ctx ‖ M.
/// `rnd`: `None` for hedged signing, `Some(&[0; 32])` for deterministic.
pub fn sign(ps: ParamSet, sk: &[u8], msg: &[u8], ctx: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    check_ctx(ctx)?;
    SigningKey::new(ps, sk)?.sign(msg, ctx, rnd)
}

/// HashML-DSA.Sign (FIPS 204 Algorithm 4): M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M).
pub fn sign_prehash(
    ps: ParamSet,
    sk: &[u8],
    hash: HashAlg,
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    sign_prehashed(ps, sk, hash.oid(), &hash.digest(msg), ctx, rnd)
}

/// HashML-DSA.Sign with PH(M) computed by the caller: `oid` is the DER
/// encoding of the hash function's OID, `digest` is PH(M).
pub fn sign_prehashed(
    ps: ParamSet,
    sk: &[u8],
    oid: &[u8],
    digest: &[u8],
    ctx: &[u8],
    rnd: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    check_ctx(ctx)?;
    SigningKey::new(ps, sk)?.sign_prehashed(oid, digest, ctx, rnd)
}

/// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on M′ as given.
pub fn sign_internal(ps: ParamSet, sk: &[u8], m_prime: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    SigningKey::new(ps, sk)?.sign_internal(m_prime, rnd)
}

/// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from an externally computed
/// μ = H(tr ‖ M′, 64) (64 bytes).
pub fn sign_mu(ps: ParamSet, sk: &[u8], mu: &[u8], rnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    check_len("mu", mu, MU_BYTES)?;
    SigningKey::new(ps, sk)?.sign_mu(mu, rnd)
}

/// One-shot verification: Â is generated as it is used (no k·ℓ matrix in memory).
fn verify_m_prime(ps: ParamSet, pk: &[u8], m_prime: &[&[u8]], sig: &[u8]) -> bool {
    if pk.len() != ps.public_key_len() || sig.len() != ps.signature_len() {
        return false;
    }
    mldsa::verify_m_prime(ps.params(), pk, m_prime, sig)
}

/// ML-DSA.Verify (FIPS 204 Algorithm 3). False for any bad input, including
/// wrong lengths and a context over 255 bytes.
pub fn verify(ps: ParamSet, pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    ctx.len() <= 255 && verify_m_prime(ps, pk, &[&[0, ctx.len() as u8], ctx, msg], sig)
}

/// HashML-DSA.Verify (FIPS 204 Algorithm 5).
pub fn verify_prehash(ps: ParamSet, pk: &[u8], hash: HashAlg, msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    verify_prehashed(ps, pk, hash.oid(), &hash.digest(msg), sig, ctx)
}

/// HashML-DSA.Verify with PH(M) computed by the caller.
pub fn verify_prehashed(ps: ParamSet, pk: &[u8], oid: &[u8], digest: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    ctx.len() <= 255 && verify_m_prime(ps, pk, &[&[1, ctx.len() as u8], ctx, oid, digest], sig)
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on M′ as given.
pub fn verify_internal(ps: ParamSet, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> bool {
    verify_m_prime(ps, pk, &[m_prime], sig)
}

/// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) from an external μ (64 bytes).
pub fn verify_mu(ps: ParamSet, pk: &[u8], mu: &[u8], sig: &[u8]) -> bool {
    if pk.len() != ps.public_key_len() || sig.len() != ps.signature_len() {
        return false;
    }
    let Ok(mu) = <&[u8; MU_BYTES]>::try_from(mu) else {
        return false;
    };
    mldsa::verify_mu(ps.params(), pk, mu, sig)
}

/// μ = H(H(pk, 64) ‖ M′, 64) for a pure ML-DSA message with context: what a
/// caller hashing the message elsewhere passes to [`sign_mu`] / [`verify_mu`].
pub fn external_mu(ps: ParamSet, pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_BYTES], Error> {
    check_len("publicKey", pk, ps.public_key_len())?;
    check_ctx(ctx)?;
    let tr = mldsa::public_key_hash(pk);
    Ok(mldsa::message_representative(&tr, &[&[0, ctx.len() as u8], ctx, msg]))
}

/// μ = H(tr ‖ M′, 64) computed over M′ given in pieces, for messages too
/// large to hold at once; the result goes to [`sign_mu`] / [`verify_mu`].
/// The caller writes M′ itself: for pure ML-DSA 0 ‖ |ctx| ‖ ctx ‖ M, for
/// HashML-DSA 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) (FIPS 204 Algorithms 2 and 4).
pub struct MuBuilder(xof::Shake256);

impl MuBuilder {
    /// Starts μ with tr = H(pk, 64), as a verifier computes it.
    pub fn for_public_key(ps: ParamSet, pk: &[u8]) -> Result<MuBuilder, Error> {
        check_len("publicKey", pk, ps.public_key_len())?;
        Ok(MuBuilder::with_tr(&mldsa::public_key_hash(pk)))
    }
    /// Starts μ with the tr stored in an encoded secret key, as a signer does
    /// (without decoding the rest of the key).
    pub fn for_secret_key(ps: ParamSet, sk: &[u8]) -> Result<MuBuilder, Error> {
        check_len("secretKey", sk, ps.secret_key_len())?;
        Ok(MuBuilder::with_tr(&sk[64..128]))
    }
    fn with_tr(tr: &[u8]) -> MuBuilder {
        MuBuilder(xof::Shake256::new().absorb(tr))
    }
    /// Appends bytes of M′.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    pub fn finalize(self) -> [u8; MU_BYTES] {
        let mut mu = [0u8; MU_BYTES];
        self.0.finalize().squeeze(&mut mu);
        mu
    }

    /// Bytes of [`MuBuilder::to_bytes`].
    pub const STATE_BYTES: usize = xof::STATE_BYTES;

    /// The state between two updates, so that a caller can keep any number
    /// of μ computations outside the crate and resume each with
    /// [`MuBuilder::from_bytes`]. It holds tr (public: H(pk)) and M′ so far,
    /// and is not wiped: for public messages.
    pub fn to_bytes(&self) -> [u8; MuBuilder::STATE_BYTES] {
        self.0.to_bytes()
    }

    /// A builder resumed from [`MuBuilder::to_bytes`]; None for bytes that it
    /// cannot have written (wrong length, a position outside the block).
    pub fn from_bytes(b: &[u8]) -> Option<MuBuilder> {
        xof::Shake256::from_bytes(b.try_into().ok()?).map(MuBuilder)
    }
}
