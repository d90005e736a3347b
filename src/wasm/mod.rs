//! WebAssembly exports for the npm package: thin wrappers over the crate's
//! public API. The JavaScript layer checks every argument first and throws
//! TypeError/RangeError itself; the errors here are a last line of defence.
//! `ps` is 44, 65 or 87. Verification takes FIPS 204's order,
//! ML-DSA.Verify(pk, M, σ, ctx) (Algorithm 3), as the crate does; js/index.js
//! alone turns noble's (σ, M, pk) into it.
//!
//! No secret stays in linear memory after a call, except the expanded keys of
//! live prepared signers: secret inputs (`sk`, `seed`, `rnd`) are taken as
//! owned vectors so that their copies in linear memory are freed here; the
//! allocator (`allocator.rs`) wipes every block it frees, results (a secret key from
//! `keygen`) are copied out and freed by the generated glue through it too;
//! and every export that handles a secret clears the stack it used
//! (`wiping`).
//!
//! For size, the set of exports is small: one export per operation, told by
//! an argument what its message is (exports::MESSAGE, M_PRIME, MU).
//! HashML-DSA is signed and verified as M′, built in JavaScript with PH(M)
//! from the caller's hash function (FIPS 204 Algorithms 4 and 5); key
//! formats are JavaScript's too (js/keys.js).
//!
//! By job: `exports` (the one-shot operations), `prepared` (the pool of
//! prepared signers and verifiers), `stream` (μ of messages given in
//! pieces), `allocator` (the global heap allocator,
//! which wipes what it frees), `panic` (the trapping panic handler); here, what
//! they share: argument and error conversion, and clearing the stack.

mod allocator;
mod exports;
#[cfg(all(feature = "panic-trap", not(test)))]
mod panic;
mod prepared;
mod stream;

use crate::{Error, ParamSet};
use wasm_bindgen::prelude::*;

fn param_set(ps: u32) -> Result<ParamSet, JsError> {
    ParamSet::from_number(ps).ok_or_else(|| JsError::new("parameter set: expected 44, 65 or 87"))
}

fn js(e: Error) -> JsError {
    // Fixed texts (no formatting code in the .wasm); the JS layer has already
    // checked every length, so only these can reach it.
    JsError::new(match e {
        Error::Length { what: "secretKey", .. } => "secretKey: wrong length",
        Error::Length { what: "publicKey", .. } => "publicKey: wrong length",
        Error::Length { what: "seed", .. } => "seed: expected 32 bytes",
        Error::Length { what: "mu", .. } => "mu: expected 64 bytes",
        Error::Length { what: "rnd", .. } => "extraEntropy: expected 32 bytes",
        Error::Length { .. } => "wrong input length",
        Error::ContextTooLong { .. } => "context: expected at most 255 bytes",
        Error::MalformedSecretKey => "secretKey: malformed (not an ML-DSA secret key of this parameter set)",
        Error::Randomness => "no random bytes available from the system",
        Error::SigningFailed => "signing failed after the maximum number of attempts",
        Error::Format(what) => what,
    })
}

/// `key`'s signature of `m` of kind `kind` (exports::MESSAGE, M_PRIME or MU).
fn sign_with(key: &crate::SigningKey, kind: u32, m: &[u8], ctx: &[u8], rnd: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
    match kind {
        exports::MESSAGE => key.sign(m, ctx, Some(rnd)),
        exports::M_PRIME => key.sign_internal(m, Some(rnd)),
        exports::MU => key.sign_mu(m, Some(rnd)),
        _ => Err(exports::kind_error()),
    }
}

/// Whether `sig` is `key`'s signature of `m` of kind `kind` (false for an unknown kind).
fn verify_with(key: &crate::VerifyingKey, kind: u32, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    match kind {
        exports::MESSAGE => key.verify(m, sig, ctx),
        exports::M_PRIME => key.verify_internal(m, sig),
        exports::MU => key.verify_mu(m, sig),
        _ => false,
    }
}

/// A value that only this instance's one thread touches: wasm32 without the
/// atomics feature runs one thread, so a plain static can hold it (a
/// thread_local would bring std's TLS destructor registration along).
struct SingleThreaded<T>(T);
// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl<T> Sync for SingleThreaded<T> {}
#[cfg(target_feature = "atomics")]
compile_error!("src/wasm/ keeps state in plain statics: single-threaded wasm only");

// ---------------------------------------------------------------- the stack
//
// Every call that handles a secret ends by clearing the stack it used. The
// heap is wiped by the allocator and secret locals are `Zeroizing`, but moves
// and compiler temporaries leave copies of keys and seeds in stack frames
// that no destructor reaches. No export calls back into JavaScript (the
// randomness comes in as an argument), so nothing runs between the
// operation and the wipe.

/// How many bytes below an export's frame `wipe_stack` clears: more than the
/// deepest any secret-handling export reaches (pkg-tests/secrets.test.mjs
/// paints the free stack before each such call and fails if anything below
/// this depth was written); far less than the 64 KiB stack.
const STACK_WIPE: usize = 16 * 1024;

#[inline(never)]
fn wipe_stack() {
    let mut area = core::mem::MaybeUninit::<[u8; STACK_WIPE]>::uninit();
    // SAFETY: writes only this frame's own (uninitialised) array.
    unsafe { core::ptr::write_bytes(area.as_mut_ptr().cast::<u8>(), 0, STACK_WIPE) };
    core::hint::black_box(&mut area);
}

/// Runs `f` out of line, so that its frames lie below this one, then clears
/// them (`wipe_stack`).
#[inline(always)]
fn wiping<T>(f: impl FnOnce() -> T) -> T {
    #[inline(never)]
    fn outlined<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
    let r = outlined(f);
    wipe_stack();
    r
}
