// The benchmark itself, shared by Node (bench-js/bench.mjs) and the browser
// page (www/bench.html): peers' adapters, the interleaved timing loop, the
// cross-check of outputs, and the plan for each operation. Nothing here
// imports a Node or browser API beyond performance.now() and setTimeout; the
// callers load the peers and the messages and present the results.
//
// A peer's `impl(set)` returns ops working on raw FIPS 204 encodings (or null
// when it lacks the set):
//   keygen(seed)                 -> anything (a key pair in any form)
//   publicKeyOf(seed)            -> raw public key bytes (for the cross-check)
//   signer(rawSecretKey, seed)   -> (msg) => raw signature (empty context;
//                                   deterministic unless the peer says `hedged`)
//   verifier(rawPublicKey)       -> (sig, msg) => boolean
// so that peers with other key formats (node:crypto KeyObjects, liboqs-js)
// import the raw bytes once, outside the timed loop. A peer marked `async`
// (WebCrypto) returns promises from all of these, and its calls are awaited
// one after another: its times include the promise's round trip.

export const now = () => performance.now();
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const SET_NAME = (s) => `ML-DSA-${s}`;

/**
 * Time budgets: a full run (~1.5 min in Node with four peers) and a smoke run
 * (seconds). A signing round is a whole pass over the message set by every peer,
 * which takes noble alone ~2 s, hence the larger budget and the minimum of 5
 * rounds (samples) for sign.
 */
export const BUDGETS = {
  full: { warmMs: 400, batchMs: 20, keygen: 2500, verify: 2500, sign: 10000, minRounds: 3, signMinRounds: 5, maxRounds: 400, signMessages: Infinity },
  quick: { warmMs: 60, batchMs: 10, keygen: 250, verify: 250, sign: 400, minRounds: 2, signMinRounds: 2, maxRounds: 50, signMessages: 16 },
};

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/** Seed of the i-th keygen call: distinct per call, the same in every run. */
export function seedFor(i) {
  const seed = new Uint8Array(32);
  seed[0] = 0xa5;
  new DataView(seed.buffer).setUint32(28, i >>> 0);
  return seed;
}

/** Fallback messages where the CCTV set cannot be read (not a representative mix of rejection-loop iterations). */
export function generatedMessages(count = 64) {
  const te = new TextEncoder();
  return Array.from({ length: count }, (_, i) => te.encode(`mldsa-simd benchmark message ${i}`));
}

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

// ------------------------------------------------------------------ adapters

/** Any module with the API of @noble/post-quantum/ml-dsa.js (ours and noble). */
export function nobleShaped(mod) {
  return (set) => {
    const impl = mod[`ml_dsa${set}`];
    if (!impl) return null;
    return {
      keygen: (seed) => impl.keygen(seed),
      publicKeyOf: (seed) => impl.keygen(seed).publicKey,
      signer: (secretKey) => (msg) => impl.sign(msg, secretKey, { extraEntropy: false }),
      verifier: (publicKey) => (sig, msg) => impl.verify(sig, msg, publicKey),
    };
  };
}

/**
 * @oqs/liboqs-js (liboqs compiled with Emscripten). It takes raw FIPS 204 keys
 * and signatures, but draws ξ (keygen) and rnd (sign) from its own random
 * source and has no seed or deterministic-signing entry points. Its runtime
 * reads that source through the platform's API at every call
 * (`require('node:crypto').randomFillSync` in Node, `crypto.getRandomValues`
 * in a browser), so `fixRandom(fill)` installs `fill(bytes)` as that source and
 * returns a function that puts the original back. Each timed call is wrapped:
 * keygen(seed) gets ξ = seed, sign gets rnd = 32 zero bytes (FIPS 204
 * deterministic signing), and the cross-check confirms byte equality with ours.
 * (liboqs's OQS_SIG_sign is ML-DSA.Sign with an empty context.)
 *
 * instances: { 44: MLDSA44, 65: ..., 87: ... } from create<Set>() (async, done by the caller).
 */
export function liboqsShaped(instances, fixRandom) {
  const withBytes = (bytes, f) => {
    let off = 0;
    const restore = fixRandom((out) => {
      for (let i = 0; i < out.length; i++) out[i] = off < bytes.length ? bytes[off++] : 0;
      return out;
    });
    try {
      return f();
    } finally {
      restore();
    }
  };
  const none = new Uint8Array(0);
  return (set) => {
    const sig = instances[set];
    if (!sig) return null;
    const keygen = (seed) => withBytes(seed, () => sig.generateKeyPair());
    return {
      keygen,
      publicKeyOf: (seed) => keygen(seed).publicKey,
      signer: (secretKey) => (msg) => withBytes(none, () => sig.sign(msg, secretKey)),
      verifier: (publicKey) => (signature, msg) => sig.verify(msg, signature, publicKey),
    };
  };
}

// ------------------------------------------------------------------ timing

/**
 * runners: [{ id, run(n), async?, reset?() }] where run(n) performs n
 * operations (and returns a promise when `async`).
 * plan: { warmMs, batch: number | null (null = calibrate to batchMs), batchMs,
 *         slice: number | null, budgetMs, minRounds, maxRounds, beforeRound? }
 * onTick(fraction): called now and then (0..1 of this measurement), after
 * yielding to the event loop so that a page can repaint.
 */
export async function measure(runners, plan, onTick = () => {}) {
  // Warm-up, interleaved and with pauses so that V8's background tier-up lands.
  for (let rep = 0; rep < 3; rep++) {
    for (const r of runners) {
      const end = now() + plan.warmMs / 3;
      do
        if (r.async) await r.run(1);
        else r.run(1);
      while (now() < end);
    }
    await sleep(15);
  }
  for (const r of runners) {
    if (plan.batch) {
      r.batch = plan.batch;
      continue;
    }
    let n = 1;
    for (;;) {
      const t0 = now();
      if (r.async) await r.run(n);
      else r.run(n);
      const dt = now() - t0;
      if (dt >= plan.batchMs / 4 || n >= 1 << 20) {
        r.batch = Math.max(1, Math.round((n * plan.batchMs) / Math.max(dt, 1e-3)));
        break;
      }
      n *= 2;
    }
  }
  // A round runs every peer's batch; with plan.slice, the batches are cut
  // into slices of that many operations and the peers alternate slice by
  // slice, so that load from other processes hits all peers alike.
  const samples = new Map(runners.map((r) => [r.id, []]));
  const start = now();
  let lastYield = start;
  for (let round = 0; round < plan.maxRounds; round++) {
    const spent = now() - start;
    if (round >= plan.minRounds && spent >= plan.budgetMs) break;
    if (now() - lastYield > 200) {
      onTick(Math.min(1, Math.max(spent / plan.budgetMs, round / plan.minRounds)));
      await sleep(0);
      lastYield = now();
    }
    const order = round % 2 ? [...runners].reverse() : runners;
    const elapsed = new Map(runners.map((r) => [r.id, 0]));
    for (const r of order) plan.beforeRound?.(r);
    const slices = plan.slice ? Math.ceil(plan.batch / plan.slice) : 1;
    for (let k = 0; k < slices; k++) {
      for (const r of k % 2 ? [...order].reverse() : order) {
        const n = plan.slice ? Math.min(plan.slice, r.batch - k * plan.slice) : r.batch;
        const t0 = now();
        if (r.async) await r.run(n);
        else r.run(n);
        elapsed.set(r.id, elapsed.get(r.id) + (now() - t0));
      }
    }
    for (const r of runners) samples.get(r.id).push((elapsed.get(r.id) * 1000) / r.batch);
  }
  const out = {};
  for (const r of runners) {
    const xs = samples.get(r.id);
    const med = median(xs);
    out[r.id] = {
      us: med,
      rounds: xs.length,
      opsPerRound: r.batch,
      spread: xs.length > 1 ? (quantile(xs, 0.75) - quantile(xs, 0.25)) / med : 0,
    };
  }
  return out;
}

// ------------------------------------------------------------------ the run

/**
 * Cross-checks and times every op × set for the loaded peers.
 *
 * peers: [{ id, impl(set) -> ops | null, hedged?: boolean, async?: boolean }], peers[0] is ours.
 * messagesFor(set) -> { source, messages: Uint8Array[] } (may be async).
 * onRow(entry): after each op × set; onProgress({ done, total, label }): now and then.
 * Returns { results, problems }: results as in bench-js/results.json.
 */
export async function runBench({ peers, sets, ops, budgets, messagesFor, onRow = () => {}, onProgress = () => {} }) {
  const [oursPeer, ...others] = peers;
  const results = [];
  const problems = [];
  const total = sets.length * ops.length;
  let done = 0;
  for (const set of sets) {
    const { source, messages: allMessages } = await messagesFor(set);
    const messages = allMessages.slice(0, Math.min(allMessages.length, budgets.signMessages));
    const zeroSeed = new Uint8Array(32);
    const ours = oursPeer.impl(set);
    const { publicKey, secretKey } = ours.keygen(zeroSeed);
    const impls = new Map(peers.map((p) => [p.id, p.impl(set)]));

    // Cross-check outputs before timing.
    onProgress({ done, total, label: `${SET_NAME(set)}: cross-check` });
    const oursSign = ours.signer(secretKey, zeroSeed);
    const oursVerify = ours.verifier(publicKey);
    const sigs = messages.map((m) => oursSign(m));
    const checkCount = Math.min(3, messages.length);
    for (const p of peers) {
      const o = impls.get(p.id);
      if (!o) continue;
      try {
        if (hex(await o.publicKeyOf(zeroSeed)) !== hex(publicKey)) problems.push(`${SET_NAME(set)}: ${p.id} keygen(0) public key differs from ours`);
        const s = await o.signer(secretKey, zeroSeed);
        for (let i = 0; i < checkCount; i++) {
          const sig = await s(messages[i]);
          if (p.hedged) {
            if (oursVerify(sig, messages[i]) !== true) problems.push(`${SET_NAME(set)}: ours does not verify ${p.id}'s signature ${i}`);
          } else if (hex(sig) !== hex(sigs[i])) problems.push(`${SET_NAME(set)}: ${p.id} deterministic signature ${i} differs from ours`);
        }
        const v = await o.verifier(publicKey);
        for (let i = 0; i < checkCount; i++)
          if ((await v(sigs[i], messages[i])) !== true) problems.push(`${SET_NAME(set)}: ${p.id} does not verify our signature ${i}`);
        const bad = sigs[0].slice();
        bad[5] ^= 1;
        if ((await v(bad, messages[0])) !== false) problems.push(`${SET_NAME(set)}: ${p.id} accepts a modified signature`);
      } catch (e) {
        problems.push(`${SET_NAME(set)}: ${p.id} threw during the cross-check: ${e && e.message}`);
      }
    }

    for (const op of ops) {
      const label = `${op} ${SET_NAME(set)}`;
      onProgress({ done, total, label });
      const runners = [];
      for (const p of peers) {
        const o = impls.get(p.id);
        if (!o) continue;
        let i = 0;
        let run;
        let reset;
        if (op === 'keygen') {
          run = p.async
            ? async (n) => {
                for (let k = 0; k < n; k++) await o.keygen(seedFor(i++));
              }
            : (n) => {
                for (let k = 0; k < n; k++) o.keygen(seedFor(i++));
              };
        } else if (op === 'sign') {
          const sign = await o.signer(secretKey, zeroSeed);
          run = p.async
            ? async (n) => {
                for (let k = 0; k < n; k++) await sign(messages[i++ % messages.length]);
              }
            : (n) => {
                for (let k = 0; k < n; k++) sign(messages[i++ % messages.length]);
              };
          reset = () => {
            i = 0;
          };
        } else {
          const verify = await o.verifier(publicKey);
          const failed = () => new Error(`${p.id}: verification failed`);
          run = p.async
            ? async (n) => {
                for (let k = 0; k < n; k++) {
                  const j = i++ % messages.length;
                  if (!(await verify(sigs[j], messages[j]))) throw failed();
                }
              }
            : (n) => {
                for (let k = 0; k < n; k++) {
                  const j = i++ % messages.length;
                  if (!verify(sigs[j], messages[j])) throw failed();
                }
              };
        }
        runners.push({ id: p.id, run, reset, async: !!p.async });
      }
      const plan = {
        warmMs: budgets.warmMs,
        batchMs: budgets.batchMs,
        batch: op === 'sign' ? messages.length : null,
        slice: op === 'sign' ? 4 : null,
        budgetMs: budgets[op],
        minRounds: op === 'sign' ? budgets.signMinRounds : budgets.minRounds,
        maxRounds: budgets.maxRounds,
        beforeRound: op === 'sign' ? (r) => r.reset() : undefined,
      };
      const m = await measure(runners, plan, (f) => onProgress({ done: done + f, total, label }));
      const entry = { op, set: SET_NAME(set), peers: m, ratio: {} };
      for (const p of others) if (m[p.id]) entry.ratio[p.id] = m[p.id].us / m[oursPeer.id].us;
      if (op === 'sign') entry.messages = { source, count: messages.length, of: allMessages.length };
      results.push(entry);
      done++;
      onRow(entry);
    }
  }
  onProgress({ done, total, label: 'done' });
  return { results, problems };
}

/** µs with a precision that suits its size. */
export function fmtUs(us) {
  return us >= 1000 ? us.toFixed(0) : us >= 100 ? us.toFixed(1) : us.toFixed(2);
}

export const METHOD =
  'interleaved rounds after warm-up; median µs/op; sign = empty context, key from KeyGen(0), one round = one pass over the message set, peers alternating every 4 messages; deterministic except peers marked hedged';
export const RATIO = 'peer µs / ours µs (how many times faster ours is)';
