// What each entry of the package costs a browser page: a page per entry, built
// for production (minified) by Vite, webpack, Rollup and esbuild from a fresh
// project with the packed package (lib/bundlers.mjs), and the gzip (level 9)
// of all the JavaScript each build emits. Each entry has a budget; the test
// fails when any bundler's page passes it. The main entry's and
// mldsa-simd/verify's were set when the key formats and pre-hashes moved to
// JavaScript (34 KB and 25 KB); the others are what
// the subpaths weigh today with a little room, so that none grows unseen. Pages of a subpath also import the
// main entry where the subpath needs it (keys, webcrypto, composite): their budget is for
// the page, and the table shows what the subpath adds to the main entry
// (keystore: to the webcrypto page).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { IMPL, importFromConsumer } from './lib/load.mjs';
import { project, run, toolVersion, brief } from './lib/compat.mjs';
import { bundlers } from './lib/bundlers.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;

// Each page uses everything its imports give (objects kept alive through
// globalThis), so that no bundler can drop a part of the entry.
const PAGES = [
  {
    name: 'main',
    what: 'mldsa-simd: ml_dsa44/65/87 (keygen, sign, verify, getPublicKey, internal, prehash(hash function), streaming, prepared keys)',
    code: "import * as m from 'mldsa-simd';\nglobalThis.__used = m;\n",
    // The aim is 30 KB; 34 KB is what the leaner package reached.
    budget: 34_000,
  },
  {
    name: 'verify',
    what: 'mldsa-simd/verify: verification alone (verify, internal.verify, prehash(hash function).verify, streaming, prepared verifiers), with a module that cannot sign',
    code: "import * as v from 'mldsa-simd/verify';\nglobalThis.__used = v;\n",
    budget: 25_000,
  },
  {
    name: 'keys',
    what: 'main entry + mldsa-simd/keys (SPKI, PKCS#8, PEM, JWK in JavaScript)',
    code: "import * as m from 'mldsa-simd';\nimport * as k from 'mldsa-simd/keys';\nglobalThis.__used = [m, k];\n",
    adds: 'main',
    budget: 39_500,
  },
  {
    name: 'prehash',
    what: 'mldsa-simd/prehash alone (the twelve FIPS 204 pre-hash functions, plain JavaScript)',
    code: "import * as p from 'mldsa-simd/prehash';\nglobalThis.__used = p;\n",
    budget: 4_500,
  },
  {
    name: 'webcrypto',
    what: "mldsa-simd/webcrypto (with the main entry and the key formats it imports), but for the keystore's sealKey and unsealKey",
    // Every export of the entry (checked below) but the two that only
    // mldsa-simd/keystore needs, which the keystore page counts.
    code: "import { subtle, install, CryptoKey } from 'mldsa-simd/webcrypto';\nglobalThis.__used = [subtle, install, CryptoKey];\n",
    exports: ['CryptoKey', 'install', 'subtle'],
    adds: 'main',
    // Raised from 44,500 for the platform's own keys (probing its ML-DSA,
    // keeping their seeds beside them) and the usage checks that no replaced
    // built-in can answer: about 1 KB gzip, measured at 43,382-44,443.
    budget: 45_000,
  },
  {
    name: 'keystore',
    what: 'mldsa-simd/keystore with all of mldsa-simd/webcrypto (IndexedDB, and the sealKey/unsealKey of webcrypto it uses; the webcrypto entry is imported, not copied)',
    code: "import * as w from 'mldsa-simd/webcrypto';\nimport * as k from 'mldsa-simd/keystore';\nglobalThis.__used = [w, k];\n",
    adds: 'webcrypto',
    // (Raised from 46,500 with the webcrypto page's budget, for the same code.)
    budget: 47_000,
  },
  {
    name: 'composite',
    what: "mldsa-simd/composite with the main entry it imports (composite ML-DSA; the traditional half is the platform's WebCrypto)",
    code: "import * as m from 'mldsa-simd';\nimport * as c from 'mldsa-simd/composite';\nglobalThis.__used = [m, c];\n",
    adds: 'main',
    budget: 39_800,
  },
];

function jsFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => /\.(m?js)$/.test(f))
    .map((f) => path.join(dir, f));
}

async function build(b, page) {
  const dir = project(`size-${b.pkg}-${page.name}`, { type: 'module' });
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'page.js'), page.code);
  for (const [name, text] of Object.entries(b.files)) fs.writeFileSync(path.join(dir, name), text);
  const [first, ...rest] = b.args();
  const r = await run(b.native ? first : process.execPath, b.native ? rest : [first, ...rest], {
    cwd: dir,
    timeoutMs: 180_000,
    env: { NODE_ENV: 'production' },
  });
  const dist = path.join(dir, 'dist');
  if (r.code !== 0 || !fs.existsSync(path.join(dist, 'page.js')))
    throw new Error(`${b.name}: build of the ${page.name} page failed (exit ${r.code ?? r.signal}): ${brief(r.stdout + r.stderr, 1500)}`);
  const files = jsFiles(dist);
  // Assets other than JS would be a download the table leaves out: there are
  // none (webpack's *.LICENSE.txt, the licence comments it moved out of the
  // code, is not loaded by the page).
  const others = fs.readdirSync(dist, { recursive: true }).filter((f) => fs.statSync(path.join(dist, f)).isFile() && !/\.(m?js)$|\.LICENSE\.txt$/.test(f));
  assert.deepEqual(others, [], `${b.name} emitted files other than JavaScript for the ${page.name} page`);
  const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const gzip = files.reduce((s, f) => s + zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length, 0);
  return { bytes, gzip };
}

test("sizes: the webcrypto page imports every export of its entry but the keystore's two", { skip }, async () => {
  const names = Object.keys(await importFromConsumer('mldsa-simd/webcrypto')).sort();
  const page = PAGES.find((p) => p.name === 'webcrypto');
  assert.deepEqual(names, [...page.exports, 'sealKey', 'unsealKey'].sort());
  for (const name of page.exports) assert.ok(page.code.includes(name), name);
});

test('sizes: a page per entry, built by Vite, webpack, Rollup and esbuild, within its gzip budget', { skip, timeout: 900_000 }, async (t) => {
  const rows = {};
  for (const b of bundlers({ page: 'src/page.js' })) {
    const label = `${b.name} ${toolVersion(b.pkg)}`;
    for (const page of PAGES) {
      await t.test(`${label}: ${page.name}`, async () => {
        const { bytes, gzip } = await build(b, page);
        (rows[page.name] ??= {})[b.name] = { bytes, gzip };
        assert.ok(gzip <= page.budget, `${label}: the ${page.name} page is ${gzip} bytes gzip, over its budget of ${page.budget}`);
      });
    }
  }
  const names = bundlers({ page: 'src/page.js' }).map((b) => b.name);
  const cell = (page, n) => {
    const r = rows[page.name]?.[n];
    if (!r) return 'failed';
    const base = page.adds && rows[page.adds]?.[n];
    return base ? `${r.gzip} (+${r.gzip - base.gzip})` : `${r.gzip}`;
  };
  const table = [
    `| page | what it imports | ${names.join(' | ')} | budget |`,
    `|---|---|${names.map(() => '---:').join('|')}|---:|`,
    ...PAGES.map((p) => `| ${p.name} | ${p.what} | ${names.map((n) => cell(p, n)).join(' | ')} | ${p.budget} |`),
  ].join('\n');
  console.log(`\nJavaScript a page downloads, gzip bytes (level 9):\n${table}\n`);
  t.diagnostic(PAGES.map((p) => `${p.name}: ${names.map((n) => `${n} ${cell(p, n)}`).join(', ')} (budget ${p.budget})`).join('; '));
});
