// Run by prehash.test.mjs in a fresh Node:
//   node prehash-child.mjs <mode> <URL of a module re-exporting mldsa-simd/prehash>
//        <URL of one re-exporting mldsa-simd> <fast-check seed>
// process.getBuiltinModule (the package's only way to node:crypto) is replaced
// before mldsa-simd/prehash is imported, by one that records what is asked:
//   platform  it returns node:crypto's createHash, counting the hashes made
//   js        it returns nothing: every function must hash in JavaScript
//   lying     it returns a createHash that is wrong for some functions (SHAKE
//             without its output length, "sha3-256" giving SHA-256, no
//             "sha512-224"): those must fall back to JavaScript, the rest not
// Then the sections of lib/prehash-checks.mjs run; prints
// { asked, made: { algorithm: count }, sections: [[name, problems]] } as JSON.
import crypto from 'node:crypto';
import { SECTIONS, QUICK } from './prehash-checks.mjs';

const [mode, prehashUrl, mainUrl, seed] = process.argv.slice(2);
// The main entry first: it captures process.getBuiltinModule at its own load (for μ).
const lib = await import(mainUrl);

const asked = [];
const made = {};
const counted = (createHash) => (algorithm, options) => {
  made[algorithm] = (made[algorithm] ?? 0) + 1;
  return createHash(algorithm, options);
};
const lying = (algorithm, options) => {
  if (algorithm.startsWith('shake')) return crypto.createHash(algorithm);
  if (algorithm === 'sha3-256') return crypto.createHash('sha256');
  if (algorithm === 'sha512-224') throw new Error('Digest method not supported');
  return crypto.createHash(algorithm, options);
};
const modules = {
  platform: { createHash: counted((a, o) => crypto.createHash(a, o)) },
  js: undefined,
  lying: { createHash: counted(lying) },
};
if (!(mode in modules)) throw new Error(`unknown mode ${mode}`);
process.getBuiltinModule = (id) => {
  asked.push(id);
  return id === 'node:crypto' ? modules[mode] : undefined;
};

const PH = await import(prehashUrl);
const sections = [];
for (const [name, run] of SECTIONS) {
  if (mode === 'lying' && !QUICK.includes(name)) continue;
  const started = performance.now();
  let problems;
  try {
    problems = run(PH, { seed: Number(seed), lib });
  } catch (e) {
    problems = [`the section threw: ${e?.stack ?? e}`];
  }
  sections.push([name, problems.slice(0, 40), problems.length, Math.round(performance.now() - started)]);
}
process.stdout.write(JSON.stringify({ asked, made, sections }));
