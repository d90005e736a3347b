// mldsa-simd/composite against the draft's test vectors
// (../shared/vectors/composite/, draft-ietf-lamps-pq-composite-sigs at commit
// 60fcb1e): the same checks (lib/composite-checks.mjs) in Node 20, Node 24,
// headless Chromium and Firefox ESR. Each platform serves the combinations
// whose traditional algorithm its WebCrypto has; for the others every
// operation needing it must reject with a NotSupportedError, and which those
// are is asserted per platform (docs/composite.md's table). In Node 20, besides: each
// check as a test of its own (non-separability among them), the hostile-object
// and secret-residue rules.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, PKG_NAME, consumerDir, repoRoot, node24, importFromConsumer } from './lib/load.mjs';
import { checkAll } from './lib/composite-checks.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const vectorsDir = path.join(repoRoot, '..', 'shared', 'vectors', 'composite');
const vectorsFile = path.join(vectorsDir, 'testvectors.json');
const vectors = JSON.parse(fs.readFileSync(vectorsFile, 'utf8'));
const checksUrl = pathToFileURL(path.join(repoRoot, 'pkg-tests', 'lib', 'composite-checks.mjs')).href;

// What each platform's WebCrypto lacks (docs/composite.md's table says the same).
const BRAINPOOL = ['MLDSA65-ECDSA-brainpoolP256r1-SHA512', 'MLDSA87-ECDSA-brainpoolP384r1-SHA512'];
const LACKS = {
  'Node 20': BRAINPOOL,
  'Node 24': BRAINPOOL,
  Chromium: [...BRAINPOOL, 'MLDSA87-Ed448-SHAKE256'],
  'Firefox ESR': [...BRAINPOOL, 'MLDSA87-Ed448-SHAKE256'],
};

/** Asserts a platform's results: every vector seen, every check true, the unsupported ones exactly `lacks`, each naming its algorithm. */
function assertResults(r, lacks, where) {
  assert.deepEqual(Object.keys(r).sort(), vectors.tests.map((t) => t.tcId.slice(3)).sort(), `${where}: every vector checked`);
  const unsupported = Object.keys(r)
    .filter((n) => r[n].unsupported)
    .sort();
  assert.deepEqual(unsupported, [...lacks].sort(), `${where}: the combinations its WebCrypto lacks`);
  for (const n of unsupported) {
    const alg = n.includes('brainpool') ? n.match(/brainpoolP\d+r1/)[0] : n.match(/Ed448|Ed25519|RSA|ECDSA-P\d+/)[0];
    assert.match(r[n].unsupported, new RegExp(`no .*${alg}`), `${where}: ${n}: the message names the algorithm`);
  }
  for (const [n, { checks, unsupported: u }] of Object.entries(r)) {
    const bad = Object.entries(checks).filter(([, v]) => v !== true);
    assert.deepEqual(bad, [], `${where}: ${n}: failed checks`);
    assert.ok(Object.keys(checks).length >= (n.startsWith('ML-DSA') ? 3 : u ? 9 : 22), `${where}: ${n}: all checks ran`);
  }
}

const load = async () => {
  const [{ composite, names }, main, { shake256 }] = await Promise.all([
    importFromConsumer(`${PKG_NAME}/composite`),
    importFromConsumer(PKG_NAME),
    importFromConsumer(`${PKG_NAME}/prehash`),
  ]);
  return { composite, names, shake256, mlDsa: { 44: main.ml_dsa44, 65: main.ml_dsa65, 87: main.ml_dsa87 } };
};

test("composite: names are the draft's 18 identifiers; pure ML-DSA and unknown names are TypeErrors", { skip }, async () => {
  const { composite, names } = await load();
  assert.equal(names.length, 18);
  const fromVectors = vectors.tests.map((t) => t.tcId.slice(3)).filter((n) => !n.startsWith('ML-DSA'));
  assert.deepEqual([...names].sort(), fromVectors.sort());
  names.forEach((n, i) => assert.equal(composite(n).oid, `1.3.6.1.5.5.7.6.${37 + i}`));
  assert.equal(composite(names[0]), composite(names[0]));
  for (const n of ['ML-DSA-44', 'id-MLDSA44-Ed25519-SHA512', 'mldsa44-ed25519-sha512', '']) assert.throws(() => composite(n), TypeError);
  assert.throws(() => composite('ML-DSA-65'), /plain ML-DSA.*ml_dsa65/);
  assert.throws(() => composite(1), /^TypeError: name: expected a string, got number$/);
});

let node20;
test('composite: every vector in Node 20', { skip, timeout: 120_000 }, async (t) => {
  node20 = await checkAll(await load(), vectors);
  assertResults(node20, LACKS['Node 20'], 'Node 20');
  t.diagnostic(`Node 20: ${Object.keys(node20).filter((n) => !node20[n].unsupported && !n.startsWith('ML-DSA')).length} combinations verified`);
});

// Each check, and the non-separability ones in particular, as a test of its own.
const CHECKS = [
  'vector verifies',
  'vector with context verifies',
  'vector refused under another context',
  'pkcs8 imports to the raw key',
  'raw key exports to the pkcs8',
  'certificate SPKI imports to the public key',
  'public key exports to the certificate SPKI',
  'certificate signature verifies under its own key',
  'our signature with the vector key verifies, also under the certificate key',
  'keygen, sign, verify (with context)',
  'flipped bit in the ML-DSA half refused',
  'flipped bit in the traditional half refused',
  'swapped half refused',
  'signature of another combination refused',
  'ML-DSA half refused as a pure ML-DSA signature',
  'bad signature bytes: false',
  'bad public key bytes: false',
  'wrong argument types: TypeError naming the argument',
];
for (const c of CHECKS) {
  test(`composite (Node 20): ${c}, for every combination served`, { skip }, () => {
    assert.ok(node20, 'the Node 20 run above did not finish');
    const served = Object.entries(node20).filter(([n, r]) => !r.unsupported && !n.startsWith('ML-DSA'));
    assert.equal(served.length, 16);
    for (const [n, r] of served) assert.equal(r.checks[c], true, `${n}: ${r.checks[c]}`);
  });
}

test('composite: every vector in Node 24', { skip, timeout: 180_000 }, () => {
  const script = `
    import fs from 'node:fs';
    import { composite } from '${PKG_NAME}/composite';
    import { ml_dsa44, ml_dsa65, ml_dsa87 } from '${PKG_NAME}';
    import { shake256 } from '${PKG_NAME}/prehash';
    const { checkAll } = await import(${JSON.stringify(checksUrl)});
    const vectors = JSON.parse(fs.readFileSync(${JSON.stringify(vectorsFile)}, 'utf8'));
    const r = await checkAll({ composite, shake256, mlDsa: { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 } }, vectors);
    process.stdout.write(JSON.stringify({ version: process.version, r }));`;
  const file = path.join(consumerDir, 'composite-node24.mjs');
  fs.writeFileSync(file, script);
  try {
    const p = spawnSync(node24(), ['--no-warnings', file], { cwd: consumerDir, encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(p.status, 0, p.stderr);
    const { version, r } = JSON.parse(p.stdout);
    assert.match(version, /^v24\./);
    assertResults(r, LACKS['Node 24'], 'Node 24');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd/composite</title></head>
<body><pre id="out">running…</pre>
<script type="module">
import { composite } from '/node_modules/${PKG_NAME}/composite.mjs';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '/node_modules/${PKG_NAME}/index.mjs';
import { shake256 } from '/node_modules/${PKG_NAME}/prehash.mjs';
import { checkAll } from '/lib/composite-checks.mjs';
try {
  const vectors = await (await fetch('/vectors/testvectors.json')).json();
  const r = await checkAll({ composite, shake256, mlDsa: { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 } }, vectors);
  window.__result = { r, userAgent: navigator.userAgent };
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
document.getElementById('out').textContent = 'done';
</script></body></html>`;

async function inBrowser(t, where, open) {
  const { serve } = await import('./lib/serve.mjs');
  const server = await serve(consumerDir, PAGE, { '/lib/': path.join(repoRoot, 'pkg-tests', 'lib'), '/vectors/': vectorsDir });
  let browser;
  try {
    browser = await open();
    const { page, problems } = browser;
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__result !== undefined, { timeout: 240_000, polling: 250 });
    const { r, userAgent, error } = await page.evaluate(() => window.__result);
    assert.equal(error, undefined, `${where}: the page threw: ${error}`);
    assert.deepEqual(problems, []);
    t.diagnostic(`${where}: ${userAgent}`);
    assertResults(r, LACKS[where], where);
  } finally {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('composite: every vector in headless Chromium', { skip, timeout: 300_000 }, async (t) => {
  const { openPage } = await import('./lib/chromium.mjs');
  await inBrowser(t, 'Chromium', () => openPage({ viewport: { width: 600, height: 300 } }));
});

test('composite: every vector in headless Firefox ESR', { skip, timeout: 300_000 }, async (t) => {
  const { openFirefox } = await import('./lib/firefox.mjs');
  await inBrowser(t, 'Firefox ESR', openFirefox);
});

// In a Node 20 process of its own, since it replaces globals before the
// package loads: Uint8Array by a Proxy that records every array constructed
// while a `sign` or `keygen` runs (the package captures it at load, as it does every
// built-in), and SubtleCrypto.prototype.importKey by one that records what it
// is given and makes. After `sign`, no array of the package's may hold the
// ML-DSA seed or a part of the traditional private key (the caller's own array
// keeps them), and the traditional key is a non-extractable platform key; after
// `keygen`, none but the private key returned.
const SECRETS = `
  import fs from 'node:fs';
  const made = [];
  let recording = false;
  const Plain = Uint8Array;
  globalThis.Uint8Array = new Proxy(Plain, {
    construct(target, args, newTarget) {
      const a = Reflect.construct(target, args, newTarget === globalThis.Uint8Array ? target : newTarget);
      if (recording) made.push(a);
      return a;
    },
  });
  const imports = [];
  const importKey = SubtleCrypto.prototype.importKey;
  SubtleCrypto.prototype.importKey = async function (format, data, ...rest) {
    const key = await importKey.call(this, format, data, ...rest);
    imports.push({ format, data, key });
    return key;
  };
  const { composite, names } = await import('${PKG_NAME}/composite');
  const vectors = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const b64 = (s) => new Plain(Buffer.from(s, 'base64'));
  const holds = (a, part) => {
    for (let i = 0; i + part.length <= a.length; i++) {
      let j = 0;
      while (j < part.length && a[i + j] === part[j]) j++;
      if (j === part.length) return true;
    }
    return false;
  };
  const out = {};
  for (const t of vectors.tests) {
    const name = t.tcId.slice(3);
    if (!names.includes(name) || name.includes('brainpool')) continue;
    const sk = b64(t.sk);
    const seed = sk.slice(0, 32);
    const trad = sk.slice(32);
    const part = trad.slice(trad.length - 24); // the end of the key: its last CRT value, scalar (after the curve for ECDSA: not), or the EdDSA key
    const tradPart = name.includes('ECDSA') ? trad.slice(7, 7 + 16) : part;
    made.length = 0;
    imports.length = 0;
    recording = true;
    let sig;
    try {
      sig = await composite(name).sign(b64(vectors.m), sk);
    } finally {
      recording = false;
    }
    const mine = made.filter((a) => a !== sk && a.buffer !== sk.buffer && a.buffer !== sig.buffer);
    const priv = imports.filter((i) => i.format === 'pkcs8');
    out[name] = {
      arrays: mine.length,
      seedLeft: mine.filter((a) => { try { return holds(a, seed); } catch { return false; } }).length,
      tradLeft: mine.filter((a) => { try { return holds(a, tradPart); } catch { return false; } }).length,
      imports: priv.length,
      wrappedWiped: priv.every((i) => new Plain(i.data.buffer ?? i.data, i.data.byteOffset ?? 0, i.data.byteLength).every((x) => x === 0)),
      key: priv.map((i) => [i.key.type, i.key.extractable, i.key.usages.join()]),
      callerKeyKept: sk.slice(0, 32).every((x, i) => x === seed[i]),
    };
    // keygen: the private key it returns is the only array left with its parts.
    made.length = 0;
    recording = true;
    let pair;
    try {
      pair = await composite(name).keygen();
    } finally {
      recording = false;
    }
    const kept = made.filter((a) => a.buffer !== pair.secretKey.buffer && a.buffer !== pair.publicKey.buffer);
    const newSeed = pair.secretKey.slice(0, 32);
    const newTrad = pair.secretKey.slice(pair.secretKey.length - 16);
    out[name].keygenLeft = kept.filter((a) => { try { return holds(a, newSeed) || holds(a, newTrad); } catch { return false; } }).length;
    out[name].keygenArrays = kept.length;
  }
  process.stdout.write(JSON.stringify(out));`;

test('composite (Node 20): after sign (and keygen) no copy of the ML-DSA seed or the traditional key is left, which lives only as a non-extractable CryptoKey', {
  skip,
  timeout: 120_000,
}, () => {
  const file = path.join(consumerDir, 'composite-secrets.mjs');
  fs.writeFileSync(file, SECRETS);
  try {
    const p = spawnSync(process.execPath, ['--no-warnings', file, vectorsFile], { cwd: consumerDir, encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(p.status, 0, p.stderr);
    const r = JSON.parse(p.stdout);
    assert.equal(Object.keys(r).length, 16);
    for (const [name, x] of Object.entries(r)) {
      assert.ok(x.arrays > 5, `${name}: arrays were recorded (${x.arrays})`);
      assert.ok(x.keygenArrays > 3, `${name}: arrays were recorded in keygen (${x.keygenArrays})`);
      assert.deepEqual(
        x,
        { ...x, seedLeft: 0, tradLeft: 0, imports: 1, wrappedWiped: true, key: [['private', false, 'sign']], callerKeyKept: true, keygenLeft: 0 },
        name,
      );
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test("composite (Node 20): hostile arguments are read once, into bytes of the package's own", { skip, timeout: 60_000 }, async () => {
  const { composite } = await load();
  const b64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));
  for (const name of ['MLDSA65-Ed25519-SHA512', 'MLDSA44-ECDSA-P256-SHA256']) {
    const v = vectors.tests.find((t) => t.tcId === `id-${name}`);
    const alg = composite(name);
    const m = b64(vectors.m);
    const ctx = b64(vectors.ctx);
    // An options bag whose getter counts its reads; a message whose own properties lie.
    let reads = 0;
    const opts = {
      get context() {
        reads++;
        return ctx;
      },
    };
    const lying = b64(vectors.m);
    Object.defineProperties(lying, {
      length: { value: 1 },
      byteLength: { value: 1 },
      subarray: { value: () => new Uint8Array(1) },
      slice: { value: () => new Uint8Array(1) },
    });
    const sig = await alg.sign(lying, b64(v.sk), opts);
    assert.equal(reads, 1, `${name}: the context getter read once`);
    assert.equal(await alg.verify(sig, m, b64(v.pk), { context: ctx }), true, `${name}: signed the real bytes`);
    // Arguments changed right after the call (before it settles) change nothing.
    const sk = b64(v.sk);
    const m2 = b64(vectors.m);
    const c2 = b64(vectors.ctx);
    const signing = alg.sign(m2, sk, { context: c2 });
    sk.fill(0);
    m2.fill(0);
    c2.fill(0);
    assert.equal(await alg.verify(await signing, m, b64(v.pk), { context: ctx }), true, `${name}: sign took copies`);
    const s = b64(v.sWithContext);
    const pk = b64(v.pk);
    const m3 = b64(vectors.m);
    const c3 = b64(vectors.ctx);
    const verifying = alg.verify(s, m3, pk, { context: c3 });
    s.fill(0);
    pk.fill(0);
    m3.fill(0);
    c3.fill(0);
    assert.equal(await verifying, true, `${name}: verify took copies`);
    // A Proxy, a revoked one, a subclass instance's fake tag, a plain array: TypeErrors naming the argument.
    const revocable = Proxy.revocable(m, {});
    revocable.revoke();
    for (const [bad, arg] of [
      [new Proxy(m, {}), 'message'],
      [revocable.proxy, 'message'],
      [[...m], 'message'],
      [new Uint16Array(4), 'message'],
    ])
      await assert.rejects(alg.verify(s, bad, pk), (e) => e instanceof TypeError && e.message.startsWith(`${arg}:`));
    // A platform method replaced after load never sees the key.
    const original = SubtleCrypto.prototype.importKey;
    let called = 0;
    SubtleCrypto.prototype.importKey = function (...a) {
      called++;
      return original.apply(this, a);
    };
    try {
      assert.equal(await alg.verify(await alg.sign(m, b64(v.sk)), m, b64(v.pk)), true);
    } finally {
      SubtleCrypto.prototype.importKey = original;
    }
    assert.equal(called, 0, `${name}: the replaced importKey was not called`);
    // Nor typed-array methods, or a species, replaced after load: none is asked to make an array of key bytes.
    const proto = Object.getPrototypeOf(Uint8Array.prototype);
    const saved = ['subarray', 'slice', 'set', 'fill'].map((k) => [k, proto[k]]);
    const species = Object.getOwnPropertyDescriptor(proto.constructor, Symbol.species);
    const seen = [];
    for (const [k, f] of saved)
      proto[k] = function (...a) {
        seen.push(k);
        return f.apply(this, a);
      };
    Object.defineProperty(proto.constructor, Symbol.species, {
      configurable: true,
      get() {
        seen.push('species');
        return species.get.call(this);
      },
    });
    let ok;
    try {
      const k = await alg.keygen();
      ok = await alg.verify(await alg.sign(m, k.secretKey, { context: ctx }), m, k.publicKey, { context: ctx });
      alg.importSecretKey(alg.exportSecretKey(k.secretKey, 'pkcs8'), 'pkcs8');
    } finally {
      for (const [k, f] of saved) proto[k] = f;
      Object.defineProperty(proto.constructor, Symbol.species, species);
    }
    assert.equal(ok, true);
    assert.deepEqual(seen, [], `${name}: replaced typed-array methods were called`);
  }
});

test("composite (Node 20): key formats refuse another algorithm's keys and malformed DER with an Error, wrong types with a TypeError", { skip }, async () => {
  const { composite } = await load();
  const b64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));
  const byName = (n) => vectors.tests.find((t) => t.tcId === `id-${n}`);
  const alg = composite('MLDSA65-ECDSA-P256-SHA512');
  const v = byName('MLDSA65-ECDSA-P256-SHA512');
  const otherAlg = composite('MLDSA65-Ed25519-SHA512');
  const spki = alg.exportPublicKey(b64(v.pk), 'spki');
  const pkcs8 = b64(v.sk_pkcs8);
  // Another combination's SPKI and PKCS#8 (same ML-DSA set), named by OID in the message.
  assert.throws(
    () => otherAlg.importPublicKey(spki, 'spki'),
    /^Error: publicKey: the algorithm is not MLDSA65-Ed25519-SHA512 \(OID 1\.3\.6\.1\.5\.5\.7\.6\.48/,
  );
  assert.throws(() => otherAlg.importSecretKey(pkcs8, 'pkcs8'), /^Error: secretKey: the algorithm is not MLDSA65-Ed25519-SHA512/);
  // Raw keys whose traditional part is not of the algorithm.
  assert.throws(() => otherAlg.importPublicKey(b64(v.pk)), /^Error: publicKey: not a MLDSA65-Ed25519-SHA512 public key/);
  assert.throws(() => alg.importPublicKey(b64(v.pk).subarray(0, 1952)), /^Error: publicKey/);
  // Malformed DER: a byte more, a byte less, a length that lies, parameters in the AlgorithmIdentifier.
  const plus = (d, ...x) => Uint8Array.from([...d, ...x]);
  for (const bad of [plus(spki, 0), spki.subarray(0, spki.length - 1), Uint8Array.from(spki, (x, i) => (i === 3 ? x + 1 : x))])
    assert.throws(() => alg.importPublicKey(bad, 'spki'), /^Error: publicKey/);
  for (const bad of [plus(pkcs8, 0), pkcs8.subarray(0, pkcs8.length - 1), Uint8Array.from(pkcs8, (x, i) => (i === 4 ? 2 : x))])
    assert.throws(() => alg.importSecretKey(bad, 'pkcs8'), /^Error: secretKey/);
  assert.throws(() => alg.importPublicKey('-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n', 'pem'), /^Error: publicKey/);
  assert.throws(() => alg.importPublicKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'pem'), /^Error: publicKey/);
  // A private key the platform would be handed is refused before: an ECPrivateKey for another curve.
  const p384 = byName('MLDSA65-ECDSA-P384-SHA512');
  const mixed = plus(b64(v.sk).subarray(0, 32), ...b64(p384.sk).subarray(32));
  await assert.rejects(alg.sign(b64(vectors.m), mixed), /^Error: secretKey: the ECDSA P-256 private key is not in the draft's encoding/);
  await assert.rejects(alg.sign(b64(vectors.m), b64(v.sk).subarray(0, 32)), RangeError);
  // Types and format names.
  assert.throws(() => alg.importPublicKey(spki, 'jwk'), /^TypeError: format/);
  assert.throws(() => alg.importPublicKey(Buffer.from(spki).toString('base64'), 'spki'), /^TypeError: publicKey/);
  assert.throws(() => alg.importPublicKey(spki, 'pem'), /^TypeError: publicKey: expected a string/);
  assert.throws(() => alg.exportSecretKey([1, 2, 3], 'pkcs8'), /^TypeError: secretKey/);
  // Neither a key nor any of its bytes in a message.
  try {
    alg.importSecretKey(plus(pkcs8, 0), 'pkcs8');
  } catch (e) {
    assert.doesNotMatch(e.message, /\d{3,}|[A-Za-z0-9+/]{20,}/);
  }
});
