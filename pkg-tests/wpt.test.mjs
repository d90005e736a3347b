// web-platform-tests' ML-DSA WebCrypto files (pkg-tests/wpt/, unedited; where
// they come from: pkg-tests/wpt/SOURCE.md), run with our harness
// (lib/testharness.js) against the installed package, through install() of
// mldsa-simd/webcrypto, in: Node 20; Node 24 with its own ML-DSA hidden first
// (as a browser without it); Firefox ESR; and Chromium, whose native ML-DSA
// is run once alone (no mldsa-simd) and once replaced by
// install({ force: true }).
//
// Strict: every file must run exactly the number of subtests it declares;
// every subtest about ML-DSA must pass, except those listed in EXPECTED_FAILURES
// (which must fail, so that the list stays true). Subtests about the
// platform's other algorithms (in getPublicKey and supports-modern) are not
// ours to pass, but must not fail with install() where they pass without it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { IMPL, PKG_NAME, consumerDir, consumerModuleUrl, node24 } from './lib/load.mjs';
import { runInNode, runInPage, browserPage, browserMounts } from './lib/wpt.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;

const aboutMlDsa = (name) => name.includes('ML-DSA');
// The files, the number of subtests each declares (counted from its loops:
// see each comment), and which of them are about ML-DSA.
const FILES = [
  // 3 vectors × 18 subtests + 3 invalid signatures
  { file: 'WebCryptoAPI/sign_verify/mldsa.tentative.https.any.js', count: 57, inScope: () => true },
  // 3 sets × 2 extractable × (3 public usages × 3 formats + 2 private usages × 3 formats) × 2 algorithm forms
  { file: 'WebCryptoAPI/import_export/ML-DSA_importKey.tentative.https.any.js', count: 180, inScope: () => true },
  // 3 sets × 3 name cases × 2 algorithm forms × 3 usage lists × 2 extractable
  { file: 'WebCryptoAPI/generateKey/successes_ML-DSA.tentative.https.any.js', count: 108, inScope: () => true },
  // 9 unknown algorithms × 9 usage lists × 4 extractable + 9 × 4 empty algorithms,
  // then 3 sets × 2 algorithm forms × (6 bad usages × 4 lists + 2 empty usages)
  { file: 'WebCryptoAPI/generateKey/failures_ML-DSA.tentative.https.any.js', count: 516, inScope: () => true },
  // 3 sets × 2 algorithm forms: structuredClone of a key pair
  { file: 'WebCryptoAPI/serialization/mldsa.tentative.https.any.js', count: 6, inScope: () => true },
  // 18 algorithms × 2 + 7 others; ours: the ML-DSA ones and the method's presence
  { file: 'WebCryptoAPI/getPublicKey.tentative.https.any.js', count: 43, inScope: (n) => aboutMlDsa(n) || n === 'getPublicKey method is available' },
  // 1 + 10 algorithms × 13 operations + 6 ML-DSA context lengths + 8 ML-KEM cases + 2; ours: the ML-DSA ones and supports' presence
  { file: 'WebCryptoAPI/supports-modern.tentative.https.any.js', count: 147, inScope: (n) => aboutMlDsa(n) || n === 'SubtleCrypto.supports method exists' },
];
const PARTLY_OURS = FILES.filter((f) => !f.inScope(''));

// Our keys are not the platform's CryptoKeys where it has no ML-DSA, and no
// script can make an object that structuredClone copies as a CryptoKey: the
// serialization subtests fail there (with a DataCloneError).
const NO_NATIVE_SERIALIZATION = {
  file: 'WebCryptoAPI/serialization/mldsa.tentative.https.any.js',
  reason: 'our keys cannot be structured-cloned where the platform has no ML-DSA',
};
const EXPECTED_FAILURES = {
  'Node 20': [NO_NATIVE_SERIALIZATION],
  'Node 24, native ML-DSA hidden': [NO_NATIVE_SERIALIZATION],
  'Firefox ESR': [NO_NATIVE_SERIALIZATION],
  'Chromium, native ML-DSA': [],
  'Chromium, install({ force: true })': [],
};
const expectedToFail = (env, file) => EXPECTED_FAILURES[env].find((e) => e.file === file);

/**
 * Judges one environment's results ({ file → run }, and the same files run
 * without mldsa-simd in `baseline`, where there is one); prints its summary.
 */
function judge(t, env, runs, baseline, { installExpected }) {
  const problems = [];
  let passed = 0;
  let failed = 0;
  let expected = 0;
  const failures = [];
  for (const { file, count, inScope } of FILES) {
    const run = runs[file];
    if (installExpected !== undefined && run.installed !== installExpected)
      problems.push(`${file}: install() resolved to ${run.installed}, expected ${installExpected}`);
    for (const e of run.harnessErrors) problems.push(`${file}: harness error: ${e}`);
    if (run.results.length !== count) problems.push(`${file}: ran ${run.results.length} subtests, the file declares ${count}`);
    const names = new Set();
    const before = new Map((baseline?.[file]?.results ?? []).map((r) => [r.name, r.status]));
    const xfail = expectedToFail(env, file);
    for (const r of run.results) {
      if (names.has(r.name)) problems.push(`${file}: subtest name twice: ${r.name}`);
      names.add(r.name);
      const pass = r.status === 'PASS';
      if (!inScope(r.name)) {
        if (!pass && before.get(r.name) === 'PASS') problems.push(`${file}: "${r.name}" passes without mldsa-simd, fails with it: ${r.message}`);
        continue;
      }
      if (pass) passed++;
      else failed++;
      if (!pass) failures.push(`${file}: ${r.name}: ${r.status} ${r.message.slice(0, 300)}`);
      if (xfail) {
        expected++;
        if (pass) problems.push(`${file}: "${r.name}" passes, expected to fail (${xfail.reason}): update EXPECTED_FAILURES`);
      } else if (!pass) problems.push(`${file}: "${r.name}": ${r.status}: ${r.message}`);
    }
  }
  const outOfScope = FILES.reduce((n, f) => n + runs[f.file].results.filter((r) => !f.inScope(r.name)).length, 0);
  t.diagnostic(
    `wpt ${env}: ${passed + failed} subtests judged, ${passed} passed, ${failed} failed (${expected} expected to fail)` +
      `; ${outOfScope} subtests of other algorithms not counted`,
  );
  for (const f of failures) t.diagnostic(`wpt ${env}: failed: ${f}`);
  assert.deepEqual(problems, [], `${env}: ${problems.length} unexpected results:\n${problems.join('\n')}`);
}

/** Runs `jobs` (functions returning promises) at most `n` at a time. */
async function limited(n, jobs) {
  const out = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

/** All files in Node, with mldsa-simd installed, and the partly-ours files without it (the baseline). */
async function nodeRuns(node, hideNative) {
  const moduleUrl = consumerModuleUrl(`${PKG_NAME}/webcrypto`);
  const jobs = [
    ...FILES.map(
      ({ file }) =>
        () =>
          runInNode({ node, file, mode: 'install', hideNative, moduleUrl }),
    ),
    ...PARTLY_OURS.map(
      ({ file }) =>
        () =>
          runInNode({ node, file, mode: 'none', hideNative, moduleUrl }),
    ),
  ];
  const out = await limited(2, jobs);
  const runs = Object.fromEntries(FILES.map(({ file }, i) => [file, out[i]]));
  const baseline = Object.fromEntries(PARTLY_OURS.map(({ file }, i) => [file, out[FILES.length + i]]));
  return { runs, baseline };
}

test('wpt: Node 20 (default node), through install()', { skip, timeout: 300_000 }, async (t) => {
  const { runs, baseline } = await nodeRuns(process.execPath, false);
  judge(t, 'Node 20', runs, baseline, { installExpected: true });
});

test('wpt: Node 24 with its ML-DSA hidden, through install()', { skip, timeout: 300_000 }, async (t) => {
  const { runs, baseline } = await nodeRuns(node24(), true);
  judge(t, 'Node 24, native ML-DSA hidden', runs, baseline, { installExpected: true });
});

/** Every file in one page after another, in `mode`; the partly-ours files also in `baselineMode`. */
async function browserRuns(open, mode, baselineMode) {
  const server = await serve(consumerDir, browserPage(PKG_NAME), browserMounts());
  const origin = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await open();
    const runs = {};
    for (const { file } of FILES) runs[file] = await runInPage(browser.page, origin, file, mode);
    const baseline = {};
    if (baselineMode) for (const { file } of PARTLY_OURS) baseline[file] = await runInPage(browser.page, origin, file, baselineMode);
    return { runs, baseline, browser };
  } finally {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('wpt: Firefox ESR, through install()', { skip, timeout: 300_000 }, async (t) => {
  const { openFirefox } = await import('./lib/firefox.mjs');
  const { runs, baseline, browser } = await browserRuns(openFirefox, 'install', 'none');
  t.diagnostic(`wpt Firefox ESR: ${browser.version}`);
  judge(t, 'Firefox ESR', runs, baseline, { installExpected: true });
});

test('wpt: Chromium, its native ML-DSA alone, then install({ force: true })', { skip, timeout: 300_000 }, async (t) => {
  const { openPage } = await import('./lib/chromium.mjs');
  const open = () => openPage({ viewport: { width: 800, height: 400 } });
  const native = await browserRuns(open, 'none');
  const forced = await browserRuns(open, 'force');
  await t.test('native ML-DSA, no mldsa-simd', (t) => judge(t, 'Chromium, native ML-DSA', native.runs, undefined, { installExpected: null }));
  await t.test('install({ force: true })', (t) => judge(t, 'Chromium, install({ force: true })', forced.runs, native.runs, { installExpected: true }));
});
