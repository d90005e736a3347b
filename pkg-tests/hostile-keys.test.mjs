// Hostile and oversized inputs to the key formats and to mldsa-simd/webcrypto.
//
// 1. Every byte argument of the key-format functions of mldsa-simd/keys (importPublicKey
//    spki/raw/pem, importSecretKey pkcs8/raw-seed/raw/pem, exportPublicKey, exportSecretKey) and of
//    subtle.importKey (spki, raw-public, pkcs8, raw-seed) gets each hostile shape
//    of lib/hostile.mjs. The rule is hostile.test.mjs's: the result the same
//    function gives for a plain copy of the argument's real bytes, or an error
//    (TypeError/RangeError naming the argument; a DOMException or TypeError in
//    WebCrypto); shapes that are plain bytes must work (in WebCrypto, but for
//    shared buffers, which Web IDL refuses); a Proxy is a TypeError.
// 2. Every input at sizes far beyond any key (1 GiB + 1 byte of DER or PEM, 64 Mi
//    characters of PEM or base64url, a context of 1 MiB) is refused with a
//    RangeError (DataError in WebCrypto) that names the limit, before it is
//    decoded or reaches wasm: linear memory, and the part of it in use, are the
//    same afterwards, and the next calls are right.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib, keys, SETS, IMPL, importFromConsumer } from './lib/load.mjs';
import { Rng, equalBytes } from './lib/util.mjs';
import { staticShapes, realBytes } from './lib/hostile.mjs';

const skip = IMPL === 'noble' ? "the key formats are the package's" : false;
const rng = new Rng('hostile-keys');
const { wasmMemoryBytes, wasmMemoryInUse } = lib;
const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;

/** A comparable text for a result: bytes, a string, a key pair, a JWK. */
function norm(x) {
  if (x instanceof Uint8Array) return `bytes:${Buffer.from(realBytes(x) ?? x).toString('hex')}`;
  if (typeof x === 'string') return `text:${x}`;
  if (x && typeof x === 'object')
    return `object:${Object.entries(x)
      .map(([k, v]) => `${k}=${norm(v)}`)
      .join(',')}`;
  return `other:${String(x)}`;
}
function outcome(fn) {
  try {
    const value = fn();
    return { ok: true, value: norm(value) };
  } catch (error) {
    return { ok: false, error };
  }
}

test('hostile byte arguments of the key formats: the result on the real bytes, or an error naming the argument', { skip, timeout: 300_000 }, (t) => {
  const shapes = staticShapes();
  let calls = 0;
  const problems = [];
  for (const P of SETS) {
    const alg = lib[P.key];
    const seed = rng.bytes(32);
    const { publicKey, secretKey } = alg.keygen(seed);
    const spki = exportPublicKey(alg, publicKey, 'spki');
    const pkcs8 = exportSecretKey(alg, seed, 'pkcs8', { form: 'both' });
    const pemBytes = (text) => new TextEncoder().encode(text);
    // [what, the argument's bytes, its name in messages, the call]
    const cases = [
      ['importPublicKey(pem bytes)', pemBytes(exportPublicKey(alg, publicKey, 'pem')), /\bpem\b/, (b) => importPublicKey(alg, b, 'pem')],
      ['importSecretKey(pem bytes)', pemBytes(exportSecretKey(alg, seed, 'pem', { form: 'both' })), /\bpem\b/, (b) => importSecretKey(alg, b, 'pem')],
      ['importPublicKey(spki)', spki, /\bspki\b/, (b) => importPublicKey(alg, b, 'spki')],
      ['importPublicKey(raw)', publicKey, /public ?key/i, (b) => importPublicKey(alg, b, 'raw')],
      ['importSecretKey(pkcs8)', pkcs8, /\bpkcs8\b/, (b) => importSecretKey(alg, b, 'pkcs8')],
      ['importSecretKey(raw-seed)', seed, /\bseed\b/, (b) => importSecretKey(alg, b, 'raw-seed')],
      ['importSecretKey(raw)', secretKey, /secret ?key/i, (b) => importSecretKey(alg, b, 'raw')],
      ['exportPublicKey(pem)', publicKey, /public ?key/i, (b) => exportPublicKey(alg, b, 'pem')],
      ['exportSecretKey(seed, pem)', seed, /secret ?key|seed/i, (b) => exportSecretKey(alg, b, 'pem')],
      ['exportSecretKey(sk, pkcs8 expandedKey)', secretKey, /secret ?key/i, (b) => exportSecretKey(alg, b, 'pkcs8', { form: 'expandedKey' })],
    ];
    for (const [what, bytes, name, call] of cases) {
      const plain = outcome(() => call(bytes.slice()));
      assert.ok(plain.ok, `${P.name} ${what} on plain bytes: ${plain.error}`);
      for (const shape of shapes) {
        calls++;
        const label = `${P.name} ${what}, ${shape.name}`;
        const value = shape.make(bytes);
        const real = realBytes(value);
        const r = outcome(() => call(value));
        if (shape.kind === 'typeError') {
          if (r.ok || !(r.error instanceof TypeError) || !name.test(r.error.message))
            problems.push(`${label}: expected a TypeError naming the argument, got ${r.ok ? 'a result' : r.error}`);
          continue;
        }
        if (shape.kind === 'works') {
          if (!r.ok || r.value !== plain.value) problems.push(`${label}: expected the result on plain bytes, got ${r.ok ? 'another result' : r.error}`);
          continue;
        }
        // 'real': the result on a plain copy of the real bytes, or an error naming the argument.
        const expected = real ? outcome(() => call(new Uint8Array(real))) : undefined;
        if (r.ok) {
          if (!expected?.ok || expected.value !== r.value) problems.push(`${label}: a result that is not the one for its real bytes`);
        } else if (
          !(r.error instanceof Error) ||
          r.error instanceof WebAssembly.RuntimeError ||
          !(name.test(r.error.message) || (expected && !expected.ok && expected.error.message === r.error.message))
        ) {
          problems.push(`${label}: ${r.error?.name}: ${r.error?.message}`);
        }
      }
    }
  }
  t.diagnostic(`${calls} hostile calls to the key formats`);
  assert.deepEqual(problems.slice(0, 25), [], `${problems.length} calls broke the rule`);
});

test('hostile BufferSources given to subtle.importKey: the key of the real bytes, or a DOMException/TypeError', { skip, timeout: 300_000 }, async (t) => {
  const { subtle } = await importFromConsumer('mldsa-simd/webcrypto');
  const shapes = staticShapes();
  const problems = [];
  let calls = 0;
  for (const P of SETS) {
    const alg = lib[P.key];
    const seed = rng.bytes(32);
    const { publicKey } = alg.keygen(seed);
    const spkiOf = async (key) => new Uint8Array(await subtle.exportKey('spki', key.type === 'private' ? await subtle.getPublicKey(key, ['verify']) : key));
    const cases = [
      ['spki', exportPublicKey(alg, publicKey, 'spki'), ['verify']],
      ['raw-public', publicKey, ['verify']],
      ['pkcs8', exportSecretKey(alg, seed, 'pkcs8'), ['sign']],
      ['raw-seed', seed, ['sign']],
    ];
    for (const [format, bytes, usages] of cases) {
      const want = exportPublicKey(alg, publicKey, 'spki');
      for (const shape of shapes) {
        calls++;
        const label = `${P.name} importKey(${format}), ${shape.name}`;
        const value = shape.make(bytes);
        const real = realBytes(value);
        let key, error;
        try {
          key = await subtle.importKey(format, value, P.name, usages[0] === 'verify', usages);
        } catch (e) {
          error = e;
        }
        if (shape.kind === 'works' && /SharedArrayBuffer/.test(shape.name)) {
          // Web IDL: a BufferSource is never shared.
          if (!(error instanceof TypeError)) problems.push(`${label}: expected a TypeError (a shared buffer is no BufferSource), got ${error ?? 'a key'}`);
        } else if (shape.kind === 'works') {
          if (!key || !equalBytes(await spkiOf(key), want)) problems.push(`${label}: expected the key, got ${error}`);
        } else if (key) {
          // A key: it must be the key of the real bytes.
          const again = await subtle.importKey(format, new Uint8Array(real), P.name, usages[0] === 'verify', usages);
          if (!equalBytes(await spkiOf(key), await spkiOf(again))) problems.push(`${label}: not the key of its real bytes`);
        } else if (!(error instanceof TypeError || error?.constructor?.name === 'DOMException')) {
          problems.push(`${label}: ${error}`);
        }
      }
    }
  }
  t.diagnostic(`${calls} hostile importKey calls`);
  assert.deepEqual(problems.slice(0, 25), [], `${problems.length} calls broke the rule`);
});

test('inputs far beyond any key are refused before they reach wasm memory', { skip, timeout: 300_000 }, async (t) => {
  const { subtle } = await importFromConsumer('mldsa-simd/webcrypto');
  const alg = lib.ml_dsa65;
  const seed = rng.bytes(32);
  const { publicKey, secretKey } = alg.keygen(seed);
  const msg = rng.bytes(50);
  const sig = alg.sign(msg, secretKey, { extraEntropy: false });
  importSecretKey(alg, exportSecretKey(alg, seed, 'pem', { form: 'both' }), 'pem'); // the largest a real key needs, once
  const before = { bytes: wasmMemoryBytes(), inUse: wasmMemoryInUse() };

  const GiB = new Uint8Array(2 ** 30 + 1); // never written: refused by its length
  const text = 'A'.repeat(64 * 2 ** 20);
  const pem = (label) => `-----BEGIN ${label}-----\n${text}\n-----END ${label}-----\n`;
  const jwk = { kty: 'AKP', alg: 'ML-DSA-65', pub: text };
  const sync = [
    ['importPublicKey(spki)', () => importPublicKey(alg, GiB, 'spki')],
    ['importPublicKey(raw)', () => importPublicKey(alg, GiB, 'raw')],
    ['importPublicKey(pem)', () => importPublicKey(alg, pem('PUBLIC KEY'), 'pem')],
    ['importPublicKey(pem bytes)', () => importPublicKey(alg, GiB, 'pem')],
    ['importPublicKey(jwk)', () => importPublicKey(alg, jwk, 'jwk')],
    ['importSecretKey(pkcs8)', () => importSecretKey(alg, GiB, 'pkcs8')],
    ['importSecretKey(pem)', () => importSecretKey(alg, pem('PRIVATE KEY'), 'pem')],
    ['importSecretKey(pem bytes)', () => importSecretKey(alg, GiB, 'pem')],
    ['importSecretKey(jwk priv)', () => importSecretKey(alg, { ...jwk, pub: exportPublicKey(alg, publicKey, 'jwk').pub, priv: text }, 'jwk')],
    ['importSecretKey(raw-seed)', () => importSecretKey(alg, GiB, 'raw-seed')],
    ['importSecretKey(raw)', () => importSecretKey(alg, GiB, 'raw')],
    ['exportSecretKey', () => exportSecretKey(alg, GiB, 'pem')],
    ['sign context', () => alg.sign(msg, secretKey, { context: new Uint8Array(2 ** 20) })],
    ['verify context', () => alg.verify(sig, msg, publicKey, { context: new Uint8Array(2 ** 20) })],
    ['signer', () => alg.signer(GiB)],
    ['verifier', () => alg.verifier(GiB)],
    ['createSign', () => alg.createSign(GiB)],
    ['keygen', () => alg.keygen(GiB)],
  ];
  for (const [what, call] of sync) {
    assert.throws(
      call,
      (e) => e instanceof RangeError || (e instanceof Error && /expected \d+ base64url characters/.test(e.message)),
      `${what}: not refused with a RangeError`,
    );
  }
  const webcrypto = [
    ['importKey(spki)', () => subtle.importKey('spki', GiB, 'ML-DSA-65', true, ['verify'])],
    ['importKey(raw-public)', () => subtle.importKey('raw-public', GiB, 'ML-DSA-65', true, ['verify'])],
    ['importKey(pkcs8)', () => subtle.importKey('pkcs8', GiB, 'ML-DSA-65', false, ['sign'])],
    ['importKey(raw-seed)', () => subtle.importKey('raw-seed', GiB, 'ML-DSA-65', false, ['sign'])],
    ['importKey(jwk)', () => subtle.importKey('jwk', jwk, 'ML-DSA-65', true, ['verify'])],
  ];
  for (const [what, call] of webcrypto) {
    await assert.rejects(call(), (e) => e?.name === 'DataError', `${what}: not refused with a DataError`);
  }
  const key = await subtle.importKey('raw-seed', seed, 'ML-DSA-65', false, ['sign']);
  await assert.rejects(
    subtle.sign({ name: 'ML-DSA-65', context: new Uint8Array(2 ** 20) }, key, msg),
    (e) => e?.name === 'OperationError' || e?.name === 'DataError' || e instanceof TypeError,
    'a 1 MiB WebCrypto context',
  );

  assert.deepEqual({ bytes: wasmMemoryBytes(), inUse: wasmMemoryInUse() }, before, 'wasm memory changed while refusing oversized inputs');
  // And the instance still answers right.
  assert.ok(equalBytes(alg.sign(msg, secretKey, { extraEntropy: false }), sig));
  assert.equal(alg.verify(sig, msg, publicKey), true);
  t.diagnostic(`${sync.length + webcrypto.length + 1} oversized inputs refused; wasm memory ${before.bytes} bytes, ${before.inUse} in use, unchanged`);
});
