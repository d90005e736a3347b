// Soak: one instance, MLDSA_SOAK_OPS mixed operations (10⁴ in
// `npm test`; `npm run soak` runs 10⁶), all three sets: keygen (from a seed and
// random), getPublicKey, sign (deterministic, given rnd, hedged), verify (valid,
// flipped, wrong context, wrong key), prepared signers and verifiers (long-lived,
// created and freed, and dropped without free()), pre-hash by name and by
// noble-hashes function, external μ, messages over 64 KiB (streamed), and hostile
// calls (lib/hostile.mjs) mixed in.
//
// Every answer is checked: against a pool of keys and signatures that
// @noble/post-quantum made at the start (deterministic signatures must equal
// noble's byte for byte), or by consistency that can fail (a hedged signature
// verifies, and fails once flipped; noble re-checks one in 100). Hostile calls
// must give a TypeError/RangeError naming the argument or the answer for their
// real bytes.
//
// Memory: wasm linear memory (wasmMemoryBytes()), the part of it in use
// (wasmMemoryInUse()) and process RSS are sampled MLDSA_SOAK_SAMPLES times and
// printed as a table. After warm-up (the first tenth of the run, at least 5000
// operations) wasm memory must not grow at all, the part in use must not change
// (so a leak of one block shows at the next sample), and RSS must grow by less
// than MLDSA_SOAK_RSS_MIB (64). Wasm memory is a high-water mark, so
// before the run the test reaches on purpose what the run's busiest moment could
// need (see `highWater`): else a rare operation, such as a hostile view whose real
// bytes are half of a 70001-byte message, can raise it for the first time late in
// the run without anything leaking. Every 50th operation drops a prepared key without
// free(); at each sample the test runs a full GC (V8's gc, exposed through
// v8.setFlagsFromString) and yields to the event loop so that the
// FinalizationRegistry can reclaim them, so the number of dropped keys alive at
// any time is bounded by the sampling interval, not by when V8 feels like it:
// OPS / SAMPLES / 50 of them, 10 in the 10⁴ run but 500 (about 20 MiB of wasm
// memory) in `npm run soak`'s 10⁶ with 40 samples, which only a memory budget
// for prepared keys keeps from raising the high-water mark as the run goes on.
import test from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha3_512 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { lib, SETS, IMPL, prehash as PH } from './lib/load.mjs';
import * as adapter from './lib/noble-adapter.mjs';
import { Rng, attempt, isTrap, describeError, toHex, equalBytes } from './lib/util.mjs';
import { staticShapes, realBytes } from './lib/hostile.mjs';
import { runSigVer, SIGVER_TOTAL } from './lib/acvp.mjs';

const envInt = (name, dflt) => {
  const v = process.env[name] === undefined ? dflt : Number(process.env[name]);
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
  return v;
};
const OPS = envInt('MLDSA_SOAK_OPS', 10_000);
const SAMPLES = Math.min(envInt('MLDSA_SOAK_SAMPLES', 20), OPS);
const RSS_LIMIT = envInt('MLDSA_SOAK_RSS_MIB', 64) * 2 ** 20;
const HOSTILE = process.env.MLDSA_SOAK_HOSTILE !== '0';
const DROP_EVERY = 50;
// Wasm memory is a high-water mark: it may rise while the heap finds its working shape.
const WARM_UP = Math.min(OPS, Math.max(5000, Math.floor(OPS / 10)));
const YIELD_EVERY = 250;
const NOBLE_CHECK_EVERY = 100;
const skip = IMPL === 'noble' ? 'wasm memory and prepared keys: package only' : false;

const rng = new Rng('soak');
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const ctxOf = (n) => (n ? Uint8Array.from({ length: n }, (_, i) => (i * 37 + 5) & 0xff) : undefined);
const MSG_SIZES = [0, 33, 1000, 70_001]; // the last is streamed in 64 KiB pieces
const CTX_SIZES = [0, 10];

/** Per set: keys from seeds, and noble's deterministic signatures on every (key, message, context). */
function makePool(P) {
  const ref = noble[P.key];
  const keys = [0, 1, 2].map(() => {
    const seed = rng.bytes(32);
    return { seed, ...ref.keygen(seed) };
  });
  const msgs = MSG_SIZES.map((n) => rng.bytes(n));
  const sigs = new Map();
  for (let k = 0; k < keys.length; k++)
    for (let m = 0; m < msgs.length; m++)
      for (const c of CTX_SIZES) sigs.set(`${k}/${m}/${c}`, ref.sign(msgs[m], keys[k].secretKey, { context: ctxOf(c), extraEntropy: false }));
  const ph = adapter[P.key];
  const phSigs = {
    sha256: msgs.map((m) => ph.prehash(sha256).sign(m, keys[0].secretKey, { extraEntropy: false })),
    sha3_512: msgs.map((m) => ph.prehash(sha3_512).sign(m, keys[0].secretKey, { extraEntropy: false })),
  };
  const mu = rng.bytes(64);
  const muSig = ref.internal.sign(mu, keys[1].secretKey, { externalMu: true, extraEntropy: false });
  const rnd = rng.bytes(32);
  const rndSig = ref.sign(msgs[1], keys[2].secretKey, { extraEntropy: rnd });
  return { P, alg: lib[P.key], ref, keys, msgs, sigs, phSigs, mu, muSig, rnd, rndSig };
}

// Messages up to 64 KiB are copied whole into wasm memory; longer ones are
// hashed in 64 KiB pieces (docs/memory.md, "Messages of any size").
const WHOLE = 1 << 16;
const MAX_CONTEXT = 255;

/**
 * Raises wasm memory to the run's high-water mark, and checks every answer on the
 * way (null when all are right, else what went wrong):
 * - as many prepared keys alive at once as the run can hold: the long-lived ones
 *   (made already), one made and freed, one being made, and the dropped keys of
 *   three sampling intervals (their finalizers run at each sample; two late rounds
 *   are allowed for). The pool caps its slots, so more keys cost time, not memory;
 * - per set, each path that copies a message into wasm memory, with the longest
 *   such message and context: one-shot and prepared, pure and pre-hash by name.
 */
function highWater(pools, ctl, dropsPerInterval) {
  const held = [];
  try {
    for (let i = 0; i < 2 + 3 * dropsPerInterval; i++) {
      const p = pools[i % pools.length];
      const k = i % p.keys.length;
      const signer = i % 2 === 0;
      const key = signer ? p.alg.signer(p.keys[k].secretKey) : p.alg.verifier(p.keys[k].publicKey);
      held.push(key);
      const sig = p.sigs.get(`${k}/1/0`);
      if (signer ? !equalBytes(key.sign(p.msgs[1], { extraEntropy: false }), sig) : key.verify(sig, p.msgs[1]) !== true)
        return `high water: prepared key #${i} of ${p.P.name} gave a wrong answer`;
    }
  } finally {
    for (const key of held) key.free();
  }
  // (Its bytes do not matter; they do not draw on `rng`, so a seed gives the same run either way.)
  const msg = Uint8Array.from({ length: WHOLE }, (_, i) => (i * 131 + 7) & 0xff);
  const context = ctxOf(MAX_CONTEXT);
  for (const p of pools) {
    const { alg, ref, keys } = p;
    const [key] = keys;
    const want = ref.sign(msg, key.secretKey, { context, extraEntropy: false });
    const signer = ctl.signers.get(p.P.name)[0];
    const verifier = ctl.verifiers.get(p.P.name)[0];
    const checks = [
      ['sign', equalBytes(alg.sign(msg, key.secretKey, { context, extraEntropy: false }), want)],
      ['verify', alg.verify(want, msg, key.publicKey, { context }) === true],
      ['signer.sign', equalBytes(signer.sign(msg, { context, extraEntropy: false }), want)],
      ['verifier.verify', verifier.verify(want, msg, { context }) === true],
    ];
    // mldsa-simd/prehash's function (node:crypto's hash here) against noble's.
    const ph = alg.prehash(PH.sha256);
    const s = ph.sign(msg, key.secretKey, { context, extraEntropy: false });
    checks.push(['prehash(sha256).sign', equalBytes(s, adapter[p.P.key].prehash(sha256).sign(msg, key.secretKey, { context, extraEntropy: false }))]);
    checks.push(['prehash(sha256).verify', ph.verify(s, msg, key.publicKey, { context }) === true]);
    const bad = checks.find(([, ok]) => !ok);
    if (bad) return `high water: ${p.P.name} ${bad[0]} of a ${WHOLE}-byte message gave a wrong answer`;
  }
  return null;
}

const _sizeOf = (x) => (x === undefined ? 0 : x.length);
const flip = (s) => {
  const out = s.slice();
  out[rng.int(out.length)] ^= 1 << rng.int(8);
  return out;
};

/**
 * The operations, each (pool, ctl) → null when right, else what went wrong. `weight`
 * sets how often it runs. ctl holds the long-lived prepared keys and the counters.
 */
function operations(shapes) {
  const pick = (pool) => {
    const k = rng.int(pool.keys.length);
    const m = rng.int(pool.msgs.length);
    const c = rng.pick(CTX_SIZES);
    return { k, m, c, key: pool.keys[k], msg: pool.msgs[m], context: ctxOf(c), sig: pool.sigs.get(`${k}/${m}/${c}`) };
  };
  const sameBytes = (what, got, want) =>
    got instanceof Uint8Array && equalBytes(got, want)
      ? null
      : `${what}: ${got instanceof Uint8Array ? `bytes ${toHex(got).slice(0, 16)}… differ from noble's` : `returned ${String(got)}`}`;
  const is = (what, got, want) => (got === want ? null : `${what}: returned ${String(got)}, expected ${want}`);
  const list = [
    [
      'keygen(seed)',
      5,
      (p) => {
        const { key } = pick(p);
        const kp = p.alg.keygen(key.seed);
        return sameBytes('publicKey', kp.publicKey, key.publicKey) || sameBytes('secretKey', kp.secretKey, key.secretKey);
      },
    ],
    [
      'keygen() + getPublicKey',
      2,
      (p) => {
        const kp = p.alg.keygen();
        if (kp.publicKey.length !== p.P.pk || kp.secretKey.length !== p.P.sk) return `lengths ${kp.publicKey.length}/${kp.secretKey.length}`;
        return sameBytes('getPublicKey(fresh sk)', p.alg.getPublicKey(kp.secretKey), kp.publicKey);
      },
    ],
    [
      'getPublicKey',
      3,
      (p) => {
        const { key } = pick(p);
        return sameBytes('getPublicKey', p.alg.getPublicKey(key.secretKey), key.publicKey);
      },
    ],
    [
      'sign deterministic',
      12,
      (p) => {
        const { key, msg, context, sig } = pick(p);
        return sameBytes('sign', p.alg.sign(msg, key.secretKey, { context, extraEntropy: false }), sig);
      },
    ],
    ['sign with rnd', 2, (p) => sameBytes('sign(rnd)', p.alg.sign(p.msgs[1], p.keys[2].secretKey, { extraEntropy: p.rnd }), p.rndSig)],
    [
      'sign hedged',
      6,
      (p, ctl) => {
        const { key, msg, context } = pick(p);
        const s = p.alg.sign(msg, key.secretKey, { context });
        if (!(s instanceof Uint8Array) || s.length !== p.P.sig) return `returned ${String(s)}`;
        if (ctl.hedged++ % NOBLE_CHECK_EVERY === 0 && !p.ref.verify(s, msg, key.publicKey, { context })) return 'noble rejects a hedged signature';
        return (
          is('verify(hedged)', p.alg.verify(s, msg, key.publicKey, { context }), true) ||
          is('verify(flipped hedged)', p.alg.verify(flip(s), msg, key.publicKey, { context }), false)
        );
      },
    ],
    [
      'verify valid',
      12,
      (p) => {
        const { key, msg, context, sig } = pick(p);
        return is('verify', p.alg.verify(sig, msg, key.publicKey, { context }), true);
      },
    ],
    [
      'verify flipped',
      6,
      (p) => {
        const { key, msg, context, sig } = pick(p);
        return is('verify(flipped)', p.alg.verify(flip(sig), msg, key.publicKey, { context }), false);
      },
    ],
    [
      'verify wrong context or key',
      3,
      (p) => {
        const { k, key, msg, context, sig } = pick(p);
        const other = p.keys[(k + 1) % p.keys.length];
        return (
          is('verify(other context)', p.alg.verify(sig, msg, key.publicKey, { context: context ? undefined : ctxOf(3) }), false) ||
          is('verify(other key)', p.alg.verify(sig, msg, other.publicKey, { context }), false)
        );
      },
    ],
    [
      'signer (long-lived)',
      6,
      (p, ctl) => {
        const { k, msg, context, sig } = pick(p);
        return sameBytes('signer.sign', ctl.signers.get(p.P.name)[k].sign(msg, { context, extraEntropy: false }), sig);
      },
    ],
    [
      'verifier (long-lived)',
      6,
      (p, ctl) => {
        const { k, msg, context, sig } = pick(p);
        const w = ctl.verifiers.get(p.P.name)[k];
        return is('verifier.verify', w.verify(sig, msg, { context }), true) || is('verifier.verify(flipped)', w.verify(flip(sig), msg, { context }), false);
      },
    ],
    [
      'signer create/sign/free',
      2,
      (p) => {
        const { key, msg, context, sig } = pick(p);
        const s = p.alg.signer(key.secretKey);
        try {
          return sameBytes('signer.sign', s.sign(msg, { context, extraEntropy: false }), sig);
        } finally {
          s.free();
        }
      },
    ],
    [
      'verifier create/verify/free',
      2,
      (p) => {
        const { key, msg, context, sig } = pick(p);
        const w = p.alg.verifier(key.publicKey);
        try {
          return is('verifier.verify', w.verify(sig, msg, { context }), true);
        } finally {
          w.free();
        }
      },
    ],
    [
      'prehash sign',
      4,
      (p) => {
        const m = rng.int(p.msgs.length);
        const [h, fn] = rng.bool() ? ['sha256', PH.sha256] : ['sha3_512', sha3_512];
        return sameBytes(`prehash(${h}).sign`, p.alg.prehash(fn).sign(p.msgs[m], p.keys[0].secretKey, { extraEntropy: false }), p.phSigs[h][m]);
      },
    ],
    [
      'prehash verify',
      3,
      (p) => {
        const m = rng.int(p.msgs.length);
        const [h, fn] = rng.bool() ? ['sha256', PH.sha256] : ['sha3_512', sha3_512];
        const ph = p.alg.prehash(fn);
        return (
          is(`prehash(${h}).verify`, ph.verify(p.phSigs[h][m], p.msgs[m], p.keys[0].publicKey), true) ||
          is(`prehash(${h}).verify(flipped)`, ph.verify(flip(p.phSigs[h][m]), p.msgs[m], p.keys[0].publicKey), false)
        );
      },
    ],
    [
      'external μ',
      2,
      (p) =>
        sameBytes('internal.sign(μ)', p.alg.internal.sign(p.mu, p.keys[1].secretKey, { externalMu: true, extraEntropy: false }), p.muSig) ||
        is('internal.verify(μ)', p.alg.internal.verify(p.muSig, p.mu, p.keys[1].publicKey, { externalMu: true }), true),
    ],
  ];
  if (HOSTILE) list.push(['hostile argument', 6, (p) => hostileCall(p, shapes, pick(p))]);
  return list;
}

/**
 * verify with one hostile argument (the signature, the message, the public key or
 * the context), or sign with a hostile message or secret key. The answer for the
 * real bytes is known without noble: verify is true exactly when the real bytes are
 * the pool's, and a deterministic signature on the pool's real bytes is the pool's.
 */
function hostileCall(p, shapes, { key, msg, context, sig }) {
  const shape = rng.pick(shapes);
  const signing = rng.int(4) === 0;
  const arg = signing ? rng.pick(['msg', 'secretKey']) : rng.pick(['signature', 'msg', 'publicKey', ...(context ? ['context'] : [])]);
  const plain = { signature: sig, msg, publicKey: key.publicKey, secretKey: key.secretKey, context };
  const value = shape.make(plain[arg]);
  const real = realBytes(value);
  const v = { ...plain, [arg]: value };
  const r = attempt(() =>
    signing
      ? p.alg.sign(v.msg, v.secretKey, { context: v.context, extraEntropy: false })
      : p.alg.verify(v.signature, v.msg, v.publicKey, { context: v.context }),
  );
  const what = `${signing ? 'sign' : 'verify'} with ${arg} = ${shape.name}`;
  const names = { signature: /\bsig(nature)?\b/i, msg: /\bmsg\b|message/i, publicKey: /public ?key/i, secretKey: /secret ?key/i, context: /\bcontext\b/i }[arg];
  const same = real !== null && equalBytes(real, plain[arg]);
  if (!r.ok) {
    const e = r.error;
    if (isTrap(e)) return `${what}: wasm trap ${describeError(e)}`;
    if (shape.kind === 'typeError')
      return e instanceof TypeError && names.test(e.message) ? null : `${what}: expected a TypeError naming ${arg}, got ${describeError(e)}`;
    if (shape.kind === 'works' && same) return `${what}: must work like plain bytes, threw ${describeError(e)}`;
    if (!(e instanceof TypeError || e instanceof RangeError) || !names.test(e.message))
      return `${what}: threw ${describeError(e)} (not a TypeError/RangeError naming ${arg})`;
    return null;
  }
  if (shape.kind === 'typeError') return `${what}: returned ${String(r.value).slice(0, 20)} for a non-Uint8Array`;
  if (!signing) {
    // Different real bytes of sig/msg/pk/context make the pool's signature invalid (a wrong-length pk or context must throw instead).
    const want = same;
    if (!same && (arg === 'publicKey' || (arg === 'context' && real.length > 255)))
      return `${what}: returned ${r.value} for real bytes of the wrong length (expected a RangeError)`;
    return r.value === want ? null : `${what}: returned ${r.value}, the real bytes give ${want}`;
  }
  if (same) return equalBytes(r.value, sig) ? null : `${what}: signature differs from noble's on the real bytes`;
  if (arg === 'secretKey') return `${what}: signed with a secret key of ${real.length} real bytes (expected a RangeError)`;
  // Another real message: the signature must be the one for those bytes.
  const ok = p.alg.verify(r.value, real, key.publicKey, { context }) && !p.alg.verify(r.value, msg, key.publicKey, { context });
  return ok ? null : `${what}: the signature is not one over the real bytes`;
}

const fmtMiB = (b) => (b / 2 ** 20).toFixed(2);
const turn = () => new Promise((resolve) => setImmediate(resolve));

test(`soak: ${OPS} mixed operations in one instance; every answer right; wasm memory and RSS flat`, {
  skip,
  timeout: Math.max(10 * 60_000, OPS * 20),
}, async (t) => {
  const t0 = performance.now();
  const pools = SETS.map(makePool);
  const poolMs = performance.now() - t0;
  const shapes = staticShapes().filter((s) => !/64 KiB more/.test(s.name));
  const ops = operations(shapes);
  const totalWeight = ops.reduce((s, o) => s + o[1], 0);
  const ctl = {
    hedged: 0,
    signers: new Map(pools.map((p) => [p.P.name, p.keys.map((k) => p.alg.signer(k.secretKey))])),
    verifiers: new Map(pools.map((p) => [p.P.name, p.keys.map((k) => p.alg.verifier(k.publicKey))])),
  };
  const counts = Object.fromEntries(ops.map((o) => [o[0], 0]));
  counts['dropped prepared key'] = 0;
  const problems = [];
  let wrong = 0;
  const every = Math.ceil(OPS / SAMPLES);
  const samples = [];
  // Weak references to the keys dropped since the last sample. A live prepared
  // signer holds 112 bytes of wasm heap beside its slot (K ‖ tr), so memory in
  // use is read only once every dropped key is collected and its finalizer ran.
  let dropped = [];
  const sample = async (done) => {
    for (let round = 0; round < 10; round++) {
      // A new task first: deref() keeps its target alive to the end of the task it ran in.
      await turn();
      gc();
      for (let k = 0; k < 3; k++) await turn(); // FinalizationRegistry callbacks run in later tasks
      if (!dropped.some((w) => w.deref() !== undefined)) break;
    }
    const alive = dropped.filter((w) => w.deref() !== undefined).length;
    dropped = [];
    // The WeakRefs clear in gc(); the finalizers run in a later task: read until two reads agree.
    let inUse = lib.wasmMemoryInUse();
    for (let k = 0; k < 10; k++) {
      await turn();
      const again = lib.wasmMemoryInUse();
      if (again === inUse) break;
      inUse = again;
    }
    const now = performance.now();
    samples.push({
      done,
      seconds: (now - tStart) / 1000,
      wasm: lib.wasmMemoryBytes(),
      inUse,
      alive,
      rss: process.memoryUsage().rss,
      heap: process.memoryUsage().heapUsed,
    });
  };
  const peak = attempt(() => highWater(pools, ctl, Math.ceil(every / DROP_EVERY)));
  assert.ok(peak.ok && peak.value === null, peak.ok ? peak.value : `high water: threw ${describeError(peak.error)}`);
  const tStart = performance.now();
  await sample(0);
  for (let i = 0; i < OPS; i++) {
    const p = pools[i % pools.length];
    let name;
    let r;
    if (i % DROP_EVERY === DROP_EVERY - 1) {
      // A prepared key used once and dropped without free().
      name = 'dropped prepared key';
      const k = i % 3;
      const sig = p.sigs.get(`${k}/1/0`); // noble's, on msgs[1] without context
      const signer = Math.floor(i / DROP_EVERY) % 2 === 0;
      r = attempt(() => {
        const key = signer ? p.alg.signer(p.keys[k].secretKey) : p.alg.verifier(p.keys[k].publicKey);
        dropped.push(new WeakRef(key));
        if (signer) return equalBytes(key.sign(p.msgs[1], { extraEntropy: false }), sig) ? null : "dropped signer: signature differs from noble's";
        return key.verify(sig, p.msgs[1]) === true ? null : 'dropped verifier: valid signature rejected';
      });
    } else {
      let x = rng.int(totalWeight);
      const op = ops.find((o) => (x -= o[1]) < 0);
      name = op[0];
      r = attempt(() => op[2](p, ctl));
    }
    counts[name]++;
    const problem = r.ok ? r.value : `threw ${describeError(r.error)}`;
    if (problem) {
      wrong++;
      if (problems.length < 25) problems.push(`op #${i} ${p.P.name} ${name}: ${problem}`);
      if (!r.ok && isTrap(r.error)) break; // the instance may be unusable now
    }
    if ((i + 1) % every === 0 || i + 1 === OPS) await sample(i + 1);
    else if ((i + 1) % YIELD_EVERY === 0) await turn();
  }
  const seconds = (performance.now() - tStart) / 1000;
  for (const list of [...ctl.signers.values(), ...ctl.verifiers.values()])
    for (const k of list) {
      const r = attempt(() => k.free());
      if (!r.ok) {
        wrong++;
        if (problems.length < 25) problems.push(`free() of a long-lived prepared key threw ${describeError(r.error)}`);
      }
    }

  const rows = samples.map(
    (s) =>
      `  ${String(s.done).padStart(9)} ${s.seconds.toFixed(1).padStart(8)} ${String(s.wasm).padStart(11)} ${String(s.inUse).padStart(11)} ${fmtMiB(s.rss).padStart(9)} ${fmtMiB(s.heap).padStart(9)}`,
  );
  const report = [
    `soak: ${OPS} ops in ${seconds.toFixed(1)} s (${Math.round(OPS / seconds)} ops/s; noble pool ${(poolMs / 1000).toFixed(1)} s); ${wrong} wrong; hostile calls ${HOSTILE ? 'on' : 'off'}; MLDSA_TEST_SEED=${rng.seedHex}`,
    `soak: ops by kind ${JSON.stringify(counts)}`,
    '        ops  seconds  wasm bytes      in use   RSS MiB  heap MiB',
    ...rows,
  ];
  for (const line of report) t.diagnostic(line);
  if (process.env.MLDSA_SOAK_PRINT) console.log(report.join('\n'));

  assert.equal(wrong, 0, `${wrong} wrong answers; first ones:\n  ${problems.join('\n  ')}`);
  const warm = samples.find((s) => s.done >= WARM_UP) || samples[samples.length - 1];
  const last = samples[samples.length - 1];
  const grew = samples.find((s) => s.done > warm.done && s.wasm !== warm.wasm);
  assert.equal(
    last.wasm,
    warm.wasm,
    `wasm memory grew after warm-up (${warm.done} ops): ${warm.wasm} → ${last.wasm} bytes, first seen after ${grew?.done} ops`,
  );
  // Between calls the heap holds the prepared keys' slots, which highWater made
  // all, and K ‖ tr of each live signer: the long-lived ones (the dropped ones are collected).
  const changed = samples.find((s) => s.done > warm.done && s.inUse !== warm.inUse);
  const uncollected = changed && changed.alive ? ` (${changed.alive} dropped keys not yet collected)` : '';
  assert.equal(
    changed,
    undefined,
    `wasm memory in use changed after warm-up (${warm.done} ops): ${warm.inUse} → ${changed?.inUse} bytes after ${changed?.done} ops${uncollected}`,
  );
  const rssPeak = Math.max(...samples.filter((s) => s.done >= warm.done).map((s) => s.rss));
  assert.ok(rssPeak - warm.rss < RSS_LIMIT, `RSS grew by ${fmtMiB(rssPeak - warm.rss)} MiB after warm-up (limit ${fmtMiB(RSS_LIMIT)} MiB)`);
  t.diagnostic(
    `soak: after warm-up (${warm.done} ops) wasm memory ${warm.wasm} → ${last.wasm} bytes (${warm.inUse} in use at every sample), RSS ${fmtMiB(warm.rss)} → peak ${fmtMiB(rssPeak)} MiB`,
  );

  // The same instance, afterwards.
  const acvp = runSigVer(lib);
  assert.deepEqual(acvp.failures.slice(0, 25), [], `after the soak: ${acvp.failures.length} sigVer vectors wrong`);
  assert.equal(acvp.passed, SIGVER_TOTAL);
  t.diagnostic(`soak: afterwards ${acvp.passed}/${acvp.total} sigVer vectors right`);
});
