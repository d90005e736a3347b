//! The one-shot operations: each call decodes its key, runs once and keeps
//! nothing; and the blocks of memory js/boundary.js passes arguments in.

use super::{bytes, param_set, MESSAGE, MU, M_PRIME};
#[cfg(not(feature = "verify-only"))]
use super::{bytes_mut, code, fill, sign_with, status, wiping};
#[cfg(not(feature = "verify-only"))]
use crate::SigningKey;
use alloc::alloc::{alloc as heap_alloc, dealloc as heap_dealloc, Layout};
use wasm_bindgen::prelude::*;

// ---------------------------------------------------------------- blocks
// Argument and output arrays live in blocks of the wiping allocator: giving
// one back (`dealloc`) wipes it, so a secret copied in, or a secret key
// written out and copied into JavaScript, does not stay in memory.

/// A block of `len` bytes (len ≥ 1) for an argument or an output. When the
/// heap cannot grow it traps, as Rust's own allocations do: js/boundary.js
/// then replaces the instance, as after any failure inside it.
#[wasm_bindgen]
pub fn alloc(len: usize) -> usize {
    let ptr = match Layout::from_size_align(len.max(1), 1) {
        // SAFETY: a non-zero size.
        Ok(layout) => unsafe { heap_alloc(layout) },
        Err(_) => core::ptr::null_mut(),
    };
    if ptr.is_null() {
        core::arch::wasm32::unreachable();
    }
    ptr as usize
}

/// Gives back (and so wipes) a block from `alloc` of `len` bytes.
#[wasm_bindgen]
pub fn dealloc(ptr: usize, len: usize) {
    if let Ok(layout) = Layout::from_size_align(len.max(1), 1) {
        // SAFETY: js/boundary.js gives back each block it took, once, with its length.
        unsafe { heap_dealloc(ptr as *mut u8, layout) }
    }
}

// ---------------------------------------------------------------- one-shot operations
// `rnd` and `seed` are 32 bytes that JavaScript drew from crypto.getRandomValues
// (or the caller gave): drawing them there keeps every export free of calls
// back into JavaScript.

/// The key pair for the 32-byte seed ξ at `seed`, encoded straight into the
/// output block `out`: the public key, then the secret key.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen]
pub fn keygen(ps: u32, seed: usize, seed_len: usize, out: usize, out_len: usize) -> i32 {
    status(param_set(ps).and_then(|ps| {
        if out_len != ps.public_key_len() + ps.secret_key_len() {
            return Err(super::BAD_LENGTH);
        }
        let (pk, sk) = bytes_mut(out, out_len).split_at_mut(ps.public_key_len());
        wiping(|| crate::keygen_into(ps, bytes(seed, seed_len), pk, sk)).map_err(code)
    }))
}

/// The public key of the expanded secret key at `sk`, checked (its tr and t0
/// must be what ρ, s1 and s2 give), written into the output block `pk`.
//
// Every export takes its numbers first, then an address and a length for
// each byte argument, then those of its output block, if it has one: so
// js/boundary.js calls them all one way.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen]
pub fn public_key(ps: u32, sk: usize, sk_len: usize, pk: usize, pk_len: usize) -> i32 {
    status(param_set(ps).and_then(|ps| {
        wiping(|| {
            crate::public_key(ps, bytes(sk, sk_len)).map_err(code).and_then(|key| fill(bytes_mut(pk, pk_len), &key))
        })
    }))
}

/// A signature of `m` (of kind `kind`: `MESSAGE`, `M_PRIME`, `MU`; `ctx` only
/// for MESSAGE) with the secret key at `sk`, written into the output block `out`.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn sign(
    ps: u32,
    kind: u32,
    sk: usize,
    sk_len: usize,
    m: usize,
    m_len: usize,
    ctx: usize,
    ctx_len: usize,
    rnd: usize,
    rnd_len: usize,
    out: usize,
    out_len: usize,
) -> i32 {
    status(param_set(ps).and_then(|ps| {
        wiping(|| {
            let key = SigningKey::new(ps, bytes(sk, sk_len)).map_err(code)?;
            sign_with(&key, kind, bytes(m, m_len), bytes(ctx, ctx_len), bytes(rnd, rnd_len), bytes_mut(out, out_len))
        })
    }))
}

/// 1 when `sig` is a signature of `m` (of kind `kind`; `ctx` only for
/// MESSAGE) by the public key `pk`, else 0.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn verify(
    ps: u32,
    kind: u32,
    pk: usize,
    pk_len: usize,
    m: usize,
    m_len: usize,
    sig: usize,
    sig_len: usize,
    ctx: usize,
    ctx_len: usize,
) -> i32 {
    // The one-shot functions of the crate, which make Â as they use it, not a prepared key.
    let Ok(ps) = param_set(ps) else { return 0 };
    let (pk, m, sig, ctx) = (bytes(pk, pk_len), bytes(m, m_len), bytes(sig, sig_len), bytes(ctx, ctx_len));
    let valid = match kind {
        MESSAGE => crate::verify(ps, pk, m, sig, ctx),
        M_PRIME => crate::verify_internal(ps, pk, m, sig),
        MU => crate::verify_mu(ps, pk, m, sig),
        _ => false,
    };
    valid as i32
}

/// Bytes of linear memory the instance holds now (it only grows).
#[wasm_bindgen]
pub fn memory_bytes() -> usize {
    core::arch::wasm32::memory_size(0) * 65536
}

/// Bytes of that memory in use now: all but the allocator's free blocks.
#[wasm_bindgen]
pub fn memory_in_use() -> usize {
    super::allocator::bytes_in_use()
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::OK;
    use super::*;
    use crate::ParamSet;
    use alloc::vec::Vec;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A block holding `data`, as js/boundary.js passes an argument.
    pub(in crate::wasm) fn block(data: &[u8]) -> (usize, usize) {
        let p = alloc(data.len());
        bytes_mut(p, data.len()).copy_from_slice(data);
        (p, data.len())
    }

    /// Calls `f` with an output block of `len` bytes; returns its code and the bytes.
    pub(in crate::wasm) fn out(len: usize, f: impl FnOnce(usize, usize) -> i32) -> (i32, Vec<u8>) {
        let p = alloc(len);
        let code = f(p, len);
        let data = bytes(p, len).to_vec();
        dealloc(p, len);
        (code, data)
    }

    /// The verify export takes FIPS 204's order, ML-DSA.Verify(pk, M, σ, ctx)
    /// (Algorithm 3), as the crate's functions do (noble's (σ, M, pk) is the
    /// JavaScript layer's alone); each message kind signs and verifies what it says.
    #[test]
    fn kinds_and_order() {
        let (msg, ctx) = (&b"attack at dawn"[..], &b"ctx"[..]);
        let seed = block(&[7; 32]);
        let (c, both) = out(1312 + 2560, |p, l| keygen(44, seed.0, seed.1, p, l));
        assert_eq!(c, OK);
        let (pk, sk) = both.split_at(1312);
        let (pk_b, sk_b, m_b, ctx_b, rnd_b) = (block(pk), block(sk), block(msg), block(ctx), block(&[0; 32]));
        let sign_kind = |kind: u32, m: (usize, usize), c: (usize, usize)| {
            out(2420, |p, l| sign(44, kind, sk_b.0, sk_b.1, m.0, m.1, c.0, c.1, rnd_b.0, rnd_b.1, p, l))
        };
        let (c, sig) = sign_kind(MESSAGE, m_b, ctx_b);
        assert_eq!(c, OK);
        let sig_b = block(&sig);
        let verify_kind = |kind: u32, m: (usize, usize), s: (usize, usize), c: (usize, usize)| {
            verify(44, kind, pk_b.0, pk_b.1, m.0, m.1, s.0, s.1, c.0, c.1)
        };
        assert_eq!(verify_kind(MESSAGE, m_b, sig_b, ctx_b), 1);
        assert_eq!(verify_kind(MESSAGE, sig_b, m_b, ctx_b), 0);
        let m_prime = block(&[&[0, ctx.len() as u8][..], ctx, msg].concat());
        let mu = block(&crate::external_mu(ParamSet::MlDsa44, pk, msg, ctx).unwrap());
        assert_eq!(verify_kind(M_PRIME, m_prime, sig_b, (0, 0)), 1);
        assert_eq!(verify_kind(MU, mu, sig_b, (0, 0)), 1);
        assert_eq!(verify_kind(3, m_b, sig_b, ctx_b), 0);
        assert_eq!(sign_kind(M_PRIME, m_prime, (0, 0)), (OK, sig.clone()));
        assert_eq!(sign_kind(MU, mu, (0, 0)), (OK, sig.clone()));
        assert_eq!(sign_kind(3, m_b, ctx_b).0, super::super::BAD_KIND);
        // Refusals come back as codes.
        assert_eq!(
            out(2420, |p, l| sign(45, MESSAGE, sk_b.0, sk_b.1, m_b.0, m_b.1, 0, 0, rnd_b.0, rnd_b.1, p, l)).0,
            super::super::BAD_SET
        );
        assert_eq!(
            out(2419, |p, l| sign(44, MESSAGE, sk_b.0, sk_b.1, m_b.0, m_b.1, 0, 0, rnd_b.0, rnd_b.1, p, l)).0,
            super::super::BAD_LENGTH
        );
        assert_eq!(
            out(2420, |p, l| sign(44, MESSAGE, sk_b.0, sk_b.1, m_b.0, m_b.1, 0, 0, rnd_b.0, 31, p, l)).0,
            super::super::BAD_LENGTH
        );
        assert_eq!(out(1312 + 2559, |p, l| keygen(44, seed.0, seed.1, p, l)).0, super::super::BAD_LENGTH);
        assert_eq!(out(1312, |p, l| public_key(44, sk_b.0, sk_b.1, p, l)), (OK, pk.to_vec()));
    }
}
