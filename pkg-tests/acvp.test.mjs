// Every NIST ACVP vector in ../shared/vectors/acvp, through the package's JS API.
// Each folder is counted: the number of vectors that ran and matched must equal the
// number of tests in its prompt.json (and the documented totals), so nothing is
// skipped silently.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib, IMPL, prehash } from './lib/load.mjs';
import { hex, toHex, nameFor, describeError } from './lib/util.mjs';
import { loadFolder, sigVerVector } from './lib/acvp.mjs';

const ALGS = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };
const EXPECTED_TOTALS = {
  'ML-DSA-keyGen-FIPS204': 75,
  'ML-DSA-sigGen-FIPS204': 360,
  'ML-DSA-sigGen-FIPS204-tr1': 720,
  'ML-DSA-sigVer-FIPS204': 180,
};

function groupLabel(g) {
  const parts = [`tgId ${g.tgId}`, g.parameterSet];
  if (g.keyFormat) parts.push(`key=${g.keyFormat}`);
  if (g.deterministic !== undefined) parts.push(g.deterministic ? 'deterministic' : 'hedged');
  if (g.signatureInterface) parts.push(g.signatureInterface);
  if (g.preHash) parts.push(g.preHash);
  if (g.externalMu !== undefined) parts.push(g.externalMu ? 'externalMu' : 'M′');
  return parts.join(' ');
}

/**
 * Runs one folder: a subtest per group; each vector that fails is listed (tcId and
 * reason), and the folder's count of passing vectors is checked at the end.
 */
function acvpFolder(folder, runVector) {
  test(`ACVP ${folder}`, { timeout: 10 * 60_000 }, async (t) => {
    const { groups, total } = loadFolder(folder);
    assert.equal(total, EXPECTED_TOTALS[folder], `${folder}: prompt.json should hold ${EXPECTED_TOTALS[folder]} tests`);
    let passed = 0;
    for (const g of groups) {
      const alg = ALGS[g.parameterSet];
      assert.ok(alg, `unknown parameterSet ${g.parameterSet}`);
      await t.test(groupLabel(g), () => {
        const failures = [];
        for (const v of g.tests) {
          try {
            const problem = runVector(alg, g, v);
            if (problem) failures.push(`tcId ${v.tcId}: ${problem}`);
            else passed++;
          } catch (e) {
            failures.push(`tcId ${v.tcId}: threw ${describeError(e)}`);
          }
        }
        assert.equal(failures.length, 0, `${failures.length}/${g.tests.length} vectors failed:\n  ${failures.slice(0, 12).join('\n  ')}`);
      });
    }
    t.diagnostic(`ACVP ${folder}: ${passed}/${total} vectors passed` + (IMPL === 'noble' ? ' [harness self-check on noble]' : ''));
    assert.equal(passed, total, `${folder}: only ${passed} of ${total} vectors passed`);
  });
}

const same = (what, got, want) => {
  if (!(got instanceof Uint8Array)) return `${what}: expected a Uint8Array, got ${Object.prototype.toString.call(got)}`;
  const g = toHex(got);
  if (g === want.toUpperCase()) return null;
  return `${what} differs (got ${got.length} bytes ${g.slice(0, 32)}…, want ${want.length / 2} bytes ${want.slice(0, 32)}…)`;
};

// keyGen: KeyGen_internal(seed) -> (pk, sk); also getPublicKey(sk) = pk.
acvpFolder('ML-DSA-keyGen-FIPS204', (alg, g, v) => {
  const { publicKey, secretKey } = alg.keygen(hex(v.seed));
  return (
    same('publicKey', publicKey, v.expected.pk) ||
    same('secretKey', secretKey, v.expected.sk) ||
    same('getPublicKey(sk)', alg.getPublicKey(hex(v.expected.sk)), v.expected.pk)
  );
});

// sigGen (both revisions): sign through the interface the group names, compare the
// signature, then verify it through the same interface with getPublicKey(sk).
function sigGenVector(alg, g, v) {
  if (typeof g.deterministic !== 'boolean') throw new Error('group without "deterministic"');
  if (g.deterministic !== (v.rnd === undefined)) throw new Error('rnd present/absent inconsistently with "deterministic"');
  let sk;
  if (g.keyFormat === 'seed') sk = alg.keygen(hex(v.seed)).secretKey;
  else if (g.keyFormat === 'expanded' || g.keyFormat === undefined) sk = hex(v.sk);
  else throw new Error(`unknown keyFormat ${g.keyFormat}`);
  const extraEntropy = g.deterministic ? false : hex(v.rnd);
  let sig, ok;
  const pk = alg.getPublicKey(sk);
  if (g.signatureInterface === 'external') {
    const context = hex(v.context);
    const msg = hex(v.message);
    let signer;
    if (g.preHash === 'pure') signer = alg;
    else if (g.preHash === 'preHash') signer = alg.prehash(prehash[nameFor(v.hashAlg)]);
    else throw new Error(`unknown preHash ${g.preHash}`);
    sig = signer.sign(msg, sk, { context, extraEntropy });
    ok = () => signer.verify(sig, msg, pk, { context });
  } else if (g.signatureInterface === 'internal') {
    if (g.externalMu === true) {
      const mu = hex(v.mu);
      sig = alg.internal.sign(mu, sk, { externalMu: true, extraEntropy });
      ok = () => alg.internal.verify(sig, mu, pk, { externalMu: true });
    } else if (g.externalMu === false) {
      const msg = hex(v.message);
      sig = alg.internal.sign(msg, sk, { extraEntropy });
      ok = () => alg.internal.verify(sig, msg, pk);
    } else throw new Error(`unknown externalMu ${g.externalMu}`);
  } else throw new Error(`unknown signatureInterface ${g.signatureInterface}`);
  const problem = same('signature', sig, v.expected.signature);
  if (problem) return problem;
  const verified = ok();
  return verified === true ? null : `own signature did not verify (verify returned ${String(verified)})`;
}
acvpFolder('ML-DSA-sigGen-FIPS204', sigGenVector);
acvpFolder('ML-DSA-sigGen-FIPS204-tr1', sigGenVector);

// sigVer: the boolean must equal testPassed.
acvpFolder('ML-DSA-sigVer-FIPS204', sigVerVector);
