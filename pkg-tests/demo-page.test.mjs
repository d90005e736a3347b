// The demo page (www/index.html) in headless Debian Chromium, clicked through
// like a person would: www/serve.mjs serves the repository on loopback with
// /pkg/ pointing at the package installed from the packed tarball. Every path:
// key generation for each set (the shown public key is the one the shown seed
// gives), PEM and JWK export (read back by the package here and by node:crypto
// of Node 24), signing text and a file chosen with the file input (progress bar
// to 100%), a large file signed while the page keeps drawing frames and handles a
// click on Cancel, a dropped file, verification: valid (PEM and JWK keys, text and file), invalid
// (a flipped byte, another message, a wrong length), and the messages for a
// malformed key and malformed base64. Every signature the page makes is checked
// in Node. Screenshots of each state: artifacts/demo-*.png. Times are reported,
// never asserted.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPL, artifactsDir, installedPackageDir, lib, keys, inNode24, repoRoot } from './lib/load.mjs';
import { Rng, equalBytes } from './lib/util.mjs';
import { openPage } from './lib/chromium.mjs';
import { startServer } from '../www/serve.mjs';
import { fromBase64, toBase64, toHex } from '../www/encoding.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const rng = new Rng('demo-page');
const MiB = 1 << 20;
const FILE_BYTES = 4 * MiB;
// Large enough that signing takes many frames on any machine this runs on.
const BIG_BYTES = Number(process.env.MLDSA_DEMO_BIG_MIB || 128) * MiB;
const SETS = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };
const { importPublicKey, exportPublicKey, importSecretKey } = keys;
const utf8 = (s) => new TextEncoder().encode(s);
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const fromB64url = (s) => new Uint8Array(Buffer.from(s, 'base64url'));
// What a stack trace looks like in V8's output: "    at f (file.js:1:2)".
const STACK = /\n\s*at |\.m?js:\d+:\d+/;

test('random seed', (t) => t.diagnostic(`demo-page: MLDSA_TEST_SEED=${rng.seedHex}`));

test('encoding.mjs: base64 round trip and strict decoding', () => {
  for (let n = 0; n < 40; n++) {
    const bytes = rng.bytes(n);
    assert.equal(toBase64(bytes), b64(bytes));
    assert.equal(toHex(bytes), Buffer.from(bytes).toString('hex'));
    if (n) assert.ok(equalBytes(fromBase64(b64(bytes)), bytes), `length ${n}`);
    if (n) assert.ok(equalBytes(fromBase64(b64(bytes).replace(/=+$/, '')), bytes), `length ${n} unpadded`);
  }
  const big = rng.bytes(100_000);
  assert.ok(equalBytes(fromBase64(b64(big).replace(/(.{64})/g, '$1\r\n')), big), 'line breaks are ignored');
  for (const [bad, why] of [
    ['', /empty/],
    ['  \n', /empty/],
    ['AB*D', /the character "\*" at position 3/],
    ['AB-_', /the character "-" at position 3/],
    ['AB=D', /padding "=" before the end at position 3/],
    ['ABCDE', /5 characters is not a whole number of bytes/],
    ['AB===', /not a whole number/],
    ['ABCD=', /not a whole number/],
    ['ABC==', /not a whole number/],
  ]) {
    assert.throws(() => fromBase64(bad, 'Signature'), (e) => e.constructor === Error && /^Signature: /.test(e.message) && why.test(e.message), JSON.stringify(bad));
  }
  assert.throws(() => fromBase64(new Uint8Array(4), 'Signature'), TypeError);
});

/** A file of `size` bytes: random, or one random MiB repeated for the large one. */
function writeFile(dir, name, size) {
  const file = path.join(dir, name);
  const chunk = rng.bytes(Math.min(size, MiB));
  const fd = fs.openSync(file, 'w');
  for (let at = 0; at < size; at += chunk.length) fs.writeSync(fd, chunk, 0, Math.min(chunk.length, size - at));
  fs.closeSync(fd);
  return file;
}

test('demo page: every path in headless Chromium', { skip, timeout: 240_000 }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-demo-'));
  const server = await startServer({ root: repoRoot, pkgDir: installedPackageDir() });
  const base = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await openPage({ viewport: { width: 1000, height: 900 }, profilePrefix: 'mldsa-demo-chromium-' });
    const { page: pg, problems, offsite } = browser;
    fs.mkdirSync(artifactsDir, { recursive: true });
    const shots = [];
    const shot = async (name) => {
      const file = path.join(artifactsDir, `demo-${name}.png`);
      await pg.screenshot({ path: file, fullPage: true });
      shots.push(path.relative(repoRoot, file));
    };
    const value = (sel) => pg.$eval(sel, (e) => e.value);
    const text = (sel) => pg.$eval(sel, (e) => e.textContent);
    const stateOf = (sel) => pg.$eval(sel, (e) => e.dataset.state);
    const waitState = (sel, states, timeout = 60_000) =>
      pg.waitForFunction(([s, ok]) => ok.includes(document.querySelector(s).dataset.state), [sel, states], { timeout, polling: 50 });
    // The progress bar's value after each task that changed it (a MutationObserver
    // runs at the end of the task; the attribute reflects .value), with the count of
    // animation frames drawn by then: the values the page could have painted.
    const watchProgress = (sel) =>
      pg.evaluate((s) => {
        const bar = document.querySelector(s);
        const log = (window.__progress = []);
        window.__frames ??= 0;
        if (!window.__counting) {
          window.__counting = true;
          const tick = () => {
            window.__frames++;
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }
        window.__observer?.disconnect();
        window.__observer = new MutationObserver(() => log.push({ value: bar.position, frames: window.__frames }));
        window.__observer.observe(bar, { attributes: true, attributeFilter: ['value'] });
      }, sel);
    const progressLog = () => pg.evaluate(() => window.__progress);

    await pg.goto(`${base}/www/index.html`, { waitUntil: 'load' });
    await pg.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
    assert.equal(await pg.evaluate(() => document.body.dataset.ready), 'yes', `the page did not start: ${await text('#fatal')}`);
    await shot('start');

    let key;
    await t.test('keygen: each set; the public key shown is the one the seed shown gives', async () => {
      for (const set of ['ML-DSA-44', 'ML-DSA-87', 'ML-DSA-65']) {
        await pg.selectOption('#set', set);
        await pg.click('#keygen');
        const seedHex = await value('#seed');
        assert.match(seedHex, /^[0-9a-f]{64}$/, `${set}: the seed is 32 bytes of hex`);
        const seed = new Uint8Array(Buffer.from(seedHex, 'hex'));
        const publicKey = new Uint8Array(Buffer.from(await value('#public-hex'), 'hex'));
        assert.ok(equalBytes(publicKey, SETS[set].keygen(seed).publicKey), `${set}: keygen(seed) gives another public key`);
        assert.equal(await text('#public-len'), String(SETS[set].lengths.publicKey));
        assert.match(await text('#sign-btn'), new RegExp(set));
        key = { set, seed, publicKey };
      }
      const again = await value('#seed');
      await pg.click('#keygen');
      assert.notEqual(await value('#seed'), again, 'a second key pair has a new seed');
      key.seed = new Uint8Array(Buffer.from(await value('#seed'), 'hex'));
      key.publicKey = SETS[key.set].keygen(key.seed).publicKey;
      await shot('keygen');
    });
    const alg = SETS[key.set];

    const exported = {};
    await t.test('export: PEM (SPKI / PKCS#8) and JWK read back as the same key', async () => {
      await pg.click('#export-pem');
      exported.publicPem = await value('#export-public');
      exported.privatePem = await value('#export-private');
      assert.match(exported.publicPem, /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n?$/);
      assert.match(exported.privatePem, /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n?$/);
      assert.ok(equalBytes(importPublicKey(alg, exported.publicPem, 'pem'), key.publicKey));
      const priv = importSecretKey(alg, exported.privatePem, 'pem');
      assert.ok(equalBytes(priv.seed, key.seed), 'the PKCS#8 key holds the seed shown');
      assert.ok(equalBytes(priv.publicKey, key.publicKey));
      assert.equal(await pg.getAttribute('#export-pem', 'aria-pressed'), 'true');
      await shot('export-pem');

      await pg.click('#export-jwk');
      assert.equal(await pg.getAttribute('#export-jwk', 'aria-pressed'), 'true');
      exported.publicJwk = JSON.parse(await value('#export-public'));
      exported.privateJwk = JSON.parse(await value('#export-private'));
      assert.equal(exported.publicJwk.kty, 'AKP');
      assert.equal(exported.publicJwk.alg, key.set);
      assert.ok(equalBytes(fromB64url(exported.publicJwk.pub), key.publicKey));
      assert.equal(exported.publicJwk.priv, undefined, 'no private part in the public JWK');
      assert.ok(equalBytes(fromB64url(exported.privateJwk.priv), key.seed));
      assert.ok(equalBytes(importSecretKey(alg, exported.privateJwk, 'jwk').publicKey, key.publicKey));
      await shot('export-jwk');
    });

    const message = 'Grüße from the demo page ✓ (UTF-8)';
    let textSig;
    await t.test('sign text: a signature of the UTF-8 text under the generated key', async () => {
      await pg.fill('#text', message);
      assert.equal(await pg.isChecked('#source-text'), true);
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error']);
      assert.equal(await stateOf('#sign-status'), 'done', await text('#sign-status'));
      textSig = fromBase64(await value('#signature'));
      assert.equal(textSig.length, alg.lengths.signature);
      assert.equal(alg.verify(textSig, utf8(message), key.publicKey), true, 'the page signature does not verify in Node');
      assert.equal(alg.verify(textSig, utf8(message + ' '), key.publicKey), false);
      assert.equal(await pg.$eval('#sign-progress', (e) => e.position), 1);
      assert.match(await text('#sign-status'), /Signed the text \(\d+ bytes\) with ML-DSA-65 in [\d.]+ m?s/);
      await shot('sign-text');
    });

    const smallFile = writeFile(tmp, 'demo-4MiB.bin', FILE_BYTES);
    let fileSig;
    await t.test(`sign a ${FILE_BYTES / MiB} MiB file from the file input: progress to 100%, streamed in the worker`, async () => {
      await pg.setInputFiles('#file', smallFile);
      assert.equal(await pg.isChecked('#source-file'), true, 'choosing a file selects it as the message');
      assert.equal(await text('#file-info'), `demo-4MiB.bin: ${(FILE_BYTES / MiB).toFixed(1)} MiB`);
      await watchProgress('#sign-progress');
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error']);
      assert.equal(await stateOf('#sign-status'), 'done', await text('#sign-status'));
      const status = await text('#sign-status');
      fileSig = fromBase64(await value('#signature'));
      assert.equal(alg.verify(fileSig, new Uint8Array(fs.readFileSync(smallFile)), key.publicKey), true, 'the file signature does not verify in Node');
      const log = await progressLog();
      const values = log.map((x) => x.value);
      assert.equal(values.at(-1), 1, 'the progress bar ends at 100%');
      assert.ok(values.filter((v) => v > 0 && v < 1).length >= 2, `the bar moved through intermediate values: ${values.join(' ')}`);
      for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], `progress went back: ${values.join(' ')}`);
      t.diagnostic(`demo-page: ${status}`);
      await shot('sign-file');
    });

    await t.test('sign a file dropped on the drop zone', async () => {
      const bytes = rng.bytes(100_000);
      await pg.check('#source-text');
      const over = await pg.evaluate((base64) => {
        const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const zone = document.querySelector('#drop');
        const dt = new DataTransfer();
        dt.items.add(new File([data], 'dropped.bin'));
        zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        const highlighted = zone.classList.contains('over');
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        return highlighted && !zone.classList.contains('over');
      }, b64(bytes));
      assert.equal(over, true, 'the zone is highlighted while a file is over it, and not after the drop');
      assert.equal(await pg.isChecked('#source-file'), true, 'a dropped file becomes the message');
      assert.equal(await text('#file-info'), 'dropped.bin: 97.7 KiB');
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error']);
      assert.equal(await stateOf('#sign-status'), 'done', await text('#sign-status'));
      assert.equal(alg.verify(fromBase64(await value('#signature')), bytes, key.publicKey), true, 'the dropped file signature does not verify in Node');
    });

    const bigFile = writeFile(tmp, 'demo-big.bin', BIG_BYTES);
    await t.test(`sign a ${BIG_BYTES / MiB} MiB file: the page keeps drawing frames and handles a click on Cancel`, async () => {
      await pg.setInputFiles('#file', bigFile);
      await watchProgress('#sign-progress');
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error'], 180_000);
      assert.equal(await stateOf('#sign-status'), 'done', await text('#sign-status'));
      const log = await progressLog();
      const during = log.filter((x) => x.value > 0 && x.value < 1);
      assert.ok(during.length >= 10, `progress updates while signing: ${during.length}`);
      const frames = during.at(-1).frames - during[0].frames;
      t.diagnostic(`demo-page: ${await text('#sign-status')}; ${frames} animation frames drawn between the first and last progress update`);
      assert.ok(frames >= 5, `the page drew ${frames} frames while the worker signed`);
      // Node reads the same bytes: the signature is over the whole file.
      const sig = fromBase64(await value('#signature'));
      const v = alg.createVerify(key.publicKey);
      const fd = fs.openSync(bigFile, 'r');
      const buf = new Uint8Array(MiB);
      for (let n; (n = fs.readSync(fd, buf, 0, MiB)) > 0; ) v.update(buf.subarray(0, n));
      fs.closeSync(fd);
      assert.equal(v.verify(sig), true, 'the large file signature does not verify in Node');

      // Again, and a click on Cancel while the bar is under way.
      await pg.$eval('#signature', (e) => (e.value = ''));
      await watchProgress('#sign-progress');
      await pg.click('#sign-btn');
      await pg.waitForFunction(() => document.querySelector('#sign-progress').position > 0, null, { timeout: 60_000, polling: 'raf' });
      await pg.click('#sign-cancel');
      await waitState('#sign-status', ['cancelled', 'done', 'error']);
      assert.equal(await stateOf('#sign-status'), 'cancelled', `the click was not handled while signing: ${await text('#sign-status')}`);
      assert.ok((await pg.$eval('#sign-progress', (e) => e.position)) < 1);
      assert.equal(await value('#signature'), '', 'no signature after Cancel');
      assert.equal(await pg.isDisabled('#sign-cancel'), true);
      assert.equal(await pg.isEnabled('#sign-btn'), true, 'signing can start again');
      await shot('sign-cancelled');
    });

    const verifyWith = async (keyText, sigText, source) => {
      await pg.check(source === 'file' ? '#source-file' : '#source-text');
      await pg.fill('#verify-key', keyText);
      await pg.fill('#verify-sig', sigText);
      await pg.click('#verify-btn');
      await waitState('#verify-result', ['valid', 'invalid', 'error']);
      return { state: await stateOf('#verify-result'), text: await text('#verify-result') };
    };

    await t.test('verify: valid for the page signatures, with the generated, PEM and JWK keys, text and file', async () => {
      await pg.setInputFiles('#file', smallFile);
      await pg.check('#source-text');
      await pg.click('#use-key');
      assert.equal(await value('#verify-key'), exported.publicPem, '"Use the generated key" pastes its PEM');
      await pg.fill('#verify-sig', b64(textSig));
      await pg.click('#verify-btn');
      await waitState('#verify-result', ['valid', 'invalid', 'error']);
      assert.equal(await stateOf('#verify-result'), 'valid', await text('#verify-result'));
      assert.match(await text('#verify-result'), /Valid signature.*ML-DSA-65 key, the text/);
      assert.equal(await pg.$eval('#verify-progress', (e) => e.position), 1);
      await shot('verify-valid');

      let r = await verifyWith(JSON.stringify(exported.publicJwk, null, 2), b64(textSig), 'text');
      assert.equal(r.state, 'valid', `JWK key: ${r.text}`);
      r = await verifyWith(exported.publicPem, b64(fileSig).replace(/(.{76})/g, '$1\n'), 'file');
      assert.equal(r.state, 'valid', `file: ${r.text}`);
      assert.match(r.text, /the file demo-4MiB\.bin/);
    });

    await t.test('verify: invalid for a flipped byte, another message, a signature of the wrong length', async () => {
      const flipped = textSig.slice();
      flipped[rng.int(flipped.length)] ^= 1 << rng.int(8);
      let r = await verifyWith(exported.publicPem, b64(flipped), 'text');
      assert.equal(r.state, 'invalid', `flipped byte: ${r.text}`);
      assert.equal(alg.verify(flipped, utf8(message), key.publicKey), false);
      await shot('verify-invalid');
      r = await verifyWith(exported.publicPem, b64(textSig), 'file');
      assert.equal(r.state, 'invalid', `the text signature for the file: ${r.text}`);
      await pg.fill('#text', message + '!');
      r = await verifyWith(exported.publicPem, b64(textSig), 'text');
      assert.equal(r.state, 'invalid', `another text: ${r.text}`);
      await pg.fill('#text', message);
      r = await verifyWith(exported.publicPem, b64(textSig.subarray(1)), 'text');
      assert.equal(r.state, 'invalid', `short signature: ${r.text}`);
      assert.match(r.text, new RegExp(`It is ${textSig.length - 1} bytes; ML-DSA-65 signatures are ${textSig.length} bytes`));
      // A valid signature under another set's key: the set comes from the key.
      const other = lib.ml_dsa44.keygen(rng.bytes(32));
      const sig44 = lib.ml_dsa44.sign(utf8(message), other.secretKey);
      r = await verifyWith(exportPublicKey(lib.ml_dsa44, other.publicKey, 'pem'), b64(sig44), 'text');
      assert.equal(r.state, 'valid', `an ML-DSA-44 key and signature made in Node: ${r.text}`);
      assert.match(r.text, /ML-DSA-44 key/);
    });

    await t.test('verify: a malformed key or malformed base64 is named in a message, never a stack trace', async () => {
      const pemBody = exported.publicPem.split('\n');
      const cases = [
        ['garbage PEM', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----', b64(textSig), /^Cannot verify Public key \(PEM\): /, 'bad-key'],
        ['truncated PEM', [...pemBody.slice(0, 3), ...pemBody.slice(-2)].join('\n'), b64(textSig), /^Cannot verify Public key \(PEM\): /],
        ['a private key', exported.privatePem, b64(textSig), /^Cannot verify Public key \(PEM\): .*BEGIN PUBLIC KEY/],
        ['JWK that is not JSON', '{"kty": "AKP", ', b64(textSig), /^Cannot verify Public key: this JWK is not valid JSON\.$/],
        ['JWK of another type', '{"kty":"EC","crv":"P-256"}', b64(textSig), /^Cannot verify Public key \(JWK\): .*AKP/],
        ['neither', 'hello', b64(textSig), /^Cannot verify Public key: neither PEM .* nor JWK/],
        ['no key', '', b64(textSig), /^Cannot verify Public key: paste a PEM/],
        ['base64 with a bad character', exported.publicPem, 'not*base64', /^Cannot verify Signature: not base64: the character "\*" at position 4$/, 'bad-base64'],
        ['truncated base64', exported.publicPem, b64(textSig).slice(0, -3), /^Cannot verify Signature: not base64: .*not a whole number of bytes/],
        ['no signature', exported.publicPem, '  ', /^Cannot verify Signature: paste a base64 signature\.$/],
      ];
      for (const [what, keyText, sigText, expected, shotName] of cases) {
        const r = await verifyWith(keyText, sigText, 'text');
        assert.equal(r.state, 'error', `${what}: ${r.text}`);
        assert.match(r.text, expected, what);
        assert.doesNotMatch(r.text, STACK, `${what}: a stack trace is shown`);
        if (shotName) await shot(`verify-${shotName}`);
      }
    });

    await t.test('copy: the Copy button puts the signature on the clipboard', async () => {
      await pg.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      await pg.check('#source-text');
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error']);
      const shown = await value('#signature');
      await pg.click('button[data-copy="signature"]');
      // The label goes back to "Copy" after 1.5 s: read it in the same step that sees it change.
      const label = await pg.waitForFunction(() => {
        const t = document.querySelector('button[data-copy="signature"]').textContent;
        return t !== 'Copy' && t;
      }, null, { timeout: 5000 });
      assert.equal(await label.jsonValue(), 'Copied');
      assert.equal(await pg.evaluate(() => navigator.clipboard.readText()), shown);
    });

    await t.test('node:crypto (Node 24) reads the exported keys and verifies the page signatures', () => {
      const out = inNode24(
        `
        const pub = crypto.createPublicKey(input.publicPem);
        const fromJwk = crypto.createPublicKey({ key: input.publicJwk, format: 'jwk' });
        const priv = crypto.createPrivateKey(input.privatePem);
        const privJwk = crypto.createPrivateKey({ key: input.privateJwk, format: 'jwk' });
        const spki = (k) => k.export({ type: 'spki', format: 'der' }).toString('base64');
        return {
          type: pub.asymmetricKeyType,
          jwkSame: spki(fromJwk) === spki(pub),
          privSame: spki(crypto.createPublicKey(priv)) === spki(pub),
          privJwkSame: spki(crypto.createPublicKey(privJwk)) === spki(pub),
          text: crypto.verify(null, Buffer.from(input.message), pub, U(input.textSig)),
          file: crypto.verify(null, fs.readFileSync(input.file), pub, U(input.fileSig)),
          wrong: crypto.verify(null, Buffer.from(input.message + '!'), pub, U(input.textSig)),
        };`,
        { ...exported, message, textSig: b64(textSig), fileSig: b64(fileSig), file: smallFile }
      );
      assert.deepEqual(out, { type: 'ml-dsa-65', jwkSame: true, privSame: true, privJwkSame: true, text: true, file: true, wrong: false });
    });

    t.diagnostic(`demo-page: screenshots ${shots.join(', ')}`);
    assert.deepEqual(problems, [], 'page errors, console errors or failed requests (a CSP violation is one)');
    assert.deepEqual(offsite, [], 'the page tried to reach other hosts');
  } finally {
    await browser?.close();
    await new Promise((r) => server.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
