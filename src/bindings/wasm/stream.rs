//! μ of messages given in pieces, its hash state kept by the caller.

use super::{bytes, bytes_mut, code, fill, param_set, status, wiping, NOT_A_STATE};
use crate::MuBuilder;
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

/// Writes a μ state into the output block `state`, for JavaScript to keep.
pub(super) fn write_state(builder: MuBuilder, state: &mut [u8]) -> Result<(), i32> {
    fill(state, &builder.to_bytes())
}

/// The state of μ = H(tr ‖ M′) with the tr of the secret key at `key`
/// (`secret`), or with tr = H(pk) of the public key there, written into the
/// output block `state`; feed M′ with `stream_update`. 0 or an error code.
#[wasm_bindgen]
pub fn stream_mu(ps: u32, secret: bool, key: usize, key_len: usize, state: usize, state_len: usize) -> i32 {
    status(param_set(ps).and_then(|ps| {
        wiping(|| {
            let key = bytes(key, key_len);
            let builder = if secret { MuBuilder::for_secret_key(ps, key) } else { MuBuilder::for_public_key(ps, key) };
            write_state(builder.map_err(code)?, bytes_mut(state, state_len))
        })
    }))
}

/// The state of the stream whose state is the block `state` after the bytes
/// at `data`, written into the output block `out`; NOT_A_STATE when `state`
/// does not hold a stream state.
#[wasm_bindgen]
pub fn stream_update(state: usize, state_len: usize, data: usize, data_len: usize, out: usize, out_len: usize) -> i32 {
    let Some(mut builder) = MuBuilder::from_bytes(bytes(state, state_len)) else { return NOT_A_STATE };
    builder.update(bytes(data, data_len));
    status(write_state(builder, bytes_mut(out, out_len)))
}

/// μ (64 bytes) of the stream whose state is the block `state`, written into the output block `mu`.
#[wasm_bindgen]
pub fn stream_finish(state: usize, state_len: usize, mu: usize, mu_len: usize) -> i32 {
    match MuBuilder::from_bytes(bytes(state, state_len)) {
        Some(b) => status(fill(bytes_mut(mu, mu_len), &b.finalize())),
        None => NOT_A_STATE,
    }
}
