//! WebAssembly exports for the npm package: thin wrappers over the crate's
//! public API. The JavaScript layer checks every argument first and throws
//! TypeError/RangeError itself; the errors here are a last line of defence.
//! `ps` is 44, 65 or 87. `rnd`: undefined = hedged, else 32 bytes.
//!
//! Secret inputs (`sk`, `seed`, `rnd`) are taken as owned vectors so that
//! their copies in linear memory are freed here, and the allocator below wipes
//! every block it frees (so no `Zeroizing` is needed on top): results (a
//! secret key from `keygen`) are copied out and freed by the generated glue,
//! also through that allocator.
//!
//! For size, the set of exports is small: HashML-DSA is signed and verified
//! through `sign_internal`/`verify_internal` with M′ built in JavaScript
//! (FIPS 204 Algorithms 4 and 5), pre-hash OIDs are known to JavaScript, and
//! pre-hash functions are chosen by index, so no string crosses the boundary
//! into wasm.

use crate::{Error, HashAlg, MuBuilder, ParamSet, Prehasher, SigningKey, VerifyingKey};
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
                    if size - need >= 2 * HEADER {
                        // Split: hand out the tail, the head stays on the list.
                        set_size(cur, size - need);
                        let b = cur + size - need;
                        set_size(b, need);
                        return (b + HEADER) as *mut u8;
                    }
                    if prev == 0 {
                        self.free.set(next_of(cur));
                    } else {
                        set_next(prev, next_of(cur));
                    }
                    return (cur + HEADER) as *mut u8;
                }
                prev = cur;
                cur = next_of(cur);
            }
            // No block fits: add fresh pages (zeroed by memory.grow) and retry.
            let pages = need.div_ceil(PAGE);
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

fn param_set(ps: u32) -> Result<ParamSet, JsError> {
    ParamSet::from_number(ps).ok_or_else(|| JsError::new("parameter set: expected 44, 65 or 87"))
}

/// The pre-hash function with this index in `HashAlg::all()` (the order of
/// the JavaScript layer's HASH_NAMES).
fn hash(index: u32) -> Result<HashAlg, JsError> {
    HashAlg::all().nth(index as usize).ok_or_else(|| JsError::new("hash: unknown pre-hash function"))
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
    })
}

/// pk ‖ sk for the 32-byte seed ξ, or for fresh randomness when `seed` is undefined.
#[wasm_bindgen]
pub fn keygen(ps: u32, seed: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
    let ps = param_set(ps)?;
    let (mut pk, sk) = match seed {
        Some(s) => crate::keygen_internal(ps, &s),
        None => crate::keygen(ps),
    }
    .map_err(js)?;
    pk.extend_from_slice(&sk);
    Ok(pk)
}

#[wasm_bindgen]
pub fn public_key(ps: u32, sk: Vec<u8>) -> Result<Vec<u8>, JsError> {
    crate::public_key(param_set(ps)?, &sk).map_err(js)
}

#[wasm_bindgen]
pub fn sign(ps: u32, sk: Vec<u8>, msg: &[u8], ctx: &[u8], rnd: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
    crate::sign(param_set(ps)?, &sk, msg, ctx, rnd.as_deref()).map_err(js)
}

#[wasm_bindgen]
pub fn sign_internal(ps: u32, sk: Vec<u8>, m_prime: &[u8], rnd: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
    crate::sign_internal(param_set(ps)?, &sk, m_prime, rnd.as_deref()).map_err(js)
}

#[wasm_bindgen]
pub fn sign_mu(ps: u32, sk: Vec<u8>, mu: &[u8], rnd: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
    crate::sign_mu(param_set(ps)?, &sk, mu, rnd.as_deref()).map_err(js)
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

/// A secret key prepared for repeated signing (see `SigningKey`). The JS
/// layer owns it and frees it (`free()`, `Symbol.dispose`, or its
/// FinalizationRegistry); the expanded key is wiped when freed.
#[wasm_bindgen]
pub struct Signer(SigningKey);

#[wasm_bindgen]
impl Signer {
    #[wasm_bindgen(constructor)]
    pub fn new(ps: u32, sk: Vec<u8>) -> Result<Signer, JsError> {
        Ok(Signer(SigningKey::new(param_set(ps)?, &sk).map_err(js)?))
    }
    pub fn sign(&self, msg: &[u8], ctx: &[u8], rnd: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
        self.0.sign(msg, ctx, rnd.as_deref()).map_err(js)
    }
    pub fn sign_mu(&self, mu: &[u8], rnd: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
        self.0.sign_mu(mu, rnd.as_deref()).map_err(js)
    }
    /// Starts a μ stream with this key's tr (see `stream_update`).
    pub fn stream_mu(&self) {
        start(Stream::Mu(self.0.mu_builder()));
    }
}

/// A public key prepared for repeated verification (see `VerifyingKey`).
#[wasm_bindgen]
pub struct Verifier(VerifyingKey);

#[wasm_bindgen]
impl Verifier {
    #[wasm_bindgen(constructor)]
    pub fn new(ps: u32, pk: &[u8]) -> Result<Verifier, JsError> {
        Ok(Verifier(VerifyingKey::new(param_set(ps)?, pk).map_err(js)?))
    }
    pub fn verify(&self, sig: &[u8], msg: &[u8], ctx: &[u8]) -> bool {
        self.0.verify(msg, sig, ctx)
    }
    pub fn verify_mu(&self, sig: &[u8], mu: &[u8]) -> bool {
        self.0.verify_mu(mu, sig)
    }
    /// Starts a μ stream with this key's tr (see `stream_update`).
    pub fn stream_mu(&self) {
        start(Stream::Mu(self.0.mu_builder()));
    }
}

/// Bytes of linear memory the instance holds now (it only grows).
#[wasm_bindgen]
pub fn memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}

// Streaming: a message too large to copy into linear memory at once is fed
// in pieces. JavaScript runs one stream at a time, from start to finish within
// one synchronous call, so one slot is enough; starting a stream replaces any
// earlier one.
enum Stream {
    Mu(MuBuilder),
    Prehash(Prehasher),
}

/// The one stream slot. wasm32 without atomics has a single thread, so a
/// plain static holds it (a thread_local would bring std's TLS destructor
/// registration along).
struct Slot(RefCell<Option<Stream>>);
// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl Sync for Slot {}
#[cfg(target_feature = "atomics")]
compile_error!("src/wasm.rs keeps the stream in a plain static: single-threaded wasm only");
static STREAM: Slot = Slot(RefCell::new(None));

fn start(s: Stream) {
    *STREAM.0.borrow_mut() = Some(s);
}

/// Starts μ = H(H(pk) ‖ M′) for verification; feed M′ with `stream_update`.
#[wasm_bindgen]
pub fn stream_mu_public(ps: u32, pk: &[u8]) -> Result<(), JsError> {
    start(Stream::Mu(MuBuilder::for_public_key(param_set(ps)?, pk).map_err(js)?));
    Ok(())
}

/// Starts μ = H(tr ‖ M′) with the tr of a secret key, for signing.
#[wasm_bindgen]
pub fn stream_mu_secret(ps: u32, sk: Vec<u8>) -> Result<(), JsError> {
    start(Stream::Mu(MuBuilder::for_secret_key(param_set(ps)?, &sk).map_err(js)?));
    Ok(())
}

/// Starts PH(M) for the pre-hash function with this index (see `hash`).
#[wasm_bindgen]
pub fn stream_prehash(index: u32) -> Result<(), JsError> {
    start(Stream::Prehash(hash(index)?.hasher()));
    Ok(())
}

/// Appends bytes to the current stream; false when none is open.
#[wasm_bindgen]
pub fn stream_update(data: &[u8]) -> bool {
    match STREAM.0.borrow_mut().as_mut() {
        Some(Stream::Mu(b)) => {
            b.update(data);
            true
        }
        Some(Stream::Prehash(h)) => {
            h.update(data);
            true
        }
        None => false,
    }
}

/// Closes the current stream: μ (64 bytes) or PH(M).
#[wasm_bindgen]
pub fn stream_finish() -> Result<Vec<u8>, JsError> {
    let stream = STREAM.0.borrow_mut().take();
    match stream {
        Some(Stream::Mu(b)) => Ok(b.finalize().to_vec()),
        Some(Stream::Prehash(h)) => Ok(h.finalize()),
        None => Err(JsError::new("no stream open")),
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
