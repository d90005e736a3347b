// The demo page (www/index.html) in headless Debian Chromium, clicked through
// like a person would: www/serve.mjs serves the repository on loopback with
// /pkg/ pointing at the package installed from the packed tarball. Every path:
// key generation for each set (the shown public key is the one the shown seed
// gives), PEM and JWK export (read back by the package here and by node:crypto
// of Node 24), signing text and a file chosen with the file input (progress bar
// to 100%), a large file signed while the page keeps drawing frames and handles a
// click on Cancel, a dropped file, verification: valid (PEM and JWK keys, text and file), invalid
// (a flipped byte, another message, a wrong length), and the messages for a
// malformed key and malformed base64; signatures pasted as base64url and hex; a
// private key pasted as the public key (named as one, its public key put in
// its place); private keys imported (PEM, JWK, seed in hex / base64 /
// base64url, PKCS#8 without the seed; the set follows the key) and bad ones
// refused with messages that quote none of the input; a change of parameter
// set clearing the old set's signature, result and labels. Every signature
// the page makes is checked in Node. Screenshots of each state: artifacts/demo-*.png. Times are reported,
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
const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;
const utf8 = (s) => new TextEncoder().encode(s);
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const hex = (bytes) => Buffer.from(bytes).toString('hex');
/** The first 12-character window of `secret` (whitespace removed) found in `text`, or undefined. */
const echoed = (text, secret) => {
  const s = secret.replace(/\s+/g, '');
  for (let i = 0; i + 12 <= s.length; i++) if (text.includes(s.slice(i, i + 12))) return s.slice(i, i + 12);
};
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
    assert.throws(
      () => fromBase64(bad, 'Signature'),
      (e) => e.constructor === Error && /^Signature: /.test(e.message) && why.test(e.message),
      JSON.stringify(bad),
    );
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
        ['JWK that is not JSON', '{"kty": "AKP", ', b64(textSig), /^Cannot verify Public key: this JWK is not valid JSON\.$/],
        ['JWK of another type', '{"kty":"EC","crv":"P-256"}', b64(textSig), /^Cannot verify Public key \(JWK\): .*AKP/],
        ['neither', 'hello', b64(textSig), /^Cannot verify Public key: neither PEM .* nor JWK/],
        ['no key', '', b64(textSig), /^Cannot verify Public key: paste a PEM/],
        [
          'base64 with a bad character',
          exported.publicPem,
          'not*base64',
          /^Cannot verify Signature: not base64: the character "\*" at position 4$/,
          'bad-base64',
        ],
        ['truncated base64', exported.publicPem, b64(textSig).slice(0, -3), /^Cannot verify Signature: not base64: .*not a whole number of bytes/],
        ['no signature', exported.publicPem, '  ', /^Cannot verify Signature: paste a signature \(base64, base64url or hex\)\.$/],
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
      const label = await pg.waitForFunction(
        () => {
          const t = document.querySelector('button[data-copy="signature"]').textContent;
          return t !== 'Copy' && t;
        },
        null,
        { timeout: 5000 },
      );
      assert.equal(await label.jsonValue(), 'Copied');
      assert.equal(await pg.evaluate(() => navigator.clipboard.readText()), shown);
    });

    await t.test('verify: signatures pasted as base64url or hex; not one that mixes the base64 alphabets', async () => {
      let r = await verifyWith(exported.publicPem, b64url(textSig), 'text');
      assert.equal(r.state, 'valid', `base64url: ${r.text}`);
      r = await verifyWith(
        exported.publicPem,
        hex(textSig)
          .toUpperCase()
          .replace(/(.{80})/g, '$1\n'),
        'text',
      );
      assert.equal(r.state, 'valid', `hex: ${r.text}`);
      const flipped = textSig.slice();
      flipped[rng.int(flipped.length)] ^= 1 << rng.int(8);
      r = await verifyWith(exported.publicPem, b64url(flipped), 'text');
      assert.equal(r.state, 'invalid', `base64url of a flipped byte: ${r.text}`);
      r = await verifyWith(exported.publicPem, hex(flipped), 'text');
      assert.equal(r.state, 'invalid', `hex of a flipped byte: ${r.text}`);
      const url = b64url(textSig);
      assert.match(url, /[-_]/);
      r = await verifyWith(exported.publicPem, '+' + url.slice(1), 'text');
      assert.equal(r.state, 'error', `mixed alphabets: ${r.text}`);
      assert.match(r.text, /^Cannot verify Signature: not base64: it mixes base64 \(\+ \/\) and base64url \(- _\) characters\.$/);
    });

    await t.test('verify: a private key pasted as the public key is named as one; its public key can take its place', async () => {
      for (const [what, privText, publicText] of [
        ['PEM', exported.privatePem, exported.publicPem],
        ['JWK', JSON.stringify(exported.privateJwk, null, 2), JSON.stringify(exported.publicJwk, null, 2)],
      ]) {
        assert.equal(await pg.isHidden('#derive-public'), true);
        const r = await verifyWith(privText, b64(textSig), 'text');
        assert.equal(r.state, 'error', `${what}: ${r.text}`);
        assert.match(r.text, /^This is a private key Keep it secret\. To sign with it, paste it under 1 Key pair/, what);
        assert.equal(
          echoed(r.text, what === 'PEM' ? privText.split('\n').slice(1, -2).join('') : exported.privateJwk.priv),
          undefined,
          `${what}: the message quotes the key`,
        );
        if (what === 'PEM') await shot('verify-private-key');
        assert.equal(await pg.isVisible('#derive-public'), true, `${what}: the page offers the public key`);
        await pg.click('#derive-public');
        assert.equal(await value('#verify-key'), publicText, `${what}: the public key of the pasted one, in its format`);
        assert.equal(await pg.isHidden('#derive-public'), true);
        await pg.click('#verify-btn');
        await waitState('#verify-result', ['valid', 'invalid', 'error']);
        assert.equal(await stateOf('#verify-result'), 'valid', `${what}: ${await text('#verify-result')}`);
      }
      // Typing into the box takes the offer away.
      await verifyWith(exported.privatePem, b64(textSig), 'text');
      assert.equal(await pg.isVisible('#derive-public'), true);
      await pg.fill('#verify-key', exported.publicPem);
      assert.equal(await pg.isHidden('#derive-public'), true);
    });

    const importKey = async (keyText) => {
      await pg.fill('#import-key', keyText);
      await pg.click('#import-btn');
      return { state: await stateOf('#import-status'), text: await text('#import-status') };
    };
    const signText = async () => {
      await pg.check('#source-text');
      await pg.click('#sign-btn');
      await waitState('#sign-status', ['done', 'error']);
      assert.equal(await stateOf('#sign-status'), 'done', await text('#sign-status'));
      return fromBase64(await value('#signature'));
    };

    await t.test('import a private key: PEM, JWK, a seed in hex, base64 or base64url, PKCS#8 without the seed; the set follows the key; it signs', async () => {
      const made = (set) => {
        const seed = rng.bytes(32);
        return { set, alg: SETS[set], seed, ...SETS[set].keygen(seed) };
      };
      const cases = [
        ['PEM', made('ML-DSA-44'), (k) => exportSecretKey(k.alg, k.seed, 'pem'), 'ML-DSA-65'],
        ['JWK', made('ML-DSA-87'), (k) => JSON.stringify(exportSecretKey(k.alg, k.seed, 'jwk')), 'ML-DSA-65'],
        ['a seed in hex', made('ML-DSA-44'), (k) => hex(k.seed), 'ML-DSA-44'],
        ['a seed in base64', made('ML-DSA-65'), (k) => ` ${b64(k.seed)}\n`, 'ML-DSA-65'],
        ['a seed in base64url', made('ML-DSA-87'), (k) => b64url(k.seed), 'ML-DSA-87'],
        ['PKCS#8 without the seed', made('ML-DSA-65'), (k) => exportSecretKey(k.alg, k.seed, 'pem', { form: 'expandedKey' }), 'ML-DSA-44'],
      ];
      for (const [what, k, write, selected] of cases) {
        await pg.selectOption('#set', selected);
        const r = await importKey(write(k));
        assert.equal(r.state, 'done', `${what}: ${r.text}`);
        assert.equal(r.text, `Imported an ${k.set} private key${what.includes('without') ? ' (without its seed)' : ''}; its public key is shown below.`);
        assert.equal(await value('#import-key'), '', `${what}: the pasted key is cleared from its box`);
        assert.equal(await value('#set'), k.set, `${what}: the list shows the key's set`);
        assert.equal(await value('#public-hex'), hex(k.publicKey), `${what}: the public key shown`);
        assert.equal(await text('#sign-btn'), `Sign with the ${k.set} key`);
        if (what.includes('without')) {
          assert.equal(await value('#seed'), '');
          assert.match(await text('#seed-label'), /came without its seed/);
          await pg.click('#export-pem');
          const pem = await value('#export-private');
          assert.ok(equalBytes(importSecretKey(k.alg, pem, 'pem').secretKey, k.secretKey), `${what}: the PEM export is the same key`);
          await pg.click('#export-jwk');
          assert.match(await value('#export-private'), /^\(A JWK holds the seed, and this key came without it: export it as PEM\.\)$/);
          await shot('import');
          await pg.click('#export-pem');
        } else {
          assert.equal(await value('#seed'), hex(k.seed), `${what}: the seed shown`);
        }
        const sig = await signText();
        assert.equal(sig.length, k.alg.lengths.signature);
        assert.equal(k.alg.verify(sig, utf8(await value('#text')), k.publicKey), true, `${what}: the signature does not verify in Node`);
      }
    });

    await t.test('import: bad private keys get a message that names the problem and quotes none of the input; the key in use stays', async () => {
      const shown = await value('#public-hex');
      const k = { seed: rng.bytes(32) };
      Object.assign(k, lib.ml_dsa65.keygen(k.seed));
      const pem = exportSecretKey(lib.ml_dsa65, k.seed, 'pem');
      const body = pem.split('\n').slice(1, -2).join('');
      const at = 20; // in the OID (the seed, further on, may be any 32 bytes)
      const armour = (b) => `-----BEGIN PRIVATE KEY-----\n${b.replace(/(.{64})(?=.)/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
      assert.equal(armour(body), pem);
      const jwk = exportSecretKey(lib.ml_dsa65, k.seed, 'jwk');
      const otherPub = exportPublicKey(lib.ml_dsa65, lib.ml_dsa65.keygen(rng.bytes(32)).publicKey, 'jwk').pub;
      const cases = [
        ['nothing', '  ', '', /^Private key: paste a PEM/],
        ['text', 'my secret key is 0123456789abcdef', 'my secret key is 0123456789abcdef', /^Private key: neither PEM .* nor a 32-byte seed/],
        ['a 31-byte seed', hex(k.seed.subarray(1)), hex(k.seed), /^Private key: neither PEM .* nor a 32-byte seed/],
        ['a 33-byte seed in base64', b64([...k.seed, 1]), b64(k.seed), /^Private key: neither PEM .* nor a 32-byte seed/],
        [
          'a public PEM',
          exported.publicPem,
          exported.publicPem.split('\n').slice(1, -2).join(''),
          /^Private key: this is a public key \(BEGIN PUBLIC KEY\); paste it under 4 Verify\.$/,
        ],
        [
          'a public JWK',
          JSON.stringify(exported.publicJwk),
          exported.publicJwk.pub,
          /^Private key: this JWK has no "priv": it is a public key; paste it under 4 Verify\.$/,
        ],
        ['JSON that is cut', JSON.stringify(jwk).slice(0, -5), jwk.priv, /^Private key: this JWK is not valid JSON\.$/],
        ['a PEM with a changed OID', armour(body.slice(0, at) + (body[at] === 'A' ? 'B' : 'A') + body.slice(at + 1)), body, /^Private key \(PEM\): /],
        ['a truncated PEM', armour(body.slice(0, 40)), body, /^Private key \(PEM\): /],
        [
          'a JWK whose pub is another key',
          JSON.stringify({ ...jwk, pub: otherPub }),
          jwk.priv,
          /^Private key \(JWK\): jwk: "pub" is not the public key of the seed in "priv"$/,
        ],
        ['a JWK of another alg', JSON.stringify({ ...jwk, alg: 'ML-DSA-99' }), jwk.priv, /^Private key \(JWK\): jwk: expected alg to be one of/],
      ];
      for (const [what, input, secret, expected] of cases) {
        const r = await importKey(input);
        assert.equal(r.state, 'error', `${what}: ${r.text}`);
        assert.match(r.text, expected, what);
        assert.doesNotMatch(r.text, STACK, `${what}: a stack trace is shown`);
        assert.equal(echoed(r.text, secret), undefined, `${what}: the message quotes the input`);
        assert.equal(await value('#public-hex'), shown, `${what}: the key in use changed`);
        assert.equal(await value('#import-key'), input, `${what}: the input stays, to be corrected`);
        if (what === 'a truncated PEM') await shot('import-error');
      }
    });

    await t.test('switching the parameter set clears the signature, the verification result and the labels of the old set', async () => {
      await pg.selectOption('#set', 'ML-DSA-87');
      await pg.click('#keygen');
      assert.match(await text('#sign-status'), /Ready to sign with the new ML-DSA-87 key/);
      await signText();
      await pg.click('#use-key');
      await pg.click('#use-sig');
      await pg.click('#verify-btn');
      await waitState('#verify-result', ['valid', 'invalid', 'error']);
      assert.equal(await stateOf('#verify-result'), 'valid', await text('#verify-result'));
      assert.notEqual(await value('#signature'), '');
      assert.equal(await text('#sign-btn'), 'Sign with the ML-DSA-87 key');

      await pg.selectOption('#set', 'ML-DSA-44');
      assert.equal(await value('#signature'), '', 'the old signature is gone');
      assert.equal(await stateOf('#verify-result'), 'idle');
      assert.equal(await text('#verify-result'), '', 'the old verification result is gone');
      assert.equal(await text('#sign-btn'), 'Sign', 'the button no longer names the old set');
      assert.equal(await text('#sign-status'), 'Generate or import a key pair first.');
      assert.equal(await stateOf('#sign-status'), 'idle');
      assert.equal(await pg.$eval('#sign-progress', (e) => e.position), 0);
      assert.equal(await pg.isHidden('#key-out'), true);
      assert.equal(await value('#public-hex'), '');
      assert.equal(await pg.isDisabled('#sign-btn'), true);
      assert.equal(await pg.isDisabled('#use-sig'), true, 'the old signature cannot be pasted any more');
      assert.equal(await pg.isDisabled('#use-key'), true);
      await shot('set-switched');
    });

    await t.test('remember the key across reloads: it comes back and signs; a new key replaces it; unticking forgets it', async () => {
      const reload = async () => {
        await pg.reload({ waitUntil: 'load' });
        await pg.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30_000 });
        assert.equal(await pg.evaluate(() => document.body.dataset.ready), 'yes', `the page did not start: ${await text('#fatal')}`);
      };
      const rememberStatus = async (expected) => {
        await pg
          .waitForFunction((src) => new RegExp(src).test(document.querySelector('#remember-status').textContent), expected.source, { timeout: 10_000 })
          .catch(() => {});
        assert.match(await text('#remember-status'), expected);
      };
      assert.equal(await pg.isEnabled('#remember'), true, 'the package has mldsa-simd/keystore');
      assert.equal(await pg.isChecked('#remember'), false);

      const seed = rng.bytes(32);
      const k = lib.ml_dsa44.keygen(seed);
      await pg.selectOption('#set', 'ML-DSA-44');
      assert.equal((await importKey(hex(seed))).state, 'done');
      await pg.check('#remember');
      await rememberStatus(/^Remembered: this ML-DSA-44 key comes back after a reload/);
      await reload();
      assert.equal(await pg.isChecked('#remember'), true);
      await rememberStatus(/^The ML-DSA-44 key remembered in this browser is back\.$/);
      assert.equal(await value('#set'), 'ML-DSA-44');
      assert.equal(await value('#seed'), hex(seed), 'the seed after the reload');
      assert.equal(await value('#public-hex'), hex(k.publicKey), 'the public key after the reload');
      assert.equal(await text('#sign-status'), 'Ready to sign with the remembered ML-DSA-44 key.');
      const sig = await signText();
      assert.equal(lib.ml_dsa44.verify(sig, utf8(await value('#text')), k.publicKey), true, 'the remembered key signs');
      await shot('remembered');

      // A change of set drops it, a new key replaces it.
      await pg.selectOption('#set', 'ML-DSA-87');
      await rememberStatus(/^No key to remember now/);
      await pg.click('#keygen');
      await rememberStatus(/^Remembered: this ML-DSA-87 key/);
      const seed87 = await value('#seed');
      await reload();
      assert.equal(await value('#set'), 'ML-DSA-87');
      assert.equal(await value('#seed'), seed87, 'the newer key came back');

      // A key without its seed cannot be kept, and the one kept before is dropped.
      await importKey(exportSecretKey(lib.ml_dsa65, lib.ml_dsa65.keygen(rng.bytes(32)).secretKey, 'pem', { form: 'expandedKey' }));
      await rememberStatus(/^This key came without its seed.*cannot be remembered\.$/);
      await reload();
      assert.equal(await pg.isHidden('#key-out'), true, 'no key after the reload');
      assert.equal(await pg.isChecked('#remember'), false);

      // Unticking forgets.
      await pg.click('#keygen');
      await pg.check('#remember');
      await rememberStatus(/^Remembered: /);
      await pg.uncheck('#remember');
      await rememberStatus(/^Forgotten: no key is kept in this browser\.$/);
      await reload();
      assert.equal(await pg.isHidden('#key-out'), true, 'no key after the reload');
      assert.equal(await value('#seed'), '');
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
        { ...exported, message, textSig: b64(textSig), fileSig: b64(fileSig), file: smallFile },
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
