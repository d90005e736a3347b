#!/usr/bin/env node
// Writes tests/data/acvp/: a pinned subset of the NIST ACVP vectors in
// ../shared/vectors/acvp, so that `cargo test` runs in a clone of this
// repository alone (tests/acvp.rs uses it unless ACVP_DIR names the full set;
// npm test passes the full set, and the npm package's tests run all of it).
//
//   node scripts/vendor-acvp.mjs [path/to/acvp]    (default: ../shared/vectors/acvp)
//
// The subset keeps every test group of every file, and from each the smallest
// test cases (by their JSON size), chosen so that together they cover:
//   keyGen      2 per group;
//   sigGen      2 per group; in the preHash groups, cases with hash functions
//               not yet covered first, so that every one of the twelve appears;
//   sigGen-tr1  1 per group (each group is one parameter set × key format ×
//               interface × deterministic/hedged);
//   sigVer      per group the smallest valid case and the two smallest invalid ones; in
//               the preHash groups four, a valid and an invalid one among them, with
//               hash functions not yet covered first, so that every one appears.
// The source files are checked against the source's SHA256SUMS first, and the
// written files get a SHA256SUMS of their own, which tests/acvp.rs checks.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.resolve(process.argv[2] || path.join(root, '../shared/vectors/acvp'));
const to = path.join(root, 'tests/data/acvp');
const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');

const sums = new Map(
  fs
    .readFileSync(path.join(from, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+/))
    .map(([h, f]) => [f, h]),
);
function read(folder, file) {
  const rel = `${folder}/${file}`;
  const buf = fs.readFileSync(path.join(from, rel));
  if (sums.get(rel) !== sha256(buf)) throw new Error(`${rel}: hash differs from ${from}/SHA256SUMS`);
  return { json: JSON.parse(buf.toString('utf8')), hash: sums.get(rel) };
}

const size = (t) => JSON.stringify(t).length;
const bySize = (a, b) => size(a) - size(b) || a.tcId - b.tcId;

function pick(folder, group, expected, coveredHashes) {
  const tests = [...group.tests].sort(bySize);
  if (folder === 'ML-DSA-keyGen-FIPS204') return tests.slice(0, 2);
  if (folder === 'ML-DSA-sigGen-FIPS204-tr1') return tests.slice(0, 1);
  if (folder === 'ML-DSA-sigVer-FIPS204') {
    const passed = (t) => expected.tests.find((e) => e.tcId === t.tcId).testPassed;
    if (group.preHash !== 'preHash') return [...tests.filter(passed).slice(0, 1), ...tests.filter((t) => !passed(t)).slice(0, 2)];
    // Four per preHash group, a valid and an invalid one among them, hash functions
    // not yet covered first: three groups cover the twelve.
    const out = [];
    const take = (t) => (out.push(t), coveredHashes.add(t.hashAlg));
    const fresh = (t) => !out.includes(t) && !coveredHashes.has(t.hashAlg);
    for (const want of [true, false]) {
      const t = tests.find((t) => passed(t) === want && fresh(t)) ?? tests.find((t) => passed(t) === want && !out.includes(t));
      if (t) take(t);
    }
    for (const t of tests) if (out.length < 4 && fresh(t)) take(t);
    for (const t of tests) if (out.length < 4 && !out.includes(t)) take(t);
    return out;
  }
  if (group.preHash === 'preHash') {
    const out = [];
    for (const t of tests) if (out.length < 2 && !coveredHashes.has(t.hashAlg)) out.push(t), coveredHashes.add(t.hashAlg);
    for (const t of tests) if (out.length < 2 && !out.includes(t)) out.push(t);
    return out;
  }
  return tests.slice(0, 2);
}

const FOLDERS = ['ML-DSA-keyGen-FIPS204', 'ML-DSA-sigGen-FIPS204', 'ML-DSA-sigGen-FIPS204-tr1', 'ML-DSA-sigVer-FIPS204'];
fs.rmSync(to, { recursive: true, force: true });
const outSums = [];
const source = [];
for (const folder of FOLDERS) {
  const prompt = read(folder, 'prompt.json');
  const expected = read(folder, 'expectedResults.json');
  source.push(`${prompt.hash}  ${folder}/prompt.json`, `${expected.hash}  ${folder}/expectedResults.json`);
  const covered = new Set();
  const keep = new Map();
  for (const g of prompt.json.testGroups) {
    const eg = expected.json.testGroups.find((e) => e.tgId === g.tgId);
    keep.set(g.tgId, new Set(pick(folder, g, eg, covered).map((t) => t.tcId)));
  }
  const cut = (doc) => ({ ...doc, testGroups: doc.testGroups.map((g) => ({ ...g, tests: g.tests.filter((t) => keep.get(g.tgId).has(t.tcId)) })) });
  fs.mkdirSync(path.join(to, folder), { recursive: true });
  let n = 0;
  for (const [file, doc] of [
    ['prompt.json', prompt.json],
    ['expectedResults.json', expected.json],
  ]) {
    const sub = cut(doc);
    n = sub.testGroups.reduce((s, g) => s + g.tests.length, 0);
    const text = JSON.stringify(sub) + '\n';
    fs.writeFileSync(path.join(to, folder, file), text);
    outSums.push(`${sha256(text)}  ${folder}/${file}`);
  }
  console.log(
    `${folder}: ${n} of ${prompt.json.testGroups.reduce((s, g) => s + g.tests.length, 0)} cases${covered.size ? `, ${covered.size} hash functions` : ''}`,
  );
}
fs.writeFileSync(path.join(to, 'SHA256SUMS'), outSums.join('\n') + '\n');
fs.writeFileSync(
  path.join(to, 'SOURCE'),
  `A subset of the NIST ACVP ML-DSA vectors, written by scripts/vendor-acvp.mjs (which says how it is chosen)\nfrom these files (their SHA-256):\n${source.join('\n')}\n`,
);
console.log(`wrote ${path.relative(root, to)} (${fs.readdirSync(to).length} entries)`);
