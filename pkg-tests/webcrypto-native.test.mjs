// mldsa-simd/webcrypto where the platform has ML-DSA (Node 24): the keys its
// subtle makes and imports are the platform's own CryptoKeys (they clone,
// and the platform's crypto.subtle and jose take them), while signing with
// them runs in wasm (the platform's sign is not called); a platform key it
// never saw (made by the platform, or a clone) is signed with by the
// platform. What the platform can do is found out by trying it: a platform
// whose ML-DSA signs wrongly, or refuses a context, gets keys of ours.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, repoRoot, consumerDir, node24 } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/webcrypto is not part of the noble API (MLDSA_IMPL=noble)' : false;
const JOSE = pathToFileURL(path.join(repoRoot, 'node_modules/jose/dist/webapi/index.js')).href;

/** Runs `source` (an ES module) in Node 24 from the consumer folder, after `prelude` (run before the package loads); returns its JSON. */
function inNode24(prelude, source) {
  const file = path.join(consumerDir, `webcrypto-native-${process.pid}.mjs`);
  // util.types.isCryptoKey: whether a key is the platform's (it reads the platform's internal slot).
  const head = "const { types: { isCryptoKey: isPlatformKey } } = await import('node:util');";
  fs.writeFileSync(file, `${head}\n${prelude}\nconst { subtle } = await import('mldsa-simd/webcrypto');\n${source}`);
  try {
    const r = spawnSync(node24(), ['--no-warnings', file], { encoding: 'utf8', cwd: consumerDir });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

// Counts the platform's ML-DSA signatures (installed before the package captures the platform's methods).
const COUNT_SIGNS = `
  const platformSign = SubtleCrypto.prototype.sign;
  globalThis.platformSigns = 0;
  SubtleCrypto.prototype.sign = function (algorithm, ...rest) {
    if (/^ML-DSA/i.test(algorithm?.name ?? algorithm)) platformSigns++;
    return platformSign.call(this, algorithm, ...rest);
  };`;

test("Node 24: keys of subtle are the platform's, clone, and work with its crypto.subtle and jose both ways; signing runs in wasm", {
  skip,
  timeout: 120_000,
}, () => {
  const out = inNode24(
    COUNT_SIGNS,
    `
    const jose = await import(${JSON.stringify(JOSE)});
    const data = new TextEncoder().encode('native-first');
    const results = {};
    for (const name of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
      const ctx = { name, context: new Uint8Array([1, 2, 3]) };
      const r = (results[name] = {});
      const { privateKey, publicKey } = await subtle.generateKey(name, false, ['sign', 'verify']);
      r.platformKeys = [privateKey, publicKey].every((k) => isPlatformKey(k));
      r.attributes = [privateKey.type, privateKey.extractable, privateKey.usages, publicKey.type, publicKey.extractable, publicKey.usages];
      const before = platformSigns;
      const ours = [];
      for (let i = 0; i < 3; i++) ours.push(await subtle.sign(ctx, privateKey, data));
      r.platformSignsForOurs = platformSigns - before;
      r.platformVerifiesOurs = await crypto.subtle.verify(ctx, publicKey, ours[0], data);
      r.oursVerifiesPlatform = await subtle.verify(ctx, publicKey, await crypto.subtle.sign(ctx, privateKey, data), data);
      r.wrongContext = await subtle.verify({ name, context: new Uint8Array([1, 2]) }, publicKey, ours[0], data);
      // A clone is a platform key this module never saw: the platform signs with it.
      const clone = structuredClone(privateKey);
      const atClone = platformSigns;
      r.cloneSigned = await subtle.verify(ctx, publicKey, await subtle.sign(ctx, clone, data), data);
      r.platformSignsForClone = platformSigns - atClone;
      const port = new MessageChannel();
      const received = new Promise((resolve) => (port.port2.onmessage = (e) => resolve(e.data)));
      port.port1.postMessage(publicKey);
      r.posted = (await received).algorithm.name;
      port.port1.close(); port.port2.close();
      // Imports of every format give platform keys, and export back to the same bytes.
      const seedKey = await subtle.importKey('raw-seed', new Uint8Array(32).fill(9), name, true, ['sign']);
      const pkcs8 = await subtle.exportKey('pkcs8', seedKey);
      const pub = await subtle.getPublicKey(seedKey, ['verify']);
      const spki = await subtle.exportKey('spki', pub);
      const jwk = await subtle.exportKey('jwk', seedKey);
      const imported = [
        await subtle.importKey('pkcs8', pkcs8, name, false, ['sign']),
        await subtle.importKey('jwk', jwk, name, true, ['sign']),
        await subtle.importKey('spki', spki, name, true, ['verify']),
        await subtle.importKey('raw-public', await subtle.exportKey('raw-public', pub), name, true, ['verify']),
        pub,
      ];
      r.importedPlatformKeys = imported.every((k) => isPlatformKey(k));
      r.platformExportsSame = Buffer.from(await crypto.subtle.exportKey('pkcs8', imported[1])).equals(Buffer.from(pkcs8)) &&
        Buffer.from(await crypto.subtle.exportKey('spki', imported[3])).equals(Buffer.from(spki));
      r.importedSignVerify = await crypto.subtle.verify(name, imported[2], await subtle.sign(name, imported[0], data), data);
      // A key of the platform's own works with ours, both ways.
      const theirs = await crypto.subtle.generateKey(name, true, ['sign', 'verify']);
      r.platformKeyWithOurs = await subtle.verify(ctx, theirs.publicKey, await subtle.sign(ctx, theirs.privateKey, data), data);
      // jose takes our keys through the platform's crypto.subtle.
      const jwt = await new jose.SignJWT({ sub: 'x' }).setProtectedHeader({ alg: name }).sign(privateKey);
      r.jose = (await jose.jwtVerify(jwt, publicKey)).payload.sub;
    }
    process.stdout.write(JSON.stringify(results));`,
  );
  for (const [name, r] of Object.entries(out)) {
    assert.deepEqual(
      r,
      {
        platformKeys: true,
        attributes: ['private', false, ['sign'], 'public', true, ['verify']],
        platformSignsForOurs: 0,
        platformVerifiesOurs: true,
        oursVerifiesPlatform: true,
        wrongContext: false,
        cloneSigned: true,
        platformSignsForClone: 1,
        posted: name,
        importedPlatformKeys: true,
        platformExportsSame: true,
        importedSignVerify: true,
        platformKeyWithOurs: true,
        jose: 'x',
      },
      name,
    );
  }
});

test('Node 24: a platform ML-DSA that signs wrongly, or refuses a context, is not used: the keys are ours', { skip, timeout: 60_000 }, () => {
  const probe = `
    const data = new Uint8Array([4, 5, 6]);
    const { privateKey, publicKey } = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
    let cloned;
    try { structuredClone(privateKey); cloned = 'cloned'; } catch (e) { cloned = e.name; }
    const ctx = { name: 'ML-DSA-44', context: new Uint8Array([7]) };
    process.stdout.write(JSON.stringify({
      platformKey: isPlatformKey(privateKey),
      cloned,
      works: await subtle.verify(ctx, publicKey, await subtle.sign(ctx, privateKey, data), data),
    }));`;
  const ours = { platformKey: false, cloned: 'DataCloneError', works: true };
  const wrong = `
    const sign = SubtleCrypto.prototype.sign;
    SubtleCrypto.prototype.sign = async function (...args) { const s = new Uint8Array(await sign.apply(this, args)); s[0] ^= 1; return s.buffer; };`;
  assert.deepEqual(inNode24(wrong, probe), ours, 'a platform whose signatures do not verify');
  const noContext = `
    const sign = SubtleCrypto.prototype.sign;
    SubtleCrypto.prototype.sign = function (algorithm, ...rest) {
      if (algorithm?.context?.byteLength) return Promise.reject(new DOMException('no context', 'NotSupportedError'));
      return sign.call(this, algorithm, ...rest);
    };`;
  assert.deepEqual(inNode24(noContext, probe), ours, 'a platform that refuses a context');
  assert.deepEqual(inNode24('', probe), { platformKey: true, cloned: 'cloned', works: true }, 'the platform as it is');
});
