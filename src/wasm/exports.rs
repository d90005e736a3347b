//! The one-shot operations: each call decodes its key, runs once and keeps nothing.

use super::{js, param_set, wiping};
use crate::ParamSet;
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

#[wasm_bindgen]
pub fn sign(ps: u32, sk: Vec<u8>, msg: &[u8], ctx: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| crate::sign(ps, &sk, msg, ctx, Some(&rnd))).map_err(js)
}

#[wasm_bindgen]
pub fn sign_internal(ps: u32, sk: Vec<u8>, m_prime: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| crate::sign_internal(ps, &sk, m_prime, Some(&rnd))).map_err(js)
}

#[wasm_bindgen]
pub fn sign_mu(ps: u32, sk: Vec<u8>, mu: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| crate::sign_mu(ps, &sk, mu, Some(&rnd))).map_err(js)
}

#[wasm_bindgen]
pub fn verify(ps: u32, pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify(ps, pk, msg, sig, ctx))
}

#[wasm_bindgen]
pub fn verify_internal(ps: u32, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify_internal(ps, pk, m_prime, sig))
}

#[wasm_bindgen]
pub fn verify_mu(ps: u32, pk: &[u8], mu: &[u8], sig: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify_mu(ps, pk, mu, sig))
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
        let sig = sign(44, sk.to_vec(), msg, ctx, vec![0; 32]).ok().unwrap();
        assert!(verify(44, pk, msg, &sig, ctx));
        assert!(!verify(44, pk, &sig, msg, ctx));
        let m_prime = [&[0, ctx.len() as u8][..], ctx, msg].concat();
        assert!(verify_internal(44, pk, &m_prime, &sig));
        let mu = crate::external_mu(ParamSet::MlDsa44, pk, msg, ctx).unwrap();
        assert!(verify_mu(44, pk, &mu, &sig));
        assert!(!verify_mu(44, pk, &sig, &mu));
    }
}
