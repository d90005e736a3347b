//! Prepared signers and verifiers: expanded keys kept in a bounded pool of slots.

#[cfg(not(feature = "verify-only"))]
use super::sign_with;
use super::stream;
use super::{bytes, bytes_mut, code, param_set, verify_with, wiping, SingleThreaded, NO_SUCH_KEY};
#[cfg(not(feature = "verify-only"))]
use crate::ParamSet;
use crate::{Error, KeyStorage, SigningKey, VerifyingKey};
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

/// At most this many expanded keys at once (crate::params::PREPARED_KEY_SLOTS).
const SLOTS: usize = crate::params::PREPARED_KEY_SLOTS;
const SERIAL_LIMIT: u64 = 1 << 45;

enum Held {
    Vacant(KeyStorage),
    // (Never made in the verify-only module.)
    #[cfg_attr(feature = "verify-only", allow(dead_code))]
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
#[cfg(not(feature = "verify-only"))]
fn hold_signer(ps: ParamSet, sk: &[u8]) -> Result<f64, Error> {
    let mut pool = POOL.0.borrow_mut();
    let (index, storage) = pool.take_slot();
    let made = SigningKey::new_in(ps, sk, storage).map(Held::Signer);
    pool.fill(index, made)
}

/// A handle, or minus the error code.
fn handle_or_code(r: Result<f64, i32>) -> f64 {
    r.unwrap_or_else(|c| -(c as f64))
}

/// Expands the secret key at `key`, or the secret key of the 32-byte seed ξ
/// there (KeyGen_internal) when `from_seed`, into a slot; returns its handle
/// (or minus an error code).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen]
pub fn prepare_signer(ps: u32, from_seed: bool, key: usize, key_len: usize) -> f64 {
    handle_or_code(param_set(ps).and_then(|ps| {
        wiping(|| {
            let key = bytes(key, key_len);
            if !from_seed {
                return hold_signer(ps, key);
            }
            let (_, sk) = crate::keygen_internal(ps, key)?;
            hold_signer(ps, &zeroize::Zeroizing::new(sk))
        })
        .map_err(code)
    }))
}

/// Expands the public key at `pk` into a slot; returns its handle (or minus an error code).
#[wasm_bindgen]
pub fn prepare_verifier(ps: u32, pk: usize, pk_len: usize) -> f64 {
    handle_or_code(param_set(ps).and_then(|ps| {
        let mut pool = POOL.0.borrow_mut();
        let (index, storage) = pool.take_slot();
        let made = VerifyingKey::new_in(ps, bytes(pk, pk_len), storage).map(Held::Verifier);
        pool.fill(index, made).map_err(code)
    }))
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

/// The signature of `m`, of kind `kind` (see `MESSAGE` in mod.rs), by the
/// signer of `handle`, written into the output block `sig`; 0 or an error code.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn signer_sign(
    handle: f64,
    kind: u32,
    m: usize,
    m_len: usize,
    ctx: usize,
    ctx_len: usize,
    rnd: usize,
    rnd_len: usize,
    sig: usize,
    sig_len: usize,
) -> i32 {
    let result = wiping(|| match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Signer(key), .. }) => {
            sign_with(key, kind, bytes(m, m_len), bytes(ctx, ctx_len), bytes(rnd, rnd_len), bytes_mut(sig, sig_len))
        }
        _ => Err(NO_SUCH_KEY),
    });
    result.err().unwrap_or(0)
}

/// 1 when `sig` is a signature of `m` (of kind `kind`) by the verifier of
/// `handle`, 0 when not, minus NO_SUCH_KEY when there is no such verifier.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn verifier_verify(
    handle: f64,
    kind: u32,
    m: usize,
    m_len: usize,
    sig: usize,
    sig_len: usize,
    ctx: usize,
    ctx_len: usize,
) -> i32 {
    match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Verifier(key), .. }) => {
            verify_with(key, kind, bytes(m, m_len), bytes(sig, sig_len), bytes(ctx, ctx_len)) as i32
        }
        _ => -NO_SUCH_KEY,
    }
}

/// The state of a μ stream with the tr of the key of `handle`, a signer or a
/// verifier (see `stream_update`), written into the output block `state`; 0
/// or an error code.
#[wasm_bindgen]
pub fn prepared_stream_mu(handle: f64, state: usize, state_len: usize) -> i32 {
    let builder = wiping(|| match POOL.0.borrow_mut().find(handle) {
        Some(Slot { held: Held::Signer(key), .. }) => Some(key.mu_builder()),
        Some(Slot { held: Held::Verifier(key), .. }) => Some(key.mu_builder()),
        _ => None,
    });
    match builder {
        Some(b) => super::status(stream::write_state(b, bytes_mut(state, state_len))),
        None => NO_SUCH_KEY,
    }
}

#[cfg(test)]
mod tests {
    use super::super::exports::tests::{block, out};
    use super::super::{MESSAGE, MU, OK};
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The prepared verifier takes (M, σ, ctx) and (μ, σ), FIPS 204's order
    /// (Algorithm 3) without the key, as `VerifyingKey` does; a signer from a
    /// seed signs as the one-shot sign does; a freed handle is refused.
    #[test]
    fn prepared_keys() {
        let (msg, ctx) = (&b"attack at dawn"[..], &b"ctx"[..]);
        let (pk, sk) = crate::keygen_internal(crate::ParamSet::MlDsa44, &[7; 32]).unwrap();
        let sig = crate::sign(crate::ParamSet::MlDsa44, &sk, msg, ctx, Some(&[0; 32])).unwrap();
        let mu = crate::external_mu(crate::ParamSet::MlDsa44, &pk, msg, ctx).unwrap();
        let (pk_b, m_b, ctx_b, sig_b, mu_b, seed_b, rnd_b) =
            (block(&pk), block(msg), block(ctx), block(&sig), block(&mu), block(&[7; 32]), block(&[0; 32]));
        let h = prepare_verifier(44, pk_b.0, pk_b.1);
        assert!(h >= 0.0);
        assert_eq!(verifier_verify(h, MESSAGE, m_b.0, m_b.1, sig_b.0, sig_b.1, ctx_b.0, ctx_b.1), 1);
        assert_eq!(verifier_verify(h, MESSAGE, sig_b.0, sig_b.1, m_b.0, m_b.1, ctx_b.0, ctx_b.1), 0);
        assert_eq!(verifier_verify(h, MU, mu_b.0, mu_b.1, sig_b.0, sig_b.1, 0, 0), 1);
        let s = prepare_signer(44, true, seed_b.0, seed_b.1);
        assert!(s >= 0.0);
        assert_eq!(
            out(2420, |p, l| signer_sign(s, MU, mu_b.0, mu_b.1, 0, 0, rnd_b.0, rnd_b.1, p, l)),
            (OK, sig.clone())
        );
        assert_eq!(
            out(2420, |p, l| signer_sign(s, MESSAGE, m_b.0, m_b.1, ctx_b.0, ctx_b.1, rnd_b.0, rnd_b.1, p, l)),
            (OK, sig)
        );
        // Either kind of prepared key gives the μ stream of its tr.
        let state = |k| out(crate::MuBuilder::STATE_BYTES, |p, l| prepared_stream_mu(k, p, l));
        assert_eq!(state(s).0, OK);
        assert_eq!(state(s), state(h));
        prepared_free(s);
        prepared_free(h);
        assert!(!prepared_live(h));
        assert_eq!(verifier_verify(h, MU, mu_b.0, mu_b.1, sig_b.0, sig_b.1, 0, 0), -NO_SUCH_KEY);
        assert_eq!(state(s).0, NO_SUCH_KEY);
        assert_eq!(prepare_verifier(45, pk_b.0, pk_b.1), -(super::super::BAD_SET as f64));
    }
}
