// The checks of mldsa-simd/prehash's hash functions, run by prehash.test.mjs in
// a child process per path (lib/prehash-child.mjs: node:crypto's hashes, ours
// in JavaScript, or a node:crypto that lies). Each section returns the list of
// what went wrong (empty: passed):
//   shape      each export is a frozen function with noble's outputLen, blockLen
//              and OID; .oid is a new copy at each read; digests are new plain
//              Uint8Arrays; a hasher is frozen, returns itself from update(),
//              gives its digest once and then refuses every call
//   kat        NIST's examples: "abc" for SHA-2 and SHA-3, the empty message for SHAKE
//   lengths    every length 0..300 and around each block size and the 64 KiB
//              piece, and a 3 MiB message, against node:crypto and @noble/hashes,
//              whole and fed in pieces of 1, 7, blockLen − 1 and 1000 bytes
//   fast-check random messages cut at random points (fast-check), incremental = one-shot = node:crypto
//   hostile    every shape of lib/hostile.mjs as the message of f() and of update():
//              a TypeError naming the argument, or the digest of its real bytes
//   mutation   the caller's buffer resized, detached or overwritten between two updates
//   errors     wrong types: TypeError naming msg / data, never echoing the argument
//   stack      updates and digests near the stack limit: a throw, or the right digest
//   hashml-dsa HashML-DSA with each function against @noble/post-quantum
import crypto from 'node:crypto';
import fc from 'fast-check';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { HASH_FNS, toHex, concat, hashMlDsaMessage, describeError } from './util.mjs';
import { staticShapes, mutableHolders, realBytes, junk } from './hostile.mjs';

const CHUNK = 65536; // the pieces in which the message goes to node:crypto
const BLOCK_LENS = [64, 128, 72, 104, 136, 144, 168]; // SHA-256, SHA-512, the SHA-3/SHAKE rates

// NIST's examples (csrc.nist.gov "Examples with Intermediate Values"): SHA-2 and
// SHA-3 of "abc"; SHAKE of the empty message (the first 32 / 64 output bytes).
const KAT = {
  sha224: ['abc', '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7'],
  sha256: ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  sha384: ['abc', 'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7'],
  sha512: ['abc', 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f'],
  sha512_224: ['abc', '4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa'],
  sha512_256: ['abc', '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23'],
  sha3_224: ['abc', 'e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf'],
  sha3_256: ['abc', '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532'],
  sha3_384: ['abc', 'ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25'],
  sha3_512: ['abc', 'b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0'],
  shake128: ['', '7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26'],
  shake256: ['', '46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be'],
};

const hex = (b) => toHex(b).toLowerCase();
/**
 * `n` bytes of xorshift32 from `seed`: no period a piece or block size divides
 * (lib/hostile.mjs's junk() repeats every 256 bytes, so a piece read from the
 * wrong offset could give the same bytes).
 */
function bytesOf(n, seed) {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x >>> 24;
  }
  return out;
}
/** node:crypto's digest of `msg` for the function named `name` (its own module object, never the one the package was given). */
const nodeDigest = (name, outputLen, msg) =>
  hex(
    crypto
      .createHash(name.replace('_', '-'), name.startsWith('shake') ? { outputLength: outputLen } : undefined)
      .update(msg)
      .digest(),
  );
const isTypeErrorNaming = (e, re) => e instanceof TypeError && re.test(e.message);
const NAMES = { msg: /^msg: /, data: /^data: / };

/** Runs `fn`; returns its value, or the error as { threw }. */
function attempt(fn) {
  try {
    return { value: fn() };
  } catch (threw) {
    return { threw };
  }
}

/** `msg` fed to a new hasher of `f` in pieces of `size` bytes (or at `cuts`), then its digest. */
function pieces(f, msg, size, cuts) {
  const h = f.create();
  const at = cuts ?? [];
  if (!cuts) for (let i = size; i < msg.length; i += size) at.push(i);
  let from = 0;
  for (const to of [...at.filter((c) => c > 0 && c < msg.length).sort((a, b) => a - b), msg.length]) {
    if (h.update(msg.subarray(from, to)) !== h) throw new Error('update() did not return the hasher');
    from = to;
  }
  return hex(h.digest());
}

// ---------------------------------------------------------------- sections
function shape(PH) {
  const problems = [];
  const fail = (what) => problems.push(what);
  for (const [name, f] of Object.entries(PH)) {
    const ref = HASH_FNS[name];
    if (typeof f !== 'function') {
      fail(`${name}: not a function`);
      continue;
    }
    if (!Object.isFrozen(f)) fail(`${name}: not frozen`);
    if (f.outputLen !== ref.outputLen) fail(`${name}: outputLen ${f.outputLen}, noble's ${ref.outputLen}`);
    if (f.blockLen !== ref.blockLen) fail(`${name}: blockLen ${f.blockLen}, noble's ${ref.blockLen}`);
    const oid = f.oid;
    if (!(oid instanceof Uint8Array) || hex(oid) !== hex(ref.oid)) fail(`${name}: oid ${oid && hex(oid)}, noble's ${hex(ref.oid)}`);
    oid[10] ^= 0xff;
    oid.fill(0, 0, 3);
    if (f.oid === oid || hex(f.oid) !== hex(ref.oid)) fail(`${name}: changing a read .oid changed the next read`);
    for (const key of ['oid', 'outputLen', 'blockLen', 'create']) {
      const r = attempt(() => {
        f[key] = 1;
      });
      if (!(r.threw instanceof TypeError) || f[key] === 1) fail(`${name}: .${key} could be assigned`);
    }
    // Digests: new plain arrays of their own buffer (not Buffer, not a view of a pool).
    const m = junk(100, 1);
    const a = f(m);
    const b = f(m);
    if (Object.getPrototypeOf(a) !== Uint8Array.prototype || a.length !== f.outputLen || a.byteOffset !== 0 || a.buffer.byteLength !== f.outputLen)
      fail(`${name}: f(msg) gave ${Object.prototype.toString.call(a)} of ${a.length} bytes at ${a.byteOffset} in a buffer of ${a.buffer?.byteLength}`);
    if (a === b || a.buffer === b.buffer) fail(`${name}: two calls returned the same array`);
    a.fill(0);
    if (hex(f(m)) !== hex(b)) fail(`${name}: changing a returned digest changed the next one`);
    // A hasher: frozen, update returns it, digest once, then every call refused.
    const h = f.create();
    if (!Object.isFrozen(h)) fail(`${name}: the hasher is not frozen`);
    if (h.update(m.subarray(0, 40)) !== h) fail(`${name}: update() did not return the hasher`);
    const other = f.create(); // interleaved with h: independent states
    other.update(m);
    h.update(m.subarray(40));
    if (hex(h.digest()) !== hex(b)) fail(`${name}: interleaved hashers disturbed each other`);
    if (hex(other.digest()) !== hex(b)) fail(`${name}: interleaved hashers disturbed each other (second)`);
    for (const [what, call] of [
      ['digest()', () => h.digest()],
      ['update()', () => h.update(m)],
      ['digest() again', () => h.digest()],
    ]) {
      const r = attempt(call);
      if (!(r.threw?.constructor === Error && /^mldsa-simd\/prehash: this hasher is finished/.test(r.threw.message)))
        fail(`${name}: ${what} after digest(): ${r.threw ? describeError(r.threw) : 'returned'}`);
    }
    // Methods taken off the hasher work alone (they use no `this`).
    const { update, digest } = f.create();
    update(m);
    if (hex(digest()) !== hex(b)) fail(`${name}: detached methods gave another digest`);
  }
  const want = Object.keys(HASH_FNS).sort();
  if (Object.keys(PH).sort().join() !== want.join()) fail(`exports ${Object.keys(PH).sort()}, expected ${want}`);
  return problems;
}

function kat(PH) {
  const problems = [];
  for (const [name, [text, want]] of Object.entries(KAT)) {
    const msg = new TextEncoder().encode(text);
    if (hex(PH[name](msg)) !== want) problems.push(`${name}(${JSON.stringify(text)}) ≠ NIST's example`);
    if (pieces(PH[name], msg, 1) !== want) problems.push(`${name}(${JSON.stringify(text)}) in 1-byte pieces ≠ NIST's example`);
  }
  return problems;
}

function lengths(PH) {
  const problems = [];
  const set = new Set();
  for (let n = 0; n <= 300; n++) set.add(n);
  for (const B of BLOCK_LENS) for (const k of [2, 3, 4, 8]) for (const d of [-9, -8, -1, 0, 1]) set.add(k * B + d);
  for (const n of [CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, 3 * (1 << 20) + 13]) set.add(n);
  const all = [...set].sort((a, b) => a - b);
  const big = bytesOf(all.at(-1), 2);
  for (const [name, f] of Object.entries(PH)) {
    const ref = HASH_FNS[name];
    for (const n of all) {
      const msg = big.subarray(0, n);
      const want = nodeDigest(name, f.outputLen, msg);
      const got = hex(f(msg));
      if (got !== want) problems.push(`${name}, ${n} bytes: f(msg) ≠ node:crypto`);
      else if (n <= 1024 && hex(ref(msg)) !== want) problems.push(`${name}, ${n} bytes: node:crypto ≠ @noble/hashes (the oracles disagree)`);
      const sizes = n <= 300 ? [1, 7, f.blockLen - 1] : n <= 4 * CHUNK ? [f.blockLen - 1, 1000] : [1000, CHUNK + 3];
      for (const size of sizes) if (pieces(f, msg, size) !== want) problems.push(`${name}, ${n} bytes in pieces of ${size}: ≠ node:crypto`);
    }
  }
  return problems;
}

function fastCheck(PH, seed) {
  const problems = [];
  for (const [name, f] of Object.entries(PH)) {
    try {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 3 * 168 + 40 }), fc.array(fc.nat({ max: 3 * 168 + 40 }), { maxLength: 6 }), (msg, cuts) => {
          const want = nodeDigest(name, f.outputLen, msg);
          return hex(f(msg)) === want && pieces(f, msg, 0, cuts) === want;
        }),
        { seed, numRuns: 150 },
      );
    } catch (e) {
      problems.push(`${name}: ${String(e.message).split('\n').slice(0, 4).join(' | ')}`);
    }
  }
  return problems;
}

/** One call with a hostile argument, judged: null, or what went wrong. */
function judge(kind, value, call, name, want) {
  const before = realBytes(value);
  const r = attempt(() => call(value));
  if (kind === 'typeError')
    return isTypeErrorNaming(r.threw, name) ? null : `expected a TypeError naming the argument, got ${r.threw ? describeError(r.threw) : 'a digest'}`;
  if (r.threw) return kind === 'real' && isTypeErrorNaming(r.threw, name) ? null : `threw ${describeError(r.threw)}`;
  const after = realBytes(value);
  return r.value === want(before) || r.value === want(after) ? null : 'a digest of bytes the argument does not hold';
}

function hostile(PH) {
  const problems = [];
  for (const n of [100, 70_001]) {
    const bytes = bytesOf(n, 3);
    for (const shape of staticShapes()) {
      for (const [name, f] of Object.entries(PH)) {
        if (n > 1000 && !['sha256', 'sha3_256', 'shake256'].includes(name)) continue; // (the large message on three functions)
        const want = (real) => (real === null ? null : nodeDigest(name, f.outputLen, real));
        const oneShot = judge(shape.kind, shape.make(bytes), (v) => hex(f(v)), NAMES.msg, want);
        if (oneShot) problems.push(`${name}(${shape.name}, ${n} bytes): ${oneShot}`);
        // As the second update of a hasher, after 5 plain bytes.
        const head = junk(5, 4);
        const streamed = judge(
          shape.kind,
          shape.make(bytes),
          (v) => {
            const h = f.create().update(head);
            try {
              h.update(v);
            } catch (e) {
              // A refused argument leaves the hasher as it was.
              if (hex(h.digest()) !== nodeDigest(name, f.outputLen, head)) throw new Error('the refused update changed the hasher');
              throw e;
            }
            return hex(h.digest());
          },
          NAMES.data,
          (real) => (real === null ? null : nodeDigest(name, f.outputLen, concat(head, real))),
        );
        if (streamed) problems.push(`${name} update(${shape.name}, ${n} bytes): ${streamed}`);
      }
    }
  }
  return problems;
}

function mutation(PH) {
  const problems = [];
  for (const [name, f] of Object.entries(PH)) {
    // 100 bytes: never a whole number of blocks, so the hasher keeps a tail of them.
    for (const n of [100, CHUNK + 100]) {
      const bytes = bytesOf(n, 5);
      const other = bytesOf(n, 6);
      for (const holder of mutableHolders()) {
        const { mutations } = holder.make(bytes, other);
        for (const [what] of mutations) {
          const { value, mutations: fresh } = holder.make(bytes, other);
          const mutate = fresh.find(([w]) => w === what)[1];
          const h = f.create();
          h.update(value);
          const first = bytes; // what the first update saw
          mutate();
          const now = realBytes(value);
          const second = attempt(() => h.update(value));
          let want;
          if (second.threw) {
            if (!isTypeErrorNaming(second.threw, NAMES.data)) {
              problems.push(`${name}, ${holder.name}, ${what}: update threw ${describeError(second.threw)}`);
              continue;
            }
            want = nodeDigest(name, f.outputLen, first);
          } else want = nodeDigest(name, f.outputLen, concat(first, now));
          if (hex(h.digest()) !== want) problems.push(`${name}, ${n} bytes, ${holder.name}, ${what} between two updates: a wrong digest`);
        }
      }
    }
  }
  return problems;
}

function errors(PH) {
  const problems = [];
  const secret = 'SECRET-' + 'k3y'.repeat(20);
  const wrong = [
    ['a string', secret],
    ['a hex string', Buffer.from(secret).toString('hex')],
    ['Array', [...junk(32, 7)]],
    ['number', 32],
    ['null', null],
    ['undefined', undefined],
    ['ArrayBuffer', new ArrayBuffer(8)],
    ['DataView', new DataView(new ArrayBuffer(8))],
    ['Uint16Array', new Uint16Array(4)],
    ['Int8Array', new Int8Array(4)],
    ['Uint8ClampedArray', new Uint8ClampedArray(4)],
    ['object with length', { length: 4, 0: 1 }],
    ['a function', () => new Uint8Array(4)],
  ];
  for (const [name, f] of Object.entries(PH)) {
    for (const [label, v] of wrong) {
      for (const [where, call, re] of [
        ['f', () => f(v), NAMES.msg],
        ['update', () => f.create().update(v), NAMES.data],
      ]) {
        const r = attempt(call);
        if (!isTypeErrorNaming(r.threw, re)) problems.push(`${name} ${where}(${label}): ${r.threw ? describeError(r.threw) : 'returned'}`);
        else if (r.threw.message.includes('k3yk3y') || r.threw.message.includes(Buffer.from('k3yk3y').toString('hex')))
          problems.push(`${name} ${where}(${label}): the message echoes the argument`);
      }
    }
    const r = attempt(() => f());
    if (!isTypeErrorNaming(r.threw, NAMES.msg)) problems.push(`${name}(): ${r.threw ? describeError(r.threw) : 'returned'}`);
  }
  return problems;
}

/**
 * Calls near the stack limit: an update or a one-shot digest that runs out of
 * stack throws; the hasher then either refuses every call (its state may have
 * taken part of the bytes) or gives the digest of exactly the updates that
 * returned. Never a wrong digest.
 */
function stack(PH) {
  const problems = [];
  for (const [name, f] of Object.entries(PH)) {
    const chunk = junk(300, 8);
    const h = f.create();
    let returned = 0;
    let oneShotWrong = false;
    const want = nodeDigest(name, f.outputLen, chunk);
    const deep = () => {
      try {
        deep();
      } catch {}
      // Unwinding: the frames nearest the limit fail, the others work.
      try {
        h.update(chunk);
        returned++;
      } catch {}
      try {
        if (hex(f(chunk)) !== want) oneShotWrong = true;
      } catch {}
    };
    deep();
    if (oneShotWrong) problems.push(`${name}: a one-shot digest near the stack limit was wrong`);
    const r = attempt(() => hex(h.digest()));
    if (r.threw) {
      if (!/^mldsa-simd\/prehash: this hasher is finished/.test(r.threw.message))
        problems.push(`${name}: digest after updates near the stack limit threw ${describeError(r.threw)}`);
    } else if (
      r.value !==
      nodeDigest(
        name,
        f.outputLen,
        new Uint8Array(returned * chunk.length).map((_, i) => chunk[i % chunk.length]),
      )
    )
      problems.push(`${name}: a wrong digest after updates near the stack limit (${returned} returned)`);
  }
  return problems;
}

/** HashML-DSA (FIPS 204 Algorithms 4 and 5) with each function, against @noble/post-quantum. */
function hashMlDsa(PH, lib) {
  const problems = [];
  for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
    const ours = lib[key];
    const ref = noble[key];
    const { publicKey, secretKey } = ref.keygen(junk(32, 9));
    for (const [name, f] of Object.entries(PH)) {
      const nobleFn = HASH_FNS[name];
      const msg = junk(333, 10);
      const context = junk(12, 11);
      const det = { context, extraEntropy: false };
      const want = ref.internal.sign(hashMlDsaMessage(nobleFn, msg, context), secretKey, { extraEntropy: false });
      const sig = ours.prehash(f).sign(msg, secretKey, det);
      if (toHex(sig) !== toHex(want)) problems.push(`${key} prehash(${name}).sign ≠ noble's HashML-DSA`);
      if (ours.prehash(f).verify(want, msg, publicKey, { context }) !== true) problems.push(`${key} prehash(${name}).verify rejected noble's signature`);
      if (ours.prehash(f).verify(want, msg.subarray(1), publicKey, { context }) !== false)
        problems.push(`${key} prehash(${name}).verify accepted another message`);
      const s = ours.prehash(f).createSign(secretKey, { context });
      s.update(msg.subarray(0, 100)).update(msg.subarray(100));
      if (toHex(s.sign({ extraEntropy: false })) !== toHex(want)) problems.push(`${key} prehash(${name}).createSign ≠ noble's HashML-DSA`);
      // noble's own prehash(): with its function (where the hash is strong enough for the set) and with ours.
      let nobleSigner;
      try {
        nobleSigner = ref.prehash(nobleFn);
      } catch (e) {
        if (!/strength/i.test(e.message)) problems.push(`${key}: noble refused ${name}: ${e.message}`);
        continue;
      }
      if (toHex(nobleSigner.sign(msg, secretKey, det)) !== toHex(sig)) problems.push(`${key} noble prehash(${name}).sign ≠ ours`);
      if (nobleSigner.verify(ours.prehash(f).sign(msg, secretKey, { context }), msg, publicKey, { context }) !== true)
        problems.push(`${key}: noble rejected our hedged prehash(${name}) signature`);
      if (ours.prehash(f).verify(nobleSigner.sign(msg, secretKey, { context }), msg, publicKey, { context }) !== true)
        problems.push(`${key}: we rejected noble's hedged prehash(${name}) signature`);
      if (toHex(ref.prehash(f).sign(msg, secretKey, det)) !== toHex(sig)) problems.push(`${key}: noble's prehash() with our ${name} signs something else`);
    }
  }
  return problems;
}

/** The sections, in order: [name, run(PH, { seed, lib })]. `quick` (a lying platform) runs the digest checks only. */
export const SECTIONS = [
  ['shape', (PH) => shape(PH)],
  ['kat', (PH) => kat(PH)],
  ['lengths', (PH) => lengths(PH)],
  ['fast-check', (PH, o) => fastCheck(PH, o.seed)],
  ['hostile', (PH) => hostile(PH)],
  ['mutation', (PH) => mutation(PH)],
  ['errors', (PH) => errors(PH)],
  ['stack', (PH) => stack(PH)],
  ['hashml-dsa', (PH, o) => hashMlDsa(PH, o.lib)],
];
export const QUICK = ['kat', 'fast-check', 'mutation'];
