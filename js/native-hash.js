/**
 * The platform's SHAKE256, for μ of long messages (./messages.js), in the
 * entries for Node, Bun and Deno (export condition "node") and for workerd
 * and Vercel Edge. The browser entries get ./native-hash.browser.js instead
 * (scripts/build.mjs): no browser has a synchronous SHAKE256, and the code
 * below would be download for nothing.
 * @module
 */
import { apply, U8, taTag, taLength, len, wasm, PARAMS, MU_BYTES, eachPiece, streamed } from './boundary.js';

// Node's (and Bun's, Deno's) way to its built-in modules, without an import;
// reading the function loads nothing.
const processObject = globalThis.process;
const getBuiltinModule = processObject?.getBuiltinModule;
const getPrototypeOf = Object.getPrototypeOf;

// A long message costs one SHAKE256 stream: μ = H(tr ‖ M′, 64) (FIPS 204
// Algorithm 7 line 6, Algorithm 8 line 7), and there the one-lane Keccak-f
// of wasm is the bound. Where the platform has its own SHAKE256 (Node's
// node:crypto, OpenSSL's native code), the μ of a message longer than CHUNK,
// or given in pieces, is hashed there; nothing secret goes in (tr is a hash
// of the public key, copied out of the secret key's buffer first; M′ is the
// message). The hash is looked up at the first such message (an
// import of node:crypto at load would cost more than the package's own
// start), and used only if it gives, for a probe (μ of a made-up public key
// and a message of three blocks), the digest our SHAKE256 gives; anything else (no node:crypto, a hash that throws or
// differs, a shared buffer it refuses) falls back to the wasm stream.

const NATIVE_PIECE = 1 << 30;
let native; // undefined: not looked up yet; null: none

/** A SHAKE256 of node:crypto with `head` absorbed: { update(view), digest() }. */
function nativeHash(n, head) {
  const h = apply(n.createHash, n.module, ['shake256', { outputLength: MU_BYTES }]);
  // node:crypto refuses a view of 2^31 bytes or more (ERR_OUT_OF_RANGE): pieces of at most 2^30.
  const update = (bytes) => eachPiece(bytes, NATIVE_PIECE, (piece) => apply(n.update, h, [piece]));
  update(new U8(head)); // a copy: the view may be of a secret key's buffer (tr = bytes 64..127)
  return {
    update,
    digest: () => {
      const d = apply(n.digest, h, []);
      if (apply(taTag, d, []) !== 'Uint8Array' || apply(taLength, d, []) !== MU_BYTES) throw new Error('mldsa-simd: node:crypto gave no SHAKE256 digest');
      return new U8(d);
    },
  };
}

// Looks the platform's SHAKE256 up and probes it; `native` is set only once
// the look-up has finished. What node:crypto throws means "none" (null); a
// failure of our own (the wasm digest of the probe, or a RangeError: the
// caller's stack ran out) propagates, and the look-up runs again next time.
function lookUpNative() {
  const probe = new U8(3 * 136 + 7);
  for (let i = 0; i < len(probe); i++) probe[i] = (i * 151 + 7) & 255;
  const pk = new U8(PARAMS[44].publicKey);
  for (let i = 0; i < len(pk); i++) pk[i] = (i * 73 + 11) & 255;
  let found, theirs;
  try {
    if (typeof getBuiltinModule !== 'function') return (native = null);
    const module = apply(getBuiltinModule, processObject, ['node:crypto']);
    const createHash = module?.createHash;
    if (typeof createHash !== 'function') return (native = null);
    // tr = H(pk, 64) on the first hash object (whose prototype gives the
    // methods), then μ = H(tr ‖ probe, 64): two look-ups of createHash in all.
    const first = apply(createHash, module, ['shake256', { outputLength: MU_BYTES }]);
    const proto = getPrototypeOf(first);
    found = { __proto__: null, module, createHash, update: proto.update, digest: proto.digest };
    apply(found.update, first, [pk]);
    const tr = apply(found.digest, first, []);
    if (apply(taTag, tr, []) !== 'Uint8Array' || apply(taLength, tr, []) !== MU_BYTES) return (native = null);
    const h = nativeHash(found, tr);
    h.update(probe);
    theirs = h.digest();
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return (native = null);
  }
  const ours = streamed(wasm.stream_mu(44, pk, false), [probe]);
  let differ = 0;
  for (let i = 0; i < MU_BYTES; i++) differ |= theirs[i] ^ ours[i];
  native = differ === 0 ? found : null;
}

/**
 * The platform's SHAKE256 (64-byte output) with `head` (a plain view)
 * absorbed, as { update(view), digest() }, or null where there is none (the
 * caller hashes in wasm).
 */
function nativeShake256Start(head) {
  if (native === undefined) lookUpNative();
  if (!native) return null;
  try {
    return nativeHash(native, head);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return null;
  }
}

/** SHAKE256(head ‖ parts…, 64 bytes) by the platform's own hash, or null (as nativeShake256Start). */
function nativeShake256(head, parts) {
  const h = nativeShake256Start(head);
  if (!h) return null;
  try {
    for (let i = 0; i < parts.length; i++) h.update(parts[i]);
    return h.digest();
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return null;
  }
}

export { nativeShake256, nativeShake256Start };
