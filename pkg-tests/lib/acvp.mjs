// The ACVP vectors of ../shared/vectors/acvp as the package tests read them, for the
// suites that end with "the same instance still answers every sigVer vector"
// (hostile.test.mjs, soak.test.mjs). acvp.test.mjs reads the same files the same way.
import fs from 'node:fs';
import path from 'node:path';
import { acvpDir } from './load.mjs';
import { hex, nameFor } from './util.mjs';

export const SIGVER_TOTAL = 180;

/** prompt.json joined with expectedResults.json on (tgId, tcId): { groups, total }. */
export function loadAcvpFolder(folder) {
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
  return { groups, total };
}

/** One sigVer vector through the interface its group names: the boolean verify returned. */
export function sigVerAnswer(alg, g, v) {
  const pk = hex(v.pk);
  const sig = hex(v.signature);
  if (g.signatureInterface === 'external') {
    const context = hex(v.context);
    if (g.preHash === 'pure') return alg.verify(sig, hex(v.message), pk, { context });
    if (g.preHash === 'preHash') return alg.prehash(nameFor(v.hashAlg)).verify(sig, hex(v.message), pk, { context });
    throw new Error(`unknown preHash ${g.preHash}`);
  }
  if (g.signatureInterface === 'internal') {
    if (g.externalMu === true) return alg.internal.verify(sig, hex(v.mu), pk, { externalMu: true });
    if (g.externalMu === false) return alg.internal.verify(sig, hex(v.message), pk);
    throw new Error(`unknown externalMu ${g.externalMu}`);
  }
  throw new Error(`unknown signatureInterface ${g.signatureInterface}`);
}

/**
 * Every sigVer vector against `lib` ({ ml_dsa44, ml_dsa65, ml_dsa87 }): returns
 * { passed, total, failures } where failures lists "tgId/tcId: why" (a wrong
 * boolean or an exception), so a caller can assert passed === SIGVER_TOTAL.
 */
export function runSigVer(lib) {
  const algs = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };
  const { groups, total } = loadAcvpFolder('ML-DSA-sigVer-FIPS204');
  let passed = 0;
  const failures = [];
  for (const g of groups) {
    const alg = algs[g.parameterSet];
    if (!alg) throw new Error(`unknown parameterSet ${g.parameterSet}`);
    for (const v of g.tests) {
      if (typeof v.expected.testPassed !== 'boolean') throw new Error(`tcId ${v.tcId}: expected result without testPassed`);
      let got;
      try {
        got = sigVerAnswer(alg, g, v);
      } catch (e) {
        failures.push(`${g.tgId}/${v.tcId}: threw ${e && e.constructor && e.constructor.name}: ${e && e.message}`);
        continue;
      }
      if (got === v.expected.testPassed) passed++;
      else failures.push(`${g.tgId}/${v.tcId}: verify returned ${String(got)}, expected ${v.expected.testPassed}`);
    }
  }
  return { passed, total, failures };
}
