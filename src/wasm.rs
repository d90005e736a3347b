//! WebAssembly exports for the npm package: thin wrappers over the crate's
//! public API. The JavaScript layer checks every argument first and throws
//! TypeError/RangeError itself; the errors here are a last line of defence.
//! `ps` is 44, 65 or 87.
//!
//! No secret stays in linear memory after a call, except the expanded keys of
//! live prepared signers: secret inputs (`sk`, `seed`, `rnd`) are taken as
//! owned vectors so that their copies in linear memory are freed here; the
//! allocator below wipes every block it frees, results (a secret key from
//! `keygen`) are copied out and freed by the generated glue through it too;
//! and every export that handles a secret clears the stack it used
//! (`wiping`).
//!
//! For size, the set of exports is small: HashML-DSA is signed and verified
//! through `sign_internal`/`verify_internal` with M′ built in JavaScript
//! (FIPS 204 Algorithms 4 and 5), pre-hash OIDs are known to JavaScript, and
//! pre-hash functions are chosen by index, so no string crosses the boundary
//! into wasm.

use crate::{Error, HashAlg, KeyStorage, MuBuilder, ParamSet, Prehasher, SigningKey, VerifyingKey};
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

/// The heap allocator: first fit on one address-ordered free list, with
/// splitting and coalescing (a few hundred bytes of code, where std's
/// dlmalloc is ~6 KB of the .wasm), wiping each block before it is freed.
///
/// A block is a 16-byte header (its total size, and the next free block while
/// it is free) followed by the payload, all sizes multiples of 16, so every
/// payload is 16-aligned: blocks come from whole 64 KiB pages of
/// `memory.grow` and are split at multiples of 16. Adjacent free blocks are
/// merged, so memory is reused across sizes as with dlmalloc. wasm32 without
/// the atomics feature runs one thread, so the Cell is never shared.
struct WipingAllocator {
    /// Address of the first free block (0: none).
    free: Cell<usize>,
}

// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl Sync for WipingAllocator {}

const HEADER: usize = 16;
const PAGE: usize = 65536;

unsafe fn size_of_block(b: usize) -> usize {
    *(b as *const usize)
}
unsafe fn set_size(b: usize, size: usize) {
    *(b as *mut usize) = size;
}
unsafe fn next_of(b: usize) -> usize {
    *((b + 4) as *const usize)
}
unsafe fn set_next(b: usize, next: usize) {
    *((b + 4) as *mut usize) = next;
}

impl WipingAllocator {
    /// Puts block b on the free list at its address, merged with the free
    /// blocks right before and after it.
    unsafe fn insert(&self, b: usize) {
        let (mut prev, mut cur) = (0, self.free.get());
        while cur != 0 && cur < b {
            prev = cur;
            cur = next_of(cur);
        }
        if cur != 0 && b + size_of_block(b) == cur {
            set_size(b, size_of_block(b) + size_of_block(cur));
            set_next(b, next_of(cur));
        } else {
            set_next(b, cur);
        }
        if prev == 0 {
            self.free.set(b);
        } else if prev + size_of_block(prev) == b {
            set_size(prev, size_of_block(prev) + size_of_block(b));
            set_next(prev, next_of(b));
        } else {
            set_next(prev, b);
        }
    }
}

// Out of line: inlined, they would be copied into every allocation site.
unsafe impl core::alloc::GlobalAlloc for WipingAllocator {
    #[inline(never)]
    unsafe fn alloc(&self, layout: core::alloc::Layout) -> *mut u8 {
        if layout.align() > HEADER || layout.size() > 1 << 30 {
            return core::ptr::null_mut();
        }
        // Payload rounded up to 16, plus the header; ≤ 2^30 + 32.
        let need = (layout.size() + 2 * HEADER - 1) & !(HEADER - 1);
        loop {
            let (mut prev, mut cur) = (0, self.free.get());
            while cur != 0 {
                let size = size_of_block(cur);
                if size >= need {
                    // Hand out the head; a tail of 2 headers or more stays on
                    // the list in its place. (The head, so that the rest of
                    // freshly grown pages lies at the end of memory, where
                    // the next pages grown merge with it.)
                    let rest = if size - need >= 2 * HEADER {
                        let tail = cur + need;
                        set_size(tail, size - need);
                        set_next(tail, next_of(cur));
                        set_size(cur, need);
                        tail
                    } else {
                        next_of(cur)
                    };
                    if prev == 0 {
                        self.free.set(rest);
                    } else {
                        set_next(prev, rest);
                    }
                    return (cur + HEADER) as *mut u8;
                }
                prev = cur;
                cur = next_of(cur);
            }
            // No block fits: add fresh pages (zeroed by memory.grow) and
            // retry. A free block that ends where memory ends merges with
            // them (`insert`), so only what it lacks is grown.
            let end = core::arch::wasm32::memory_size(0) * PAGE;
            let (mut last, mut cur) = (0, self.free.get());
            while cur != 0 {
                last = cur;
                cur = next_of(cur);
            }
            let at_end = if last != 0 && last + size_of_block(last) == end { size_of_block(last) } else { 0 };
            let pages = (need - at_end).div_ceil(PAGE);
            let old = core::arch::wasm32::memory_grow(0, pages);
            // Refused at 4 GiB (65536 pages), where block ends would wrap.
            if old == usize::MAX || old + pages >= 65536 {
                return core::ptr::null_mut();
            }
            let b = old * PAGE;
            set_size(b, pages * PAGE);
            self.insert(b);
        }
    }
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: core::alloc::Layout) {
        zeroize::Zeroize::zeroize(core::slice::from_raw_parts_mut(ptr, layout.size()));
        self.insert(ptr as usize - HEADER);
    }
}

#[global_allocator]
static ALLOCATOR: WipingAllocator = WipingAllocator { free: Cell::new(0) };

/// The panic handler of the shipped .wasm (feature `panic-trap`, where the
/// crate is `no_std`): a trap, as std's handler ends under panic = "abort",
/// but without std's payload, hook and message-formatting code. A trap
/// reaches JavaScript as a `WebAssembly.RuntimeError` thrown by the call. No
/// input makes the crate panic (lib.rs); the JS layer checks every argument
/// before it gets here.
#[cfg(all(feature = "panic-trap", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

pub(crate) fn param_set(ps: u32) -> Result<ParamSet, JsError> {
    ParamSet::from_number(ps).ok_or_else(|| JsError::new("parameter set: expected 44, 65 or 87"))
}

/// The pre-hash function with this index in `HashAlg::all()` (the order of
/// the JavaScript layer's HASH_NAMES).
fn hash(index: u32) -> Result<HashAlg, JsError> {
    HashAlg::all().nth(index as usize).ok_or_else(|| JsError::new("hash: unknown pre-hash function"))
}

pub(crate) fn js(e: Error) -> JsError {
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

/// A value that only this instance's one thread touches: wasm32 without the
/// atomics feature runs one thread, so a plain static can hold it (a
/// thread_local would bring std's TLS destructor registration along).
struct SingleThreaded<T>(T);
// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl<T> Sync for SingleThreaded<T> {}
#[cfg(target_feature = "atomics")]
compile_error!("src/wasm.rs keeps state in plain statics: single-threaded wasm only");

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
pub(crate) fn wiping<T>(f: impl FnOnce() -> T) -> T {
    #[inline(never)]
    fn outlined<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
    let r = outlined(f);
    wipe_stack();
    r
}

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

// ---------------------------------------------------------------- prepared keys
//
// The package's `signer()` and `verifier()` objects keep their key bytes in
// JavaScript and their expanded key here, in one of at most SLOTS slots. Each
// slot owns one `KeyStorage` (72 KiB, room for any expanded key) from its
// first use to the end of the instance, so prepared keys never hold more than
// SLOTS × 72 KiB of linear memory, however many the caller makes and however
// many it drops without `free()` (a dropped key's slot is taken by the next
// key made once the pool is full). When every slot is taken, making a key
// evicts the least recently used one; JavaScript asks `prepared_live` before
// each use and expands an evicted key again from its bytes.
//
// A handle is serial · 256 + slot, an integer below 2^53 (so a JavaScript
// number): serials are never reused within an instance, so a stale handle
// never reaches another key.

/// At most this many expanded keys at once: 192 × 72 KiB = 13.5 MiB.
const SLOTS: usize = 192;
const SERIAL_LIMIT: u64 = 1 << 45;

enum Held {
    Vacant(KeyStorage),
    Signer(SigningKey),
    Verifier(VerifyingKey),
}

struct Slot {
    serial: u64,
    last_use: u64,
    held: Held,
}

impl Slot {
    /// Wipes whatever key the slot holds and leaves it vacant, with its storage.
    fn vacate(&mut self) -> KeyStorage {
        let held = core::mem::replace(&mut self.held, Held::Vacant(KeyStorage::empty()));
        self.serial = 0;
        match held {
            Held::Vacant(storage) => storage,
            Held::Signer(key) => key.into_storage(),
            Held::Verifier(key) => key.into_storage(),
        }
    }
}

struct Pool {
    slots: Vec<Slot>,
    /// Counts uses and creations: the source of serials and of LRU order.
    clock: u64,
}

static POOL: SingleThreaded<RefCell<Pool>> = SingleThreaded(RefCell::new(Pool { slots: Vec::new(), clock: 0 }));

impl Pool {
    /// The slot of a live handle, its use recorded.
    fn find(&mut self, handle: f64) -> Option<&mut Slot> {
        let n = handle as u64;
        if n as f64 != handle {
            return None;
        }
        self.clock += 1;
        let clock = self.clock;
        let slot = self.slots.get_mut((n % 256) as usize)?;
        (slot.serial != 0 && slot.serial == n / 256).then(|| {
            slot.last_use = clock;
            slot
        })
    }

    /// Takes a slot for a new key: a vacant one, a new one while there are
    /// fewer than SLOTS, else the least recently used one, evicted. Returns
    /// its index and storage.
    fn take_slot(&mut self) -> (usize, KeyStorage) {
        let index = match self.slots.iter().position(|s| s.serial == 0) {
            Some(i) => i,
            None if self.slots.len() < SLOTS => {
                let held = Held::Vacant(KeyStorage::for_any_key());
                self.slots.push(Slot { serial: 0, last_use: 0, held });
                self.slots.len() - 1
            }
            None => (0..self.slots.len()).min_by_key(|&i| self.slots[i].last_use).unwrap_or(0),
        };
        (index, self.slots[index].vacate())
    }

    /// Puts a new key (or, on error, the storage back) into slot `index`.
    fn fill(&mut self, index: usize, made: Result<Held, (Error, KeyStorage)>) -> Result<f64, Error> {
        self.clock += 1;
        let slot = &mut self.slots[index];
        match made {
            Ok(held) => {
                // A serial per key made, never reused; SERIAL_LIMIT keys
                // (over 10^13) would take centuries.
                let serial = self.clock.min(SERIAL_LIMIT - 1);
                *slot = Slot { serial, last_use: self.clock, held };
                Ok((serial * 256 + index as u64) as f64)
            }
            Err((e, storage)) => {
                slot.held = Held::Vacant(storage);
                Err(e)
            }
        }
    }
}

/// Expands a secret key into a slot; returns its handle.
#[wasm_bindgen]
pub fn prepare_signer(ps: u32, sk: Vec<u8>) -> Result<f64, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let mut pool = POOL.0.borrow_mut();
        let (index, storage) = pool.take_slot();
        let made = SigningKey::new_in(ps, &sk, storage).map(Held::Signer);
        pool.fill(index, made)
    })
    .map_err(js)
}

/// Expands the secret key of a 32-byte seed ξ (KeyGen_internal) into a slot;
/// returns its handle.
#[wasm_bindgen]
pub fn prepare_signer_seed(ps: u32, seed: Vec<u8>) -> Result<f64, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        let (_, sk) = crate::keygen_internal(ps, &seed)?;
        let sk = zeroize::Zeroizing::new(sk);
        let mut pool = POOL.0.borrow_mut();
        let (index, storage) = pool.take_slot();
        let made = SigningKey::new_in(ps, &sk, storage).map(Held::Signer);
        pool.fill(index, made)
    })
    .map_err(js)
}

/// Expands a public key into a slot; returns its handle.
#[wasm_bindgen]
pub fn prepare_verifier(ps: u32, pk: &[u8]) -> Result<f64, JsError> {
    let ps = param_set(ps)?;
    let mut pool = POOL.0.borrow_mut();
    let (index, storage) = pool.take_slot();
    let made = VerifyingKey::new_in(ps, pk, storage).map(Held::Verifier);
    let result = pool.fill(index, made);
    drop(pool);
    result.map_err(js)
}

/// Whether the key of this handle is still expanded (not freed nor evicted).
#[wasm_bindgen]
pub fn prepared_live(handle: f64) -> bool {
    POOL.0.borrow_mut().find(handle).is_some()
}

/// Wipes the key of this handle and frees its slot (nothing if it is gone).
#[wasm_bindgen]
pub fn prepared_free(handle: f64) {
    wiping(|| {
        if let Some(slot) = POOL.0.borrow_mut().find(handle) {
            let storage = slot.vacate();
            slot.held = Held::Vacant(storage);
        }
    })
}

/// Runs `f` on the signer of `handle`; Err when the handle is not a live signer.
fn with_signer<T>(handle: f64, f: impl FnOnce(&SigningKey) -> Result<T, Error>) -> Result<T, JsError> {
    let result = wiping(|| match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Signer(key), .. }) => Some(f(key)),
        _ => None,
    });
    // The error is made after the pool is released.
    result.ok_or_else(|| JsError::new("signer: no such prepared key"))?.map_err(js)
}

fn with_verifier<T>(handle: f64, f: impl FnOnce(&VerifyingKey) -> T) -> Result<T, JsError> {
    let result = match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Verifier(key), .. }) => Some(f(key)),
        _ => None,
    };
    result.ok_or_else(|| JsError::new("verifier: no such prepared key"))
}

#[wasm_bindgen]
pub fn signer_sign(handle: f64, msg: &[u8], ctx: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    with_signer(handle, |key| key.sign(msg, ctx, Some(&rnd)))
}

#[wasm_bindgen]
pub fn signer_sign_mu(handle: f64, mu: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    with_signer(handle, |key| key.sign_mu(mu, Some(&rnd)))
}

/// The state of a μ stream with this signer's tr (see `stream_update`).
#[wasm_bindgen]
pub fn signer_stream_mu(handle: f64) -> Result<Vec<u8>, JsError> {
    with_signer(handle, |key| Ok(Stream::Mu(key.mu_builder()).to_bytes()))
}

#[wasm_bindgen]
pub fn verifier_verify(handle: f64, sig: &[u8], msg: &[u8], ctx: &[u8]) -> Result<bool, JsError> {
    with_verifier(handle, |key| key.verify(msg, sig, ctx))
}

#[wasm_bindgen]
pub fn verifier_verify_mu(handle: f64, sig: &[u8], mu: &[u8]) -> Result<bool, JsError> {
    with_verifier(handle, |key| key.verify_mu(mu, sig))
}

/// The state of a μ stream with this verifier's tr (see `stream_update`).
#[wasm_bindgen]
pub fn verifier_stream_mu(handle: f64) -> Result<Vec<u8>, JsError> {
    with_verifier(handle, |key| Stream::Mu(key.mu_builder()).to_bytes())
}

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
enum Stream {
    Mu(MuBuilder),
    Prehash(Prehasher),
}

const MU_TAG: u8 = 0;
const PREHASH_TAG: u8 = 1;

impl Stream {
    fn to_bytes(&self) -> Vec<u8> {
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

/// The state of PH(M) for the pre-hash function with this index (see `hash`).
#[wasm_bindgen]
pub fn stream_prehash(index: u32) -> Result<Vec<u8>, JsError> {
    Ok(Stream::Prehash(hash(index)?.hasher()).to_bytes())
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
    use super::{WipingAllocator, HEADER};
    use crate::test_rng::Rng;
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::Cell;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A private instance (not the global one the test harness uses): random
    /// allocations and frees of many sizes; every live block keeps its own
    /// fill pattern (so no two live blocks overlap and no free touches a live
    /// block), every payload is 16-aligned, and freed memory is reused.
    #[test]
    fn allocator_blocks_never_overlap_and_memory_is_reused() {
        let a = WipingAllocator { free: Cell::new(0) };
        let mut rng = Rng(0x5eed_a110c);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let pages_before = core::arch::wasm32::memory_size(0);
        for step in 0..4000u32 {
            if live.len() < 40 && (rng.next() % 3 != 0 || live.is_empty()) {
                let size = match rng.next() % 4 {
                    0 => 1 + (rng.next() % 48) as usize,
                    1 => 1 + (rng.next() % 1024) as usize,
                    2 => 1024 * (1 + (rng.next() % 8) as usize),
                    _ => 1 + (rng.next() % 70_000) as usize,
                };
                let layout = Layout::from_size_align(size, 1 << (rng.next() % 5)).unwrap();
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null(), "step {step}: allocation of {size} bytes failed");
                assert_eq!(p as usize % HEADER, 0, "payload not 16-aligned");
                let tag = (step % 251) as u8 + 1;
                unsafe { core::ptr::write_bytes(p, tag, size) };
                live.push((p, layout, tag));
            } else {
                let (p, layout, tag) = live.swap_remove((rng.next() % live.len() as u64) as usize);
                let bytes = unsafe { core::slice::from_raw_parts(p, layout.size()) };
                assert!(bytes.iter().all(|&b| b == tag), "step {step}: a live block was overwritten");
                unsafe { a.dealloc(p, layout) };
            }
            for &(p, layout, tag) in live.iter().step_by(7) {
                let bytes = unsafe { core::slice::from_raw_parts(p, layout.size()) };
                assert!(bytes.iter().all(|&b| b == tag), "step {step}: a live block was overwritten");
            }
        }
        for (p, layout, _) in live.drain(..) {
            unsafe { a.dealloc(p, layout) };
        }
        // At most 40 live blocks of < 70 KB each: with reuse and coalescing the
        // instance needs a few MiB, not the ~100 MiB that 4000 allocations
        // without reuse would take.
        let grown = core::arch::wasm32::memory_size(0) - pages_before;
        assert!(grown < 64, "grew by {grown} pages of 64 KiB");
        // After every block is freed, one allocation of the whole grown area fits again.
        let big = Layout::from_size_align(grown.max(1) * 65536 - 2 * HEADER, 16).unwrap();
        let p = unsafe { a.alloc(big) };
        assert!(!p.is_null());
        assert_eq!(core::arch::wasm32::memory_size(0) - pages_before, grown, "the coalesced free list was not reused");
        unsafe { a.dealloc(p, big) };
    }
}
