//! Prepared signers and verifiers: expanded keys kept in a bounded pool of slots.

use super::stream;
use super::{js, param_set, wiping, SingleThreaded};
use crate::{Error, KeyStorage, ParamSet, SigningKey, VerifyingKey};
use alloc::vec::Vec;
use core::cell::RefCell;
use wasm_bindgen::prelude::*;

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

/// Expands an encoded secret key into a free slot; returns its handle.
fn hold_signer(ps: ParamSet, sk: &[u8]) -> Result<f64, Error> {
    let mut pool = POOL.0.borrow_mut();
    let (index, storage) = pool.take_slot();
    let made = SigningKey::new_in(ps, sk, storage).map(Held::Signer);
    pool.fill(index, made)
}

/// Expands a secret key, or the secret key of a 32-byte seed ξ
/// (KeyGen_internal) when `from_seed`, into a slot; returns its handle.
#[wasm_bindgen]
pub fn prepare_signer(ps: u32, key: Vec<u8>, from_seed: bool) -> Result<f64, JsError> {
    let ps = param_set(ps)?;
    wiping(|| {
        if !from_seed {
            return hold_signer(ps, &key);
        }
        let (_, sk) = crate::keygen_internal(ps, &key)?;
        hold_signer(ps, &zeroize::Zeroizing::new(sk))
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

/// The signature of `m`, of kind `kind` (see exports::MESSAGE), by the signer of `handle`.
#[wasm_bindgen]
pub fn signer_sign(handle: f64, kind: u32, m: &[u8], ctx: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsError> {
    with_signer(handle, |key| super::sign_with(key, kind, m, ctx, &rnd))
}

#[wasm_bindgen]
pub fn verifier_verify(handle: f64, kind: u32, m: &[u8], sig: &[u8], ctx: &[u8]) -> Result<bool, JsError> {
    with_verifier(handle, |key| super::verify_with(key, kind, m, sig, ctx))
}

/// The state of a μ stream with the tr of the key of `handle`, a signer or a
/// verifier (see `stream_update`).
#[wasm_bindgen]
pub fn prepared_stream_mu(handle: f64) -> Result<Vec<u8>, JsError> {
    let result = wiping(|| match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Signer(key), .. }) => Some(stream::state_of(key.mu_builder())),
        Some(Slot { held: Held::Verifier(key), .. }) => Some(stream::state_of(key.mu_builder())),
        _ => None,
    });
    result.ok_or_else(|| JsError::new("prepared key: no such prepared key"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The prepared verifier takes (M, σ, ctx) and (μ, σ), FIPS 204's order
    /// (Algorithm 3) without the key, as `VerifyingKey` does; a signer from a
    /// seed signs as the one-shot sign does.
    #[test]
    fn verifier_takes_message_signature_context() {
        let (msg, ctx) = (&b"attack at dawn"[..], &b"ctx"[..]);
        let (pk, sk) = crate::keygen_internal(crate::ParamSet::MlDsa44, &[7; 32]).unwrap();
        let sig = crate::sign(crate::ParamSet::MlDsa44, &sk, msg, ctx, Some(&[0; 32])).unwrap();
        let h = prepare_verifier(44, &pk).ok().unwrap();
        use super::super::exports::{MESSAGE, MU};
        assert_eq!(verifier_verify(h, MESSAGE, msg, &sig, ctx).ok(), Some(true));
        assert_eq!(verifier_verify(h, MESSAGE, &sig, msg, ctx).ok(), Some(false));
        let mu = crate::external_mu(crate::ParamSet::MlDsa44, &pk, msg, ctx).unwrap();
        assert_eq!(verifier_verify(h, MU, &mu, &sig, &[]).ok(), Some(true));
        let s = prepare_signer(44, vec![7; 32], true).ok().unwrap();
        assert_eq!(signer_sign(s, MU, &mu, &[], vec![0; 32]).ok(), Some(sig.clone()));
        assert_eq!(signer_sign(s, MESSAGE, msg, ctx, vec![0; 32]).ok(), Some(sig));
        // Either kind of prepared key gives the μ stream of its tr.
        assert_eq!(prepared_stream_mu(s).ok(), prepared_stream_mu(h).ok());
        prepared_free(s);
        prepared_free(h);
        assert!(!prepared_live(h));
    }
}
