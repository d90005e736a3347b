// Streaming (createSign/createVerify, signStream/verifyStream), all three sets,
// pure ML-DSA and HashML-DSA (mldsa-simd/prehash's functions, and a noble-hashes
// function, through their create()): a streamed deterministic signature equals the one-shot one byte
// for byte, and streamed verification agrees with one-shot verification, for
// messages around the 64 KiB piece the package hashes at once and around the
// SHAKE256 rate, cut into chunks of many sizes; several streams at once; every
// kind of source; errors; use after finish; hedged signing.
// The memory of long streams: stream-memory.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { lib, SETS, IMPL, prehash as PH } from './lib/load.mjs';
import { Rng, toHex, equalBytes } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'noble has no streaming API' : false;
const rng = new Rng('streaming');
test('random seed', (t) => t.diagnostic(`streaming: MLDSA_TEST_SEED=${rng.seedHex} (impl: ${IMPL})`));

const CHUNK = 65536; // the package's piece (js/boundary.js)
const RATE = 136; // SHAKE256
const SIZES = [0, 1, RATE - 1, RATE, RATE + 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1];
const DET = { extraEntropy: false };

/** `msg` cut into chunks of `size` bytes, or of random sizes (0 to 3·CHUNK bytes, empty chunks included). */
function cut(msg, size) {
  const out = [];
  if (size !== 'random') {
    for (let i = 0; i < msg.length; i += size) out.push(msg.subarray(i, i + size));
    return out;
  }
  let i = 0;
  do {
    const n = rng.pick([0, 1, 2, rng.int(300), rng.int(3 * CHUNK)]);
    out.push(msg.subarray(i, i + n));
    i += n;
  } while (i < msg.length);
  return out;
}
// Chunk sizes for a message: 1-byte chunks only up to a little over one piece (they cost a call each).
const splits = (len) => [...(len <= CHUNK + 1 ? [1] : []), 7, RATE, CHUNK, 'random'];

// The modes: pure, and HashML-DSA by mldsa-simd/prehash's functions and by a noble-hashes function.
const modes = (alg) => [
  { name: 'pure', api: alg },
  { name: 'prehash(sha512)', api: alg.prehash(PH.sha512) },
  { name: 'prehash(shake256)', api: alg.prehash(PH.shake256) },
  { name: 'prehash(sha3_256 of @noble/hashes)', api: alg.prehash(sha3_256) },
];

const signIn = (api, sk, chunks, ctx, opts = DET) => {
  const s = api.createSign(sk, ctx && { context: ctx });
  for (const c of chunks) assert.equal(s.update(c), s, 'update() returns the object');
  return s.sign(opts);
};
const verifyIn = (api, pk, chunks, sig, ctx) => {
  const v = api.createVerify(pk, ctx && { context: ctx });
  for (const c of chunks) v.update(c);
  return v.verify(sig);
};

for (const P of SETS) {
  const alg = lib[P.key];
  test(`${P.name}: streamed signatures equal one-shot ones, streamed verify agrees (sizes ${SIZES.join(', ')})`, { skip, timeout: 10 * 60_000 }, (t) => {
    const seed = rng.bytes(32);
    const { publicKey, secretKey } = alg.keygen(seed);
    let count = 0;
    for (const { name, api } of modes(alg)) {
      for (const len of SIZES) {
        const msg = rng.bytes(len);
        const ctx = len % 2 ? rng.bytes(1 + (len % 255)) : undefined;
        const want = api.sign(msg, secretKey, { context: ctx, ...DET });
        const what = `${name}, ${len} bytes`;
        for (const size of splits(len)) {
          const chunks = cut(msg, size);
          assert.equal(toHex(signIn(api, secretKey, chunks, ctx)), toHex(want), `${what} in chunks of ${size}: signature differs from one-shot sign`);
          assert.equal(verifyIn(api, publicKey, chunks, want, ctx), true, `${what} in chunks of ${size}: streamed verify rejected`);
          count++;
        }
        // From the seed ξ: the same key.
        assert.equal(toHex(signIn(api, seed, cut(msg, RATE), ctx)), toHex(want), `${what}: signature from the seed differs`);
        // Tampering: a flipped bit of the signature or of the message, another context.
        const flipped = want.slice();
        flipped[rng.int(flipped.length)] ^= 1 << rng.int(8);
        const chunks = cut(msg, 'random');
        assert.equal(verifyIn(api, publicKey, chunks, flipped, ctx), false, `${what}: a flipped signature bit verifies`);
        assert.equal(api.verify(flipped, msg, publicKey, { context: ctx }), false);
        // Another context: ctx with its first bit flipped, or [9] for none (a fixed [9] equalled a random 1-byte ctx once in 256 runs).
        const otherCtx = ctx ? ctx.map((b, i) => (i === 0 ? b ^ 1 : b)) : Uint8Array.of(9);
        assert.equal(verifyIn(api, publicKey, chunks, want, otherCtx), false, `${what}: verifies under another context`);
        if (len > 0) {
          const other = msg.slice();
          other[rng.int(len)] ^= 0x80;
          assert.equal(verifyIn(api, publicKey, cut(other, 7), want, ctx), false, `${what}: verifies for another message`);
        }
      }
    }
    // One-shot sign is checked against noble elsewhere; here once more, for the streamed bytes themselves.
    const msg = rng.bytes(2 * CHUNK + 1);
    const sig = signIn(alg, secretKey, cut(msg, 'random'), undefined);
    assert.equal(toHex(sig), toHex(noble[P.key].sign(msg, secretKey, DET)), 'streamed signature differs from noble');
    t.diagnostic(`${P.name}: ${count} streamed signatures equal to one-shot, each verified streamed`);
  });
}

test('signStream/verifyStream equal createSign/createVerify and one-shot sign, on prehash objects too', { skip }, async () => {
  for (const P of SETS) {
    const alg = lib[P.key];
    const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
    for (const { name, api } of modes(alg)) {
      const msg = rng.bytes(CHUNK + RATE + 1);
      const context = rng.bytes(5);
      const want = api.sign(msg, secretKey, { context, ...DET });
      assert.equal(toHex(await api.signStream(cut(msg, 'random'), secretKey, { context, ...DET })), toHex(want), `${P.name} ${name}`);
      assert.equal(await api.verifyStream(want, cut(msg, 1000), publicKey, { context }), true, `${P.name} ${name}`);
      assert.equal(await api.verifyStream(want, cut(msg, 1000), publicKey), false, `${P.name} ${name}: no context`);
      assert.equal(await api.verifyStream(want.subarray(1), [msg], publicKey, { context }), false, `${P.name} ${name}: short signature`);
    }
  }
});

test('several incremental objects at once, interleaved chunk by chunk and across awaits', { skip }, async () => {
  const jobs = [];
  for (const P of SETS) {
    const alg = lib[P.key];
    const kp = alg.keygen(rng.bytes(32));
    for (const { name, api } of modes(alg)) {
      for (const ctx of [undefined, rng.bytes(3)]) {
        const msg = rng.bytes(rng.int(3 * CHUNK));
        jobs.push({ what: `${P.name} ${name}`, api, kp, ctx, msg, want: api.sign(msg, kp.secretKey, { context: ctx, ...DET }) });
      }
    }
  }
  // Every object open at once, fed round-robin, one chunk each per round; one-shot calls in between.
  const open = jobs.map((j) => ({
    j,
    s: j.api.createSign(j.kp.secretKey, j.ctx && { context: j.ctx }),
    v: j.api.createVerify(j.kp.publicKey, j.ctx && { context: j.ctx }),
    chunks: cut(j.msg, 'random'),
  }));
  for (let round = 0; open.some((o) => o.chunks.length > 0); round++) {
    for (const o of open) {
      const c = o.chunks.shift();
      if (c === undefined) continue;
      o.s.update(c);
      o.v.update(c);
      if (round % 5 === 0) o.j.api.verify(o.j.want, o.j.msg, o.j.kp.publicKey, { context: o.j.ctx }); // one-shot, long messages streamed
    }
  }
  for (const { j, s, v } of open) {
    const sig = s.sign(DET);
    assert.equal(toHex(sig), toHex(j.want), `${j.what}: interleaved signature differs`);
    assert.equal(v.verify(sig), true, `${j.what}: interleaved verify rejected`);
  }
  // The same as concurrent signStream/verifyStream calls whose sources wait between chunks.
  async function* slow(chunks) {
    for (const c of chunks) {
      await new Promise((r) => setTimeout(r, rng.int(3)));
      yield c;
    }
  }
  const results = await Promise.all(
    jobs.flatMap((j) => [
      j.api.signStream(slow(cut(j.msg, 'random')), j.kp.secretKey, { context: j.ctx, ...DET }),
      j.api.verifyStream(j.want, slow(cut(j.msg, 'random')), j.kp.publicKey, { context: j.ctx }),
    ]),
  );
  jobs.forEach((j, i) => {
    assert.equal(toHex(results[2 * i]), toHex(j.want), `${j.what}: concurrent signStream differs`);
    assert.equal(results[2 * i + 1], true, `${j.what}: concurrent verifyStream rejected`);
  });
});

test('every kind of source: ReadableStream, async generator, Node Readable and file stream, array, Set, Blob, File', { skip }, async () => {
  const alg = lib.ml_dsa65;
  const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
  const msg = rng.bytes(3 * CHUNK + 17);
  const want = alg.sign(msg, secretKey, DET);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-stream-'));
  const file = path.join(dir, 'msg.bin');
  fs.writeFileSync(file, msg);
  const chunks = () => cut(msg, 'random');
  const sources = {
    ReadableStream: () => ReadableStream.from(chunks()),
    'ReadableStream (pull)': () => {
      const cs = chunks();
      return new ReadableStream({ pull: (c) => (cs.length ? c.enqueue(cs.shift()) : c.close()) });
    },
    'byte ReadableStream': () => {
      const cs = chunks()
        .filter((c) => c.length > 0)
        .map((c) => c.slice()); // a byte stream refuses empty chunks
      return new ReadableStream({ type: 'bytes', pull: (c) => (cs.length ? c.enqueue(cs.shift()) : c.close()) });
    },
    'async generator': () =>
      (async function* () {
        yield* chunks();
      })(),
    'sync generator': () =>
      (function* () {
        yield* chunks();
      })(),
    'Node Readable': () => Readable.from(chunks(), { objectMode: true }),
    'fs.createReadStream': () => fs.createReadStream(file, { highWaterMark: 10_000 }),
    array: () => chunks(),
    'array of Buffers': () => chunks().map((c) => Buffer.from(c)),
    Set: () => new Set(chunks()),
    Blob: () => new Blob(chunks()),
    File: () => new File(chunks(), 'msg.bin'),
    'Blob.stream()': () => new Blob([msg]).stream(),
  };
  try {
    for (const [name, make] of Object.entries(sources)) {
      assert.equal(toHex(await alg.signStream(make(), secretKey, DET)), toHex(want), `${name}: signature differs`);
      assert.equal(await alg.verifyStream(want, make(), publicKey), true, `${name}: verifyStream rejected`);
      assert.equal(
        toHex(await alg.prehash(PH.sha256).signStream(make(), secretKey, DET)),
        toHex(alg.prehash(PH.sha256).sign(msg, secretKey, DET)),
        `${name}: prehash signature differs`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('wrong sources and chunks: TypeError naming source; the source is cancelled or closed', { skip }, async () => {
  const alg = lib.ml_dsa44;
  const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
  const sig = alg.sign(Uint8Array.of(1), secretKey);
  const badChunks = ['abc', 42, null, undefined, [1, 2], new Uint16Array(4), new Int8Array(4), new ArrayBuffer(4), new DataView(new ArrayBuffer(4)), {}];
  for (const bad of badChunks) {
    const what = `chunk ${Object.prototype.toString.call(bad)}`;
    await assert.rejects(
      alg.signStream([Uint8Array.of(1), bad], secretKey),
      (e) => e instanceof TypeError && /^source: expected chunks of Uint8Array/.test(e.message),
      what,
    );
    await assert.rejects(alg.verifyStream(sig, [bad], publicKey), (e) => e instanceof TypeError && /^source:/.test(e.message), what);
    await assert.rejects(
      alg.prehash(PH.sha512).signStream(
        (async function* () {
          yield bad;
        })(),
        secretKey,
      ),
      TypeError,
      what,
    );
  }
  for (const bad of [new Uint8Array(5), 'text', 42, null, undefined, {}, Promise.resolve([]), new Uint32Array(1)]) {
    await assert.rejects(alg.signStream(bad, secretKey), (e) => e instanceof TypeError && /^source: expected a ReadableStream/.test(e.message), String(bad));
    await assert.rejects(alg.verifyStream(sig, bad, publicKey), (e) => e instanceof TypeError && /^source:/.test(e.message), String(bad));
  }
  // A bad chunk cancels a ReadableStream and closes a generator.
  let cancelled;
  const rs = new ReadableStream({
    pull: (c) => c.enqueue('not bytes'),
    cancel: (reason) => {
      cancelled = reason;
    },
  });
  await assert.rejects(alg.signStream(rs, secretKey), TypeError);
  assert.ok(cancelled instanceof TypeError, 'the ReadableStream was not cancelled');
  let closed = false;
  const gen = (async function* () {
    try {
      yield Uint8Array.of(1);
      yield 'x';
      yield Uint8Array.of(2);
    } finally {
      closed = true;
    }
  })();
  await assert.rejects(alg.verifyStream(sig, gen, publicKey), TypeError);
  assert.equal(closed, true, 'the generator was not closed');
  // A source that fails: its error, unchanged.
  const boom = new Error('disk on fire');
  await assert.rejects(alg.signStream(new ReadableStream({ pull: (c) => c.error(boom) }), secretKey), (e) => e === boom);
  await assert.rejects(
    alg.verifyStream(
      sig,
      (async function* () {
        yield Uint8Array.of(1);
        throw boom;
      })(),
      publicKey,
    ),
    (e) => e === boom,
  );
  // Argument errors before any chunk is read.
  let pulled = 0;
  const counting = () =>
    (async function* () {
      pulled++;
      yield Uint8Array.of(1);
    })(); // runs on the first next()
  await assert.rejects(
    alg.signStream(counting(), secretKey.subarray(1)),
    (e) => e instanceof RangeError && /^secretKey: expected 2560 bytes \(or a 32-byte seed\)/.test(e.message),
  );
  await assert.rejects(
    alg.signStream(counting(), secretKey, { extraEntropy: new Uint8Array(31) }),
    (e) => e instanceof RangeError && /^extraEntropy/.test(e.message),
  );
  await assert.rejects(
    alg.signStream(counting(), secretKey, { ctx: Uint8Array.of(1) }),
    (e) => e instanceof TypeError && /unknown option name \(3 characters\)/.test(e.message),
  );
  await assert.rejects(
    alg.verifyStream(sig, counting(), publicKey.subarray(1)),
    (e) => e instanceof RangeError && /^publicKey: expected 1312 bytes/.test(e.message),
  );
  await assert.rejects(alg.verifyStream('sig', counting(), publicKey), (e) => e instanceof TypeError && /^signature: expected Uint8Array/.test(e.message));
  await assert.rejects(
    alg.verifyStream(sig, counting(), publicKey, { context: new Uint8Array(256) }),
    (e) => e instanceof RangeError && /^context/.test(e.message),
  );
  assert.equal(pulled, 0, 'a source was read despite an argument error');
});

test('incremental objects: argument errors, verify false for any wrong length, use after finish', { skip }, () => {
  const alg = lib.ml_dsa87;
  const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
  const msg = rng.bytes(100);
  const _sig = alg.sign(msg, secretKey);
  for (const api of [alg, alg.prehash(PH.sha3_512), alg.prehash(sha3_256)]) {
    assert.throws(
      () => api.createSign(secretKey.subarray(1)),
      (e) => e instanceof RangeError && /^secretKey: expected 4896 bytes \(or a 32-byte seed\), got 4895/.test(e.message),
    );
    assert.throws(
      () => api.createSign([...secretKey]),
      (e) => e instanceof TypeError && /^secretKey: expected Uint8Array, got Array/.test(e.message),
    );
    assert.throws(
      () => api.createVerify(publicKey.subarray(1)),
      (e) => e instanceof RangeError && /^publicKey: expected 2592 bytes/.test(e.message),
    );
    assert.throws(
      () => api.createSign(secretKey, { context: new Uint8Array(256) }),
      (e) => e instanceof RangeError && /^context/.test(e.message),
    );
    assert.throws(
      () => api.createVerify(publicKey, { ctx: new Uint8Array(1) }),
      (e) => e instanceof TypeError && /unknown option name \(3 characters\)/.test(e.message),
    );
    assert.throws(
      () => api.createSign(secretKey, { extraEntropy: false }),
      (e) => e instanceof TypeError && /unknown option name \(12 characters\)/.test(e.message),
    );
    // A wrong chunk throws and leaves the object usable.
    const s = api.createSign(secretKey);
    assert.throws(
      () => s.update('abc'),
      (e) => e instanceof TypeError && /^chunk: expected Uint8Array, got a string of 3 characters$/.test(e.message),
    );
    assert.throws(
      () => s.update(new Uint16Array(2)),
      (e) => e instanceof TypeError && /^chunk: expected Uint8Array, got Uint16Array/.test(e.message),
    );
    assert.throws(
      () => s.sign({ context: msg }),
      (e) => e instanceof TypeError && /unknown option name \(7 characters\)/.test(e.message),
    );
    assert.throws(
      () => s.sign({ extraEntropy: new Uint8Array(33) }),
      (e) => e instanceof RangeError && /^extraEntropy: expected 32 bytes/.test(e.message),
    );
    const one = s.update(msg).sign();
    assert.equal(api.verify(one, msg, publicKey), true);
    // After sign(): finished.
    assert.throws(
      () => s.update(msg),
      (e) => e.constructor === Error && /update\(\) on a finished object \(sign\(\) was called\)/.test(e.message),
    );
    assert.throws(
      () => s.sign(),
      (e) => e.constructor === Error && /sign\(\) on a finished object/.test(e.message),
    );
    // verify(): false for every wrong length, TypeError for a non-Uint8Array; then finished.
    const ref = api.sign(msg, secretKey);
    for (const bad of [new Uint8Array(0), ref.subarray(1), new Uint8Array(ref.length + 1), new Uint8Array(100_000)]) {
      assert.equal(api.createVerify(publicKey).update(msg).verify(bad), false, `signature of ${bad.length} bytes`);
    }
    const v = api.createVerify(publicKey).update(msg);
    assert.throws(
      () => v.verify([...ref]),
      (e) => e instanceof TypeError && /^signature: expected Uint8Array/.test(e.message),
    );
    assert.equal(v.verify(ref), true);
    assert.throws(
      () => v.update(msg),
      (e) => e.constructor === Error && /finished object \(verify\(\) was called\)/.test(e.message),
    );
    assert.throws(
      () => v.verify(ref),
      (e) => e.constructor === Error && /finished/.test(e.message),
    );
    const w = api.createVerify(publicKey);
    assert.equal(w.verify(new Uint8Array(3)), false);
    assert.throws(() => w.update(msg), /finished/);
  }
  // Arguments are copied when read: changing them afterwards changes nothing.
  const key = secretKey.slice();
  const context = Uint8Array.of(1, 2, 3);
  const s = alg.createSign(key, { context });
  key.fill(0);
  context.fill(0);
  const got = s.update(msg).sign(DET);
  assert.equal(toHex(got), toHex(alg.sign(msg, secretKey, { context: Uint8Array.of(1, 2, 3), ...DET })));
  // The objects are frozen.
  assert.ok(Object.isFrozen(alg.createSign(secretKey)) && Object.isFrozen(alg.createVerify(publicKey)));
});

test('prehash(fn): streams through fn.create(); without it a TypeError; a failing hash ends the object', { skip }, async () => {
  const alg = lib.ml_dsa65;
  const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
  const msg = rng.bytes(5000);
  const want = alg.prehash(PH.sha3_256).sign(msg, secretKey, DET);
  // Only the one-shot function: no create().
  const plain = Object.assign((m) => sha3_256(m), { oid: sha3_256.oid, outputLen: 32 });
  const ph = alg.prehash(plain);
  assert.equal(toHex(ph.sign(msg, secretKey, DET)), toHex(want), 'one-shot sign still works without create()');
  const noCreate = (e) => e instanceof TypeError && /^hash: streaming needs a hash function with create\(\)/.test(e.message);
  assert.throws(() => ph.createSign(secretKey), noCreate);
  assert.throws(() => ph.createVerify(publicKey), noCreate);
  await assert.rejects(ph.signStream([msg], secretKey), noCreate);
  await assert.rejects(ph.verifyStream(want, [msg], publicKey), noCreate);
  // A create() whose hasher counts its calls, and then one whose update throws.
  let updates = 0;
  const counted = Object.assign((m) => sha3_256(m), {
    oid: sha3_256.oid,
    outputLen: 32,
    create: () => {
      const h = sha3_256.create();
      return {
        update: (b) => {
          updates++;
          h.update(b);
          return h;
        },
        digest: () => h.digest(),
      };
    },
  });
  assert.equal(toHex(await alg.prehash(counted).signStream(cut(msg, 1000), secretKey, DET)), toHex(want));
  assert.equal(updates, 5, "each chunk went to the caller's hasher once");
  const failing = Object.assign((m) => sha3_256(m), {
    oid: sha3_256.oid,
    outputLen: 32,
    create: () => ({
      update: () => {
        throw new RangeError('no more');
      },
      digest: () => new Uint8Array(32),
    }),
  });
  const s = alg.prehash(failing).createSign(secretKey);
  assert.throws(
    () => s.update(msg),
    (e) => e instanceof RangeError && /^hash: the pre-hash function threw \(its error is the cause\)$/.test(e.message) && e.cause?.message === 'no more',
  );
  assert.throws(
    () => s.sign(),
    (e) => e.constructor === Error && /finished object \(an update failed\)/.test(e.message),
  );
  // A digest of the wrong length.
  const short = Object.assign((m) => sha3_256(m), { oid: sha3_256.oid, outputLen: 32, create: () => ({ update() {}, digest: () => new Uint8Array(31) }) });
  assert.throws(
    () => alg.prehash(short).createSign(secretKey).sign(),
    (e) => e instanceof TypeError && /^hash: expected the hash function to return 32 bytes, got 31 bytes/.test(e.message),
  );
  // Re-entrancy: the caller's hasher calls back into the object it is hashing for.
  let obj;
  let inner;
  const reentrant = Object.assign((m) => sha3_256(m), {
    oid: sha3_256.oid,
    outputLen: 32,
    create: () => {
      const h = sha3_256.create();
      return {
        update: (b) => {
          try {
            obj.update(b);
          } catch (e) {
            inner = e;
          }
          h.update(b);
        },
        digest: () => {
          try {
            obj.sign();
          } catch (e) {
            inner = e;
          }
          return h.digest();
        },
      };
    },
  });
  obj = alg.prehash(reentrant).createSign(secretKey);
  obj.update(msg);
  assert.ok(inner?.constructor === Error && /update\(\) called during another call on this object/.test(inner.message), String(inner));
  inner = undefined;
  assert.equal(toHex(obj.sign(DET)), toHex(want), 'the re-entrant calls changed the signature');
  assert.ok(inner && /sign\(\) on a finished object/.test(inner.message), String(inner));
});

test('hedged signing: fresh signatures that verify (streamed, one-shot and noble); given extraEntropy is used as is', { skip }, async () => {
  for (const P of SETS) {
    const alg = lib[P.key];
    const { publicKey, secretKey } = alg.keygen(rng.bytes(32));
    const msg = rng.bytes(CHUNK + 5);
    const context = rng.bytes(8);
    for (const { name, api } of modes(alg)) {
      const a = signIn(api, secretKey, cut(msg, 'random'), context, {});
      const b = await api.signStream([msg], secretKey, { context });
      assert.ok(!equalBytes(a, b), `${P.name} ${name}: two hedged signatures are equal`);
      assert.ok(!equalBytes(a, api.sign(msg, secretKey, { context, ...DET })), `${P.name} ${name}: hedged equals deterministic`);
      for (const sig of [a, b]) {
        assert.equal(api.verify(sig, msg, publicKey, { context }), true, `${P.name} ${name}: one-shot verify`);
        assert.equal(verifyIn(api, publicKey, cut(msg, 'random'), sig, context), true, `${P.name} ${name}: streamed verify`);
      }
      const rnd = rng.bytes(32);
      const want = api.sign(msg, secretKey, { context, extraEntropy: rnd });
      assert.equal(toHex(signIn(api, secretKey, cut(msg, RATE), context, { extraEntropy: rnd })), toHex(want), `${P.name} ${name}: with extraEntropy`);
      assert.equal(
        toHex(await api.signStream([msg], secretKey, { context, extraEntropy: rnd })),
        toHex(want),
        `${P.name} ${name}: signStream with extraEntropy`,
      );
    }
    const hedged = await alg.signStream([msg], secretKey, { context });
    assert.equal(noble[P.key].verify(hedged, msg, publicKey, { context }), true, `${P.name}: noble rejects a streamed hedged signature`);
  }
});
