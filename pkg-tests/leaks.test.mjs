// No error message carries bytes of an argument. Every function that takes a
// secret (the synchronous API with its streaming and prepared keys, the key
// formats, mldsa-simd/webcrypto, mldsa-simd/worker) is called with a private
// key in every argument position it could be put in by mistake (each byte
// argument, the format and the form, an option value, an option name, a
// pre-hash function or its OID, the message of a mldsa-simd/prehash function, the
// parameter set of mldsa-simd/keys), as bytes, as PEM, PKCS#8 DER, JWK and as hex, base64 and base64url text. Every message that comes back (with its causes and
// stacks) is searched for any 8-byte window of the seed, the expanded secret
// key's secret part (K, s1, s2, t0) or the DER, in raw (Latin-1), hex (either
// case), base64 or base64url at every alignment.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib, keys, IMPL, importFromConsumer, prehash as PH } from './lib/load.mjs';
import { Rng } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'tests the package' : false;
const rng = new Rng('leaks');

const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;
const B = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Every form of every 8-byte window of `bytes` a message could show: [length, Set of strings]. */
function windowsOf(bytes) {
  const forms = [];
  const add = (text, k) => {
    const set = new Set();
    for (let i = 0; i + k <= text.length; i++) set.add(text.slice(i, i + k));
    forms.push([k, set]);
  };
  add(B(bytes).toString('latin1'), 8);
  add(B(bytes).toString('hex'), 16);
  add(B(bytes).toString('hex').toUpperCase(), 16);
  // base64 groups three bytes into four characters: at some alignment each
  // 8-byte window lies whole in one group run, which shows as 11 characters.
  for (const shift of [0, 1, 2]) {
    add(B(bytes.subarray(shift)).toString('base64'), 11);
    add(B(bytes.subarray(shift)).toString('base64url'), 11);
  }
  return forms;
}

/** All text an error carries: name, message, stack, and the same of its causes. */
function textOf(e, depth = 0) {
  if (e === null || e === undefined || depth > 4) return '';
  if (typeof e !== 'object') return String(e);
  let out = `${e.name}\n${e.message}\n${e.stack ?? ''}\n`;
  if ('cause' in e) out += textOf(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const x of e.errors) out += textOf(x, depth + 1);
  return out;
}

function findLeak(text, secrets) {
  for (const [name, forms] of secrets) {
    for (const [k, set] of forms) {
      for (let i = 0; i + k <= text.length; i++) if (set.has(text.slice(i, i + k))) return `${name} at ${i}`;
    }
  }
  return undefined;
}

test('no error message carries bytes of a secret given in the wrong place', { skip, timeout: 300_000 }, async (t) => {
  const { subtle } = await importFromConsumer('mldsa-simd/webcrypto');
  const { createPool } = await importFromConsumer('mldsa-simd/worker');
  const pool = createPool({ size: 1 });
  let calls = 0;
  let errors = 0;
  try {
    for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
      const alg = lib[key];
      const algName = `ML-DSA-${key.slice(6)}`;
      const seed = rng.bytes(32);
      const { publicKey, secretKey } = alg.keygen(seed);
      const ders = ['seed', 'expandedKey', 'both'].map((form) => exportSecretKey(alg, seed, 'pkcs8', { form }));
      const pems = ['seed', 'expandedKey', 'both'].map((form) => exportSecretKey(alg, seed, 'pem', { form }));
      const jwk = exportSecretKey(alg, seed, 'jwk');
      const secrets = [
        ['seed', windowsOf(seed)],
        ['K', windowsOf(secretKey.subarray(32, 64))],
        ['s1 ‖ s2 ‖ t0', windowsOf(secretKey.subarray(128))],
        ...ders.map((d, i) => [`PKCS#8 DER ${i}`, windowsOf(d)]),
      ];
      const text = (b) => [B(b).toString('hex'), B(b).toString('base64'), B(b).toString('base64url')];
      // The private key in every shape a caller could hold it in.
      const shapes = [
        seed,
        secretKey,
        ...ders,
        ...pems,
        jwk,
        JSON.stringify(jwk),
        ...text(seed),
        ...text(secretKey),
        ...text(ders[2]),
        Array.from(seed),
        seed.buffer.slice(0),
        new DataView(seed.buffer.slice(0)),
        new Uint16Array(seed.buffer.slice(0)),
        { toString: () => pems[0] },
        { name: pems[0] },
        { seed },
      ];
      const strings = shapes.filter((s) => typeof s === 'string');
      const msg = rng.bytes(40);
      const sig = alg.sign(msg, secretKey);
      const ctx = rng.bytes(4);
      const hashFn = (s) => Object.assign((m) => new Uint8Array(32), { oid: s, outputLen: 32, create: () => ({}) });

      // [what, args, call(args)]: each argument position is replaced by every shape.
      const fns = [
        ['keygen', [seed], (a) => alg.keygen(...a)],
        ['getPublicKey', [secretKey], (a) => alg.getPublicKey(...a)],
        ['sign', [msg, secretKey, { context: ctx }], (a) => alg.sign(...a)],
        ['verify', [sig, msg, publicKey, { context: ctx }], (a) => alg.verify(...a)],
        ['internal.sign', [msg, secretKey, {}], (a) => alg.internal.sign(...a)],
        ['internal.verify', [sig, msg, publicKey, {}], (a) => alg.internal.verify(...a)],
        ['prehash', [PH.sha256], (a) => alg.prehash(...a)],
        ['prehash().sign', [msg, secretKey, {}], (a) => alg.prehash(PH.sha256).sign(...a)],
        ['prehash().verify', [sig, msg, publicKey, {}], (a) => alg.prehash(PH.sha256).verify(...a)],
        ['mldsa-simd/prehash sha256', [msg], (a) => PH.sha256(...a)],
        ['mldsa-simd/prehash shake256().update', [msg], (a) => PH.shake256.create().update(...a)],
        ['signer', [seed], (a) => alg.signer(...a)],
        ['signer().sign', [msg, {}], (a) => alg.signer(seed).sign(...a)],
        ['verifier().verify', [sig, msg, {}], (a) => alg.verifier(publicKey).verify(...a)],
        ['createSign', [secretKey, {}], (a) => alg.createSign(...a)],
        ['createSign().update', [msg], (a) => alg.createSign(secretKey).update(...a)],
        ['createSign().sign', [{}], (a) => alg.createSign(secretKey).sign(...a)],
        ['createVerify().verify', [sig], (a) => alg.createVerify(publicKey).verify(...a)],
        ['signStream', [[msg], secretKey, {}], (a) => alg.signStream(...a)],
        ['verifyStream', [sig, [msg], publicKey, {}], (a) => alg.verifyStream(...a)],
        // (mldsa-simd/keys: the parameter set is an argument, where a secret can be put by mistake too.)
        ['importPublicKey', [alg, publicKey, 'raw'], (a) => importPublicKey(...a)],
        ['importSecretKey', [alg, pems[0], 'pem'], (a) => importSecretKey(...a)],
        ['exportPublicKey', [alg, publicKey, 'pem'], (a) => exportPublicKey(...a)],
        ['exportSecretKey', [alg, seed, 'pem', { form: 'seed' }], (a) => exportSecretKey(...a)],
        ['webcrypto importKey', ['pkcs8', ders[0], algName, false, ['sign']], (a) => subtle.importKey(...a)],
        ['webcrypto importKey jwk', ['jwk', jwk, { name: algName }, false, ['sign']], (a) => subtle.importKey(...a)],
        ['webcrypto generateKey', [algName, false, ['sign', 'verify']], (a) => subtle.generateKey(...a)],
        ['webcrypto exportKey', ['pkcs8', null], (a) => subtle.exportKey(...a)],
        ['webcrypto sign', [{ name: algName }, null, msg], (a) => subtle.sign(...a)],
        ['webcrypto verify', [{ name: algName }, null, sig, msg], (a) => subtle.verify(...a)],
        ['webcrypto getPublicKey', [null, ['verify']], (a) => subtle.getPublicKey(...a)],
        ['worker keygen', [seed], (a) => pool[key].keygen(...a)],
        ['worker sign', [msg, secretKey, {}], (a) => pool[key].sign(...a)],
        ['worker getPublicKey', [secretKey], (a) => pool[key].getPublicKey(...a)],
        ['worker signer', [seed], (a) => pool[key].signer(...a)],
      ];
      // Where an option value, an option name, a form, a hash name or OID can carry a secret.
      const extra = [
        ...shapes.flatMap((s) => [
          ['sign { context }', () => alg.sign(msg, secretKey, { context: s })],
          ['sign { extraEntropy }', () => alg.sign(msg, secretKey, { extraEntropy: s })],
          ['exportSecretKey { form }', () => exportSecretKey(alg, seed, 'pkcs8', { form: s })],
          ['prehash(hash with .oid)', () => alg.prehash(hashFn(s))],
          [
            'webcrypto sign { context }',
            () => subtle.importKey('raw-seed', seed, algName, false, ['sign']).then((k) => subtle.sign({ name: algName, context: s }, k, msg)),
          ],
          ['worker sign { context }', () => pool[key].sign(msg, secretKey, { context: s })],
        ]),
        ...strings.flatMap((s) => [
          ['sign { [secret]: 1 }', () => alg.sign(msg, secretKey, { [s]: 1 })],
          ['verify { [secret]: 1 }', () => alg.verify(sig, msg, publicKey, { [s]: 1 })],
          ['exportSecretKey { [secret]: 1 }', () => exportSecretKey(alg, seed, 'pem', { [s]: 1 })],
          ['worker sign { [secret]: 1 }', () => pool[key].sign(msg, secretKey, { [s]: 1 })],
          ['webcrypto importKey(format: secret)', () => subtle.importKey(s, ders[0], algName, false, ['sign'])],
          ['webcrypto exportKey(format: secret)', () => subtle.generateKey(algName, true, ['sign']).then((p) => subtle.exportKey(s, p.privateKey))],
          ['webcrypto sign(name: secret)', () => subtle.importKey('raw-seed', seed, algName, false, ['sign']).then((k) => subtle.sign(s, k, msg))],
          ['webcrypto generateKey(usages: [secret])', () => subtle.generateKey(algName, false, [s])],
        ]),
        // The mistake that started this test: WebCrypto's argument order given to the key formats.
        ...pems.flatMap((pem) => [
          ['importSecretKey("pem", pem)', () => importSecretKey(alg, 'pem', pem)],
          ['importPublicKey("pem", pem)', () => importPublicKey(alg, 'pem', pem)],
          ['importPublicKey(private pem, "pem")', () => importPublicKey(alg, pem, 'pem')],
          ['exportSecretKey(seed, pem)', () => exportSecretKey(alg, seed, pem)],
          ['exportPublicKey(publicKey, pem)', () => exportPublicKey(alg, publicKey, pem)],
          // The calling convention of the methods that mldsa-simd/keys replaced (no parameter set).
          ['importSecretKey(pem, "pem")', () => importSecretKey(pem, 'pem')],
          ['exportSecretKey(seed, "pem")', () => exportSecretKey(seed, 'pem')],
          ['webcrypto importKey(pem, "pkcs8")', () => subtle.importKey(pem, 'pkcs8', algName, false, ['sign'])],
          ['webcrypto importKey("pkcs8", pem)', () => subtle.importKey('pkcs8', pem, algName, false, ['sign'])],
        ]),
      ];
      const cases = [
        ...fns.flatMap(([what, args, call]) =>
          args.flatMap((_, i) => shapes.map((s) => [`${what} argument ${i}`, () => call(args.map((a, j) => (j === i ? s : a)))])),
        ),
        ...extra,
      ];
      for (const [what, call] of cases) {
        calls++;
        let error;
        try {
          const r = call();
          if (r && typeof r.then === 'function') await r;
        } catch (e) {
          error = e;
        }
        if (error === undefined) continue;
        errors++;
        const leak = findLeak(textOf(error), secrets);
        assert.equal(leak, undefined, `${algName} ${what}: the error carries the ${leak}: ${String(error?.message).slice(0, 60)}…`);
      }
    }
  } finally {
    await pool.close();
  }
  t.diagnostic(`${calls} calls, ${errors} errors searched, no secret bytes in any`);
  assert.ok(errors > 1000, `only ${errors} calls threw: the cases do not reach the checks`);
});

test('the search finds a secret where one is', { skip }, () => {
  const seed = rng.bytes(32);
  const secrets = [['seed', windowsOf(seed)]];
  for (const shown of [
    B(seed.subarray(3, 11)).toString('latin1'),
    B(seed.subarray(5, 13)).toString('hex'),
    B(seed.subarray(5, 13)).toString('hex').toUpperCase(),
    B(seed).toString('base64').slice(8, 20),
    B(seed.subarray(1)).toString('base64url').slice(0, 11),
    B(seed.subarray(2)).toString('base64').slice(4, 15),
  ]) {
    assert.ok(findLeak(`format: expected "pem", got "${shown}"`, secrets), `not found: ${shown}`);
  }
  assert.equal(findLeak('format: expected one of "raw", "pem", got a string of 3000 characters', secrets), undefined);
});
