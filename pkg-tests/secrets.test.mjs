// No secret stays in wasm memory after a call. A fresh copy of
// the package is imported with its instance visible (lib/instance.mjs); after each
// of keygen, getPublicKey, sign (pure, hedged, streamed), internal.sign (M′ and
// external μ), prehash().sign (a mldsa-simd/prehash and a noble-hashes function), a
// signer's sign and signer.free(), and every private-key export and import of
// the key formats (mldsa-simd/keys: plain JavaScript, which calls keygen and
// getPublicKey) and a signer made from a seed, and calls that fail or are
// interrupted, for all three sets, the whole linear memory
// (stack, data and heap) is searched for every secret the test can compute: ξ,
// ρ′, K, K ‖ tr, ρ″, rnd, and windows of the s1, s2 and t0 encodings. A live
// signer holds K (its expanded key is in the instance): there, K must appear
// exactly once, which is also the check that the search finds what is there.
//
// The stack: before each call the free stack below the zone that the exports
// wipe (src/bindings/wasm/mod.rs, STACK_WIPE = 16 KiB) is painted; a call that went deeper
// would leave the paint damaged, and its secrets below the wiped zone.
import test from 'node:test';
import assert from 'node:assert/strict';
import { shake256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SETS, IMPL, prehash as PH } from './lib/load.mjs';
import { Rng, concat } from './lib/util.mjs';
import { importWatched, occurrences } from './lib/instance.mjs';

const skip = IMPL === 'noble' ? 'looks inside the package instance' : false;
const rng = new Rng('secrets');
const STACK_TOP = 65536; // the stack is the first 64 KiB of memory, growing down
const WIPED = 16 * 1024;
const PAINT_END = STACK_TOP - WIPED - 2048; // leave 2 KiB for the frames of the export and its glue
const PAINT = 0xa5;

const H = (parts, dkLen) => shake256(concat(...parts), { dkLen });

/** 16-byte windows of `bytes`, every `step` bytes, each named. */
function windows(name, bytes, step = 16) {
  const out = [];
  for (let i = 0; i + 16 <= bytes.length; i += step) out.push([`${name}[${i}..${i + 16}]`, bytes.subarray(i, i + 16)]);
  return out;
}

test('no secret is left in wasm memory after any secret-handling call', { skip, timeout: 120_000 }, async (t) => {
  const { lib, keys, memory } = await importWatched('secrets');
  const { exportPublicKey, importSecretKey, exportSecretKey } = keys;
  const bytes = () => new Uint8Array(memory().buffer);

  const paint = () => bytes().fill(PAINT, 0, PAINT_END);
  // Runs `call`, then checks the paint and that the wiped zone was cleared.
  const onCleanStack = (what, call) => {
    paint();
    const result = call();
    const m = bytes();
    const damaged = m.subarray(0, PAINT_END).findIndex((b) => b !== PAINT);
    assert.equal(damaged, -1, `${what}: the stack went deeper than the wiped ${WIPED} bytes (paint changed at ${damaged})`);
    const dirty = m.subarray(PAINT_END + 2048, STACK_TOP - 2048).findIndex((b) => b !== 0);
    assert.equal(dirty, -1, `${what}: the wiped stack zone holds data at ${PAINT_END + 2048 + dirty}`);
    m.fill(0, 0, PAINT_END);
    return result;
  };
  // Fails on any of `secrets` ([name, bytes]) found in memory more than `allowed[name] ?? 0` times.
  const scan = (what, secrets, allowed = {}) => {
    const m = bytes();
    const found = [];
    for (const [name, s] of secrets) {
      const at = occurrences(m, s);
      if (at.length > (allowed[name] ?? 0)) found.push(`${name} ×${at.length} at ${at.slice(0, 4).join(', ')}`);
    }
    assert.deepEqual(found, [], `${what}: secrets left in wasm memory: ${found.join('; ')}`);
  };

  for (const P of SETS) {
    const alg = lib[P.key];
    const xi = rng.bytes(32);
    const seeds = H([xi, Uint8Array.of(P.k, P.l)], 128);
    const rhoPrime = seeds.subarray(32, 96);
    const { publicKey, secretKey } = onCleanStack(`${P.name} keygen(seed)`, () => alg.keygen(xi));
    const K = secretKey.subarray(32, 64);
    const tr = secretKey.subarray(64, 128);
    assert.deepEqual(K, seeds.subarray(96, 128), 'K of the key is H(ξ ‖ k ‖ ℓ)[96..128]');
    // Everything secret about this key, as 16-byte windows (and K, K ‖ tr whole).
    const keySecrets = [
      ['ξ', xi],
      ['ρ′', rhoPrime],
      ['K', K],
      ['K ‖ tr', secretKey.subarray(32, 128)],
      ...windows('ξ', xi),
      ...windows('ρ′', rhoPrime),
      ...windows('K', K),
      ...windows('s1 ‖ s2 ‖ t0', secretKey.subarray(128), 48),
    ];
    scan(`${P.name} keygen(seed)`, keySecrets);

    const random = onCleanStack(`${P.name} keygen()`, () => alg.keygen());
    scan(`${P.name} keygen()`, [
      ['ξ (returned as seed)', random.seed],
      ...windows('ξ', random.seed),
      ['K', random.secretKey.subarray(32, 64)],
      ...windows('s1 ‖ s2 ‖ t0', random.secretKey.subarray(128), 48),
    ]);

    onCleanStack(`${P.name} getPublicKey`, () => alg.getPublicKey(secretKey));
    scan(`${P.name} getPublicKey`, keySecrets);

    // Signing with a known rnd: ρ″ = H(K ‖ rnd ‖ μ, 64), μ = H(tr ‖ M′, 64).
    const msg = rng.bytes(200);
    const context = rng.bytes(7);
    const rnd = rng.bytes(32);
    const mPrime = concat(Uint8Array.of(0, context.length), context, msg);
    const mu = H([tr, mPrime], 64);
    const rhoPP = H([K, rnd, mu], 64);
    const signSecrets = [...keySecrets, ['rnd', rnd], ['ρ″', rhoPP], ...windows('rnd', rnd), ...windows('ρ″', rhoPP)];
    const sig = onCleanStack(`${P.name} sign`, () => alg.sign(msg, secretKey, { context, extraEntropy: rnd }));
    assert.equal(alg.verify(sig, msg, publicKey, { context }), true);
    scan(`${P.name} sign`, signSecrets);

    onCleanStack(`${P.name} sign (hedged)`, () => alg.sign(msg, secretKey));
    scan(`${P.name} sign (hedged)`, keySecrets);
    onCleanStack(`${P.name} sign (deterministic)`, () => alg.sign(msg, secretKey, { extraEntropy: false }));
    scan(`${P.name} sign (deterministic)`, [...keySecrets, ['ρ″ (rnd = 0)', H([K, new Uint8Array(32), mu], 64)]]);

    const large = rng.bytes(70_000); // streamed into μ in 64 KiB pieces
    onCleanStack(`${P.name} sign (streamed)`, () => alg.sign(large, secretKey, { extraEntropy: rnd }));
    const muLarge = H([tr, Uint8Array.of(0, 0), large], 64);
    scan(`${P.name} sign (streamed)`, [...keySecrets, ['rnd', rnd], ['ρ″', H([K, rnd, muLarge], 64)]]);

    onCleanStack(`${P.name} internal.sign`, () => alg.internal.sign(mPrime, secretKey, { extraEntropy: rnd }));
    scan(`${P.name} internal.sign`, signSecrets);
    onCleanStack(`${P.name} internal.sign (μ)`, () => alg.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: rnd }));
    scan(`${P.name} internal.sign (μ)`, signSecrets);

    onCleanStack(`${P.name} prehash(sha512).sign`, () => alg.prehash(PH.sha512).sign(msg, secretKey, { extraEntropy: rnd }));
    scan(`${P.name} prehash(sha512).sign`, [...keySecrets, ['rnd', rnd]]);
    onCleanStack(`${P.name} prehash(noble sha256).sign`, () => alg.prehash(sha256).sign(msg, secretKey, { context, extraEntropy: rnd }));
    scan(`${P.name} prehash(noble sha256).sign`, [...keySecrets, ['rnd', rnd]]);

    // Streaming (createSign from the key and from ξ, in pieces, and signStream)
    // is secret-handling too; an open createSign object holds nothing in wasm.
    const s = onCleanStack(`${P.name} createSign(ξ).update`, () => alg.createSign(xi, { context }).update(msg.subarray(0, 50)));
    scan(`${P.name} createSign(ξ).update`, keySecrets);
    onCleanStack(`${P.name} createSign(ξ).sign`, () => s.update(msg.subarray(50)).sign({ extraEntropy: rnd }));
    scan(`${P.name} createSign(ξ).sign`, signSecrets);
    onCleanStack(`${P.name} createSign (streamed)`, () => alg.createSign(secretKey).update(large).sign({ extraEntropy: rnd }));
    scan(`${P.name} createSign (streamed)`, [...keySecrets, ['rnd', rnd], ['ρ″', H([K, rnd, muLarge], 64)]]);
    onCleanStack(`${P.name} prehash(noble sha256).createSign`, () => alg.prehash(sha256).createSign(secretKey).update(large).sign({ extraEntropy: rnd }));
    scan(`${P.name} prehash(noble sha256).createSign`, [...keySecrets, ['rnd', rnd]]);
    await alg.prehash(PH.sha512).signStream([msg, large], xi, { context, extraEntropy: rnd });
    scan(`${P.name} prehash(sha512).signStream`, [...keySecrets, ['rnd', rnd]]);

    // A prepared signer holds its expanded key, K and tr included, until free().
    const live = { K: 1, 'K ‖ tr': 1, 'K[0..16]': 1, 'K[16..32]': 1 };
    const signer = onCleanStack(`${P.name} signer()`, () => alg.signer(secretKey));
    scan(`${P.name} signer()`, keySecrets, live);
    assert.equal(occurrences(bytes(), K).length, 1, `${P.name}: a live signer's K is found in memory exactly once`);
    onCleanStack(`${P.name} signer.sign`, () => signer.sign(msg, { context, extraEntropy: rnd }));
    scan(`${P.name} signer.sign`, signSecrets, live);
    onCleanStack(`${P.name} signer.sign (streamed)`, () => signer.sign(large, { extraEntropy: rnd }));
    scan(`${P.name} signer.sign (streamed)`, [...keySecrets, ['rnd', rnd]], live);
    onCleanStack(`${P.name} signer.free`, () => signer.free());
    scan(`${P.name} signer.free`, signSecrets);

    // Key formats: every private-key export and import, and a signer from the seed.
    // The texts are secrets too: the base64url of ξ, and the base64 of each PEM.
    const textSecrets = (text) => windows('base64 text', new TextEncoder().encode(text.replace(/-----[^-]+-----|\n/g, '')));
    const formatSecrets = [...keySecrets, ['ξ (base64url)', new TextEncoder().encode(Buffer.from(xi).toString('base64url'))]];
    const exports = [];
    for (const [format, opts] of [
      ['raw-seed'],
      ['raw'],
      ['jwk'],
      ['pkcs8'],
      ['pkcs8', { form: 'expandedKey' }],
      ['pkcs8', { form: 'both' }],
      ['pem'],
      ['pem', { form: 'both' }],
    ]) {
      const what = `${P.name} exportSecretKey ${format} ${opts?.form ?? ''}`;
      const out = onCleanStack(what, () => exportSecretKey(alg, xi, format, opts));
      scan(what, typeof out === 'string' ? [...formatSecrets, ...textSecrets(out)] : formatSecrets);
      exports.push([format, out]);
    }
    const expandedOnly = onCleanStack(`${P.name} exportSecretKey pkcs8 from sk`, () => exportSecretKey(alg, secretKey, 'pkcs8', { form: 'expandedKey' }));
    scan(`${P.name} exportSecretKey pkcs8 from sk`, formatSecrets);
    for (const [format, data] of [...exports, ['pkcs8', expandedOnly]]) {
      const what = `${P.name} importSecretKey ${format}`;
      const key = onCleanStack(what, () => importSecretKey(alg, data, format));
      assert.deepEqual(key.publicKey, publicKey, what);
      scan(what, typeof data === 'string' ? [...formatSecrets, ...textSecrets(data)] : formatSecrets);
    }
    const seeded = onCleanStack(`${P.name} signer(seed)`, () => alg.signer(xi));
    scan(`${P.name} signer(seed)`, formatSecrets, live);
    onCleanStack(`${P.name} signer(seed).free`, () => seeded.free());
    scan(`${P.name} signer(seed).free`, formatSecrets);

    // Calls that fail, and calls that are interrupted, leave nothing either:
    // refused by Rust after it expanded a key (a PKCS#8 whose seed and expanded
    // key do not belong together, an expanded key whose t0 is not its own or whose s1 is out of range, a JWK
    // whose pub is another key's), and stopped half-way by a caller's hash
    // function or stream that throws.
    const failing = (what, call) => {
      onCleanStack(what, () => assert.throws(call, Error, `${what}: did not fail`));
      scan(what, formatSecrets);
    };
    const other = alg.keygen(rng.bytes(32));
    const both = exportSecretKey(alg, xi, 'pkcs8', { form: 'both' });
    const mixed = concat(both.subarray(0, both.length - P.sk), other.secretKey);
    failing(`${P.name} importSecretKey(pkcs8 both, another key's expanded key)`, () => importSecretKey(alg, mixed, 'pkcs8'));
    const badT0 = secretKey.slice();
    badT0[P.sk - 1] ^= 1;
    failing(`${P.name} importSecretKey(raw, t0 changed)`, () => importSecretKey(alg, badT0, 'raw'));
    const badS1 = secretKey.slice();
    badS1[128] = 0xff; // s1's first coefficients out of [−η, η]
    failing(`${P.name} signer(s1 out of range)`, () => alg.signer(badS1));
    const jwk = exportSecretKey(alg, xi, 'jwk');
    failing(`${P.name} importSecretKey(jwk, another pub)`, () =>
      importSecretKey(alg, { ...jwk, pub: exportPublicKey(alg, other.publicKey, 'jwk').pub }, 'jwk'),
    );
    const throwing = Object.assign(
      () => {
        throw new Error('no');
      },
      {
        oid: sha256.oid,
        outputLen: 32,
        create: () => ({
          update() {},
          digest() {
            throw new Error('no');
          },
        }),
      },
    );
    failing(`${P.name} prehash(a throwing hash).sign`, () => alg.prehash(throwing).sign(msg, secretKey, { extraEntropy: rnd }));
    failing(`${P.name} prehash(a throwing hash).createSign(ξ) interrupted`, () => alg.prehash(throwing).createSign(xi).update(msg).sign({ extraEntropy: rnd }));
    const broken = (async function* () {
      yield large;
      throw new Error('the source failed');
    })();
    await assert.rejects(alg.signStream(broken, xi, { extraEntropy: rnd }), /the source failed/);
    scan(`${P.name} signStream(ξ) interrupted by its source`, formatSecrets);

    t.diagnostic(
      `${P.name}: no secret found after 15 kinds of call, 5 streaming calls, 20 key-format calls and 7 failed or interrupted ones (memory ${bytes().length} bytes)`,
    );
  }
});

// mldsa-simd/keys is plain JavaScript: the copies of a secret it makes (the
// bytes of a PEM or base64url text, a decoded PKCS#8, a seed on its way to
// keygen, the key pair of a seed it exports) live in the JavaScript heap, and
// must be wiped before the call returns. A fresh copy of the package is loaded
// while every Uint8Array made by the constructor or by TextEncoder is recorded
// (both are captured at load); after each private-key export and import, and
// after imports that fail, no recorded array but those returned (or views of
// the caller's own arguments, or of wasm memory, which the test above
// searches) holds any window of a secret.
test('no copy of a secret made by mldsa-simd/keys outlives its call', { skip, timeout: 120_000 }, async (t) => {
  const made = [];
  const RealU8 = globalThis.Uint8Array;
  const realEncode = TextEncoder.prototype.encode;
  let watched;
  globalThis.Uint8Array = new Proxy(RealU8, {
    construct(target, args, newTarget) {
      const array = Reflect.construct(target, args, newTarget);
      made.push(array);
      return array;
    },
  });
  TextEncoder.prototype.encode = function encode(text) {
    const bytes = Reflect.apply(realEncode, this, [text]);
    made.push(bytes);
    return bytes;
  };
  try {
    watched = await importWatched('secrets-js');
  } finally {
    globalThis.Uint8Array = RealU8;
    TextEncoder.prototype.encode = realEncode;
  }
  const { lib, keys, instances } = watched;
  const { exportPublicKey, importSecretKey, exportSecretKey } = keys;
  const ascii = (text) => new TextEncoder().encode(text);
  let searched = 0;
  // Runs `call` with `made` emptied; then searches what it recorded, less `exempt` (the
  // arguments and the results: arrays, or arrays inside a result object).
  const check = (what, secrets, call, args = []) => {
    made.length = 0;
    let result;
    let error;
    try {
      result = call();
    } catch (e) {
      error = e;
    }
    const returned = result instanceof RealU8 ? [result] : result && typeof result === 'object' ? Object.values(result) : [];
    const exempt = new Set([...args, ...returned].filter((x) => x instanceof RealU8).map((x) => x.buffer));
    for (const i of instances()) exempt.add(i.exports.memory.buffer);
    const found = [];
    for (const array of made) {
      if (exempt.has(array.buffer)) continue;
      searched++;
      for (const [name, s] of secrets) if (occurrences(array, s).length) found.push(`${name} in a ${array.length}-byte array`);
    }
    assert.deepEqual(found, [], `${what}: a copy of a secret left unwiped: ${found.slice(0, 4).join('; ')}`);
    return { result, error };
  };

  for (const P of SETS) {
    const alg = lib[P.key];
    const xi = rng.bytes(32);
    const { publicKey, secretKey } = alg.keygen(xi);
    const secrets = [
      ...windows('ξ', xi, 8),
      ...windows('K', secretKey.subarray(32, 64), 8),
      ...windows('s1 ‖ s2 ‖ t0', secretKey.subarray(128), 48),
      ...windows('ξ (base64url)', ascii(Buffer.from(xi).toString('base64url')), 8),
    ];
    // The base64 of a PEM of PKCS#8 after the DER's header (at most 28 bytes, 38 characters): all key.
    const textSecrets = (text) => windows('base64 text', ascii(text.replace(/-----[^-]+-----|\n/g, '').slice(40)), 16);
    const exported = [];
    for (const [format, opts] of [
      ['raw-seed'],
      ['raw'],
      ['jwk'],
      ['pkcs8'],
      ['pkcs8', { form: 'expandedKey' }],
      ['pkcs8', { form: 'both' }],
      ['pem'],
      ['pem', { form: 'expandedKey' }],
      ['pem', { form: 'both' }],
    ]) {
      const key = new RealU8(xi);
      const { result, error } = check(`${P.name} exportSecretKey ${format} ${opts?.form ?? ''}`, secrets, () => exportSecretKey(alg, key, format, opts), [key]);
      assert.equal(error, undefined);
      exported.push([format, result]);
    }
    const sk = new RealU8(secretKey);
    exported.push([
      'pem',
      check(`${P.name} exportSecretKey(sk, pem expandedKey)`, secrets, () => exportSecretKey(alg, sk, 'pem', { form: 'expandedKey' }), [sk]).result,
    ]);
    for (const [format, data] of exported) {
      const more = typeof data === 'string' ? textSecrets(data) : [];
      const { result, error } = check(`${P.name} importSecretKey ${format}`, [...secrets, ...more], () => importSecretKey(alg, data, format), [data]);
      assert.equal(error, undefined, `${P.name} importSecretKey ${format}`);
      assert.deepEqual(result.publicKey, publicKey);
      // Given as bytes, the PEM text is the caller's; the DER decoded from it is ours.
      if (typeof data === 'string') {
        const bytes = ascii(data);
        check(`${P.name} importSecretKey pem bytes`, secrets, () => importSecretKey(alg, bytes, 'pem'), [bytes]);
      }
    }
    // Imports refused after a secret was decoded or expanded.
    const other = alg.keygen(rng.bytes(32));
    const both = exportSecretKey(alg, xi, 'pkcs8', { form: 'both' });
    const refused = [
      ['pkcs8 both with another key', concat(both.subarray(0, both.length - P.sk), other.secretKey), 'pkcs8'],
      [
        'pem both with another key',
        `-----BEGIN PRIVATE KEY-----\n${Buffer.from(concat(both.subarray(0, both.length - P.sk), other.secretKey)).toString('base64')}\n-----END PRIVATE KEY-----\n`,
        'pem',
      ],
      ['jwk with another pub', { ...exportSecretKey(alg, xi, 'jwk'), pub: exportPublicKey(alg, other.publicKey, 'jwk').pub }, 'jwk'],
      [
        'pem expandedKey, t0 changed',
        (() => {
          const der = exportSecretKey(alg, secretKey, 'pkcs8', { form: 'expandedKey' });
          der[der.length - 1] ^= 1;
          return `-----BEGIN PRIVATE KEY-----\n${Buffer.from(der).toString('base64')}\n-----END PRIVATE KEY-----\n`;
        })(),
        'pem',
      ],
    ];
    for (const [what, data, format] of refused) {
      const { error } = check(`${P.name} importSecretKey(${what})`, secrets, () => importSecretKey(alg, data, format), [data]);
      assert.ok(error instanceof Error, `${P.name} importSecretKey(${what}) was not refused`);
    }
  }
  assert.ok(searched > 100, `only ${searched} arrays were searched: the recording does not see the module's arrays`);
  t.diagnostic(`${searched} arrays made by mldsa-simd/keys (and keygen under it) searched after their calls`);
});
