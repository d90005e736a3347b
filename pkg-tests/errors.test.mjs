// The error model (DESIGN.md §2.3): TypeError for wrong types, RangeError for wrong
// lengths and contexts over 255 bytes, each message naming the argument (and the
// expected length); unknown option keys throw (their names described, not echoed); verify returns false, and never
// throws, for any signature bytes; a public key of the wrong length throws.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { shake256_64 } from '@noble/hashes/sha3.js';
import { lib, SETS, IMPL, prehash as PH } from './lib/load.mjs';
import { Rng, attempt, isTrap, describeError, concat } from './lib/util.mjs';

const rng = new Rng('errors');
test('random seed', (t) => t.diagnostic(`errors: MLDSA_TEST_SEED=${rng.seedHex} (impl: ${IMPL})`));

// What each argument must be called in messages.
const NAME = {
  seed: /seed/i,
  secretKey: /secret ?key|\bsk\b/i,
  publicKey: /public ?key|\bpk\b/i,
  signature: /sig(nature)?/i,
  msg: /\bmsg\b|message/i,
  context: /context|\bctx\b/i,
  extraEntropy: /extraEntropy|entropy|\brnd\b/i,
  mu: /\bmu\b|μ/i,
  opts: /opt(ion)?s?\b|object/i,
  hash: /hash/i,
  externalMu: /externalMu/i,
};

function expectThrow(fn, Kind, nameRe, what, mustInclude) {
  const r = attempt(fn);
  assert.ok(!r.ok, `${what}: did not throw (returned ${Object.prototype.toString.call(r.value)} ${String(r.value).slice(0, 40)})`);
  const e = r.error;
  assert.ok(!isTrap(e), `${what}: wasm trap: ${describeError(e)}`);
  assert.ok(e instanceof Kind, `${what}: expected ${Kind.name}, got ${describeError(e)}`);
  assert.match(e.message, nameRe, `${what}: message does not name the argument: "${e.message}"`);
  if (mustInclude !== undefined) assert.ok(e.message.includes(String(mustInclude)), `${what}: message does not give ${mustInclude}: "${e.message}"`);
}
const typeErr = (fn, nameRe, what) => expectThrow(fn, TypeError, nameRe, what);
const rangeErr = (fn, nameRe, what, expected) => expectThrow(fn, RangeError, nameRe, what, expected);

/** Values of the wrong type, several of them "close" to n bytes. */
function wrongTypes(n = 32, { withUndefined = true } = {}) {
  const list = [
    ['string', 'a'.repeat(n)],
    ['hex string', '00'.repeat(n)],
    ['Array', Array(n).fill(1)],
    ['number', n],
    ['bigint', 1n],
    ['boolean', true],
    ['null', null],
    ['ArrayBuffer', new ArrayBuffer(n)],
    ['Uint16Array', new Uint16Array(n)],
    ['Int8Array', new Int8Array(n)],
    ['Uint8ClampedArray', new Uint8ClampedArray(n)],
    ['DataView', new DataView(new ArrayBuffer(n))],
    ['object', { length: n }],
    ['function', () => new Uint8Array(n)],
  ];
  if (withUndefined) list.push(['undefined', undefined]);
  return list;
}

/** verify-like call that must return false and must not throw. */
function mustBeFalse(fn, what) {
  const r = attempt(fn);
  assert.ok(r.ok, `${what}: threw ${r.ok ? '' : describeError(r.error)}`);
  assert.equal(r.value, false, `${what}: returned ${String(r.value)}`);
}

for (const P of SETS) {
  const alg = lib[P.key];
  const ref = noble[P.key];
  const kp = ref.keygen(rng.bytes(32));
  const { publicKey: pk, secretKey: sk } = kp;
  const msg = rng.bytes(64);
  const context = rng.bytes(8);
  const sig = ref.sign(msg, sk, { context, extraEntropy: false });
  const otherLens = (len) => [...new Set([0, 1, len - 1, len + 1, 2 * len, P.pk, P.sk, P.sig, 32, 64].filter((x) => x !== len && x >= 0))];

  test(`${P.name}: keygen and getPublicKey argument errors`, () => {
    for (const [label, v] of wrongTypes(32, { withUndefined: false })) typeErr(() => alg.keygen(v), NAME.seed, `keygen(${label})`);
    for (const n of [0, 1, 16, 31, 33, 64]) rangeErr(() => alg.keygen(new Uint8Array(n)), NAME.seed, `keygen(seed of ${n} bytes)`, 32);
    for (const [label, v] of wrongTypes(P.sk)) typeErr(() => alg.getPublicKey(v), NAME.secretKey, `getPublicKey(${label})`);
    for (const n of otherLens(P.sk)) rangeErr(() => alg.getPublicKey(new Uint8Array(n)), NAME.secretKey, `getPublicKey(sk of ${n} bytes)`, P.sk);
  });

  test(`${P.name}: sign argument errors`, () => {
    for (const [label, v] of wrongTypes(64)) typeErr(() => alg.sign(v, sk), NAME.msg, `sign(msg: ${label})`);
    for (const [label, v] of wrongTypes(P.sk)) typeErr(() => alg.sign(msg, v), NAME.secretKey, `sign(sk: ${label})`);
    for (const n of otherLens(P.sk)) rangeErr(() => alg.sign(msg, new Uint8Array(n)), NAME.secretKey, `sign(sk of ${n} bytes)`, P.sk);
    for (const [label, v] of wrongTypes(8, { withUndefined: false })) typeErr(() => alg.sign(msg, sk, { context: v }), NAME.context, `sign(context: ${label})`);
    for (const n of [256, 257, 1000]) rangeErr(() => alg.sign(msg, sk, { context: new Uint8Array(n) }), NAME.context, `sign(context of ${n} bytes)`, 255);
    for (const [label, v] of wrongTypes(32, { withUndefined: false })) {
      typeErr(() => alg.sign(msg, sk, { extraEntropy: v }), NAME.extraEntropy, `sign(extraEntropy: ${label})`);
    }
    for (const n of [0, 1, 31, 33, 64])
      rangeErr(() => alg.sign(msg, sk, { extraEntropy: new Uint8Array(n) }), NAME.extraEntropy, `sign(extraEntropy of ${n} bytes)`, 32);
    for (const [label, v] of [
      ['null', null],
      ['string', 'context'],
      ['number', 1],
      ['Uint8Array', new Uint8Array(4)],
      ['Array', []],
      ['true', true],
    ]) {
      typeErr(() => alg.sign(msg, sk, v), NAME.opts, `sign(opts: ${label})`);
    }
    // Context of exactly 255 bytes is fine; present-but-undefined options are ignored.
    assert.equal(alg.sign(msg, sk, { context: new Uint8Array(255) }).length, P.sig);
    assert.deepEqual(alg.sign(msg, sk, { context: undefined, extraEntropy: false }), alg.sign(msg, sk, { extraEntropy: false }));
  });

  test(`${P.name}: verify argument errors (public key, message, context, options)`, () => {
    for (const [label, v] of wrongTypes(P.sig)) typeErr(() => alg.verify(v, msg, pk), NAME.signature, `verify(sig: ${label})`);
    for (const [label, v] of wrongTypes(64)) typeErr(() => alg.verify(sig, v, pk), NAME.msg, `verify(msg: ${label})`);
    for (const [label, v] of wrongTypes(P.pk)) typeErr(() => alg.verify(sig, msg, v), NAME.publicKey, `verify(pk: ${label})`);
    for (const n of otherLens(P.pk)) {
      rangeErr(() => alg.verify(sig, msg, new Uint8Array(n), { context }), NAME.publicKey, `verify(pk of ${n} bytes)`, P.pk);
      // Even when the signature is bad too: a wrong-length key is a caller bug.
      rangeErr(() => alg.verify(sig.subarray(1), msg, new Uint8Array(n)), NAME.publicKey, `verify(short sig, pk of ${n} bytes)`, P.pk);
      rangeErr(() => alg.prehash(PH.sha512).verify(sig, msg, new Uint8Array(n)), NAME.publicKey, `prehash.verify(pk of ${n} bytes)`, P.pk);
      rangeErr(() => alg.internal.verify(sig, msg, new Uint8Array(n)), NAME.publicKey, `internal.verify(pk of ${n} bytes)`, P.pk);
    }
    for (const [label, v] of wrongTypes(8, { withUndefined: false }))
      typeErr(() => alg.verify(sig, msg, pk, { context: v }), NAME.context, `verify(context: ${label})`);
    rangeErr(() => alg.verify(sig, msg, pk, { context: new Uint8Array(256) }), NAME.context, 'verify(context of 256 bytes)', 255);
    for (const [label, v] of [
      ['null', null],
      ['string', 'x'],
      ['number', 7],
      ['Uint8Array', new Uint8Array(3)],
    ]) {
      typeErr(() => alg.verify(sig, msg, pk, v), NAME.opts, `verify(opts: ${label})`);
    }
    assert.equal(alg.verify(sig, msg, pk, { context }), true, 'sanity: the untouched signature verifies');
  });

  test(`${P.name}: unknown option keys throw`, () => {
    const cases = [
      ['sign {ctx}', () => alg.sign(msg, sk, { ctx: context })],
      ['sign {context, ctx}', () => alg.sign(msg, sk, { context, ctx: context })],
      ['sign {externalMu}', () => alg.sign(msg, sk, { externalMu: true })],
      ['sign {entropy}', () => alg.sign(msg, sk, { entropy: new Uint8Array(32) })],
      ['verify {ctx}', () => alg.verify(sig, msg, pk, { ctx: context })],
      ['verify {extraEntropy}', () => alg.verify(sig, msg, pk, { extraEntropy: false })],
      ['prehash.sign {ctx}', () => alg.prehash(PH.sha512).sign(msg, sk, { ctx: context })],
      ['prehash.verify {ctx}', () => alg.prehash(PH.sha512).verify(sig, msg, pk, { ctx: context })],
      ['internal.sign {context}', () => alg.internal.sign(msg, sk, { context })],
      ['internal.verify {context}', () => alg.internal.verify(sig, msg, pk, { context })],
      ['internal.verify {extraEntropy}', () => alg.internal.verify(sig, msg, pk, { extraEntropy: false })],
    ];
    for (const [what, fn] of cases) {
      const r = attempt(fn);
      assert.ok(!r.ok, `${what}: accepted an unknown option (returned ${String(r.value).slice(0, 20)})`);
      assert.ok(r.error instanceof Error && !isTrap(r.error), `${what}: ${describeError(r.error)}`);
      const key = /\{(?:context, )?(\w+)\}/.exec(what)[1];
      // The option's name is described (its length), never echoed: names come from the caller.
      assert.match(
        r.error.message,
        new RegExp(`^options: an unknown option name \\(${key.length} characters\\); expected only: `),
        `${what}: "${r.error.message}"`,
      );
      assert.ok(!r.error.message.includes(`"${key}"`), `${what}: the message echoes the option's name: "${r.error.message}"`);
    }
  });

  test(`${P.name}: prehash and internal argument errors`, () => {
    for (const [label, v] of [
      ['number', 42],
      ['null', null],
      ['object', {}],
      ['Uint8Array', new Uint8Array(32)],
      ['Array', ['sha256']],
    ]) {
      typeErr(() => alg.prehash(v), NAME.hash, `prehash(${label})`);
    }
    // A hash name (the API of older versions), known or not: a TypeError that
    // points to mldsa-simd/prehash, without echoing the string.
    for (const name of ['sha512', 'sha256', 'shake256', 'sha1', 'md5', 'SHA-256', 'sha2-256', '', 'shake256_64']) {
      const r = attempt(() => alg.prehash(name));
      assert.ok(!r.ok, `prehash('${name}') was accepted`);
      assert.ok(r.error instanceof TypeError && !isTrap(r.error), `prehash('${name}'): ${describeError(r.error)}`);
      assert.match(r.error.message, /^hash: expected a hash function, got a string of \d+ characters; .*mldsa-simd\/prehash/, `prehash('${name}')`);
      if (name)
        assert.ok(
          !r.error.message.includes(`'${name}'`) && !r.error.message.includes(`"${name}"`),
          `prehash('${name}'): the message echoes the string: ${r.error.message}`,
        );
    }
    const ph = alg.prehash(PH.sha512);
    for (const [label, v] of wrongTypes(64)) typeErr(() => ph.sign(v, sk), NAME.msg, `prehash.sign(msg: ${label})`);
    for (const n of otherLens(P.sk)) rangeErr(() => ph.sign(msg, new Uint8Array(n)), NAME.secretKey, `prehash.sign(sk of ${n} bytes)`, P.sk);
    rangeErr(() => ph.sign(msg, sk, { context: new Uint8Array(256) }), NAME.context, 'prehash.sign(context of 256 bytes)', 255);
    rangeErr(() => ph.sign(msg, sk, { extraEntropy: new Uint8Array(16) }), NAME.extraEntropy, 'prehash.sign(extraEntropy of 16 bytes)', 32);
    rangeErr(() => alg.prehash(sha256).sign(msg, new Uint8Array(3)), NAME.secretKey, 'prehash(sha256 fn).sign(sk of 3 bytes)', P.sk);

    // (noble's internal.sign does not name M′ in this message; the package must.)
    const nameM = IMPL === 'noble' ? /./ : NAME.msg;
    for (const [label, v] of wrongTypes(64)) typeErr(() => alg.internal.sign(v, sk), nameM, `internal.sign(M′: ${label})`);
    for (const n of [0, 32, 63, 65, 128]) {
      rangeErr(() => alg.internal.sign(new Uint8Array(n), sk, { externalMu: true }), NAME.mu, `internal.sign(μ of ${n} bytes)`, 64);
      const r = attempt(() => alg.internal.verify(sig, new Uint8Array(n), pk, { externalMu: true }));
      assert.ok(r.ok ? r.value === false : r.error instanceof RangeError, `internal.verify(μ of ${n} bytes): ${r.ok ? r.value : describeError(r.error)}`);
    }
    for (const n of otherLens(P.sk)) rangeErr(() => alg.internal.sign(msg, new Uint8Array(n)), NAME.secretKey, `internal.sign(sk of ${n} bytes)`, P.sk);
    rangeErr(() => alg.internal.sign(msg, sk, { extraEntropy: new Uint8Array(31) }), NAME.extraEntropy, 'internal.sign(extraEntropy of 31 bytes)', 32);
    for (const [label, v] of [
      ['string', 'yes'],
      ['number', 1],
      ['null', null],
      ['Uint8Array', new Uint8Array(1)],
    ]) {
      typeErr(() => alg.internal.sign(new Uint8Array(64), sk, { externalMu: v }), NAME.externalMu, `internal.sign(externalMu: ${label})`);
      typeErr(() => alg.internal.verify(sig, new Uint8Array(64), pk, { externalMu: v }), NAME.externalMu, `internal.verify(externalMu: ${label})`);
    }
  });

  // ---- verify is false (and never throws) for any signature bytes -------------------------------
  const tr = sk.subarray(64, 128);
  const m = rng.bytes(40);
  const phSig = ref.internal.sign(concat(Uint8Array.of(1, context.length), context, sha256.oid, sha256(msg)), sk, { extraEntropy: false });
  const inSig = ref.internal.sign(m, sk, { extraEntropy: false });
  // Every interface, each with a signature that is valid for it.
  const interfaces = [
    ['verify', sig, (s) => alg.verify(s, msg, pk, { context })],
    ['prehash.verify', phSig, (s) => alg.prehash(PH.sha256).verify(s, msg, pk, { context })],
    ['internal.verify', inSig, (s) => alg.internal.verify(s, m, pk)],
    ['internal.verify externalMu', inSig, (s) => alg.internal.verify(s, noble_mu(tr, m), pk, { externalMu: true })],
  ];

  test(`${P.name}: verify returns false for every signature length 0..${P.sig + 2}`, () => {
    for (const [what, good, v] of interfaces) assert.equal(v(good), true, `sanity: ${what} accepts its valid signature`);
    const [, good, verify] = interfaces[0];
    const pad = concat(good, rng.bytes(2));
    let calls = 0;
    for (let len = 0; len <= P.sig + 2; len++) {
      if (len === P.sig) continue;
      // Truncated (a prefix of a valid signature) or extended (valid signature + bytes).
      const s = len < P.sig ? good.slice(0, len) : pad.slice(0, len);
      mustBeFalse(() => verify(s), `verify(sig of ${len} bytes)`);
      calls++;
    }
    const sampled = [0, 1, 2, P.ctildeLen, P.hintOff, P.sig - 1, P.sig + 1, P.sig + 2, P.sig * 2];
    for (let i = 0; i < 12; i++) sampled.push(rng.int(P.sig + 3));
    for (const [what, good2, v] of interfaces) {
      for (const len of sampled) {
        if (len === P.sig) continue;
        mustBeFalse(() => v(len < P.sig ? good2.slice(0, len) : concat(good2, new Uint8Array(len - P.sig))), `${what}(sig of ${len} bytes)`);
        mustBeFalse(() => v(rng.bytes(len)), `${what}(random sig of ${len} bytes)`);
        calls += 2;
      }
    }
    assert.ok(calls > P.sig);
  });

  test(`${P.name}: verify returns false for all-zero, all-0xFF, random and bit-flipped signatures`, () => {
    for (const [what, good, v] of interfaces) {
      mustBeFalse(() => v(new Uint8Array(P.sig)), `${what}(all-zero)`);
      mustBeFalse(() => v(new Uint8Array(P.sig).fill(0xff)), `${what}(all-0xFF)`);
      for (let i = 0; i < 40; i++) mustBeFalse(() => v(rng.bytes(P.sig)), `${what}(random bytes #${i})`);
      for (let i = 0; i < 40; i++) {
        const s = good.slice();
        const bit = rng.int(P.sig * 8);
        s[bit >> 3] ^= 1 << (bit & 7);
        mustBeFalse(() => v(s), `${what}(bit ${bit} flipped)`);
      }
    }
    // Every bit of the hint section, through the pure interface.
    const [, good, verify] = interfaces[0];
    for (let bit = P.hintOff * 8; bit < P.sig * 8; bit++) {
      const s = good.slice();
      s[bit >> 3] ^= 1 << (bit & 7);
      mustBeFalse(() => verify(s), `verify(hint bit ${bit - P.hintOff * 8} flipped)`);
    }
    // A random public key of the right length: false, not an exception.
    mustBeFalse(() => alg.verify(good, msg, rng.bytes(P.pk), { context }), 'verify(random public key)');
  });

  test(`${P.name}: verify rejects malformed hints that encode the same hint set`, () => {
    // Find a deterministic signature whose hint has room for one more index and a
    // polynomial with at least two indices.
    let s0,
      i2 = -1,
      msg2;
    for (let tries = 0; tries < 50 && i2 < 0; tries++) {
      msg2 = rng.bytes(32);
      s0 = ref.sign(msg2, sk, { extraEntropy: false });
      const cnt = s0.subarray(P.hintOff + P.omega);
      if (cnt[P.k - 1] >= P.omega) continue;
      for (let i = 0; i < P.k; i++)
        if (cnt[i] - (i ? cnt[i - 1] : 0) >= 2) {
          i2 = i;
          break;
        }
    }
    assert.ok(i2 >= 0, 'no suitable signature found in 50 tries');
    const v = (s) => alg.verify(s, msg2, pk);
    assert.equal(v(s0), true, 'sanity: unmodified signature verifies');
    const H = P.hintOff,
      O = P.omega,
      K = P.k;
    const total = s0[H + O + K - 1];
    const start = i2 ? s0[H + O + i2 - 1] : 0;
    const end = s0[H + O + i2];
    const mods = {
      'non-zero padding after the last index': (s) => {
        s[H + total] = 1 + rng.int(255);
      },
      'indices of one polynomial not increasing (swapped)': (s) => {
        [s[H + start], s[H + start + 1]] = [s[H + start + 1], s[H + start]];
      },
      'a repeated index (counts adjusted)': (s) => {
        for (let j = total; j > end; j--) s[H + j] = s[H + j - 1];
        s[H + end] = s[H + end - 1];
        for (let i = i2; i < K; i++) s[H + O + i]++;
      },
      'last count over ω': (s) => {
        s[H + O + K - 1] = O + 1;
      },
      'last count 255': (s) => {
        s[H + O + K - 1] = 255;
      },
      'counts decreasing': (s) => {
        s[H + O] = s[H + O + 1] + 1;
      },
      'first count over ω': (s) => {
        s[H + O] = O + 1;
      },
      'z coefficient = γ1 (out of range)': (s) => {
        s[P.ctildeLen] = 0;
        s[P.ctildeLen + 1] = 0;
        s[P.ctildeLen + 2] &= P.gamma1 === 1 << 17 ? 0xfc : 0xf0;
      },
    };
    for (const [what, mod] of Object.entries(mods)) {
      const s = s0.slice();
      mod(s);
      assert.ok(!s.every((b, i) => b === s0[i]), `${what}: modification changed nothing`);
      mustBeFalse(() => v(s), `verify(${what})`);
      assert.equal(ref.verify(s, msg2, pk), false, `noble accepted (${what}); harness bug`);
      mustBeFalse(() => alg.internal.verify(s, pureMsg(msg2), pk), `internal.verify(${what})`);
    }
  });
}

/** μ = H(tr ‖ M′, 64). */
function noble_mu(tr, m) {
  return shake256_64(concat(tr, m));
}
/** M′ of the pure API with an empty context. */
function pureMsg(m) {
  return concat(Uint8Array.of(0, 0), m);
}
