//! The key-format exports of the npm package (js/keys.js calls them): SPKI,
//! PKCS#8, PEM and the base64url of JWK, over `keyformat` and `pem`. Every
//! export that handles a private key clears the stack it used (`wiping`).

use super::{js, param_set, wiping};
use crate::{pem, Error, PrivateKey, PrivateKeyForm};
use alloc::string::String;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

fn form(code: u32) -> Result<PrivateKeyForm, JsError> {
    match code {
        0 => Ok(PrivateKeyForm::Seed),
        1 => Ok(PrivateKeyForm::ExpandedKey),
        2 => Ok(PrivateKeyForm::Both),
        _ => Err(JsError::new("form: expected seed, expandedKey or both")),
    }
}

fn form_code(form: PrivateKeyForm) -> u8 {
    match form {
        PrivateKeyForm::Seed => 0,
        PrivateKeyForm::ExpandedKey => 1,
        PrivateKeyForm::Both => 2,
    }
}

/// The parameter set's number (44, 65, 87) ‖ the public key of an SPKI.
#[wasm_bindgen]
pub fn spki_decode(der: &[u8]) -> Result<Vec<u8>, JsError> {
    let (ps, pk) = crate::public_key_from_spki(der).map_err(js)?;
    let mut out = Vec::with_capacity(1 + pk.len());
    out.push(ps.number() as u8);
    out.extend_from_slice(&pk);
    Ok(out)
}

#[wasm_bindgen]
pub fn spki_encode(ps: u32, pk: &[u8]) -> Result<Vec<u8>, JsError> {
    crate::public_key_to_spki(param_set(ps)?, pk).map_err(js)
}

/// A checked private key, as one buffer for JavaScript to take apart:
/// set number ‖ form ‖ has seed ‖ seed (32 bytes, zero without one) ‖ pk ‖ sk.
fn key_bytes(key: &PrivateKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(3 + 32 + key.public_key.len() + key.secret_key.len());
    out.extend_from_slice(&[key.param_set.number() as u8, form_code(key.form), key.seed.is_some() as u8]);
    out.extend_from_slice(key.seed.as_deref().unwrap_or(&[0; 32]));
    out.extend_from_slice(&key.public_key);
    out.extend_from_slice(&key.secret_key);
    out
}

/// A PKCS#8 private key in any RFC 9881 form, checked (see `key_bytes`).
#[wasm_bindgen]
pub fn pkcs8_decode(der: Vec<u8>) -> Result<Vec<u8>, JsError> {
    wiping(|| PrivateKey::from_pkcs8(&der).map(|key| key_bytes(&key))).map_err(js)
}

/// The checked key of a seed, an expanded key, or both (`key_bytes`); empty
/// arguments are absent.
#[wasm_bindgen]
pub fn private_key(ps: u32, seed: Vec<u8>, sk: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let key = match (seed.is_empty(), sk.is_empty()) {
            (false, true) => PrivateKey::from_seed(ps, &seed),
            (true, false) => PrivateKey::from_expanded(ps, &sk),
            (false, false) => PrivateKey::from_both(ps, &seed, &sk),
            (true, true) => Err(Error::Format("privateKey: neither a seed nor an expanded key")),
        }?;
        Ok(key_bytes(&key))
    })
    .map_err(js)
}

/// The PKCS#8 DER of a seed or an expanded key (empty when absent) in form
/// 0 (seed), 1 (expandedKey) or 2 (both).
#[wasm_bindgen]
pub fn pkcs8_encode(ps: u32, seed: Vec<u8>, sk: Vec<u8>, form_code: u32) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    let form = form(form_code)?;
    wiping(|| {
        let key = if seed.is_empty() { PrivateKey::from_expanded(ps, &sk) } else { PrivateKey::from_seed(ps, &seed) }?;
        key.to_pkcs8(form).map(|der| der.to_vec())
    })
    .map_err(js)
}

/// The DER inside strict PEM armour with this label.
#[wasm_bindgen]
pub fn pem_decode(text: Vec<u8>, label: &str) -> Result<Vec<u8>, JsError> {
    wiping(|| pem::pem_decode(&text, label).map(|der| der.to_vec())).map_err(|e| JsError::new(e.message()))
}

#[wasm_bindgen]
pub fn pem_encode(der: Vec<u8>, label: &str) -> String {
    wiping(|| String::from(pem::pem_encode(&der, label).as_str()))
}

#[wasm_bindgen]
pub fn base64url_decode(text: Vec<u8>) -> Result<Vec<u8>, JsError> {
    wiping(|| pem::base64url_decode(&text).map(|b| b.to_vec())).map_err(|e| JsError::new(e.message()))
}

#[wasm_bindgen]
pub fn base64url_encode(bytes: Vec<u8>) -> String {
    wiping(|| pem::base64url_encode(&bytes))
}
