//! The one-shot operations: each call decodes its key, runs once and keeps nothing.

use super::{js, param_set, wiping};
use crate::ParamSet;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------- one-shot operations
// `rnd` and `seed` are 32 bytes that JavaScript drew from crypto.getRandomValues
// (or the caller gave): drawing them there keeps every export free of calls
// back into JavaScript.

/// pk ‖ sk for the 32-byte seed ξ.
#[wasm_bindgen]
pub fn keygen(ps: u32, seed: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let (mut pk, sk) = crate::keygen_internal(ps, &seed)?;
        pk.extend_from_slice(&sk);
        Ok(pk)
    })
    .map_err(js)
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
pub fn verify(ps: u32, pk: &[u8], sig: &[u8], msg: &[u8], ctx: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify(ps, pk, msg, sig, ctx))
}

#[wasm_bindgen]
pub fn verify_internal(ps: u32, pk: &[u8], sig: &[u8], m_prime: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify_internal(ps, pk, m_prime, sig))
}

#[wasm_bindgen]
pub fn verify_mu(ps: u32, pk: &[u8], sig: &[u8], mu: &[u8]) -> bool {
    ParamSet::from_number(ps).is_some_and(|ps| crate::verify_mu(ps, pk, mu, sig))
}

/// Bytes of linear memory the instance holds now (it only grows).
#[wasm_bindgen]
pub fn memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}
