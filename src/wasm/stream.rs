//! μ of messages given in pieces, its hash state kept by the caller.

use super::{js, param_set, wiping};
use crate::MuBuilder;
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------- streaming
//
// A message too large to copy into linear memory at once, or one that
// arrives in pieces over time (the package's createSign/createVerify and
// signStream/verifyStream), is hashed in pieces into μ = H(tr ‖ M′, 64)
// (FIPS 204 Algorithm 7 line 6, Algorithm 8 line 7). The hash state is not
// kept here: each start returns it as bytes, `stream_update` takes it with
// one piece of the message and writes the new state back into the caller's
// buffer, and `stream_finish` turns it into μ. JavaScript keeps the state
// with the object that owns the stream. So any number of streams can be open
// at once, also across awaits; an abandoned one is garbage like any other
// JavaScript value and holds nothing here; and no call can reach or continue
// another caller's stream, however calls nest, because there is no shared
// stream to reach. (A pool of numbered slots would bound the number of open
// streams, and evicting one would fail a stream its owner still wants.) The
// states hold only public data: tr = H(pk) and the message, never a secret
// key, so they may live in JavaScript memory. Each state is
// `MuBuilder::STATE_BYTES` (201) bytes: copying it in and out costs little
// beside the piece of up to 64 KiB hashed with it. (HashML-DSA's PH(M) is
// the caller's hash function's, in JavaScript.)

/// A μ state as bytes, for JavaScript to keep.
pub(super) fn state_of(builder: MuBuilder) -> Vec<u8> {
    builder.to_bytes().to_vec()
}

/// The state of μ = H(tr ‖ M′) with the tr of a secret key (`secret`), or
/// with tr = H(pk) of a public key; feed M′ with `stream_update`.
#[wasm_bindgen]
pub fn stream_mu(ps: u32, key: Vec<u8>, secret: bool) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let builder = if secret { MuBuilder::for_secret_key(ps, &key) } else { MuBuilder::for_public_key(ps, &key) };
        Ok(state_of(builder?))
    })
    .map_err(js)
}

/// Appends bytes to the stream whose state is `state`, which it updates in
/// place; false (and `state` unchanged) when `state` is not a stream state.
#[wasm_bindgen]
pub fn stream_update(state: &mut [u8], data: &[u8]) -> bool {
    let Some(mut builder) = MuBuilder::from_bytes(state) else { return false };
    builder.update(data);
    state.copy_from_slice(&builder.to_bytes());
    true
}

/// μ (64 bytes) of the stream whose state is `state`.
#[wasm_bindgen]
pub fn stream_finish(state: &[u8]) -> Result<Vec<u8>, JsError> {
    match MuBuilder::from_bytes(state) {
        Some(b) => Ok(b.finalize().to_vec()),
        None => Err(JsError::new("stream: not a stream state")),
    }
}
