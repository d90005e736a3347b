// The package's tables agree with the Rust crate's. The JavaScript's sizes and
// pre-hash list are generated from the crate at build time (examples/js_tables.rs
// → build/tables.js); this test runs that program again and compares its output
// with what the installed package does: the sizes it reports and returns, the
// pre-hash functions mldsa-simd/prehash exports (and its types declare), the OID
// and output length of each, the digest node:crypto computes for that name, the
// M′ each signs, and the output length the main entry demands of a caller's hash
// function under each OID, and the DER layouts of the keys that mldsa-simd/keys
// writes and reads. A stale or hand-edited table, or one the JavaScript stops
// using, fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { lib, keys, IMPL, repoRoot, installedPackageDir, prehash as PH } from './lib/load.mjs';
import { concat, toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'compares the installed package with the Rust crate' : false;

/** The crate's tables, printed by a fresh run of examples/js_tables.rs. */
async function rustTables() {
  const cargoBin = path.join(process.env.CARGO_HOME || path.join(os.homedir(), '.cargo'), 'bin');
  const env = { ...process.env, PATH: [cargoBin, process.env.PATH].join(path.delimiter) };
  delete env.RUSTFLAGS;
  const r = spawnSync('cargo', ['run', '--release', '--quiet', '--example', 'js_tables'], { cwd: repoRoot, env, encoding: 'utf8' });
  assert.equal(r.status, 0, `cargo run --example js_tables failed: ${r.error ?? r.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-tables-'));
  try {
    const file = path.join(dir, 'tables.mjs');
    fs.writeFileSync(file, r.stdout);
    return await import(pathToFileURL(file).href);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const R = skip ? undefined : await rustTables();
const sets = skip ? [] : Object.keys(R.PARAMS).map(Number);

test('the crate has the three parameter sets and twelve pre-hash functions', { skip }, () => {
  assert.deepEqual(sets, [44, 65, 87]);
  assert.equal(R.PREHASHES.length, 12);
});

for (const n of sets) {
  test(`ML-DSA-${n}: sizes and security level equal the crate's`, { skip }, () => {
    const alg = lib[`ml_dsa${n}`];
    const want = R.PARAMS[n];
    assert.deepEqual(
      { ...alg.lengths },
      {
        publicKey: want.publicKey,
        secretKey: want.secretKey,
        signature: want.signature,
        seed: R.SEED_BYTES,
        signRand: R.RND_BYTES,
      },
    );
    assert.equal(alg.securityLevel, want.securityLevel);
    assert.equal(alg.prehash(PH.sha512).securityLevel, want.securityLevel);
    const { publicKey, secretKey } = alg.keygen(new Uint8Array(R.SEED_BYTES));
    assert.equal(publicKey.length, want.publicKey);
    assert.equal(secretKey.length, want.secretKey);
    assert.equal(alg.sign(new Uint8Array(3), secretKey).length, want.signature);
    // μ of the crate's length is taken, one byte more is not.
    assert.equal(alg.internal.sign(new Uint8Array(R.MU_BYTES), secretKey, { externalMu: true }).length, want.signature);
    assert.throws(() => alg.internal.sign(new Uint8Array(R.MU_BYTES + 1), secretKey, { externalMu: true }), RangeError);
  });
}

for (const n of sets) {
  test(`ML-DSA-${n}: mldsa-simd/keys writes and reads the crate's DER layouts`, { skip }, () => {
    const alg = lib[`ml_dsa${n}`];
    const layouts = R.KEY_DER[n];
    const { publicKey, secretKey, seed } = alg.keygen(new Uint8Array(32).fill(n));
    // A layout filled with the key's parts, in order.
    const fill = (layout, parts) =>
      concat(
        ...layout.flatMap(([fixed, length], i) => {
          assert.equal(parts[i].length, length);
          return [Uint8Array.from(fixed), parts[i]];
        }),
      );
    const partsOf = { seed: [seed], expandedKey: [secretKey], both: [seed, secretKey] };
    assert.deepEqual(Object.keys(layouts.pkcs8), ['seed', 'expandedKey', 'both']);
    const spki = fill(layouts.spki, [publicKey]);
    assert.equal(toHex(keys.exportPublicKey(alg, publicKey, 'spki')), toHex(spki));
    assert.equal(toHex(keys.importPublicKey(alg, spki, 'spki')), toHex(publicKey));
    // The AlgorithmIdentifier stands in every layout: after the SEQUENCE header, and in PKCS#8 after the version 0.
    const algorithmId = toHex(Uint8Array.from(layouts.algorithm));
    assert.equal(toHex(spki.subarray(4, 4 + layouts.algorithm.length)), algorithmId);
    for (const [form, parts] of Object.entries(partsOf)) {
      const der = fill(layouts.pkcs8[form], parts);
      assert.equal(toHex(keys.exportSecretKey(alg, seed, 'pkcs8', { form })), toHex(der), form);
      assert.equal(toHex(keys.importSecretKey(alg, der, 'pkcs8').secretKey), toHex(secretKey), form);
      assert.ok(toHex(der.subarray(0, 20)).includes('020100' + algorithmId), form);
    }
  });
}

test("mldsa-simd/prehash exports and declares the crate's pre-hash functions, in its order; the main entry no names", { skip }, () => {
  const names = R.PREHASHES.map(([name]) => name);
  assert.deepEqual(Object.keys(PH).sort(), [...names].sort(), 'the exports of mldsa-simd/prehash');
  const types = fs.readFileSync(path.join(installedPackageDir(), 'prehash.d.ts'), 'utf8');
  assert.deepEqual(
    [...types.matchAll(/^export declare const (\w+): PrehashHash;$/gm)].map((m) => m[1]),
    names,
    'prehash.d.ts',
  );
  const main = fs.readFileSync(path.join(installedPackageDir(), 'index.d.ts'), 'utf8');
  assert.doesNotMatch(main, /HashName|'sha512'/, 'index.d.ts still declares hash names');
  assert.match(main, /prehash\(hash: PrehashFunction\)/);
});

for (const [name, lastOidByte, outputLen] of skip ? [] : R.PREHASHES) {
  test(`prehash(${name}): the crate's OID (…${lastOidByte}) and ${outputLen}-byte output, the function node:crypto names so`, { skip }, () => {
    // node:crypto's name for it: sha512_224 → sha512-224, sha3_256 → sha3-256.
    const nodeName = name.replace('_', '-');
    const shake = name.startsWith('shake');
    const digest = (m) =>
      new Uint8Array(
        crypto
          .createHash(nodeName, shake ? { outputLength: outputLen } : undefined)
          .update(m)
          .digest(),
      );
    const oid = Uint8Array.of(...R.NIST_HASH_OID_PREFIX, lastOidByte);
    const fn = Object.assign((m) => digest(m), { oid, outputLen });
    const alg = lib.ml_dsa65;
    const { publicKey, secretKey } = alg.keygen(new Uint8Array(32).fill(lastOidByte));
    const msg = new TextEncoder().encode(`tables ${name}`);
    const context = Uint8Array.of(1, 2, 3);
    assert.equal(digest(msg).length, outputLen, 'node:crypto gives another length');
    const f = PH[name];
    assert.equal(toHex(f.oid), toHex(oid), 'mldsa-simd/prehash: another OID');
    assert.equal(f.outputLen, outputLen, 'mldsa-simd/prehash: another outputLen');
    assert.equal(toHex(f(msg)), toHex(digest(msg)), "mldsa-simd/prehash: another digest than node:crypto's");
    const det = { context, extraEntropy: false };
    const byName = alg.prehash(f).sign(msg, secretKey, det);
    assert.equal(toHex(byName), toHex(alg.prehash(fn).sign(msg, secretKey, det)), 'mldsa-simd/prehash signs another M′ than the OID and function of its name');
    const mPrime = concat(Uint8Array.of(1, context.length), context, oid, digest(msg));
    assert.equal(alg.internal.verify(byName, mPrime, publicKey), true, 'the signature is not over 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)');
    assert.equal(toHex(byName), toHex(alg.internal.sign(mPrime, secretKey, { extraEntropy: false })));
    // The streamed form hashes with the same function.
    const s = alg.prehash(f).createSign(secretKey, { context });
    s.update(msg.subarray(0, 5));
    s.update(msg.subarray(5));
    assert.equal(toHex(s.sign({ extraEntropy: false })), toHex(byName));
    // A caller's function under this OID must give exactly the crate's length.
    for (const wrong of [outputLen - 1, outputLen + 1])
      assert.throws(() => alg.prehash(Object.assign((m) => digest(m), { oid, outputLen: wrong })), RangeError);
  });
}
