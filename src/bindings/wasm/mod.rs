//! WebAssembly exports for the npm package: thin wrappers over the crate's
//! public API, with numbers only in their signatures. js/boundary.js copies
//! each byte argument into linear memory (a block from `alloc`), passes its
//! address and length, makes the output arrays the same way with the exact
//! length the parameter set gives, copies them out after the call and gives
//! every block back with `dealloc`; so the wasm-bindgen glue has nothing to
//! convert, and Rust never makes a JavaScript value. The JavaScript layer
//! checks every argument first and throws TypeError/RangeError itself; what
//! an export still refuses comes back as an error code (`code`: 0 is
//! success), which JavaScript turns into a message: the messages are all
//! JavaScript's. `ps` is 44, 65 or 87. Verification takes FIPS 204's order,
//! ML-DSA.Verify(pk, M, σ, ctx) (Algorithm 3), as the crate does; js/index.js
//! alone turns noble's (σ, M, pk) into it.
//!
//! No secret stays in linear memory after a call, except the expanded keys
//! of live prepared signers: the allocator (`allocator.rs`) wipes every block
//! it frees, so the copies JavaScript put in and the outputs it copied out
//! are wiped when it gives their blocks back, and every export that handles
//! a secret clears the stack it used (`wiping`).
//!
//! For size, the set of exports is small: one export per operation, told by
//! an argument what its message is (`MESSAGE`, `M_PRIME`, `MU`).
//! HashML-DSA is signed and verified as M′, built in JavaScript with PH(M)
//! from the caller's hash function (FIPS 204 Algorithms 4 and 5); key
//! formats are JavaScript's too (js/keys.js).
//!
//! By job: `exports` (the one-shot operations, and the memory), `prepared`
//! (the pool of prepared signers and verifiers), `stream` (μ of messages
//! given in pieces), `allocator` (the global heap allocator, which wipes what
//! it frees), `panic` (the trapping panic handler); here, what they share:
//! the message kinds, the error codes, reading arguments, clearing the stack.

mod allocator;
mod exports;
#[cfg(all(feature = "panic-trap", not(test)))]
mod panic;
mod prepared;
mod stream;

use crate::{Error, ParamSet, VerifyingKey};

// ---------------------------------------------------------------- message kinds
// What the message argument `m` of `sign`, `verify`, `signer_sign` and
// `verifier_verify` is: the message M, signed with its context (ML-DSA.Sign
// and ML-DSA.Verify, FIPS 204 Algorithms 2 and 3); M′ as given
// (ML-DSA.Sign_internal and Verify_internal, Algorithms 7 and 8; JavaScript
// builds HashML-DSA's M′ of Algorithms 4 and 5); or μ, the 64-byte message
// representative (Algorithm 7 line 6, Algorithm 8 line 7), computed by the
// caller. One export per operation, with this argument, is less code than one
// per kind. js/boundary.js has the same numbers.
const MESSAGE: u32 = 0;
const M_PRIME: u32 = 1;
const MU: u32 = 2;

// ---------------------------------------------------------------- error codes
// What an export returns when it refuses its arguments (0: success). The
// JavaScript layer checks every argument before the call, so these are a last
// line of defence; js/boundary.js has the same numbers and the messages.
const OK: i32 = 0;
const BAD_SET: i32 = 1;
const BAD_LENGTH: i32 = 2;
const CONTEXT_TOO_LONG: i32 = 3;
const MALFORMED_SECRET_KEY: i32 = 4;
const SIGNING_FAILED: i32 = 5;
const NO_RANDOMNESS: i32 = 6;
#[cfg_attr(feature = "verify-only", allow(dead_code))]
const BAD_KIND: i32 = 7;
const NO_SUCH_KEY: i32 = 8;
const NOT_A_STATE: i32 = 9;

fn code(e: Error) -> i32 {
    match e {
        Error::Length { .. } => BAD_LENGTH,
        Error::ContextTooLong { .. } => CONTEXT_TOO_LONG,
        Error::MalformedSecretKey => MALFORMED_SECRET_KEY,
        Error::SigningFailed => SIGNING_FAILED,
        Error::Randomness => NO_RANDOMNESS,
        // (Only the key formats make these, and they are not exported.)
        Error::Format(_) => BAD_LENGTH,
    }
}

/// The code of a result with no value.
fn status(r: Result<(), i32>) -> i32 {
    r.err().unwrap_or(OK)
}

fn param_set(ps: u32) -> Result<ParamSet, i32> {
    ParamSet::from_number(ps).ok_or(BAD_SET)
}

// ---------------------------------------------------------------- arguments
// Every address and length comes from js/boundary.js: a block of `len`
// bytes it took from `alloc` and filled (or 0 and 0 for an empty argument).

/// The `len` bytes at `ptr`.
fn bytes<'a>(ptr: usize, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: js/boundary.js passes a live block of `len` bytes from `alloc`,
    // which nothing else references during the call.
    unsafe { core::slice::from_raw_parts(ptr as *const u8, len) }
}

/// The `len` bytes at `ptr`, to be written.
fn bytes_mut<'a>(ptr: usize, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: as `bytes`; the block is the output array of this call alone.
    unsafe { core::slice::from_raw_parts_mut(ptr as *mut u8, len) }
}

/// Copies `from` into the output block `to`, which must have its length.
fn fill(to: &mut [u8], from: &[u8]) -> Result<(), i32> {
    if to.len() != from.len() {
        return Err(BAD_LENGTH);
    }
    to.copy_from_slice(from);
    Ok(())
}

/// `key`'s signature of `m` of kind `kind`, written into `sig`.
#[cfg(not(feature = "verify-only"))]
fn sign_with(key: &crate::SigningKey, kind: u32, m: &[u8], ctx: &[u8], rnd: &[u8], sig: &mut [u8]) -> Result<(), i32> {
    let signature: alloc::vec::Vec<u8> = match kind {
        MESSAGE => key.sign(m, ctx, Some(rnd)),
        M_PRIME => key.sign_internal(m, Some(rnd)),
        MU => key.sign_mu(m, Some(rnd)),
        _ => return Err(BAD_KIND),
    }
    .map_err(code)?;
    fill(sig, &signature)
}

/// Whether `sig` is `key`'s signature of `m` of kind `kind` (false for an unknown kind).
fn verify_with(key: &VerifyingKey, kind: u32, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    match kind {
        MESSAGE => key.verify(m, sig, ctx),
        M_PRIME => key.verify_internal(m, sig),
        MU => key.verify_mu(m, sig),
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
compile_error!("src/bindings/wasm/ keeps state in plain statics: single-threaded wasm only");

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
