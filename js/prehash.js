/**
 * mldsa-simd/prehash: the twelve pre-hash functions of HashML-DSA (FIPS 204
 * §5.4) as hash functions in the shape of @noble/hashes, for
 * `ml_dsa65.prehash(sha512)`: `f(msg)` → digest, `f.oid`, `f.outputLen`,
 * `f.blockLen`, and `f.create()` → { update(bytes), digest() }.
 *
 * Names, OIDs and output lengths come from the Rust crate's table
 * (build/tables.js); SHAKE128 and SHAKE256 have the 32- and 64-byte outputs
 * that FIPS 204 §5.4 pairs with their OIDs. The hashing is ./sha2.js and
 * ./sha3.js, in plain JavaScript; in Node, Bun and Deno, node:crypto's native
 * hash is used instead for each function that it has and that gives, for a
 * probe, the digest ours gives.
 * @module
 */
import { NIST_HASH_OID_PREFIX, PREHASHES } from '../build/tables.js';
import { apply, U8, taBuffer, taOffset, len, freeze, readBytes, CHUNK } from './args.js';
import { sha2Core } from './sha2.js';
import { sha3Core } from './sha3.js';

// ---------------------------------------------------------------- engines
// An engine hashes one message: { update(view), digest() → new plain bytes }.
// Its update gets a plain view of the caller's bytes (args.js readBytes) and
// keeps nothing of it: a buffer detached or resized after update returns
// changes nothing.

/**
 * Ours, on a core of ./sha2.js or ./sha3.js: whole blocks are hashed straight
 * from the view, the rest copied into a block of the engine's own.
 */
function jsEngine(core, outputLen) {
  const B = core.blockLen;
  const state = core.init();
  const buf = new U8(B);
  let used = 0; // bytes in buf, always < B between calls
  let total = 0;
  return {
    update(bytes) {
      const n = len(bytes);
      let i = 0;
      total += n;
      if (used) {
        while (used < B && i < n) buf[used++] = bytes[i++];
        if (used < B) return;
        core.block(state, buf, 0);
        used = 0;
      }
      for (; n - i >= B; i += B) core.block(state, bytes, i);
      while (i < n) buf[used++] = bytes[i++];
    },
    digest: () => core.end(state, buf, used, total, outputLen),
  };
}

// Node's (and Bun's, Deno's) way to node:crypto without an import (there is
// none in a browser, and an import at load would cost more than this whole
// module): captured at load, called at the first use of a function.
const processObject = globalThis.process;
const getBuiltinModule = processObject?.getBuiltinModule;
const getPrototypeOf = Object.getPrototypeOf;
let nodeCrypto; // undefined: not looked up yet

// Three blocks and a few bytes of every block size: a platform hash that
// pads, counts or truncates otherwise than FIPS 180-4 or FIPS 202 differs.
const PROBE = new U8(3 * 168 + 7);
for (let i = 0; i < 3 * 168 + 7; i++) PROBE[i] = i * 151 + 7;

/**
 * The engine maker of node:crypto's createHash(...args), or null where there
 * is none, or where it differs from ours (an engine maker) on the probe. The
 * message goes to it in views of at most CHUNK (64 KiB), which it copies
 * before update returns (it refuses views of 2^31 bytes or more). A
 * RangeError (the caller's stack ran out) propagates, and the next use looks
 * the hash up again.
 */
function nativeMaker(args, outputLen, ours) {
  try {
    if (nodeCrypto === undefined) nodeCrypto = (typeof getBuiltinModule === 'function' && apply(getBuiltinModule, processObject, ['node:crypto'])) || null;
    const createHash = nodeCrypto?.createHash;
    if (typeof createHash !== 'function') return null;
    const { update, digest } = getPrototypeOf(apply(createHash, nodeCrypto, args));
    const start = () => {
      const h = apply(createHash, nodeCrypto, args);
      return {
        update(bytes) {
          const n = len(bytes);
          for (let i = 0; i < n; i += CHUNK)
            apply(update, h, [new U8(apply(taBuffer, bytes, []), apply(taOffset, bytes, []) + i, n - i < CHUNK ? n - i : CHUNK)]);
        },
        digest() {
          const d = apply(digest, h, []);
          if (len(d) !== outputLen) throw new Error('mldsa-simd/prehash: node:crypto gave a digest of another length');
          return new U8(d);
        },
      };
    };
    const theirs = start();
    const mine = ours();
    theirs.update(PROBE);
    mine.update(PROBE);
    const a = theirs.digest();
    const b = mine.digest();
    for (let i = 0; i < outputLen; i++) if (a[i] !== b[i]) return null;
    return start;
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return null;
  }
}

// ---------------------------------------------------------------- the hash functions
/**
 * The hasher of create(): each argument read once, into a plain view;
 * digest() once. An update that throws half-way (the stack ran out) may have
 * hashed part of its bytes, so the hasher is finished then too: a digest
 * taken after it would be wrong.
 */
function hasher(engine) {
  let finished = false;
  const enter = () => {
    if (finished) throw new Error('mldsa-simd/prehash: this hasher is finished (its digest was taken, or an update failed); create() a new one');
    finished = true;
  };
  const h = freeze({
    update(data) {
      const bytes = readBytes(data, 'data');
      enter();
      engine.update(bytes);
      finished = false;
      return h;
    },
    digest() {
      enter();
      return engine.digest();
    },
  });
  return h;
}

/** The hash function of a pre-hash name of the crate's table. */
function prehashFunction(name) {
  const entry = PREHASHES.find((e) => e[0] === name);
  const core = sha2Core(name) ?? sha3Core(name);
  if (!entry || !core) throw new Error(`mldsa-simd/prehash: ${name} is not a pre-hash function of the crate`);
  const outputLen = entry[2];
  // The cores give at most one block of output (ours squeeze SHAKE once).
  if (outputLen > core.blockLen) throw new Error(`mldsa-simd/prehash: ${name}'s output is longer than a block`);
  const oid = U8.of(...NIST_HASH_OID_PREFIX, entry[1]);
  const ours = () => jsEngine(core, outputLen);
  // node:crypto spells sha3_256 "sha3-256" and sha512_224 "sha512-224"; a SHAKE takes its output length.
  const args = [name.replace('_', '-'), name.startsWith('shake') ? { outputLength: outputLen } : undefined];
  let start; // the engine maker, once looked up
  const engine = () => (start ??= nativeMaker(args, outputLen, ours) || ours)();
  const f = (msg) => {
    const bytes = readBytes(msg, 'msg');
    const e = engine();
    e.update(bytes);
    return e.digest();
  };
  f.outputLen = outputLen;
  f.blockLen = core.blockLen;
  f.create = () => hasher(engine());
  // A new copy at each read: the OID is shared by every user of f.
  Object.defineProperty(f, 'oid', { get: () => new U8(oid), enumerable: true });
  return freeze(f);
}

export const sha224 = prehashFunction('sha224');
export const sha256 = prehashFunction('sha256');
export const sha384 = prehashFunction('sha384');
export const sha512 = prehashFunction('sha512');
export const sha512_224 = prehashFunction('sha512_224');
export const sha512_256 = prehashFunction('sha512_256');
export const sha3_224 = prehashFunction('sha3_224');
export const sha3_256 = prehashFunction('sha3_256');
export const sha3_384 = prehashFunction('sha3_384');
export const sha3_512 = prehashFunction('sha3_512');
export const shake128 = prehashFunction('shake128');
export const shake256 = prehashFunction('shake256');
