//! The key-format exports of the npm package (js/keys.js calls them): SPKI,
//! PKCS#8, PEM and the base64url of JWK, over `keyformat` and `pem`. Every
//! export that handles a private key clears the stack it used (`wiping`).

use super::{fill, js, param_set, wiping};
use crate::{pem, Error, ParamSet, PrivateKey, PrivateKeyForm};
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

/// The public key of an SPKI, written into `pk` (made by JavaScript for the
/// set `ps`) when the SPKI is of that set. Returns the SPKI's set number (44,
/// 65, 87), so that JavaScript names the set it found when it is not `ps`.
#[wasm_bindgen]
pub fn spki_decode(ps: u32, der: &[u8], pk: &mut [u8]) -> Result<u32, JsError> {
    let want = param_set(ps)?;
    let (found, key) = crate::public_key_from_spki(der).map_err(js)?;
    if found == want {
        fill(pk, &key, "publicKey").map_err(js)?;
    }
    Ok(found.number())
}

#[wasm_bindgen]
pub fn spki_encode(ps: u32, pk: &[u8]) -> Result<Vec<u8>, JsError> {
    crate::public_key_to_spki(param_set(ps)?, pk).map_err(js)
}

/// Writes a checked private key into the arrays JavaScript hands back to the
/// caller (`seed` only when the key has one), when it is of the set `want`.
/// Returns its set number times 2, plus 1 when it has a seed.
fn write_key(key: &PrivateKey, want: ParamSet, seed: &mut [u8], pk: &mut [u8], sk: &mut [u8]) -> Result<u32, Error> {
    if key.param_set == want {
        if let Some(s) = &key.seed {
            fill(seed, &s[..], "seed")?;
        }
        fill(pk, &key.public_key, "publicKey")?;
        fill(sk, &key.secret_key, "secretKey")?;
    }
    Ok(key.param_set.number() * 2 + key.seed.is_some() as u32)
}

/// A PKCS#8 private key in any RFC 9881 form, checked, written as `write_key` says.
#[wasm_bindgen]
pub fn pkcs8_decode(ps: u32, der: Vec<u8>, seed: &mut [u8], pk: &mut [u8], sk: &mut [u8]) -> Result<u32, JsError> {
    let want = param_set(ps)?;
    wiping(|| PrivateKey::from_pkcs8(&der).and_then(|key| write_key(&key, want, seed, pk, sk))).map_err(js)
}

/// The checked key of a seed, an expanded key, or both (empty arguments are
/// absent), written as `write_key` says.
#[wasm_bindgen]
pub fn private_key(ps: u32, seed: Vec<u8>, sk: Vec<u8>, out_seed: &mut [u8], out_pk: &mut [u8], out_sk: &mut [u8]) -> Result<u32, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let key = match (seed.is_empty(), sk.is_empty()) {
            (false, true) => PrivateKey::from_seed(ps, &seed),
            (true, false) => PrivateKey::from_expanded(ps, &sk),
            (false, false) => PrivateKey::from_both(ps, &seed, &sk),
            (true, true) => Err(Error::Format("privateKey: neither a seed nor an expanded key")),
        }?;
        write_key(&key, ps, out_seed, out_pk, out_sk)
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

/// The DER inside PEM armour with this label (RFC 7468, read laxly: see `pem::pem_decode`).
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
