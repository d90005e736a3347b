// Hostile byte arguments, against the public API of the installed
// package, in one process and one wasm instance.
//
// Every byte argument of every function (keygen's seed, getPublicKey's secretKey,
// sign/verify and their internal, prehash, signer and verifier forms, and a
// noble-hashes function's .oid and returned digest) gets each hostile shape of
// lib/hostile.mjs: subclasses whose length/byteLength/byteOffset/buffer/subarray/
// slice/set/iterator lie, shorter and longer, views on resizable ArrayBuffers
// (also resized, detached or overwritten from an option getter, a pre-hash callback
// or the argument's own overridden method during the call), detached buffers,
// SharedArrayBuffer views, Proxies and arrays of another realm (vm).
//
// The rule for every call: a TypeError/RangeError whose message names the argument,
// or the result that @noble/post-quantum computes on plain copies of the argument's
// REAL bytes (what the intrinsic %TypedArray%.prototype getters report: before or
// after a mutation made during the call). Nothing else: not a raw RangeError of the
// wasm-bindgen glue, not a WebAssembly.RuntimeError, not a result computed on bytes
// the argument does not hold. SharedArrayBuffer views and other-realm arrays must
// work like plain bytes; a Proxy must be a TypeError.
//
// Then: forged signatures through lying lengths (B's signature under A's key, with
// the wasm heap layout laid out so that an overflowing copy lands B's public key
// where A's was); re-entrant calls from a pre-hash function, an option getter and an
// overridden subarray() while a streamed call is in progress; and at the end the
// same instance must answer every ACVP sigVer vector and agree with noble.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { shake256 } from '@noble/hashes/sha3.js';
import { lib, SETS, IMPL, prehash as PH } from './lib/load.mjs';
import * as adapter from './lib/noble-adapter.mjs';
import { Rng, attempt, isTrap, describeError, toHex, concat } from './lib/util.mjs';
import { staticShapes, mutableHolders, selfMutating, SELF_TRIGGERS, realBytes, isRealUint8Array, junk, concatBytes } from './lib/hostile.mjs';
import { runSigVer, SIGVER_TOTAL } from './lib/acvp.mjs';

const rng = new Rng('hostile');
// noble reads .length like any JS library: hostile arrays are the package's concern only.
const skip = IMPL === 'noble' ? 'hostile arrays: the package only (noble is not hardened against them)' : false;
const MAX_LISTED = 25;
const BIG = 70_001; // over the package's 64 KiB streaming piece

// What each argument must be called in an error message (as errors.test.mjs).
const NAME = {
  seed: /\bseed\b/i,
  secretKey: /secret ?key|\bsk\b/i,
  publicKey: /public ?key|\bpk\b/i,
  signature: /\bsig(nature)?\b/i,
  msg: /\bmsg\b|message/i,
  mu: /\bmu\b|μ/i,
  context: /\bcontext\b|\bctx\b/i,
  extraEntropy: /extraEntropy|\bentropy\b|\brnd\b/i,
  externalMu: /externalMu/i,
  options: /\bopt(ion)?s?\b/i,
  oid: /\bhash\b|\boid\b/i,
  digest: /\bhash\b|\bdigest\b/i,
};

// ---------------------------------------------------------------- fixtures
// Per set: keys A (the application's) and B (the attacker's), made by noble.
const FIX = SETS.map((P) => {
  const ref = noble[P.key];
  return {
    P,
    alg: lib[P.key],
    ref,
    refPh: adapter[P.key],
    A: ref.keygen(rng.bytes(32)),
    B: ref.keygen(rng.bytes(32)),
    seed: rng.bytes(32),
    msg: rng.bytes(100),
    big: rng.bytes(BIG),
    context: rng.bytes(10),
    rnd: rng.bytes(32),
    mu: rng.bytes(64),
  };
});

const digestKey = (parts) => {
  const h = crypto.createHash('sha256');
  for (const p of parts) {
    const s = p instanceof Uint8Array ? `b${p.length}:` : `v:${String(p)}:`;
    h.update(s);
    if (p instanceof Uint8Array) h.update(p);
  }
  return h.digest('hex');
};

/** Outcomes of noble on plain bytes, computed once: { ok, value } (value normalised) or { ok: false, error }. */
const memo = new Map();
function refOutcome(key, fn) {
  if (!memo.has(key)) {
    const r = attempt(fn);
    memo.set(key, r.ok ? { ok: true, value: norm(r.value) } : { ok: false, error: r.error });
  }
  return memo.get(key);
}

/** A comparable text for a result: boolean, bytes (their real bytes) or a key pair. */
function norm(x) {
  if (typeof x === 'boolean') return `bool:${x}`;
  if (isRealUint8Array(x)) return `bytes:${toHex(realBytes(x))}`;
  if (x && typeof x === 'object' && 'publicKey' in x && 'secretKey' in x) return `keys:${norm(x.publicKey)}|${norm(x.secretKey)}`;
  return `other:${Object.prototype.toString.call(x)}:${String(x).slice(0, 20)}`;
}
const short = (s) => (s.length > 60 ? `${s.slice(0, 48)}…(${s.length} chars)` : s);

// Signatures by noble, for the verify defaults.
const nobleSig = (F, kind, m) =>
  memoBytes(`sig:${F.P.name}:${kind}:${digestKey([m])}`, () => {
    if (kind === 'pure') return F.ref.sign(m, F.A.secretKey, { context: F.context, extraEntropy: false });
    if (kind === 'internal') return F.ref.internal.sign(m, F.A.secretKey, { extraEntropy: false });
    if (kind === 'mu') return F.ref.internal.sign(m, F.A.secretKey, { extraEntropy: false, externalMu: true });
    if (kind === 'sha512') return F.refPh.prehash(sha512).sign(m, F.A.secretKey, { context: F.context, extraEntropy: false });
    throw new Error(kind);
  });
const byteMemo = new Map();
function memoBytes(key, fn) {
  if (!byteMemo.has(key)) byteMemo.set(key, fn());
  return byteMemo.get(key);
}

// ---------------------------------------------------------------- HashML-DSA with a caller's hash function
const NIST_HASH_OID_PREFIX = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];
const PREHASH_LEN = { 1: 32, 2: 48, 3: 64, 4: 28, 5: 28, 6: 32, 7: 28, 8: 32, 9: 48, 10: 64, 11: 32, 12: 64 };

/**
 * A noble-hashes shaped SHA-512 whose .oid is `oid` and whose output goes through
 * `wrap` (a hostile shape). It hashes what the package hands it, as a user's hash
 * would; `calls` records each returned value with its real bytes at return, and
 * `onCall` runs at each call (a mutation or a re-entrant call).
 */
function sha512With(oid, wrap, onCall) {
  const calls = [];
  const fn = (m) => {
    if (onCall) onCall();
    const d = sha512(m);
    const out = wrap ? wrap(d) : d;
    calls.push({ value: out, atReturn: realBytes(out) });
    return out;
  };
  return Object.assign(fn, { oid, outputLen: 64, blockLen: 128, create: sha512.create, calls });
}

/** FIPS 204 M′ of HashML-DSA from the real oid and digest (noble takes no foreign OIDs): throws like the package must. */
function phMessage(r) {
  const { oid, digest, context } = r;
  if (oid.length !== 11 || NIST_HASH_OID_PREFIX.some((b, i) => oid[i] !== b) || PREHASH_LEN[oid[10]] !== 64)
    throw new TypeError('hash: the real oid is not that of a 64-byte FIPS 204 pre-hash');
  if (digest.length !== 64) throw new TypeError(`hash: the real digest has ${digest.length} bytes`);
  if (context.length > 255) throw new RangeError('context: too long');
  return concat(Uint8Array.of(1, context.length), context, oid, digest);
}

// ---------------------------------------------------------------- the operations
// Each: the byte arguments (`args`, in the order of the call), the option keys
// among them (`opts`), fixed options, the plain defaults, run (the package, with
// hostile values `v`, the options object the engine built, and the hash function
// for prehash(fn)), and ref (noble on real bytes `r`). `hostile` limits which
// arguments get hostile shapes (the streamed variants: only the message).
const signOpts = (r) => ({ context: r.context, extraEntropy: r.extraEntropy });
const OPS = [
  {
    name: 'keygen(seed)',
    args: ['seed'],
    opts: [],
    defaults: (F) => ({ seed: F.seed }),
    run: (F, v) => F.alg.keygen(v.seed),
    ref: (F, r) => F.ref.keygen(r.seed),
  },
  {
    name: 'getPublicKey(secretKey)',
    args: ['secretKey'],
    opts: [],
    defaults: (F) => ({ secretKey: F.A.secretKey }),
    run: (F, v) => F.alg.getPublicKey(v.secretKey),
    ref: (F, r) => F.ref.getPublicKey(r.secretKey),
  },
  {
    name: 'sign(msg, secretKey, { context, extraEntropy })',
    args: ['msg', 'secretKey', 'context', 'extraEntropy'],
    opts: ['context', 'extraEntropy'],
    defaults: (F) => ({ msg: F.msg, secretKey: F.A.secretKey, context: F.context, extraEntropy: F.rnd }),
    run: (F, v, o) => F.alg.sign(v.msg, v.secretKey, o),
    ref: (F, r) => F.ref.sign(r.msg, r.secretKey, signOpts(r)),
  },
  {
    name: 'verify(signature, msg, publicKey, { context })',
    args: ['signature', 'msg', 'publicKey', 'context'],
    opts: ['context'],
    defaults: (F) => ({ signature: nobleSig(F, 'pure', F.msg), msg: F.msg, publicKey: F.A.publicKey, context: F.context }),
    run: (F, v, o) => F.alg.verify(v.signature, v.msg, v.publicKey, o),
    ref: (F, r) => F.ref.verify(r.signature, r.msg, r.publicKey, { context: r.context }),
  },
  {
    name: 'internal.sign(M′, secretKey, { extraEntropy })',
    args: ['msg', 'secretKey', 'extraEntropy'],
    opts: ['extraEntropy'],
    defaults: (F) => ({ msg: F.msg, secretKey: F.A.secretKey, extraEntropy: F.rnd }),
    run: (F, v, o) => F.alg.internal.sign(v.msg, v.secretKey, o),
    ref: (F, r) => F.ref.internal.sign(r.msg, r.secretKey, { extraEntropy: r.extraEntropy }),
  },
  {
    name: 'internal.sign(mu, secretKey, { externalMu: true, extraEntropy })',
    args: ['mu', 'secretKey', 'extraEntropy'],
    opts: ['extraEntropy'],
    fixed: { externalMu: true },
    defaults: (F) => ({ mu: F.mu, secretKey: F.A.secretKey, extraEntropy: F.rnd }),
    run: (F, v, o) => F.alg.internal.sign(v.mu, v.secretKey, o),
    ref: (F, r) => F.ref.internal.sign(r.mu, r.secretKey, { extraEntropy: r.extraEntropy, externalMu: true }),
  },
  {
    name: 'internal.verify(signature, M′, publicKey)',
    args: ['signature', 'msg', 'publicKey'],
    opts: [],
    defaults: (F) => ({ signature: nobleSig(F, 'internal', F.msg), msg: F.msg, publicKey: F.A.publicKey }),
    run: (F, v, o) => F.alg.internal.verify(v.signature, v.msg, v.publicKey, o),
    ref: (F, r) => F.ref.internal.verify(r.signature, r.msg, r.publicKey),
  },
  {
    name: 'internal.verify(signature, mu, publicKey, { externalMu: true })',
    args: ['signature', 'mu', 'publicKey'],
    opts: [],
    fixed: { externalMu: true },
    defaults: (F) => ({ signature: nobleSig(F, 'mu', F.mu), mu: F.mu, publicKey: F.A.publicKey }),
    run: (F, v, o) => F.alg.internal.verify(v.signature, v.mu, v.publicKey, o),
    ref: (F, r) => F.ref.internal.verify(r.signature, r.mu, r.publicKey, { externalMu: true }),
  },
  {
    name: 'prehash(sha512).sign',
    args: ['msg', 'secretKey', 'context', 'extraEntropy'],
    opts: ['context', 'extraEntropy'],
    defaults: (F) => ({ msg: F.msg, secretKey: F.A.secretKey, context: F.context, extraEntropy: F.rnd }),
    run: (F, v, o) => F.alg.prehash(PH.sha512).sign(v.msg, v.secretKey, o),
    ref: (F, r) => F.refPh.prehash(sha512).sign(r.msg, r.secretKey, signOpts(r)),
  },
  {
    name: 'prehash(sha512).verify',
    args: ['signature', 'msg', 'publicKey', 'context'],
    opts: ['context'],
    defaults: (F) => ({ signature: nobleSig(F, 'sha512', F.msg), msg: F.msg, publicKey: F.A.publicKey, context: F.context }),
    run: (F, v, o) => F.alg.prehash(PH.sha512).verify(v.signature, v.msg, v.publicKey, o),
    ref: (F, r) => F.refPh.prehash(sha512).verify(r.signature, r.msg, r.publicKey, { context: r.context }),
  },
  {
    name: 'prehash(sha512 function).sign',
    prehashFn: true,
    args: ['oid', 'digest', 'msg', 'secretKey', 'context', 'extraEntropy'],
    opts: ['context', 'extraEntropy'],
    defaults: (F) => ({ oid: sha512.oid, msg: F.msg, secretKey: F.A.secretKey, context: F.context, extraEntropy: F.rnd }),
    run: (F, v, o, h) => F.alg.prehash(h).sign(v.msg, v.secretKey, o),
    ref: (F, r) => F.ref.internal.sign(phMessage(r), r.secretKey, { extraEntropy: r.extraEntropy }),
  },
  {
    name: 'prehash(sha512 function).verify',
    prehashFn: true,
    args: ['oid', 'digest', 'signature', 'msg', 'publicKey', 'context'],
    opts: ['context'],
    defaults: (F) => ({ oid: sha512.oid, signature: nobleSig(F, 'sha512', F.msg), msg: F.msg, publicKey: F.A.publicKey, context: F.context }),
    run: (F, v, o, h) => F.alg.prehash(h).verify(v.signature, v.msg, v.publicKey, o),
    ref: (F, r) => F.ref.internal.verify(r.signature, phMessage(r), r.publicKey),
  },
  {
    name: 'signer(secretKey).sign(msg, { context, extraEntropy })',
    args: ['secretKey', 'msg', 'context', 'extraEntropy'],
    opts: ['context', 'extraEntropy'],
    defaults: (F) => ({ secretKey: F.A.secretKey, msg: F.msg, context: F.context, extraEntropy: F.rnd }),
    run: (F, v, o) => {
      const s = F.alg.signer(v.secretKey);
      try {
        return s.sign(v.msg, o);
      } finally {
        s.free();
      }
    },
    ref: (F, r) => F.ref.sign(r.msg, r.secretKey, signOpts(r)),
  },
  {
    name: 'verifier(publicKey).verify(signature, msg, { context })',
    args: ['publicKey', 'signature', 'msg', 'context'],
    opts: ['context'],
    defaults: (F) => ({ publicKey: F.A.publicKey, signature: nobleSig(F, 'pure', F.msg), msg: F.msg, context: F.context }),
    run: (F, v, o) => {
      const w = F.alg.verifier(v.publicKey);
      try {
        return w.verify(v.signature, v.msg, o);
      } finally {
        w.free();
      }
    },
    ref: (F, r) => F.ref.verify(r.signature, r.msg, r.publicKey, { context: r.context }),
  },
];
// The same calls on a message over 64 KiB (streamed in the package); only the message is hostile.
for (const name of [
  'sign(msg, secretKey, { context, extraEntropy })',
  'verify(signature, msg, publicKey, { context })',
  'internal.sign(M′, secretKey, { extraEntropy })',
  'internal.verify(signature, M′, publicKey)',
  'prehash(sha512).sign',
  'prehash(sha512).verify',
  'prehash(sha512 function).verify',
  'signer(secretKey).sign(msg, { context, extraEntropy })',
  'verifier(publicKey).verify(signature, msg, { context })',
]) {
  const op = OPS.find((o) => o.name === name);
  const kind = {
    sign: 'pure',
    verify: 'pure',
    'internal.verify': 'internal',
    'prehash(sha512).verify': 'sha512',
    'prehash(sha512 function).verify': 'sha512',
    'verifier(publicKey).verify': 'pure',
  };
  const sigKind = Object.entries(kind).find(([k]) => name.startsWith(k))?.[1];
  OPS.push({
    ...op,
    name: `${name} [${BIG}-byte message]`,
    hostile: ['msg'],
    big: true,
    defaults: (F) => {
      const d = { ...op.defaults(F), msg: F.big };
      if ('signature' in d) d.signature = nobleSig(F, sigKind, F.big);
      return d;
    },
  });
}
const defaultsOf = (op, F) => memoBytes(`defaults:${op.name}:${F.P.name}`, () => op.defaults(F));

// ---------------------------------------------------------------- one call, judged
/**
 * Runs op on fixture F with `hostile` values for some arguments (and, for
 * prehash(fn), `wrapDigest` for its output), options built with an optional
 * `optionGetter` ({ key, before }: `before` runs when the getter is read), and an
 * optional `onHash` for the hash function. Returns null when the outcome is
 * allowed, else a description. `kind` is the shape's ('real' | 'works' |
 * 'typeError'); `names` are the argument names an error may give.
 */
function judgeCall({ op, F, hostile = {}, wrapDigest, optionGetter, onHash, kind, names }) {
  const d = defaultsOf(op, F);
  const v = { ...d, ...hostile };
  const hashFn = op.prehashFn ? sha512With(v.oid, wrapDigest, onHash) : undefined;
  const hostileArgs = Object.keys(hostile);
  const before = Object.fromEntries(hostileArgs.map((a) => [a, realBytes(v[a])]));

  const options = { ...(op.fixed || {}) };
  for (const k of op.opts) if (v[k] !== undefined) options[k] = v[k];
  if (optionGetter) {
    const { key, before: sideEffect } = optionGetter;
    const value = options[key];
    Object.defineProperty(options, key, { enumerable: true, configurable: true, get: () => (sideEffect(), value) });
  }
  const outcome = attempt(() => op.run(F, v, options, hashFn));
  const after = Object.fromEntries(hostileArgs.map((a) => [a, realBytes(v[a])]));

  // The real bytes the package may have computed on: all before, or all after the mutation.
  const states = [];
  for (const snap of [before, after]) {
    if (hostileArgs.some((a) => snap[a] === null)) continue; // not a Uint8Array: only a TypeError will do
    const r = { ...d, ...snap };
    if (op.prehashFn) {
      const call = hashFn.calls[0];
      const digests = call ? [call.atReturn, realBytes(call.value)] : [sha512(r.msg)];
      for (const digest of digests) if (digest !== null) states.push({ ...r, digest });
    } else states.push(r);
  }
  const refs = states.map((r) => refOutcome(digestKey([op.name, F.P.name, ...op.args.map((a) => r[a] ?? 'none')]), () => op.ref(F, r)));
  const nameList = names.map(String).join(' or ');

  if (!outcome.ok) {
    const e = outcome.error;
    if (isTrap(e)) return `wasm trap: ${describeError(e)}`;
    const named = e instanceof Error && typeof e.message === 'string' && names.some((re) => re.test(e.message));
    if (kind === 'typeError') return e instanceof TypeError && named ? null : `expected a TypeError naming ${nameList}, got ${describeError(e)}`;
    const refThrows = refs.some((r) => !r.ok);
    if (kind === 'works' && !refThrows) return `must work like plain bytes, but threw ${describeError(e)}`;
    const classOk = e instanceof TypeError || e instanceof RangeError || (refThrows && e instanceof Error && e.constructor === Error);
    if (!classOk) return `threw ${describeError(e)}: not a TypeError/RangeError`;
    if (!named) return `threw ${describeError(e)}, which names none of ${nameList}`;
    return null;
  }
  const got = norm(outcome.value);
  if (kind === 'typeError') return `returned ${short(got)} for a value that is not a Uint8Array (expected a TypeError)`;
  if (refs.some((r) => r.ok && r.value === got)) return null;
  const want = [...new Set(refs.map((r) => (r.ok ? short(r.value) : `throws (${describeError(r.error)})`)))].join(', or ');
  return `returned ${short(got)}; on the real bytes the result is ${want || '(none: no real bytes)'}`;
}

/** Collects problems; the assertion lists the first MAX_LISTED. */
function tally() {
  const problems = [];
  let calls = 0;
  return {
    record(label, problem) {
      calls++;
      if (problem) problems.push(`${label}: ${problem}`);
    },
    done(t, what) {
      t.diagnostic(`${what}: ${calls} calls, ${problems.length} not allowed; MLDSA_TEST_SEED=${rng.seedHex}`);
      assert.equal(problems.length, 0, `${problems.length} of ${calls} calls not allowed:\n  ${problems.slice(0, MAX_LISTED).join('\n  ')}`);
    },
  };
}

// ---------------------------------------------------------------- 1. shapes that do not change under the call
test('every static hostile shape on every byte argument of every function', { skip, timeout: 5 * 60_000 }, (t) => {
  const shapes = staticShapes();
  const T = tally();
  const seenSets = new Map();
  let i = 0;
  for (const op of OPS)
    for (const arg of op.hostile || op.args)
      for (const shape of shapes) {
        const F = FIX[i++ % FIX.length];
        const label = `${F.P.name} ${op.name}, ${arg} = ${shape.name}`;
        const names = [NAME[arg]];
        let problem;
        if (arg === 'digest') problem = judgeCall({ op, F, wrapDigest: shape.make, kind: shape.kind, names });
        else problem = judgeCall({ op, F, hostile: { [arg]: shape.make(defaultsOf(op, F)[arg]) }, kind: shape.kind, names });
        T.record(label, problem);
        if (!seenSets.has(shape.name)) seenSets.set(shape.name, new Set());
        seenSets.get(shape.name).add(F.P.name);
      }
  for (const [name, sets] of seenSets) assert.ok(sets.size === SETS.length, `shape "${name}" ran on ${[...sets]} only`);
  t.diagnostic(`static shapes: ${shapes.length} shapes × ${OPS.reduce((s, op) => s + (op.hostile || op.args).length, 0)} arguments`);
  T.done(t, 'static shapes');
});

// ---------------------------------------------------------------- 2. buffers that change during the call
test('buffers resized, detached or overwritten during the call (option getter, hash callback, own method)', { skip, timeout: 5 * 60_000 }, (t) => {
  const T = tally();
  const holders = mutableHolders();
  let i = 0;
  for (const op of OPS)
    for (const arg of (op.hostile || op.args).filter((a) => a !== 'digest'))
      for (const holder of holders) {
        const F0 = FIX[i % FIX.length];
        const probe = holder.make(defaultsOf(op, F0)[arg], defaultsOf(op, F0)[arg]);
        const triggers = [
          ...Object.keys({ ...(op.fixed || {}), ...Object.fromEntries(op.opts.map((k) => [k, 1])) }).map((key) => ({
            what: `the ${key} getter`,
            key,
            names: [NAME[key], NAME.options],
          })),
          ...(op.prehashFn ? [{ what: 'the hash function', hash: true, names: [NAME.oid] }] : []),
          ...SELF_TRIGGERS.map((self) => ({ what: `its own ${self}`, self, names: [] })),
        ];
        for (let m = 0; m < probe.mutations.length; m++)
          for (const trig of triggers) {
            const F = FIX[i++ % FIX.length];
            const base = defaultsOf(op, F)[arg];
            const { value, mutations } = holder.make(base, otherBytes(F, arg, base));
            const [mname, mutate] = mutations[m];
            let fired = false;
            const once = () => {
              if (!fired) {
                fired = true;
                mutate();
              }
            };
            const hostileValue = trig.self ? selfMutating(value, trig.self, once) : value;
            const label = `${F.P.name} ${op.name}, ${arg} = ${holder.name}, ${mname} from ${trig.what}`;
            T.record(
              label,
              judgeCall({
                op,
                F,
                hostile: { [arg]: hostileValue },
                optionGetter: trig.key ? { key: trig.key, before: once } : undefined,
                onHash: trig.hash ? once : undefined,
                kind: 'real',
                names: [NAME[arg], ...trig.names],
              }),
            );
          }
      }
  T.done(t, 'mutations during the call');
});

/** Bytes of the same length as `base` that another party would put there: B's key or signature, else junk. */
function otherBytes(F, arg, base) {
  if (arg === 'secretKey') return F.B.secretKey;
  if (arg === 'publicKey') return F.B.publicKey;
  if (arg === 'signature')
    return memoBytes(`Bsig:${F.P.name}:${base.length}`, () => F.ref.sign(F.msg, F.B.secretKey, { context: F.context, extraEntropy: false })).subarray(
      0,
      base.length,
    );
  return junk(base.length, 99);
}

// ---------------------------------------------------------------- 3. options: getters with side effects, Proxies
test('option getters and Proxy options that change their answer, throw, or are read more than once', { skip, timeout: 5 * 60_000 }, (t) => {
  const T = tally();
  let i = 0;
  // Sequences of values an option returns on successive reads.
  const SEQUENCES = {
    context: (F) => [
      [F.context, junk(300, 1)],
      [F.context, 'not bytes'],
      [F.context, junk(10, 2)],
      [junk(256, 3), F.context],
      [F.context, undefined],
    ],
    extraEntropy: (F) => [
      [F.rnd, junk(31, 4)],
      [F.rnd, 'not bytes'],
      [F.rnd, false],
      [false, junk(33, 5)],
      [junk(32, 6), F.rnd],
    ],
    externalMu: () => [
      [true, false],
      [false, true],
      [true, 'yes'],
    ],
  };
  for (const op of OPS.filter((o) => !o.big)) {
    const keys = [...op.opts, ...(op.name.startsWith('internal.') ? ['externalMu'] : [])];
    for (const key of keys)
      for (const how of ['getter', 'Proxy']) {
        const F = FIX[i++ % FIX.length];
        for (const seq of SEQUENCES[key](F)) {
          const label = `${F.P.name} ${op.name}, ${key} via a ${how} returning ${seq.map(describeValue).join(' then ')}`;
          T.record(label, judgeOptions({ op, F, key, seq, how }));
        }
      }
  }
  // A getter that throws: its own error comes out (or a TypeError naming the option), and nothing is left half-done.
  for (const op of OPS.filter((o) => !o.big && (o.opts.length || o.fixed))) {
    const F = FIX[i++ % FIX.length];
    const key = op.opts[0] || Object.keys(op.fixed)[0];
    const boom = new Error('getter boom');
    const options = { ...(op.fixed || {}) };
    Object.defineProperty(options, key, {
      enumerable: true,
      get() {
        throw boom;
      },
    });
    const d = defaultsOf(op, F);
    const r = attempt(() => op.run(F, d, options, op.prehashFn ? sha512With(sha512.oid) : undefined));
    let problem = null;
    if (r.ok) problem = `returned ${short(norm(r.value))} although the ${key} getter threw`;
    else if (isTrap(r.error)) problem = `wasm trap: ${describeError(r.error)}`;
    else if (r.error !== boom && !(r.error instanceof TypeError && (NAME[key].test(r.error.message) || NAME.options.test(r.error.message))))
      problem = `threw ${describeError(r.error)} instead of the getter's error`;
    T.record(`${F.P.name} ${op.name}, a ${key} getter that throws`, problem);
  }
  T.done(t, 'options');
});

const describeValue = (x) => (x instanceof Uint8Array ? `${x.length} bytes` : x === undefined ? 'undefined' : JSON.stringify(x));

/**
 * One call whose option `key` answers the values of `seq` at successive reads (an
 * accessor, or a Proxy's get trap), the last one from then on. Allowed: the result
 * on one of the valid values it gave (the package read it once, or kept to one
 * read), or a TypeError/RangeError naming the option. For externalMu the message is
 * 100 bytes, a valid M′ but not a μ, so that a check on one read and a use of
 * another shows.
 */
function judgeOptions({ op, F, key, seq, how }) {
  const d = { ...defaultsOf(op, F) };
  if (key === 'externalMu') {
    if ('mu' in d) d.mu = F.msg;
    else d.msg = F.msg;
  }
  let reads = 0;
  const next = () => seq[Math.min(reads++, seq.length - 1)];
  const base = { ...(op.fixed || {}) };
  for (const k of op.opts) if (d[k] !== undefined) base[k] = d[k];
  let options;
  if (how === 'getter') {
    options = { ...base };
    Object.defineProperty(options, key, { enumerable: true, configurable: true, get: next });
  } else {
    options = new Proxy({ ...base, [key]: seq[0] }, { get: (target, k, recv) => (k === key ? next() : Reflect.get(target, k, recv)) });
  }
  const outcome = attempt(() => op.run(F, d, options, op.prehashFn ? sha512With(sha512.oid) : undefined));
  const refs = [];
  for (const value of new Set(seq)) {
    if (key === 'externalMu') {
      if (typeof value !== 'boolean') continue;
      // The same call with that externalMu: both variants are in OPS.
      const twin = OPS.find((o) => !o.big && o.name.split('(')[0] === op.name.split('(')[0] && Boolean(o.fixed?.externalMu) === value);
      const r = { ...d, msg: F.msg, mu: F.msg };
      refs.push(refOutcome(digestKey(['opt', twin.name, F.P.name, ...twin.args.map((a) => r[a])]), () => twin.ref(F, r)));
      continue;
    }
    if (!(value === undefined || value === false || value instanceof Uint8Array)) continue;
    if (value === undefined && key === 'extraEntropy') continue; // hedged: no fixed answer
    const r = { ...d, [key]: value === undefined ? new Uint8Array(0) : value };
    if (op.prehashFn) r.digest = sha512(r.msg);
    refs.push(refOutcome(digestKey(['opt', op.name, F.P.name, ...op.args.map((a) => r[a] ?? String(r[a]))]), () => op.ref(F, r)));
  }
  const names = [NAME[key], NAME.options, ...(key === 'externalMu' ? [NAME.mu] : [])];
  if (!outcome.ok) {
    const e = outcome.error;
    if (isTrap(e)) return `wasm trap: ${describeError(e)}`;
    if (!(e instanceof TypeError || e instanceof RangeError)) return `threw ${describeError(e)}: not a TypeError/RangeError`;
    if (!names.some((re) => re.test(e.message))) return `threw ${describeError(e)}, which does not name ${key}`;
    return null;
  }
  const got = norm(outcome.value);
  if (refs.some((r) => r.ok && r.value === got)) return null;
  return `returned ${short(got)}; the values it was given yield ${refs.map((r) => (r.ok ? short(r.value) : 'an error')).join(', or ') || 'only errors'}`;
}

// ---------------------------------------------------------------- 4. forgery through lying lengths
// The wasm-bindgen glue allocates `value.length` bytes for an argument and copies
// its real contents with set(): a subclass that reports the right length but holds
// more bytes would overflow its block. The package reads each argument once into
// plain bytes (its real contents, whatever the getters say), so none of this reaches
// the glue. The payloads below model an older heap (blocks handed out from the top
// of a free block, verify's arguments below one another in memory): an overflowing
// argument carries copies of the headers and payloads above it, with B's public key
// where A's lay. Since the allocator (src/bindings/wasm/allocator.rs) hands out the head of a
// free block and the wasm exports take (pk, M, σ, ctx), pk is allocated first and
// lies lowest, so an overflow could no longer reach it and these attempts would
// return false even without the package's defence: they check that nothing traps,
// corrupts the instance or answers true. What shows the defence itself are the
// attempts marked `want: true` at the end: A's own valid signature in a subclass
// whose length getter lies by one byte. Read as plain bytes it verifies; a glue that
// trusted the getter would copy one byte too few or too many and answer false.
const blockSize = (n) => (n + 31) & ~15;
const padTo16 = (n) => (16 - (n % 16)) % 16;
function blockHeader(n) {
  const h = new Uint8Array(16);
  new DataView(h.buffer).setUint32(0, blockSize(n), true);
  return h;
}
/** `first`, its block's padding (+ `gap` bytes), then each block above: header, payload, padding. */
function overflowing(first, above, gap = 0) {
  const parts = [first, new Uint8Array(padTo16(first.length) + gap)];
  for (const b of above) parts.push(blockHeader(b.length), b, new Uint8Array(padTo16(b.length)));
  return concatBytes(...parts);
}
/** A Uint8Array subclass holding `real` whose length getter says `n`. */
function lyingLength(real, n) {
  class Lying extends Uint8Array {
    get length() {
      return n;
    }
  }
  const s = new Lying(real.length);
  Uint8Array.prototype.set.call(s, real);
  return s;
}
/** μ = H(H(pk, 64) ‖ 0 ‖ |ctx| ‖ ctx ‖ M, 64) for the pure interface, as an attacker computes it for A's key. */
const muOf = (pk, msg, ctx) => shake256(concat(shake256(pk, { dkLen: 64 }), Uint8Array.of(0, ctx.length), ctx, msg), { dkLen: 64 });

/** The forgery attempts for one set: { label, run, names }; each must give false or a TypeError/RangeError naming `names`. */
function forgeries(F) {
  const { P, alg, ref, A, B } = F;
  const msg = F.msg;
  const ctx = F.context;
  const none = new Uint8Array(0);
  const sigB = ref.sign(msg, B.secretKey, { extraEntropy: false }); // B signs the application's message
  const sigBctx = ref.sign(msg, B.secretKey, { context: ctx, extraEntropy: false });
  const sigBint = ref.internal.sign(msg, B.secretKey, { extraEntropy: false });
  const sigBph = F.refPh.prehash(sha512).sign(msg, B.secretKey, { extraEntropy: false });
  const mu = muOf(A.publicKey, msg, none);
  const sigBmu = ref.internal.sign(mu, B.secretKey, { extraEntropy: false, externalMu: true });
  const muBig = muOf(A.publicKey, F.big, none);
  const sigBbig = ref.internal.sign(muBig, B.secretKey, { extraEntropy: false, externalMu: true });
  const garbage = junk(P.sig, 21);
  const list = [];
  for (const gap of [0, 16, 32]) {
    const g = gap ? ` (+${gap} bytes between blocks)` : '';
    const evil = (s) => lyingLength(overflowing(s, [B.publicKey], gap), P.sig);
    const start = list.length;
    list.push({ label: `verify(sig: B's signature + B's pk${g}, msg, A.pk)`, run: () => alg.verify(evil(sigB), msg, A.publicKey), names: [NAME.signature] });
    list.push({
      label: `verify(sig: B's signature + B's pk${g}, msg, A.pk, { context })`,
      run: () => alg.verify(evil(sigBctx), msg, A.publicKey, { context: ctx }),
      names: [NAME.signature],
    });
    list.push({
      label: `internal.verify(sig: B's signature + B's pk${g}, M′, A.pk)`,
      run: () => alg.internal.verify(evil(sigBint), msg, A.publicKey),
      names: [NAME.signature],
    });
    list.push({
      label: `internal.verify(sig: B's signature + B's pk${g}, μ, A.pk, { externalMu })`,
      run: () => alg.internal.verify(evil(sigBmu), mu, A.publicKey, { externalMu: true }),
      names: [NAME.signature],
    });
    list.push({
      label: `prehash(sha512).verify(sig: B's signature + B's pk${g}, msg, A.pk)`,
      run: () => alg.prehash(PH.sha512).verify(evil(sigBph), msg, A.publicKey),
      names: [NAME.signature],
    });
    list.push({
      label: `verify(sig: B's signature over μ_A + B's pk${g}, ${BIG}-byte msg, A.pk) (streamed)`,
      run: () => alg.verify(evil(sigBbig), F.big, A.publicKey),
      names: [NAME.signature],
    });
    list.push({
      label: `verify(garbage sig, msg: msg + B's signature + B's pk${g}, A.pk)`,
      run: () => alg.verify(garbage, lyingLength(overflowing(msg, [sigB, B.publicKey], gap), msg.length), A.publicKey),
      names: [NAME.msg],
    });
    list.push({
      label: `verify(garbage sig, msg, A.pk, { context: ctx + msg + B's signature + B's pk${g} })`,
      run: () => alg.verify(garbage, msg, A.publicKey, { context: lyingLength(overflowing(ctx, [msg, sigBctx, B.publicKey], gap), ctx.length) }),
      names: [NAME.context],
    });
    list.push({
      label: `verifier(A.pk).verify(sig: B's signature + B's pk${g}, msg)`,
      run: () => {
        const w = alg.verifier(A.publicKey);
        try {
          return w.verify(evil(sigB), msg);
        } finally {
          w.free();
        }
      },
      names: [NAME.signature],
    });
    // Without a gap the copied headers are right and the heap survives an overflow, so these run
    // first, on every set; the others (the verifier's, and the gaps) may leave the heap corrupted.
    for (const f of list.slice(start)) f.phase = gap === 0 && !f.label.startsWith('verifier') ? 1 : 2;
  }
  // The public key itself overflowing (over whatever lies above its block), and the
  // "longer" lies: a length above the real one, so the copy leaves part of the block as it was.
  list.push({
    label: "verify(B's signature, msg, pk: A.pk + 4 KiB of B's pk copies)",
    run: () => alg.verify(sigB, msg, lyingLength(concatBytes(A.publicKey, B.publicKey, B.publicKey, B.publicKey, B.publicKey), P.pk)),
    names: [NAME.publicKey],
  });
  list.push({
    label: "verify(B's signature, msg, pk: B's pk minus 32 bytes, length says full)",
    run: () => alg.verify(sigB, msg, lyingLength(B.publicKey.subarray(0, P.pk - 32), P.pk)),
    names: [NAME.publicKey],
  });
  list.push({
    label: "verify(sig: B's signature minus 20 bytes, length says full, msg, A.pk)",
    run: () => alg.verify(lyingLength(sigB.subarray(0, P.sig - 20), P.sig), msg, A.publicKey),
    names: [NAME.signature],
  });
  list.push({
    label: "verify(B's signature, msg: 40 of its 100 bytes, length says 100, A.pk)",
    run: () => alg.verify(sigB, lyingLength(msg.subarray(0, 40), msg.length), A.publicKey),
    names: [NAME.msg],
  });
  list.push({
    label: "verify(B's signature, msg, A.pk, { context: 3 bytes, length says 10 })",
    run: () => alg.verify(sigBctx, msg, A.publicKey, { context: lyingLength(ctx.subarray(0, 3), ctx.length) }),
    names: [NAME.context],
  });
  list.push({
    label: "verify(sig: B's signature, length says 1 more, msg, A.pk)",
    run: () => alg.verify(lyingLength(sigB, P.sig + 1), msg, A.publicKey),
    names: [NAME.signature],
  });
  list.push({
    label: "verify(sig: B's signature, length says 1 less, msg, A.pk)",
    run: () => alg.verify(lyingLength(sigB, P.sig - 1), msg, A.publicKey),
    names: [NAME.signature],
  });
  // The controls: read as the bytes they hold, these are A's valid signature and message.
  const sigA = ref.sign(msg, A.secretKey, { extraEntropy: false });
  list.push({
    label: "verify(sig: A's signature, length says 1 more, msg, A.pk) is true",
    run: () => alg.verify(lyingLength(sigA, P.sig + 1), msg, A.publicKey),
    want: true,
  });
  list.push({
    label: "verify(sig: A's signature, length says 1 less, msg, A.pk) is true",
    run: () => alg.verify(lyingLength(sigA, P.sig - 1), msg, A.publicKey),
    want: true,
  });
  list.push({
    label: "verify(A's signature, msg, pk: A.pk, length says 1 less) is true",
    run: () => alg.verify(sigA, msg, lyingLength(A.publicKey, P.pk - 1)),
    want: true,
  });
  list.push({
    label: "verify(A's signature, msg: length says 1 more, A.pk) is true",
    run: () => alg.verify(sigA, lyingLength(msg, msg.length + 1), A.publicKey),
    want: true,
  });
  list.push({
    label: "verify(sig: B's signature + 1 MiB, msg, A.pk)",
    run: () => alg.verify(lyingLength(concatBytes(sigB, junk(1 << 20, 22)), P.sig), msg, A.publicKey),
    names: [NAME.signature],
  });
  for (const f of list) f.phase ??= 2;
  return list;
}

/** Heap states to try each forgery in: each returns a clean-up function. */
const HEAP_STATES = [
  ['after a plain verify', (F) => (F.alg.verify(nobleSig(F, 'pure', F.msg), F.msg, F.A.publicKey, { context: F.context }), () => {})],
  ['after an ML-DSA-87 signature (larger heap)', () => (lib.ml_dsa87.sign(FIX[2].msg, FIX[2].A.secretKey), () => {})],
  [
    'with a prepared signer and verifier alive',
    (F) => {
      const s = F.alg.signer(F.B.secretKey);
      const w = lib.ml_dsa87.verifier(FIX[2].A.publicKey);
      return () => (s.free(), w.free());
    },
  ],
  ['after a streamed verify', (F) => (F.alg.verify(nobleSig(F, 'pure', F.big), F.big, F.A.publicKey, { context: F.context }), () => {})],
];

test("forgery: B's signature never verifies under A's key through lying lengths (all sets)", { skip, timeout: 5 * 60_000 }, (t) => {
  const T = tally();
  let trues = 0;
  const truesBySet = {};
  const attempts = [];
  for (const phase of [1, 2])
    for (const F of FIX) for (const [state, enter] of HEAP_STATES) for (const f of forgeries(F)) if (f.phase === phase) attempts.push({ F, state, enter, f });
  for (const { F, state, enter, f } of attempts) {
    // Setting up the heap state runs the package too: on a corrupted heap it may trap.
    const entered = attempt(() => enter(F));
    const r = entered.ok ? attempt(f.run) : entered;
    const left = entered.ok ? attempt(entered.value) : { ok: true };
    let problem = left.ok ? null : `cleaning up the heap state: ${describeError(left.error)}`;
    if (!entered.ok) problem = `setting up "${state}": ${describeError(entered.error)}`;
    else if (f.want === true) {
      if (!r.ok) problem = `threw ${describeError(r.error)}; its real bytes are a valid signature`;
      else if (r.value !== true) problem = `returned ${short(norm(r.value))}, not true: the lying length getter was believed`;
    } else if (r.ok) {
      if (r.value === true) {
        trues++;
        truesBySet[F.P.name] = (truesBySet[F.P.name] || 0) + 1;
        problem = 'returned TRUE: a forgery';
      } else if (r.value !== false) problem = `returned ${short(norm(r.value))}`;
    } else if (isTrap(r.error)) problem = `wasm trap: ${describeError(r.error)}`;
    else if (!(r.error instanceof TypeError || r.error instanceof RangeError)) problem = `threw ${describeError(r.error)}: not a TypeError/RangeError`;
    else if (!f.names.some((re) => re.test(r.error.message))) problem = `threw ${describeError(r.error)}, which does not name the argument`;
    T.record(`${F.P.name} ${state}: ${f.label}`, problem);
  }
  t.diagnostic(`forgery: ${trues} of ${attempts.length} attempts returned true ${JSON.stringify(truesBySet)}`);
  T.done(t, 'forgery attempts');
});

test('after the forgery attempts: every ACVP sigVer vector, and sign/verify agree with noble', { skip, timeout: 5 * 60_000 }, (t) => {
  instanceStillRight(t, 'after the forgery attempts');
});

// ---------------------------------------------------------------- 5. re-entrancy
/**
 * Calls made from inside another call (on set G, key B, a 70 KB streamed message):
 * returns a function that runs them once and records any wrong answer in `problems`.
 */
function innerCalls(G, problems, where) {
  const refSign = () => memoBytes(`inner:${G.P.name}:sign`, () => G.ref.sign(G.big, G.B.secretKey, { context: G.context, extraEntropy: false }));
  const refPh = () => memoBytes(`inner:${G.P.name}:ph`, () => G.refPh.prehash(sha512).sign(G.big, G.B.secretKey, { extraEntropy: false }));
  let ran = false;
  return () => {
    if (ran) return;
    ran = true;
    const check = (what, fn, want) => {
      const r = attempt(fn);
      const got = r.ok ? norm(r.value) : `threw ${describeError(r.error)}`;
      if (got !== want) problems.push(`${where}: inner ${G.P.name} ${what}: got ${short(got)}, want ${short(want)}`);
    };
    const opts = { context: G.context, extraEntropy: false };
    check(`sign(${BIG} bytes)`, () => G.alg.sign(G.big, G.B.secretKey, opts), norm(refSign()));
    check(`verify(${BIG} bytes)`, () => G.alg.verify(refSign(), G.big, G.B.publicKey, { context: G.context }), 'bool:true');
    check(`prehash(sha512).sign(${BIG} bytes)`, () => G.alg.prehash(PH.sha512).sign(G.big, G.B.secretKey, { extraEntropy: false }), norm(refPh()));
    check(
      `signer.sign(${BIG} bytes)`,
      () => {
        const s = G.alg.signer(G.B.secretKey);
        try {
          return s.sign(G.big, opts);
        } finally {
          s.free();
        }
      },
      norm(refSign()),
    );
    check(
      `verifier.verify(${BIG} bytes)`,
      () => {
        const w = G.alg.verifier(G.B.publicKey);
        try {
          return w.verify(refSign(), G.big, { context: G.context });
        } finally {
          w.free();
        }
      },
      'bool:true',
    );
  };
}

test('re-entrancy: sign/verify called from a hash function, an option getter and subarray() during a call', { skip, timeout: 5 * 60_000 }, (t) => {
  const T = tally();
  let i = 0;
  for (const op of OPS) {
    if (op.args.includes('oid') && !op.big) {
      // The pre-hash function itself signs and verifies a streamed message under another key.
      const F = FIX[i++ % FIX.length];
      const inner = [];
      const label = `${F.P.name} ${op.name}, its hash function makes inner calls`;
      const problem = judgeCall({ op, F, onHash: innerCalls(FIX[(FIX.indexOf(F) + 1) % FIX.length], inner, label), kind: 'works', names: [] });
      T.record(label, problem || inner.join('; ') || null);
    }
    const keys = [...op.opts, ...Object.keys(op.fixed || {})];
    if (keys.length) {
      const F = FIX[i++ % FIX.length];
      const inner = [];
      const label = `${F.P.name} ${op.name}, the ${keys[0]} getter makes inner calls`;
      const problem = judgeCall({
        op,
        F,
        optionGetter: { key: keys[0], before: innerCalls(FIX[(FIX.indexOf(F) + 2) % FIX.length], inner, label) },
        kind: 'works',
        names: [],
      });
      T.record(label, problem || inner.join('; ') || null);
    }
    if (op.big)
      for (const self of ['subarray', 'length', 'slice']) {
        // The outer message is streamed: a call in the middle must not disturb its μ or PH(M).
        const F = FIX[i++ % FIX.length];
        const inner = [];
        const label = `${F.P.name} ${op.name}, the message's ${self} makes inner calls`;
        const msg = selfMutating(F.big.slice(), self, innerCalls(FIX[(FIX.indexOf(F) + 1) % FIX.length], inner, label));
        const problem = judgeCall({ op, F, hostile: { msg }, kind: 'real', names: [NAME.msg] });
        T.record(label, problem || inner.join('; ') || null);
      }
  }
  // Two levels: a hash function whose inner prehash(fn).verify has a hash function that signs a streamed message.
  for (const F of FIX) {
    const G = FIX[(FIX.indexOf(F) + 1) % FIX.length];
    const inner = [];
    const label = `${F.P.name} prehash(fn).sign, two levels of inner calls`;
    const deeper = innerCalls(FIX[(FIX.indexOf(F) + 2) % FIX.length], inner, label);
    const level1 = () => {
      const want = nobleSig(G, 'sha512', G.msg);
      const got = attempt(() => G.alg.prehash(sha512With(sha512.oid, undefined, deeper)).verify(want, G.msg, G.A.publicKey, { context: G.context }));
      if (!(got.ok && got.value === true)) inner.push(`${label}: level-1 verify gave ${got.ok ? got.value : describeError(got.error)}`);
    };
    const op = OPS.find((o) => o.name === 'prehash(sha512 function).sign');
    T.record(label, judgeCall({ op, F, onHash: level1, kind: 'works', names: [] }) || inner.join('; ') || null);
  }
  T.done(t, 're-entrancy');
});

// ---------------------------------------------------------------- 6. large messages in hostile wrappers
test(`large messages (${BIG} and 300 000 bytes) in every hostile wrapper, streamed`, { skip, timeout: 5 * 60_000 }, (t) => {
  const T = tally();
  const huge = rng.bytes(300_000);
  const shapes = staticShapes().filter((s) => !/64 KiB more/.test(s.name));
  let i = 0;
  for (const shape of shapes)
    for (const opName of ['sign(msg, secretKey, { context, extraEntropy })', 'verify(signature, msg, publicKey, { context })', 'prehash(sha512).sign']) {
      const F = FIX[i++ % FIX.length];
      const base = OPS.find((o) => o.name === opName);
      const op = {
        ...base,
        name: `${opName} [300 000 bytes]`,
        defaults: (G) => ({ ...base.defaults(G), msg: huge, ...('signature' in base.defaults(G) ? { signature: nobleSig(G, 'pure', huge) } : {}) }),
      };
      T.record(`${F.P.name} ${op.name}, msg = ${shape.name}`, judgeCall({ op, F, hostile: { msg: shape.make(huge) }, kind: shape.kind, names: [NAME.msg] }));
    }
  T.done(t, 'large messages');
});

// ---------------------------------------------------------------- 7. the same instance, afterwards
function instanceStillRight(t, when) {
  const { passed, total, failures } = runSigVer(lib);
  assert.equal(total, SIGVER_TOTAL, `sigVer: prompt.json should hold ${SIGVER_TOTAL} tests`);
  assert.deepEqual(failures.slice(0, MAX_LISTED), [], `${when}: ${failures.length} sigVer vectors wrong`);
  assert.equal(passed, SIGVER_TOTAL);
  for (const F of FIX) {
    const m = rng.bytes(77);
    const det = F.alg.sign(m, F.A.secretKey, { context: F.context, extraEntropy: false });
    assert.equal(
      toHex(det),
      toHex(F.ref.sign(m, F.A.secretKey, { context: F.context, extraEntropy: false })),
      `${when}: ${F.P.name} deterministic signature differs from noble's`,
    );
    const hedged = F.alg.sign(m, F.A.secretKey);
    assert.equal(F.ref.verify(hedged, m, F.A.publicKey), true, `${when}: ${F.P.name} noble rejects a fresh signature`);
    assert.equal(F.alg.verify(hedged, m, F.A.publicKey), true, `${when}: ${F.P.name} a fresh signature does not verify`);
    assert.equal(F.alg.verify(hedged, m, F.B.publicKey), false, `${when}: ${F.P.name} verifies under the wrong key`);
    const bad = hedged.slice();
    bad[9] ^= 4;
    assert.equal(F.alg.verify(bad, m, F.A.publicKey), false, `${when}: ${F.P.name} a flipped signature verifies`);
    assert.equal(toHex(F.alg.getPublicKey(F.B.secretKey)), toHex(F.B.publicKey), `${when}: ${F.P.name} getPublicKey wrong`);
  }
  t.diagnostic(`${when}: ${passed}/${total} sigVer vectors right; deterministic signatures equal noble's for ${FIX.length} sets`);
}

test('at the end: the same instance answers every ACVP sigVer vector and agrees with noble', { skip, timeout: 5 * 60_000 }, (t) => {
  instanceStillRight(t, 'at the end');
});
