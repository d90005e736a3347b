// The ACVP vectors of ../shared/vectors/acvp, read for the package tests.
import fs from 'node:fs';
import path from 'node:path';
import { acvpDir, prehash } from './load.mjs';
import { hex, nameFor, describeError } from './util.mjs';

/** How many sigVer vectors there are (prompt.json of ML-DSA-sigVer-FIPS204). */
export const SIGVER_TOTAL = 180;

/** prompt.json joined with expectedResults.json on (tgId, tcId). */
export function loadFolder(folder) {
  const dir = path.join(acvpDir, folder);
  const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const prompt = read('prompt.json');
  const expected = read('expectedResults.json');
  const answers = new Map();
  for (const g of expected.testGroups) for (const t of g.tests) answers.set(`${g.tgId}/${t.tcId}`, t);
  let total = 0;
  const groups = prompt.testGroups.map((g) => {
    const tests = g.tests.map((t) => {
      const a = answers.get(`${g.tgId}/${t.tcId}`);
      if (!a) throw new Error(`${folder}: no expected result for tgId ${g.tgId} tcId ${t.tcId}`);
      answers.delete(`${g.tgId}/${t.tcId}`);
      return { ...t, expected: a };
    });
    total += tests.length;
    return { ...g, tests };
  });
  if (answers.size) throw new Error(`${folder}: ${answers.size} expected results without a prompt`);
  return { prompt, groups, total };
}

/** One sigVer vector: null when the boolean equals testPassed, else what went wrong. */
export function sigVerVector(alg, g, v) {
  const pk = hex(v.pk);
  const sig = hex(v.signature);
  let got;
  if (g.signatureInterface === 'external') {
    const context = hex(v.context);
    if (g.preHash === 'pure') got = alg.verify(sig, hex(v.message), pk, { context });
    else if (g.preHash === 'preHash') got = alg.prehash(prehash[nameFor(v.hashAlg)]).verify(sig, hex(v.message), pk, { context });
    else throw new Error(`unknown preHash ${g.preHash}`);
  } else if (g.signatureInterface === 'internal') {
    if (g.externalMu === true) got = alg.internal.verify(sig, hex(v.mu), pk, { externalMu: true });
    else if (g.externalMu === false) got = alg.internal.verify(sig, hex(v.message), pk);
    else throw new Error(`unknown externalMu ${g.externalMu}`);
  } else throw new Error(`unknown signatureInterface ${g.signatureInterface}`);
  if (typeof v.expected.testPassed !== 'boolean') throw new Error('expected result without testPassed');
  if (got !== v.expected.testPassed) return `verify returned ${String(got)}, expected ${v.expected.testPassed}`;
  return null;
}

/**
 * Every sigVer vector through `lib` ({ ml_dsa44, ml_dsa65, ml_dsa87 }): how
 * many matched testPassed, of how many, and the first failures.
 */
export function runSigVer(lib) {
  const { groups, total } = loadFolder('ML-DSA-sigVer-FIPS204');
  const algs = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };
  let passed = 0;
  const failures = [];
  for (const g of groups)
    for (const v of g.tests) {
      let problem;
      try {
        problem = sigVerVector(algs[g.parameterSet], g, v);
      } catch (e) {
        problem = `threw ${describeError(e)}`;
      }
      if (problem) failures.push(`tgId ${g.tgId} tcId ${v.tcId}: ${problem}`);
      else passed++;
    }
  return { passed, total, failures: failures.slice(0, 12) };
}
