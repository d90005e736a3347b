//! Hash states of messages given in pieces (μ or PH(M)), kept by the caller.

use super::{js, param_set, wiping};
use crate::{HashAlg, MuBuilder, Prehasher, NIST_HASH_OID_PREFIX};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------- streaming
//
// A message too large to copy into linear memory at once, or one that
// arrives in pieces over time (the package's createSign/createVerify and
// signStream/verifyStream), is hashed in pieces. The hash state is not kept
// here: each start returns it as bytes, `stream_update` takes it with one
// piece of the message and writes the new state back into the caller's
// buffer, and `stream_finish` turns it into μ or PH(M). JavaScript keeps the
// state with the object that owns the stream. So any number of streams can
// be open at once, also across awaits; an abandoned one is garbage like any
// other JavaScript value and holds nothing here; and no call can reach or
// continue another caller's stream, however calls nest, because there is no
// shared stream to reach. (A pool of numbered slots would bound the number of
// open streams, and evicting one would fail a stream its owner still wants.)
// The states hold only public data: tr = H(pk), the message and PH(M), never
// a secret key, so they may live in JavaScript memory. Each state is
// 1 + 201 bytes (μ) or 1 + 202 bytes (PH): copying it in and out costs
// little beside the piece of up to 64 KiB hashed with it.
pub(super) enum Stream {
    Mu(MuBuilder),
    Prehash(Prehasher),
}

const MU_TAG: u8 = 0;
const PREHASH_TAG: u8 = 1;

impl Stream {
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            Stream::Mu(b) => {
                out.push(MU_TAG);
                out.extend_from_slice(&b.to_bytes());
            }
            Stream::Prehash(h) => {
                out.push(PREHASH_TAG);
                out.extend_from_slice(&h.to_bytes());
            }
        }
        out
    }

    fn from_bytes(b: &[u8]) -> Option<Stream> {
        match b.split_first()? {
            (&MU_TAG, rest) => MuBuilder::from_bytes(rest).map(Stream::Mu),
            (&PREHASH_TAG, rest) => Prehasher::from_bytes(rest).map(Stream::Prehash),
            _ => None,
        }
    }
}

/// The state of μ = H(H(pk) ‖ M′) for verification; feed M′ with `stream_update`.
#[wasm_bindgen]
pub fn stream_mu_public(ps: u32, pk: &[u8]) -> Result<Vec<u8>, JsError> {
    let builder = MuBuilder::for_public_key(param_set(ps)?, pk).map_err(js)?;
    Ok(Stream::Mu(builder).to_bytes())
}

/// The state of μ = H(tr ‖ M′) with the tr of a secret key, for signing.
#[wasm_bindgen]
pub fn stream_mu_secret(ps: u32, sk: Vec<u8>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| Ok(Stream::Mu(MuBuilder::for_secret_key(ps, &sk)?).to_bytes())).map_err(js)
}

/// The state of PH(M) for the pre-hash function whose DER OID is `oid`: the
/// function is chosen by the bytes HashML-DSA puts in M′ beside PH(M)
/// (FIPS 204 Algorithms 4 and 5), so it cannot differ from the one they name.
#[wasm_bindgen]
pub fn stream_prehash(oid: &[u8]) -> Result<Vec<u8>, JsError> {
    // Every such OID is the NIST hash arc and one byte (src/js_tables.rs
    // checks it): comparing the arc once and then one byte per function keeps
    // the search small (twelve whole-OID comparisons are ~3 KB of code).
    let hash = match oid.split_last() {
        Some((&last, arc)) if arc == NIST_HASH_OID_PREFIX => HashAlg::all().find(|h| h.oid()[10] == last),
        _ => None,
    };
    let hash = hash.ok_or_else(|| JsError::new("hash: not the OID of a FIPS 204 pre-hash function"))?;
    Ok(Stream::Prehash(hash.hasher()).to_bytes())
}

/// Appends bytes to the stream whose state is `state`, which it updates in
/// place; false (and `state` unchanged) when `state` is not a stream state.
#[wasm_bindgen]
pub fn stream_update(state: &mut [u8], data: &[u8]) -> bool {
    let Some(mut stream) = Stream::from_bytes(state) else { return false };
    match &mut stream {
        Stream::Mu(b) => b.update(data),
        Stream::Prehash(h) => h.update(data),
    }
    state.copy_from_slice(&stream.to_bytes());
    true
}

/// The result of the stream whose state is `state`: μ (64 bytes) or PH(M).
#[wasm_bindgen]
pub fn stream_finish(state: &[u8]) -> Result<Vec<u8>, JsError> {
    match Stream::from_bytes(state) {
        Some(Stream::Mu(b)) => Ok(b.finalize().to_vec()),
        Some(Stream::Prehash(h)) => Ok(h.finalize()),
        None => Err(JsError::new("stream: not a stream state")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Each pre-hash function is found by its own OID, and nothing else is.
    #[test]
    fn prehash_is_chosen_by_its_oid() {
        for h in HashAlg::all() {
            let mut state = stream_prehash(h.oid()).ok().unwrap();
            assert!(stream_update(&mut state, b"abc"));
            assert_eq!(stream_finish(&state).ok(), Some(h.digest(b"abc")), "{}", h.name());
        }
        let mut oid = HashAlg::Sha256.oid().to_vec();
        assert!(stream_prehash(&oid[..10]).is_err());
        oid[10] = 13;
        assert!(stream_prehash(&oid).is_err());
        assert!(stream_prehash(&[]).is_err());
    }
}
