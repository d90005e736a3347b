//! The one-shot operations: each call decodes its key, runs once and keeps nothing.

use super::{js, param_set, wiping};
use crate::{ParamSet, SigningKey};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------- one-shot operations
// `rnd` and `seed` are 32 bytes that JavaScript drew from crypto.getRandomValues
// (or the caller gave): drawing them there keeps every export free of calls
// back into JavaScript.

/// The key pair for the 32-byte seed ξ, encoded straight into `pk` and `sk`
/// (made by JavaScript with the exact lengths): the generated glue copies each
/// back into the caller's array once, and frees (so wipes) its copy in linear
/// memory.
#[wasm_bindgen]
pub fn keygen(ps: u32, seed: Vec<u8>, pk: &mut [u8], sk: &mut [u8]) -> Result<(), JsError> {
    let ps = param_set(ps)?;
    wiping(|| crate::keygen_into(ps, &seed, pk, sk)).map_err(js)
}

#[wasm_bindgen]
pub fn public_key(ps: u32, sk: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| crate::public_key(ps, &sk)).map_err(js)
}

/// What the message argument `m` of `sign`, `verify` and the prepared keys'
/// `signer_sign`/`verifier_verify` is: the message M, signed with its
/// context (ML-DSA.Sign and ML-DSA.Verify, FIPS 204 Algorithms 2 and 3); M′
/// as given (ML-DSA.Sign_internal and Verify_internal, Algorithms 7 and 8;
/// JavaScript builds HashML-DSA's M′ of Algorithms 4 and 5); or μ, the
/// 64-byte message representative (Algorithm 7 line 6, Algorithm 8 line 7),
/// computed by the caller. One export per operation, with this argument, is
/// less code in the .wasm than one per kind. js/boundary.js has the same numbers.
pub(super) const MESSAGE: u32 = 0;
pub(super) const M_PRIME: u32 = 1;
pub(super) const MU: u32 = 2;

pub(super) fn kind_error() -> crate::Error {
    crate::Error::Format("message kind: expected 0, 1 or 2")
}

/// A signature of `m` (of kind `kind`; `ctx` only for MESSAGE).
#[wasm_bindgen]
pub fn sign(ps: u32, sk: Vec<u8>, kind: u32, m: &[u8], ctx: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let key = SigningKey::new(ps, &sk)?;
        super::sign_with(&key, kind, m, ctx, &rnd)
    })
    .map_err(js)
}

/// Whether `sig` is a signature of `m` (of kind `kind`; `ctx` only for MESSAGE) by `pk`.
#[wasm_bindgen]
pub fn verify(ps: u32, pk: &[u8], kind: u32, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    // The one-shot functions of the crate, which make Â as they use it, not a prepared key.
    let Some(ps) = ParamSet::from_number(ps) else { return false };
    match kind {
        MESSAGE => crate::verify(ps, pk, m, sig, ctx),
        M_PRIME => crate::verify_internal(ps, pk, m, sig),
        MU => crate::verify_mu(ps, pk, m, sig),
        _ => false,
    }
}

/// Bytes of linear memory the instance holds now (it only grows).
#[wasm_bindgen]
pub fn memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}

/// Bytes of that memory in use now: all but the allocator's free blocks.
#[wasm_bindgen]
pub fn memory_in_use() -> usize {
    super::allocator::bytes_in_use()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The verify exports take FIPS 204's order, ML-DSA.Verify(pk, M, σ, ctx)
    /// (Algorithm 3), as the crate's functions do; noble's (σ, M, pk) is the
    /// JavaScript layer's alone.
    #[test]
    fn verify_takes_public_key_message_signature_context() {
        let (msg, ctx) = (&b"attack at dawn"[..], &b"ctx"[..]);
        let (mut pk, mut sk) = (vec![0; 1312], vec![0; 2560]);
        keygen(44, vec![7; 32], &mut pk, &mut sk).ok().unwrap();
        let pk = &pk[..];
        let sig = sign(44, sk.to_vec(), MESSAGE, msg, ctx, vec![0; 32]).ok().unwrap();
        assert!(verify(44, pk, MESSAGE, msg, &sig, ctx));
        assert!(!verify(44, pk, MESSAGE, &sig, msg, ctx));
        let m_prime = [&[0, ctx.len() as u8][..], ctx, msg].concat();
        assert!(verify(44, pk, M_PRIME, &m_prime, &sig, &[]));
        let mu = crate::external_mu(ParamSet::MlDsa44, pk, msg, ctx).unwrap();
        assert!(verify(44, pk, MU, &mu, &sig, &[]));
        assert!(!verify(44, pk, MU, &sig, &mu, &[]));
        // Each kind signs what it says: the three signatures (deterministic) agree.
        assert_eq!(sign(44, sk.to_vec(), M_PRIME, &m_prime, &[], vec![0; 32]).ok().unwrap(), sig);
        assert_eq!(sign(44, sk.to_vec(), MU, &mu, &[], vec![0; 32]).ok().unwrap(), sig);
        assert!(sign(44, sk.to_vec(), 3, msg, ctx, vec![0; 32]).is_err());
        assert!(!verify(44, pk, 3, msg, &sig, ctx));
    }
}
