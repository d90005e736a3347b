// mldsa-simd/webcrypto: the scenario suite of lib/webcrypto-scenarios.mjs on
// ours and on Node 24's native crypto.subtle (a child process, Node from
// .tools/node24), compared outcome by outcome, with every place where they
// differ listed below with the reason; then what the suite cannot see from
// outside: the CryptoKey shape, unreachable key material, BufferSources
// copied at call time, pass-through to the platform, install() and jose.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, repoRoot, consumerDir, importFromConsumer, node24 } from './lib/load.mjs';
import { tool } from './lib/compat.mjs';
import { run } from './lib/webcrypto-scenarios.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/webcrypto is not part of the noble API (MLDSA_IMPL=noble)' : false;
const { subtle, CryptoKey: OurCryptoKey } = skip ? {} : await importFromConsumer('mldsa-simd/webcrypto');
const SCENARIOS = pathToFileURL(path.join(repoRoot, 'pkg-tests/lib/webcrypto-scenarios.mjs')).href;

/**
 * Where Node 24's crypto.subtle and ours give different outcomes, and why
 * ours is what the draft says. The test fails if the outcomes differ anywhere
 * else, or no longer differ here.
 */
const DEVIATIONS = {
  'importKey: pkcs8 with a trailing byte': {
    ours: 'DataError',
    node: 'CryptoKey(private,true,ML-DSA-65,sign)',
    why: 'WebCrypto parses PrivateKeyInfo with exactData set: bytes after it are a DataError; Node (OpenSSL) ignores them',
  },
  'importKey: jwk given as bytes': {
    ours: 'TypeError',
    node: 'DataError',
    why: "WebCrypto's importKey: keyData that is not a JsonWebKey dictionary (bytes are the BufferSource of the union) is a TypeError for the jwk format; Node reads the bytes as an empty JWK",
  },
  'wrapKey: pkcs8 of an ML-DSA key': {
    ours: 'NotSupportedError',
    node: 'ArrayBuffer(70)',
    why: "our keys are not wrapped (unwrapping one would hand its bytes to JavaScript, through the platform); the checks before wrapping are the spec's",
  },
};

test('the scenario suite gives the same outcomes as Node 24 native, except the listed deviations', { skip, timeout: 240_000 }, async (t) => {
  const ours = await run(subtle, subtle.supports);
  const r = spawnSync(
    node24(),
    [
      '--no-warnings',
      '--input-type=module',
      '-e',
      `import { run } from ${JSON.stringify(SCENARIOS)};
     process.stdout.write(JSON.stringify({ version: process.version, out: await run(crypto.subtle, (o, a, l) => SubtleCrypto.supports(o, a, l)) }));`,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );
  assert.equal(r.status, 0, r.stderr);
  const { version, out: node } = JSON.parse(r.stdout);
  const names = Object.keys(ours);
  assert.ok(names.length >= 100, `only ${names.length} scenarios`);
  assert.deepEqual(Object.keys(node), names);
  const differ = names.filter((n) => ours[n] !== node[n]);
  for (const n of differ) t.diagnostic(`webcrypto deviation: ${n}: ours ${ours[n]}, Node ${version} ${node[n]}`);
  assert.deepEqual(differ.sort(), Object.keys(DEVIATIONS).sort(), 'the scenarios where ours and Node differ');
  for (const [n, d] of Object.entries(DEVIATIONS)) {
    assert.equal(ours[n], d.ours, n);
    assert.equal(node[n], d.node, n);
  }
  t.diagnostic(
    `webcrypto: ${names.length} scenarios, ${names.length - differ.length} with the same outcome as Node ${version}'s native crypto.subtle, ${differ.length} listed deviation(s)`,
  );
  // The suite can fail: a sample of what it checks.
  assert.equal(ours['sign: context of 256 bytes'], 'OperationError');
  assert.equal(ours['verify: signature one byte short'], 'false');
  assert.equal(ours['importKey: pkcs8 expandedKey form'], 'NotSupportedError');
  assert.equal(ours['generateKey: only verify'], 'SyntaxError');
  // As the spec says for a key of another algorithm, not 'NotSupportedError' for every
  // method ML-DSA has no use for, nor 'InvalidAccessError' for sign with any other algorithm.
  assert.equal(ours['encrypt: AES-GCM, ML-DSA key'], 'InvalidAccessError');
  assert.equal(ours['encrypt: AES-GCM without iv, ML-DSA key'], 'TypeError');
  assert.equal(ours['sign: unknown algorithm, ML-DSA key'], 'NotSupportedError');
  assert.equal(ours['sign: the algorithm name getter overwrites the data'], 'string:true false');
});

test('CryptoKeys: the platform shape, and no way to their material', { skip }, async () => {
  const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
  assert.equal(Object.prototype.toString.call(privateKey), '[object CryptoKey]');
  assert.ok(privateKey instanceof globalThis.CryptoKey, 'instanceof the platform CryptoKey');
  assert.ok(privateKey instanceof OurCryptoKey);
  assert.deepEqual(
    [privateKey.type, privateKey.extractable, privateKey.algorithm, [...privateKey.usages]],
    ['private', false, { name: 'ML-DSA-44' }, ['sign']],
  );
  assert.deepEqual([publicKey.type, publicKey.extractable, [...publicKey.usages]], ['public', true, ['verify']]);
  assert.equal(privateKey.algorithm, privateKey.algorithm, 'the same algorithm object each time');
  for (const key of [publicKey, privateKey]) {
    assert.deepEqual(Reflect.ownKeys(key), [], 'no own properties');
    assert.equal(JSON.stringify(key), '{}');
    assert.throws(() => {
      key.type = 'secret';
    }, TypeError);
    assert.throws(() => privateKey.usages.push('verify'), TypeError);
  }
  assert.throws(() => new OurCryptoKey(), TypeError, 'no public constructor');
  await assert.rejects(subtle.exportKey('raw-seed', privateKey), { name: 'InvalidAccessError' });
});

test('BufferSources are copied when the call is made', { skip }, async () => {
  const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
  const data = new Uint8Array(1000).fill(1);
  const context = new Uint8Array([9, 9]);
  const pending = subtle.sign({ name: 'ML-DSA-65', context }, privateKey, data);
  data.fill(2);
  context.fill(0);
  const sig = await pending;
  assert.equal(await subtle.verify({ name: 'ML-DSA-65', context: Uint8Array.of(9, 9) }, publicKey, sig, new Uint8Array(1000).fill(1)), true);
  const sigBytes = new Uint8Array(sig);
  const verifying = subtle.verify('ML-DSA-65', publicKey, sigBytes, new Uint8Array(0));
  sigBytes.fill(0);
  assert.equal(await verifying, false);
  // Detached and shared buffers.
  const buf = new ArrayBuffer(8);
  structuredClone(buf, { transfer: [buf] });
  assert.equal((await subtle.sign('ML-DSA-65', privateKey, buf)).byteLength, 3309, 'a detached buffer signs as empty');
  await assert.rejects(subtle.sign('ML-DSA-65', privateKey, new Uint8Array(new SharedArrayBuffer(4))), TypeError);
  // verify resolves false for any length of signature bytes.
  for (const n of [0, 1, 3308, 3310, 100000]) assert.equal(await subtle.verify('ML-DSA-65', publicKey, new Uint8Array(n), data), false, `${n} bytes`);
});

test('algorithm objects are read once; hostile ones are refused', { skip }, async () => {
  const { privateKey } = await subtle.generateKey('ML-DSA-87', false, ['sign']);
  let reads = 0;
  const alg = {
    get name() {
      reads++;
      return 'ML-DSA-87';
    },
  };
  await subtle.sign(alg, privateKey, new Uint8Array(3));
  assert.equal(reads, 1);
  await assert.rejects(subtle.sign({ name: Symbol('x') }, privateKey, new Uint8Array(3)), TypeError);
  await assert.rejects(
    subtle.sign(
      {
        get name() {
          throw new RangeError('boom');
        },
      },
      privateKey,
      new Uint8Array(3),
    ),
    RangeError,
  );
});

test('other algorithms and platform keys go to the platform', { skip }, async () => {
  const ec = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  assert.ok(ec.privateKey instanceof globalThis.CryptoKey && !(ec.privateKey instanceof OurCryptoKey));
  const alg = { name: 'ECDSA', hash: 'SHA-256' };
  const sig = await subtle.sign(alg, ec.privateKey, new Uint8Array(5));
  assert.equal(await subtle.verify(alg, ec.publicKey, sig, new Uint8Array(5)), true);
  assert.equal((await subtle.exportKey('spki', ec.publicKey)).byteLength, 91);
  assert.equal((await subtle.digest('SHA-256', new Uint8Array(0))).byteLength, 32);
  assert.equal(subtle.supports('sign', 'ML-DSA-44'), true);
  const mine = await subtle.generateKey('ML-DSA-44', false, ['sign']);
  await assert.rejects(subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, mine.privateKey, new Uint8Array(1)), { name: 'InvalidAccessError' });
});

/** Runs an ES module in a fresh Node (this one) from the consumer folder; returns its JSON output. */
function inFreshNode(source) {
  const file = path.join(consumerDir, `webcrypto-child-${process.pid}.mjs`);
  fs.writeFileSync(file, source);
  try {
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', cwd: consumerDir });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

test(`install() and jose in Node ${process.versions.node.split('.')[0]} (no native ML-DSA)`, { skip, timeout: 120_000 }, () => {
  const jose = pathToFileURL(path.join(repoRoot, 'node_modules/jose/dist/webapi/index.js')).href;
  const out = inFreshNode(`
    import { install } from 'mldsa-simd/webcrypto';
    import * as jose from ${JSON.stringify(jose)};
    const before = await crypto.subtle.generateKey('ML-DSA-65', true, ['sign']).then(() => 'native', (e) => e.name);
    const installed = await install();
    const again = await install();
    const { publicKey, privateKey } = await jose.generateKeyPair('ML-DSA-65', { extractable: true });
    const jwt = await new jose.SignJWT({ sub: 'mldsa-simd' }).setProtectedHeader({ alg: 'ML-DSA-65' }).setIssuedAt().sign(privateKey);
    const { payload, protectedHeader } = await jose.jwtVerify(jwt, publicKey);
    const jwk = await jose.exportJWK(privateKey);
    const pubJwk = await jose.exportJWK(publicKey);
    const imported = await jose.importJWK(jwk, 'ML-DSA-65');
    const jws = await new jose.CompactSign(new TextEncoder().encode('payload')).setProtectedHeader({ alg: 'ML-DSA-65' }).sign(imported);
    const verified = await jose.compactVerify(jws, await jose.importJWK(pubJwk, 'ML-DSA-65'));
    const parts = jws.split('.');
    const bad = parts[0] + '.' + parts[1] + '.' + (parts[2][0] === 'A' ? 'B' : 'A') + parts[2].slice(1);
    const tampered = await jose.compactVerify(bad, publicKey).then(() => 'accepted', (e) => e.code);
    const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    process.stdout.write(JSON.stringify({
      before, installed, again, sub: payload.sub, alg: protectedHeader.alg, jwkKeys: Object.keys(jwk).sort(),
      payload: new TextDecoder().decode(verified.payload), tampered,
      ours: privateKey instanceof CryptoKey, tag: Object.prototype.toString.call(privateKey),
      native: ec.privateKey instanceof CryptoKey, supports: SubtleCrypto.supports('sign', 'ML-DSA-65'),
    }));`);
  assert.deepEqual(out, {
    before: 'NotSupportedError',
    installed: true,
    again: true,
    sub: 'mldsa-simd',
    alg: 'ML-DSA-65',
    jwkKeys: ['alg', 'kty', 'priv', 'pub'],
    payload: 'payload',
    tampered: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    ours: true,
    tag: '[object CryptoKey]',
    native: true,
    supports: true,
  });
});

test('install() leaves a platform with native ML-DSA alone unless forced (Node 24)', { skip, timeout: 60_000 }, () => {
  const file = path.join(consumerDir, `webcrypto-child24-${process.pid}.mjs`);
  fs.writeFileSync(
    file,
    `
    import { install } from 'mldsa-simd/webcrypto';
    const plain = await install();
    const native = (await crypto.subtle.generateKey('ML-DSA-44', false, ['sign'])).privateKey;
    const forced = await install({ force: true });
    const ours = (await crypto.subtle.generateKey('ML-DSA-44', false, ['sign'])).privateKey;
    const sig = await crypto.subtle.sign('ML-DSA-44', native, new Uint8Array(1));
    // The methods ML-DSA has no use for, given our key: the spec's errors, not Node's TypeError for a foreign key.
    const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt', 'wrapKey']);
    const gcm = { name: 'AES-GCM', iv: new Uint8Array(12) };
    const hkdf = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new Uint8Array(0) };
    const name = (p) => p.then(() => 'resolved', (e) => e.name);
    const others = {
      encrypt: await name(crypto.subtle.encrypt(gcm, ours, new Uint8Array(1))),
      decrypt: await name(crypto.subtle.decrypt(gcm, ours, new Uint8Array(32))),
      deriveBits: await name(crypto.subtle.deriveBits(hkdf, ours, 128)),
      deriveKey: await name(crypto.subtle.deriveKey(hkdf, ours, { name: 'AES-GCM', length: 128 }, true, ['encrypt'])),
      wrapKeyWith: await name(crypto.subtle.wrapKey('raw', aes, ours, gcm)),
      wrapKeyOf: await name(crypto.subtle.wrapKey('pkcs8', ours, aes, gcm)),
      unwrapKey: await name(crypto.subtle.unwrapKey('raw', new Uint8Array(32), ours, gcm, 'AES-GCM', true, ['encrypt'])),
      encapsulateBits: await name(crypto.subtle.encapsulateBits?.('ML-KEM-768', ours) ?? Promise.reject({ name: 'absent' })),
    };
    process.stdout.write(JSON.stringify({ plain, forced, nativeKeyStillWorks: sig.byteLength, oursIsCryptoKey: ours instanceof CryptoKey, others }));`,
  );
  try {
    const r = spawnSync(node24(), ['--no-warnings', file], { encoding: 'utf8', cwd: consumerDir });
    assert.equal(r.status, 0, r.stderr);
    // The spec's errors, not Node's TypeError (ERR_INVALID_ARG_TYPE) for a key it does not know.
    const others = {
      encrypt: 'InvalidAccessError',
      decrypt: 'InvalidAccessError',
      deriveBits: 'InvalidAccessError',
      deriveKey: 'InvalidAccessError',
      wrapKeyWith: 'InvalidAccessError',
      wrapKeyOf: 'InvalidAccessError',
      unwrapKey: 'InvalidAccessError',
      encapsulateBits: 'InvalidAccessError',
    };
    assert.deepEqual(JSON.parse(r.stdout), { plain: false, forced: true, nativeKeyStillWorks: 2420, oursIsCryptoKey: true, others });
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('error messages describe a wrong argument and never contain it', { skip }, async (t) => {
  const { privateKey } = await subtle.generateKey('ML-DSA-44', true, ['sign', 'verify']);
  const pkcs8 = await subtle.exportKey('pkcs8', privateKey);
  const jwk = await subtle.exportKey('jwk', privateKey);
  const b64 = Buffer.from(pkcs8).toString('base64');
  const pem = `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
  const secret = `${jwk.priv}${jwk.priv}`; // key material where text is expected
  const fragments = [b64.slice(8, 40), jwk.priv.slice(4, 36)];
  const calls = {
    'importKey: PEM in the format position': [() => subtle.importKey(pem, 'pkcs8', 'ML-DSA-44', false, ['sign']), /a string of \d+ characters/],
    'importKey: base64 in the format position': [() => subtle.importKey(b64, pkcs8, 'ML-DSA-44', false, ['sign']), /a string of \d+ characters/],
    'exportKey: PEM as the format': [() => subtle.exportKey(pem, privateKey), /a string of \d+ characters/],
    'generateKey: key material as a usage': [() => subtle.generateKey('ML-DSA-44', false, ['sign', b64]), /a string of \d+ characters/],
    'importKey: key material as a usage': [() => subtle.importKey('pkcs8', pkcs8, 'ML-DSA-44', false, [pem])],
    'getPublicKey: key material as a usage': [() => subtle.getPublicKey(privateKey, [secret])],
    'importKey: jwk kty': [() => subtle.importKey('jwk', { ...jwk, kty: secret }, 'ML-DSA-44', false, ['sign'])],
    'importKey: jwk alg': [() => subtle.importKey('jwk', { ...jwk, alg: secret }, 'ML-DSA-44', false, ['sign'])],
    'importKey: jwk use': [() => subtle.importKey('jwk', { ...jwk, use: secret }, 'ML-DSA-44', false, ['sign'])],
    'importKey: jwk key_ops': [() => subtle.importKey('jwk', { ...jwk, key_ops: [secret] }, 'ML-DSA-44', false, ['sign'])],
    'importKey: jwk pub': [() => subtle.importKey('jwk', { ...jwk, pub: secret }, 'ML-DSA-44', false, ['sign'])],
    'importKey: jwk priv': [() => subtle.importKey('jwk', { ...jwk, priv: `${secret}!` }, 'ML-DSA-44', false, ['sign'])],
    'sign: key material as the algorithm': [() => subtle.sign(b64, privateKey, new Uint8Array(1))],
    'sign: key material as the algorithm name': [() => subtle.sign({ name: pem }, privateKey, new Uint8Array(1))],
  };
  const echoed = [];
  for (const [what, [call, describes]] of Object.entries(calls)) {
    const e = await call().then(
      () => assert.fail(`${what}: resolved`),
      (x) => x,
    );
    if (fragments.some((f) => String(e.message).includes(f))) echoed.push(what);
    else if (describes) assert.match(e.message, describes, what);
    for (let c = e.cause; c; c = c.cause)
      if (fragments.some((f) => String(c.message).includes(f))) t.diagnostic(`${what}: the cause's message (main API) contains the argument`);
  }
  assert.deepEqual(echoed, [], 'calls whose error message contains the argument');
});

test('keys made before a wasm trap keep working; a failure inside an operation is an OperationError', { skip, timeout: 120_000 }, () => {
  // A fresh Node records the package's instances (as lib/instance.mjs does)
  // before it imports mldsa-simd/webcrypto, whose main entry is the same
  // module as the user's `mldsa-simd`: the instance grown here is the one the
  // webcrypto keys use. A real trap, as in trap.test.mjs: memory grown to the
  // 4 GiB limit, then an ML-DSA-87 signature, which needs more heap.
  const out = inFreshNode(`
    const made = [];
    WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
      construct(target, args, newTarget) { const i = Reflect.construct(target, args, newTarget); made.push(i); return i; },
    });
    const lib = await import('mldsa-simd');
    const { subtle } = await import('mldsa-simd/webcrypto');
    const instances = () => made.filter((i) => typeof i.exports.prepare_signer === 'function').length;
    const grow = () => {
      const memory = made.filter((i) => typeof i.exports.prepare_signer === 'function').at(-1).exports.memory;
      memory.grow(65536 - memory.buffer.byteLength / 65536);
    };
    const outcome = (p) => p.then((v) => v, (e) => (e instanceof DOMException ? e.name : 'not a DOMException: ' + e));
    const data = new TextEncoder().encode('before and after a trap');
    const big = new Uint8Array(200_000).fill(7);
    const roundTrip = async (name, privateKey, publicKey, message = data) =>
      subtle.verify(name, publicKey, await subtle.sign(name, privateKey, message), message);
    const a = await subtle.generateKey('ML-DSA-87', false, ['sign', 'verify']);
    const b = await subtle.importKey('raw-seed', new Uint8Array(32).fill(5), 'ML-DSA-65', false, ['sign']);
    const bPublic = await subtle.getPublicKey(b, ['verify']);
    const before = [await roundTrip('ML-DSA-87', a.privateKey, a.publicKey), await roundTrip('ML-DSA-65', b, bPublic)];
    const first = instances();

    // A trap in the main API, then each key made before signs in the new instance.
    const sk = lib.ml_dsa87.keygen(new Uint8Array(32)).secretKey;
    grow();
    let trap = 'no trap';
    try { lib.ml_dsa87.sign(big, sk); } catch (e) { trap = e.cause?.constructor.name; }
    const afterTrap = [await outcome(roundTrip('ML-DSA-87', a.privateKey, a.publicKey)), await outcome(roundTrip('ML-DSA-65', b, bPublic))];
    const second = instances();

    // A trap inside subtle.sign (a key never used, so its signer is made in
    // this call): an OperationError, with the main API's error as its cause.
    // (Each trap costs seconds: the failed instance's 4 GiB are wiped.)
    const c = await subtle.generateKey('ML-DSA-87', false, ['sign', 'verify']);
    grow();
    let failed;
    try { await subtle.sign('ML-DSA-87', c.privateKey, big); failed = 'signed'; } catch (e) {
      failed = { name: e.name, isDOMException: e instanceof DOMException, cause: e.cause?.cause?.constructor.name };
    }
    const third = instances();
    const afterAll = [await outcome(roundTrip('ML-DSA-87', c.privateKey, c.publicKey, big)), await outcome(roundTrip('ML-DSA-87', a.privateKey, a.publicKey))];
    process.stdout.write(JSON.stringify({ before, trap, afterTrap, failed, afterAll, replaced: [second - first, third - second] }));`);
  assert.deepEqual(out, {
    before: [true, true],
    trap: 'RuntimeError',
    // Before: 'not a DOMException: Error: signer: the WebAssembly instance was replaced after a failure; make the signer again'.
    afterTrap: [true, true],
    failed: { name: 'OperationError', isDOMException: true, cause: 'RuntimeError' },
    afterAll: [true, true],
    replaced: [1, 1],
  });
});

test('util.inspect prints a key as Node prints its own CryptoKey, in Node 20, 22 and 24', { skip, timeout: 60_000 }, () => {
  const script = `
    import util from 'node:util';
    import { subtle } from 'mldsa-simd/webcrypto';
    const inspect = (v, o) => { try { return util.inspect(v, o); } catch (e) { return 'threw ' + (e.code ?? e.name); } };
    const shown = async (sub) => {
      const { privateKey, publicKey } = await sub.generateKey('ML-DSA-44', false, ['sign', 'verify']);
      return [inspect(privateKey), inspect(publicKey, { depth: 0 }), inspect({ nested: { key: privateKey } }, { depth: 1 }),
        inspect([publicKey], { colors: true }), inspect(privateKey, { compact: false })];
    };
    const native = await crypto.subtle.generateKey('ML-DSA-44', false, ['sign']).then(() => shown(crypto.subtle), () => undefined);
    process.stdout.write(JSON.stringify({ ours: await shown(subtle), native }));`;
  const expected = [
    "CryptoKey {\n  type: 'private',\n  extractable: false,\n  algorithm: { name: 'ML-DSA-44' },\n  usages: [ 'sign' ]\n}",
    'CryptoKey [Object]',
    '{ nested: { key: CryptoKey {} } }',
    "[\n  CryptoKey {\n    type: \x1b[32m'public'\x1b[39m,\n    extractable: \x1b[33mtrue\x1b[39m,\n    algorithm: { name: \x1b[32m'ML-DSA-44'\x1b[39m },\n    usages: [ \x1b[32m'verify'\x1b[39m ]\n  }\n]",
    "CryptoKey {\n  type: 'private',\n  extractable: false,\n  algorithm: {\n    name: 'ML-DSA-44'\n  },\n  usages: [\n    'sign'\n  ]\n}",
  ];
  const runs = { [process.versions.node]: inFreshNode(script) };
  for (const bin of [tool('node22/bin/node'), node24()]) {
    const r = spawnSync(bin, ['--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: consumerDir });
    assert.equal(r.status, 0, r.stderr);
    const { version } = JSON.parse(spawnSync(bin, ['-p', 'JSON.stringify({ version: process.versions.node })'], { encoding: 'utf8' }).stdout);
    runs[version] = JSON.parse(r.stdout);
  }
  assert.deepEqual(
    Object.keys(runs)
      .map((v) => v.split('.')[0])
      .sort(),
    ['20', '22', '24'],
  );
  for (const [version, { ours, native }] of Object.entries(runs)) {
    assert.deepEqual(ours, expected, `Node ${version}`); // before, in Node 24: 'threw ERR_INVALID_THIS' (the platform's hook)
    if (native) assert.deepEqual(native, expected, `Node ${version}'s own ML-DSA keys`);
  }
});

test('where the platform has no ML-DSA, structuredClone and postMessage refuse a key with a DataCloneError, never copy it as {}', {
  skip,
  timeout: 60_000,
}, () => {
  // (Where it has ML-DSA, the keys are the platform's and clone:
  // webcrypto-native.test.mjs.)
  const script = `
    import { subtle } from 'mldsa-simd/webcrypto';
    const { privateKey, publicKey } = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    const attempt = (f) => { try { return 'copied as ' + JSON.stringify(f()); } catch (e) { return (e instanceof DOMException ? '' : 'not a DOMException: ') + e.name; } };
    const port = new MessageChannel().port1;
    process.stdout.write(JSON.stringify({
      clone: [privateKey, publicKey].map((k) => attempt(() => structuredClone(k))),
      nested: attempt(() => structuredClone({ keys: [publicKey] })),
      postMessage: attempt(() => (port.postMessage(privateKey), 'sent')),
      shape: [Object.keys(privateKey), Reflect.ownKeys(publicKey), JSON.stringify(privateKey), Object.prototype.toString.call(privateKey)],
    }));
    port.close();`;
  const expected = {
    clone: ['DataCloneError', 'DataCloneError'], // (a plain object would be copied as {})
    nested: 'DataCloneError',
    postMessage: 'DataCloneError',
    shape: [[], [], '{}', '[object CryptoKey]'],
  };
  assert.deepEqual(inFreshNode(script), expected, `Node ${process.versions.node}`);
});

test('sign and verify convert their arguments, read the algorithm, then copy the bytes (the spec since w3c/webcrypto#426)', { skip }, async () => {
  // The editor's draft reads and normalizes the algorithm before it copies
  // the data (reordered in February 2026); Node 24 and Chromium 156 do so
  // too (HMAC, checked by hand). The bytes are copied once, after every
  // getter of the caller's has run: a getter that changes them changes what
  // is signed, and nothing changes them afterwards.
  const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
  const original = Uint8Array.of(1, 2, 3, 4);
  let data = original.slice();
  const overwritten = await subtle.sign(
    {
      get name() {
        data.fill(9);
        return 'ML-DSA-44';
      },
    },
    privateKey,
    data,
  );
  assert.equal(await subtle.verify('ML-DSA-44', publicKey, overwritten, data), true, 'signed: the bytes after the getter');
  assert.equal(await subtle.verify('ML-DSA-44', publicKey, overwritten, original), false);
  data = original.slice();
  const detached = await subtle.sign(
    {
      name: 'ML-DSA-44',
      get context() {
        structuredClone(data.buffer, { transfer: [data.buffer] });
        return undefined;
      },
    },
    privateKey,
    data,
  );
  assert.equal(await subtle.verify('ML-DSA-44', publicKey, detached, new Uint8Array(0)), true, 'signed: the empty message of a detached buffer');
  const sig = new Uint8Array(await subtle.sign('ML-DSA-44', privateKey, original));
  const pending = subtle.verify(
    {
      name: 'ML-DSA-44',
      get context() {
        sig[0] ^= 1;
        return undefined;
      },
    },
    publicKey,
    sig,
    original,
  );
  sig[0] ^= 1; // after the call: too late to matter
  assert.equal(await pending, false, 'verified: the signature after the getter, before the change that followed the call');
  // WebIDL converts data before the algorithm is read: a string is a TypeError, and the getter never runs.
  let reads = 0;
  const alg = {
    get name() {
      reads++;
      throw new RangeError('read');
    },
  };
  await assert.rejects(subtle.sign(alg, privateKey, 'text'), TypeError);
  await assert.rejects(subtle.verify(alg, publicKey, new Uint8Array(1), 'text'), TypeError);
  await assert.rejects(subtle.verify(alg, publicKey, 'signature', original), TypeError);
  assert.equal(reads, 0, 'the algorithm was read before the BufferSources were converted'); // before: RangeError, read 3 times
});

// The prepared signers of private keys are kept under the package's one cache
// policy (js/key-cache.js): at most as many as the instance's pool of expanded
// keys has slots (build/tables.js PREPARED_SLOTS, from the crate), the least
// recently used freed. More keys than that, each signing, then the first ones
// again: an evicted key's signer is made again, and every signature verifies.
test('more signing keys than the prepared-key slots: the evicted ones sign again', { skip, timeout: 120_000 }, async () => {
  const { PREPARED_SLOTS } = await import(pathToFileURL(path.join(repoRoot, 'build', 'tables.js')).href);
  assert.ok(PREPARED_SLOTS > 0);
  const { ml_dsa44 } = await importFromConsumer('mldsa-simd');
  const data = new TextEncoder().encode('evicted');
  const keys = [];
  for (let i = 0; i < PREPARED_SLOTS + 8; i++) {
    const pair = await subtle.generateKey({ name: 'ML-DSA-44' }, true, ['sign', 'verify']);
    const sig = new Uint8Array(await subtle.sign({ name: 'ML-DSA-44' }, pair.privateKey, data));
    assert.equal(await subtle.verify({ name: 'ML-DSA-44' }, pair.publicKey, sig, data), true);
    keys.push(pair);
  }
  const before = ml_dsa44.lengths.signature; // (the main entry is the one the keys use)
  for (const pair of keys.slice(0, 16)) {
    const sig = new Uint8Array(await subtle.sign({ name: 'ML-DSA-44' }, pair.privateKey, data));
    assert.equal(sig.length, before);
    const raw = new Uint8Array(await subtle.exportKey('raw-public', pair.publicKey));
    assert.equal(ml_dsa44.verify(sig, data, raw), true, 'a signature of an evicted key, made again');
  }
});

// A public key verifies one-shot the first time and through a prepared
// verifier (kept under the same policy) from the second: the answers are the
// same, for good and bad signatures, contexts and messages, and past the
// slots (verifiers evicted by other keys' signers and verifiers).
test('a public key answers the same on its first verification (one-shot) and later ones (prepared), past the slots too', {
  skip,
  timeout: 120_000,
}, async () => {
  const { PREPARED_SLOTS } = await import(pathToFileURL(path.join(repoRoot, 'build', 'tables.js')).href);
  const data = new TextEncoder().encode('verified twice');
  for (const name of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
    const ctx = { name, context: new Uint8Array([3]) };
    const { publicKey, privateKey } = await subtle.generateKey(name, false, ['sign', 'verify']);
    const sig = new Uint8Array(await subtle.sign(ctx, privateKey, data));
    const bad = sig.slice();
    bad[bad.length >> 1] ^= 4;
    const answers = [];
    for (let round = 0; round < 3; round++) {
      answers.push([
        await subtle.verify(ctx, publicKey, sig, data),
        await subtle.verify(ctx, publicKey, bad, data),
        await subtle.verify(name, publicKey, sig, data),
        await subtle.verify(ctx, publicKey, sig, data.subarray(1)),
        await subtle.verify(ctx, publicKey, sig.subarray(1), data),
      ]);
    }
    assert.deepEqual(answers, Array(3).fill([true, false, false, false, false]), name);
  }
  const pairs = [];
  for (let i = 0; i < PREPARED_SLOTS + 8; i++) {
    const pair = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
    const sig = await subtle.sign('ML-DSA-44', pair.privateKey, data);
    for (let n = 0; n < 2; n++) assert.equal(await subtle.verify('ML-DSA-44', pair.publicKey, sig, data), true);
    pairs.push({ ...pair, sig });
  }
  for (const { publicKey, sig } of pairs.slice(0, 16)) {
    assert.equal(await subtle.verify('ML-DSA-44', publicKey, sig, data), true, 'an evicted verifier, made again');
    assert.equal(await subtle.verify('ML-DSA-44', publicKey, sig, data.subarray(1)), false);
  }
});

test('a JsonWebKey whose prototype chain does not end (a proxy that is its own prototype) is a TypeError, not a hang', { skip, timeout: 30_000 }, async () => {
  const p = new Proxy({}, { getPrototypeOf: () => p });
  await assert.rejects(subtle.importKey('jwk', p, 'ML-DSA-44', true, ['verify']), (e) => e instanceof TypeError && /^keyData: /.test(e.message));
});

test('built-ins replaced after the import do not change what a key may do (usages are checked with plain loops, kept frozen)', {
  skip,
  timeout: 60_000,
}, () => {
  const script = `
    import { subtle } from 'mldsa-simd/webcrypto';
    const data = new Uint8Array([1, 2, 3]);
    const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-44', false, ['sign']); // the public key has no usages
    const sig = await subtle.sign('ML-DSA-44', privateKey, data);
    Array.prototype.includes = () => true;
    Array.prototype.some = () => false;
    Array.prototype.every = () => true;
    Object.freeze = (o) => o;
    let pushed;
    try { publicKey.usages.push('verify'); pushed = 'pushed'; } catch (e) { pushed = e.name; }
    const outcome = await subtle.verify('ML-DSA-44', publicKey, sig, data).then((v) => 'verified: ' + v, (e) => e.name);
    const imported = await subtle.importKey('raw-public', new Uint8Array(1312), 'ML-DSA-44', true, ['sign']).then(() => 'imported', (e) => e.name);
    process.stdout.write(JSON.stringify({ pushed, outcome, usages: publicKey.usages, imported }));`;
  assert.deepEqual(inFreshNode(script), { pushed: 'TypeError', outcome: 'InvalidAccessError', usages: [], imported: 'SyntaxError' });
});
