// mldsa-simd/keystore: keys saved in a browser page, found again after the
// page is reloaded (a real navigation, the same profile), in headless
// Chromium and Firefox ESR. Saved: keys of mldsa-simd/webcrypto (ML-DSA-44,
// 65 and 87: a pair, its non-extractable private key alone, an extractable
// private key, a public key, a public key imported with no usages), and
// platform CryptoKeys (an ECDSA pair; in Chromium, which has native ML-DSA,
// native ML-DSA-65 keys). After the reload each is loaded, its attributes
// compared, and used: signed with, verified with the loaded public key and
// the original's, exported where extractable and refused where not. Then the
// stored entries are altered in IndexedDB and must fail to load, and the
// seed must appear nowhere in them. In Chromium the page hides the native
// ML-DSA from the package first, so that the package makes its own keys
// (sealed ones) there too. Also: the README's browser example, run twice
// across a reload; the Node side (no IndexedDB: NotSupportedError), and
// sealKey/unsealKey of mldsa-simd/webcrypto on their own.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IMPL, PKG_NAME, consumerDir, importFromConsumer, installedPackageDir } from './lib/load.mjs';
import { openPage } from './lib/chromium.mjs';
import { openFirefox } from './lib/firefox.mjs';
import { serve } from './lib/serve.mjs';
import { examples } from './lib/examples.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/keystore is not part of the noble API (MLDSA_IMPL=noble)' : false;

// The documentation's example for browsers (the block after `<!-- readme-test: browser -->`
// in README.md or docs/: lib/examples.mjs).
const README_EXAMPLE = examples().find((b) => b.browser)?.code;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd/keystore</title>
<script type="importmap">{ "imports": {
  "mldsa-simd/webcrypto": "/node_modules/${PKG_NAME}/webcrypto.mjs",
  "mldsa-simd/keystore": "/node_modules/${PKG_NAME}/keystore.mjs"
} }</script></head>
<body><pre id="out">loading…</pre>
<script type="module">
// The platform's own methods, kept before anything replaces them.
const P = SubtleCrypto.prototype;
const native = { generateKey: P.generateKey, importKey: P.importKey, exportKey: P.exportKey, sign: P.sign, verify: P.verify, supports: SubtleCrypto.supports };
const call = (name, ...args) => native[name].apply(crypto.subtle, args);
let nativeMlDsa = false;
try {
  await call('generateKey', 'ML-DSA-44', false, ['sign']);
  nativeMlDsa = true;
} catch {}
if (location.search === '?readme') {
  // The README's example, as a page would run it (the import map above gives the bare names).
  const logged = [];
  const log = console.log;
  console.log = (...args) => { logged.push(args.map(String).join(' ')); log(...args); };
  try {
    await import(URL.createObjectURL(new Blob([${JSON.stringify(README_EXAMPLE ?? '')}], { type: 'text/javascript' })));
    const { loadKey } = await import('mldsa-simd/keystore');
    const { subtle } = await import('mldsa-simd/webcrypto');
    const pair = await loadKey('signing-key');
    window.__readme = { logged, publicKey: [...new Uint8Array(await subtle.exportKey('spki', pair.publicKey))].join() };
  } catch (e) {
    window.__readme = { error: String(e && e.stack || e) };
  }
} else {
  // The native ML-DSA, hidden from the package: it then makes its own keys.
  const isMlDsa = (a) => /^ml-dsa/i.test(typeof a === 'string' ? a : String(a?.name));
  const hidden = () => Promise.reject(new DOMException('ML-DSA is hidden by the test page', 'NotSupportedError'));
  P.generateKey = function generateKey(a, ...rest) { return isMlDsa(a) ? hidden() : native.generateKey.call(this, a, ...rest); };
  P.importKey = function importKey(f, d, a, ...rest) { return isMlDsa(a) ? hidden() : native.importKey.call(this, f, d, a, ...rest); };
  if (native.supports) SubtleCrypto.supports = function supports(o, a, ...rest) { return isMlDsa(a) ? false : native.supports.call(this, o, a, ...rest); };
  window.__page = await import('/keystore-page.mjs').then((m) => m.page({ native, call, nativeMlDsa }));
}
window.__ready = true;
document.getElementById('out').textContent = 'ready';
</script></body></html>`;

// The page's work, in three steps: save (before the reload), load (after it), tamper.
const PAGE_MODULE = `
import { subtle, install, CryptoKey as OurKey } from 'mldsa-simd/webcrypto';
import { saveKey, loadKey, deleteKey } from 'mldsa-simd/keystore';

const SETS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const DB = 'mldsa-simd-keystore';
const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
const attributes = (k) => ({ type: k.type, extractable: k.extractable, algorithm: { ...k.algorithm }, usages: [...k.usages].sort(), ours: k instanceof OurKey });
const shape = (v) => (v && v.publicKey ? { publicKey: attributes(v.publicKey), privateKey: attributes(v.privateKey) } : attributes(v));
const outcome = (p) => p.then((v) => ({ ok: v === undefined ? 'undefined' : typeof v }), (e) => ({ error: e?.name, isError: e instanceof Error || e instanceof DOMException }));
const data = new TextEncoder().encode('persisted');

// IndexedDB, directly: the test's view of the stored entries.
function idb(mode, work) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['keys', 'wrapping'], mode);
      let out;
      tx.oncomplete = () => { db.close(); resolve(out); };
      tx.onabort = tx.onerror = () => { db.close(); reject(tx.error); };
      work(tx.objectStore('keys'), tx.objectStore('wrapping'), (v) => (out = v));
    };
  });
}
const read = (name) => idb('readonly', (keys, _, done) => { const r = keys.get(name); r.onsuccess = () => done(r.result); });
const write = (name, value) => idb('readwrite', (keys) => keys.put(value, name));

export function page({ native, call, nativeMlDsa }) {
  return {
    nativeMlDsa,
    async save() {
      const installed = await install({ force: true });
      const expected = {};
      const originals = {};
      const put = async (name, value, extra = {}) => {
        await saveKey(name, value);
        expected[name] = shape(value);
        originals[name] = extra;
      };
      for (const set of SETS) {
        const pair = await subtle.generateKey(set, false, ['sign', 'verify']);
        const pk = hex(await subtle.exportKey('raw-public', pair.publicKey));
        await put(set + '/pair', pair, { set, pk });
        await put(set + '/private', pair.privateKey, { set, pk });
        const ext = await subtle.generateKey(set, true, ['sign', 'verify']);
        const extPk = hex(await subtle.exportKey('raw-public', ext.publicKey));
        await put(set + '/private-extractable', ext.privateKey, { set, pk: extPk, seed: hex(await subtle.exportKey('raw-seed', ext.privateKey)) });
        await put(set + '/public', ext.publicKey, { set, pk: extPk, signer: set + '/private-extractable' });
        const bare = await subtle.importKey('raw-public', unhex(pk), set, false, []);
        await put(set + '/public-no-usages', bare, { set, pk });
      }
      // Saving again replaces.
      await saveKey('replaced', (await subtle.generateKey('ML-DSA-44', true, ['sign'])).privateKey);
      await put('replaced', (await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify'])).publicKey, { set: 'ML-DSA-65' });
      // Platform keys, stored as they are.
      const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
      await put('ecdsa/pair', ec, { spki: hex(await crypto.subtle.exportKey('spki', ec.publicKey)) });
      if (nativeMlDsa) {
        const n = await call('generateKey', 'ML-DSA-65', false, ['sign', 'verify']);
        await put('native/ML-DSA-65/pair', n, { set: 'ML-DSA-65', spki: hex(await call('exportKey', 'spki', n.publicKey)) });
        await put('native/ML-DSA-65/private', n.privateKey, { set: 'ML-DSA-65', spki: hex(await call('exportKey', 'spki', n.publicKey)) });
      }
      // Another database, and a name deleted.
      await saveKey('elsewhere', (await subtle.generateKey('ML-DSA-44', false, ['sign'])).privateKey, { database: 'mldsa-simd-keystore-other' });
      await saveKey('deleted', (await subtle.generateKey('ML-DSA-44', false, ['sign'])).privateKey);
      const deleted = [await deleteKey('deleted'), await deleteKey('deleted')];
      return { installed, expected, originals, deleted };
    },

    async load({ expected, originals }) {
      const seen = {};
      const checks = {};
      for (const [name, o] of Object.entries(originals)) {
        const loaded = await loadKey(name);
        seen[name] = shape(loaded);
        const c = (checks[name] = {});
        const ctx = o.set && { name: o.set, context: new Uint8Array([7]) };
        const priv = loaded.privateKey ?? (loaded.type === 'private' ? loaded : undefined);
        const pub = loaded.publicKey ?? (loaded.type === 'public' ? loaded : undefined);
        if (name.startsWith('native/')) {
          const sig = await call('sign', ctx, priv, data);
          const original = await call('importKey', 'spki', unhex(o.spki), o.set, true, ['verify']);
          c.verifiesOriginal = await call('verify', ctx, original, sig, data);
          if (pub) c.verifiesLoaded = await call('verify', ctx, pub, sig, data);
          c.nativeKey = !(priv instanceof OurKey);
          continue;
        }
        if (name.startsWith('ecdsa/')) {
          const alg = { name: 'ECDSA', hash: 'SHA-256' };
          const sig = await crypto.subtle.sign(alg, priv, data);
          c.verifiesLoaded = await crypto.subtle.verify(alg, pub, sig, data);
          c.verifiesOriginal = await crypto.subtle.verify(alg, await crypto.subtle.importKey('spki', unhex(o.spki), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']), sig, data);
          continue;
        }
        if (!o.pk) continue;
        const original = await subtle.importKey('raw-public', unhex(o.pk), o.set, true, ['verify']);
        if (priv) {
          const sig = await subtle.sign(ctx, priv, data);
          c.verifiesOriginal = await subtle.verify(ctx, original, sig, data);
          c.otherDataRefused = !(await subtle.verify(ctx, original, sig, new Uint8Array(3)));
          if (pub) c.verifiesLoaded = await subtle.verify(ctx, pub, sig, data);
          c.publicOfPrivate = hex(await subtle.exportKey('raw-public', await subtle.getPublicKey(priv, ['verify']))) === o.pk;
          c.seed = priv.extractable ? hex(await subtle.exportKey('raw-seed', priv)) === o.seed : (await outcome(subtle.exportKey('raw-seed', priv))).error;
        }
        if (pub) {
          c.publicBytes = pub.extractable ? hex(await subtle.exportKey('raw-public', pub)) === o.pk : (await outcome(subtle.exportKey('raw-public', pub))).error;
          if (o.signer) {
            const signer = await loadKey(o.signer);
            c.verifiesSigner = await subtle.verify(ctx, pub, await subtle.sign(ctx, signer, data), data);
          }
        }
      }
      return {
        seen,
        checks,
        missing: await outcome(loadKey('never-saved')),
        deleted: await outcome(loadKey('deleted')),
        elsewhereHere: await outcome(loadKey('elsewhere')),
        elsewhere: shape(await loadKey('elsewhere', { database: 'mldsa-simd-keystore-other' })),
        expectedSame: JSON.stringify(seen) === JSON.stringify(expected),
      };
    },

    async tamper({ originals }) {
      const out = {};
      // The stored entries hold no seed in the clear.
      const stored = [];
      const bytesOf = (v) => (v instanceof Uint8Array ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(bytesOf) : []);
      for (const [name, o] of Object.entries(originals)) {
        if (!o.seed) continue;
        const entry = await read(name);
        stored.push(...bytesOf(entry).map(hex));
        out.sealedRecord = Object.keys(entry.key.sealed).sort();
        out.seedStored = stored.some((h) => h.includes(o.seed));
      }
      const wrapping = await idb('readonly', (_, w, done) => { const r = w.getAll(); r.onsuccess = () => done(r.result); });
      out.wrapping = wrapping.map((k) => ({ type: k.type, extractable: k.extractable, algorithm: k.algorithm.name, usages: [...k.usages].sort() }));
      // Each alteration of a stored entry, then the entry put back as it was.
      const name = 'ML-DSA-65/private';
      const entry = await read(name);
      const altered = (change) => { const e = structuredClone(entry); change(e.key.sealed, e); return e; };
      const flip = (bytes, i) => { bytes[i] ^= 1; };
      const cases = {
        extractable: altered((r) => (r.extractable = !r.extractable)),
        usages: altered((r) => (r.usages = ['sign', 'verify'])),
        algorithm: altered((r) => (r.algorithm = 'ML-DSA-44')),
        type: altered((r) => (r.type = 'public')),
        ciphertext: altered((r) => flip(r.sealed, 3)),
        tag: altered((r) => flip(r.sealed, r.sealed.length - 1)),
        iv: altered((r) => flip(r.iv, 0)),
        'no record': altered((r, e) => (e.key = { sealed: null })),
        'not an entry': 42,
      };
      out.altered = {};
      for (const [what, value] of Object.entries(cases)) {
        await write(name, value);
        out.altered[what] = await outcome(loadKey(name));
      }
      await write(name, entry);
      out.restored = await outcome(loadKey(name));
      // An entry moved to another name, and a pair's halves swapped.
      await write('moved', entry);
      out.moved = await outcome(loadKey('moved'));
      const pair = await read('ML-DSA-44/pair');
      await write('ML-DSA-44/pair', { ...pair, publicKey: pair.privateKey, privateKey: pair.publicKey });
      out.swapped = await outcome(loadKey('ML-DSA-44/pair'));
      // The wrapping key replaced: by another one, then by an extractable one.
      const key = wrapping[0];
      const put = (k) => idb('readwrite', (_, w) => w.put(k, 'AES-GCM'));
      await put(await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
      out.otherWrappingKey = await outcome(loadKey(name));
      await put(await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']));
      out.extractableWrappingKey = await outcome(loadKey(name));
      await put(key);
      out.wrappingRestored = await outcome(loadKey(name));
      return out;
    },
  };
}
`;

const pageResult = async (page) => {
  for (const until = Date.now() + 120_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    if (await page.evaluate(() => window.__ready === true).catch(() => false)) return;
  }
  throw new Error('the page did not get ready');
};

function expectedLoad(save, browser) {
  const checks = {};
  for (const [name, o] of Object.entries(save.originals)) {
    const shape = save.expected[name];
    const c = (checks[name] = {});
    if (name.startsWith('native/')) {
      Object.assign(c, { verifiesOriginal: true, nativeKey: true }, shape.publicKey ? { verifiesLoaded: true } : {});
      continue;
    }
    if (name.startsWith('ecdsa/')) {
      Object.assign(c, { verifiesLoaded: true, verifiesOriginal: true });
      continue;
    }
    if (!o.pk) continue;
    const priv = shape.privateKey ?? (shape.type === 'private' ? shape : undefined);
    const pub = shape.publicKey ?? (shape.type === 'public' ? shape : undefined);
    if (priv) {
      Object.assign(c, { verifiesOriginal: true, otherDataRefused: true }, pub ? { verifiesLoaded: true } : {});
      c.publicOfPrivate = true;
      c.seed = priv.extractable ? true : 'InvalidAccessError';
    }
    if (pub) Object.assign(c, { publicBytes: pub.extractable ? true : 'InvalidAccessError' }, o.signer ? { verifiesSigner: true } : {});
  }
  const refused = { error: 'DataError', isError: true };
  return {
    load: {
      seen: save.expected,
      checks,
      missing: { ok: 'undefined' },
      deleted: { ok: 'undefined' },
      elsewhereHere: { ok: 'undefined' },
      elsewhere: { type: 'private', extractable: false, algorithm: { name: 'ML-DSA-44' }, usages: ['sign'], ours: true },
      expectedSame: true,
    },
    tamper: {
      sealedRecord: ['algorithm', 'extractable', 'iv', 'sealed', 'type', 'usages', 'version'],
      seedStored: false,
      wrapping: [{ type: 'secret', extractable: false, algorithm: 'AES-GCM', usages: ['decrypt', 'encrypt'] }],
      altered: {
        extractable: refused,
        usages: refused,
        algorithm: refused,
        type: refused,
        ciphertext: refused,
        tag: refused,
        iv: refused,
        'no record': refused,
        'not an entry': refused,
      },
      restored: { ok: 'object' },
      moved: refused,
      swapped: refused,
      otherWrappingKey: refused,
      extractableWrappingKey: { error: 'InvalidAccessError', isError: true },
      wrappingRestored: { ok: 'object' },
    },
    browser,
  };
}

const BROWSERS = [
  ['Chromium', () => openPage({ viewport: { width: 800, height: 300 }, profilePrefix: 'mldsa-keystore-' })],
  ['Firefox ESR', openFirefox],
];

test('keystore: keys saved, found again after a reload, used, and refused when altered, in Chromium and Firefox ESR', { skip, timeout: 300_000 }, async (t) => {
  assert.ok(README_EXAMPLE, 'neither README.md nor docs/ has a <!-- readme-test: browser --> example');
  installedPackageDir();
  const pageModule = path.join(consumerDir, 'keystore-page.mjs');
  fs.writeFileSync(pageModule, PAGE_MODULE);
  const server = await serve(consumerDir, PAGE);
  try {
    for (const [name, open] of BROWSERS) {
      await t.test(name, async (t) => {
        const browser = await open();
        try {
          const { page, problems, offsite } = browser;
          const url = `http://127.0.0.1:${server.address().port}/`;
          await page.goto(url);
          await pageResult(page);
          const nativeMlDsa = await page.evaluate(() => window.__page.nativeMlDsa);
          t.diagnostic(`keystore: ${name}: native ML-DSA ${nativeMlDsa ? 'present (hidden from the package)' : 'absent'}`);
          if (name === 'Chromium') assert.equal(nativeMlDsa, true, 'Chromium 156 has native ML-DSA: the native keys would not be tested');
          const save = await page.evaluate(() => window.__page.save());
          assert.equal(save.installed, true);
          assert.deepEqual(save.deleted, [true, false]);
          const ours = Object.values(save.expected).filter((s) => (s.privateKey ?? s).ours).length;
          assert.ok(ours >= 16, `only ${ours} of our keys saved`);
          // A real reload: the page, the package and every key object are gone; the profile stays.
          await page.evaluate(() => (window.__beforeReload = true));
          await page.reload();
          await pageResult(page);
          assert.equal(await page.evaluate(() => window.__beforeReload), undefined, 'the page was not reloaded');
          const load = await page.evaluate((s) => window.__page.load(s), { expected: save.expected, originals: save.originals });
          const tamper = await page.evaluate((s) => window.__page.tamper(s), { originals: save.originals });
          assert.deepEqual({ load, tamper, browser: name }, expectedLoad(save, name));
          // The README's example, twice, across a reload: the second run finds the key the first saved.
          const runs = [];
          await page.goto(url + '?readme');
          for (let i = 0; i < 2; i++) {
            if (i) await page.reload();
            await pageResult(page);
            runs.push(await page.evaluate(() => window.__readme));
          }
          for (const r of runs) assert.equal(r.error, undefined, `the README example threw: ${r.error}`);
          assert.deepEqual(
            runs.map((r) => r.logged),
            [['true'], ['true']],
          );
          assert.equal(runs[0].publicKey, runs[1].publicKey, 'the README example made a new key after the reload');
          assert.deepEqual(problems, []);
          assert.deepEqual(offsite, []);
          t.diagnostic(
            `keystore: ${name}: ${Object.keys(save.expected).length} entries saved, reloaded, loaded and used; ${Object.keys(tamper.altered).length + 4} alterations refused`,
          );
        } finally {
          await browser.close();
        }
      });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(pageModule, { force: true });
  }
});

test('keystore: where there is no IndexedDB (Node), every function rejects with a NotSupportedError', { skip }, async () => {
  const { saveKey, loadKey, deleteKey } = await importFromConsumer(`${PKG_NAME}/keystore`);
  const { subtle } = await importFromConsumer(`${PKG_NAME}/webcrypto`);
  const { privateKey } = await subtle.generateKey('ML-DSA-44', false, ['sign']);
  for (const p of [saveKey('k', privateKey), loadKey('k'), deleteKey('k', { database: 'x' })])
    await assert.rejects(p, (e) => e.name === 'NotSupportedError' && /IndexedDB/.test(e.message));
  // Arguments are checked first.
  await assert.rejects(saveKey(1, privateKey), TypeError);
  await assert.rejects(saveKey('k', { publicKey: privateKey }), TypeError);
  await assert.rejects(loadKey('k', { database: 3 }), TypeError);
  // A pair's members are read once each (a getter cannot show one key to the check and another to the save).
  const reads = { publicKey: 0, privateKey: 0 };
  const { publicKey: pub } = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
  const pair = {
    get publicKey() {
      reads.publicKey++;
      return reads.publicKey === 1 ? pub : {};
    },
    get privateKey() {
      reads.privateKey++;
      return privateKey;
    },
  };
  await assert.rejects(saveKey('k', pair), (e) => e.name === 'NotSupportedError'); // (checked, then no IndexedDB)
  assert.deepEqual(reads, { publicKey: 1, privateKey: 1 });
});

test("keystore: each runtime form imports its runtime's webcrypto entry, never a copy of it", { skip }, () => {
  const dir = installedPackageDir();
  for (const [form, webcrypto] of [
    ['mjs', 'webcrypto.mjs'],
    ['node.mjs', 'webcrypto.node.mjs'],
    ['workerd.mjs', 'webcrypto.workerd.mjs'],
    ['edge-light.mjs', 'webcrypto.edge-light.mjs'],
    ['cjs', 'webcrypto.cjs'],
    ['node.cjs', 'webcrypto.node.cjs'],
  ]) {
    const code = fs.readFileSync(path.join(dir, `keystore.${form}`), 'utf8');
    const imported = [...code.matchAll(/(?:from\s*|require\()"(\.\/[^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(imported, [`./${webcrypto}`], `keystore.${form}`);
    assert.ok(code.length < 6000, `keystore.${form} is ${code.length} bytes: a copy of webcrypto inside?`);
    assert.ok(!code.includes('WeakMap') && !code.includes('wasm'), `keystore.${form} carries key states or wasm`);
  }
});

test('sealKey/unsealKey of mldsa-simd/webcrypto: round trip, altered records, wrapping keys refused', { skip }, async () => {
  const { subtle, sealKey, unsealKey } = await importFromConsumer(`${PKG_NAME}/webcrypto`);
  const aes = (extractable, usages = ['encrypt', 'decrypt'], alg = { name: 'AES-GCM', length: 256 }) => crypto.subtle.generateKey(alg, extractable, usages);
  const wrapping = await aes(false);
  const data = new Uint8Array([1, 2, 3]);
  for (const set of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
    const { publicKey, privateKey } = await subtle.generateKey(set, true, ['sign', 'verify']);
    const seed = new Uint8Array(await subtle.exportKey('raw-seed', privateKey));
    const record = await sealKey(privateKey, wrapping, 'label');
    assert.equal(record.sealed.length, 32 + 16, 'the seed and the GCM tag');
    assert.ok(!Buffer.from(record.sealed).includes(Buffer.from(seed)));
    const again = await unsealKey(structuredClone(record), wrapping, 'label');
    assert.deepEqual([again.type, again.extractable, again.algorithm, again.usages], ['private', true, { name: set }, ['sign']]);
    assert.deepEqual(new Uint8Array(await subtle.exportKey('raw-seed', again)), seed);
    assert.equal(await subtle.verify(set, publicKey, await subtle.sign(set, again, data), data), true);
    const pub = await unsealKey(await sealKey(publicKey, wrapping), wrapping);
    assert.deepEqual([pub.type, pub.extractable, pub.usages], ['public', true, ['verify']]);
    assert.deepEqual(await subtle.exportKey('raw-public', pub), await subtle.exportKey('raw-public', publicKey));
    // Altered, or opened with another label or key: a DataError, never a key.
    const alter = (f) => {
      const r = structuredClone(record);
      f(r);
      return r;
    };
    for (const [what, r, label, key] of [
      ['label', record, 'other', wrapping],
      ['key', record, 'label', await aes(false)],
      ['extractable', alter((r) => (r.extractable = false)), 'label', wrapping],
      ['usages', alter((r) => (r.usages = [])), 'label', wrapping],
      ['type', alter((r) => (r.type = 'public')), 'label', wrapping],
      ['sealed', alter((r) => (r.sealed[0] ^= 1)), 'label', wrapping],
      ['iv flipped', alter((r) => (r.iv[0] ^= 1)), 'label', wrapping],
      ['iv', alter((r) => (r.iv = r.iv.subarray(1))), 'label', wrapping],
      ['version', alter((r) => (r.version = 2)), 'label', wrapping],
      ['null', null, 'label', wrapping],
    ])
      await assert.rejects(unsealKey(r, key, label), (e) => e.name === 'DataError' && !/\d{20}/.test(e.message), what);
  }
  // Records made with the wrapping key (as only a holder of it could) whose plaintext is not a seed, or not a public key: refused.
  const a = await subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);
  const ra = await sealKey(a.privateKey, wrapping);
  const rb = await sealKey(a.publicKey, wrapping);
  assert.equal(rb.sealed.length, 1312 + 16, 'the public key and the GCM tag');
  const ad = (r) => new TextEncoder().encode(JSON.stringify(['mldsa-simd sealed key', 1, r.algorithm, r.type, r.extractable, r.usages, '']));
  const reseal = async (r, plain) => ({
    ...r,
    sealed: new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: r.iv, additionalData: ad(r) }, wrapping, plain)),
  });
  assert.equal((await unsealKey(await reseal(ra, new Uint8Array(32).fill(9)), wrapping)).type, 'private', "the test's additional data is sealKey's");
  await assert.rejects(unsealKey(await reseal(ra, new Uint8Array(31)), wrapping), { name: 'DataError' });
  await assert.rejects(unsealKey(await reseal(rb, new Uint8Array(1311)), wrapping), { name: 'DataError' });
  // Wrapping keys: a platform key, AES-GCM, not extractable.
  const { privateKey } = a;
  await assert.rejects(sealKey(privateKey, await aes(true)), { name: 'InvalidAccessError', message: /wrappingKey/ });
  await assert.rejects(sealKey(privateKey, await aes(false, ['encrypt', 'decrypt'], { name: 'AES-CBC', length: 256 })), {
    name: 'InvalidAccessError',
    message: /wrappingKey/,
  });
  await assert.rejects(sealKey(privateKey, privateKey), { name: 'TypeError', message: /wrappingKey/ });
  await assert.rejects(sealKey(privateKey, {}), { name: 'TypeError', message: /wrappingKey/ });
  await assert.rejects(unsealKey(ra, await aes(true)), { name: 'InvalidAccessError', message: /wrappingKey/ });
  await assert.rejects(sealKey(wrapping, wrapping), { name: 'TypeError', message: /key/ });
  // A wrapping key without the usage is refused by the platform.
  await assert.rejects(sealKey(privateKey, await aes(false, ['decrypt'])), { name: 'InvalidAccessError' });
  // A label that is no string names itself; a record whose usages are no JSON is a record that does not open.
  await assert.rejects(sealKey(privateKey, wrapping, Symbol('x')), { name: 'TypeError', message: /^sealKey: label/ });
  await assert.rejects(unsealKey(ra, wrapping, Symbol('x')), { name: 'TypeError', message: /^unsealKey: label/ });
  await assert.rejects(unsealKey({ ...ra, usages: 1n }, wrapping), { name: 'DataError' });
});
