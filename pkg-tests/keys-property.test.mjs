// Properties of mldsa-simd/keys (plain JavaScript DER, PEM and JWK), with
// node:crypto of Node 24 as the second implementation (run as a child, as in
// keys-node24.test.mjs, which has the fixed cases; these are the random ones):
//
// 1. Round trips: for random seeds of every set, every export reads back to
//    the same key in ours, and node:crypto reads each one to the same key.
// 2. Every single-byte change to the DER of a key (SPKI, and PKCS#8 in each of
//    RFC 9881's forms) and to every character of its PEM is refused, or read
//    as a different key: never as the same key (the change lost), unless all
//    it changed was whitespace for whitespace or the text after the armour.
//    Whatever ours reads, node:crypto reads to the same key; what node:crypto
//    reads and ours refuses is counted (ours is the stricter on purpose: DER,
//    canonical base64).
// 3. PEM in random layouts RFC 7468's lax grammar allows (any line length, LF,
//    CR LF or CR, indentation, text around the armour) reads to the same key;
//    node:crypto reads the same key from those of them it takes (LF or CR LF).
//
// Random inputs come from MLDSA_TEST_SEED (printed); fast-check prints a shrunk
// counterexample. MLDSA_KEYS_PROPERTY_RUNS=<n> (default 12) runs of 1 and 3.
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lib, keys, SETS, IMPL, inNode24 } from './lib/load.mjs';
import { Rng, toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'key formats are not part of the noble API (MLDSA_IMPL=noble)' : false;
const rng = new Rng('keys-property');
const fcSeed = rng.int(2 ** 31);
const RUNS = Number(process.env.MLDSA_KEYS_PROPERTY_RUNS || 12);
test('random seed', (t) => t.diagnostic(`keys-property: MLDSA_TEST_SEED=${rng.seedHex} (fast-check seed ${fcSeed}, ${RUNS} runs)`));

const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;
const B = (b) => Buffer.from(b).toString('base64');
const U = (s) => new Uint8Array(Buffer.from(s, 'base64'));
const FORMS = ['seed', 'expandedKey', 'both'];

/** What a read gives, comparable: 'refused', or the key's bytes in hex. */
function read(fn) {
  try {
    const k = fn();
    return k instanceof Uint8Array ? toHex(k) : [k.seed && toHex(k.seed), toHex(k.publicKey), toHex(k.secretKey)].join('/');
  } catch (e) {
    if (!(e instanceof Error) || e instanceof WebAssembly.RuntimeError) throw e;
    return 'refused';
  }
}

/**
 * node:crypto's reading of each input { kind: 'spki' | 'pkcs8', der?, pem? }:
 * 'refused', or { pub, seed } (raw public key and, for a private key with
 * one, its seed, base64).
 */
function nodeReads(inputs) {
  return inNode24(
    `
    return input.map(({ kind, der, pem }) => {
      try {
        const make = kind === 'spki' ? crypto.createPublicKey : crypto.createPrivateKey;
        const key = make(pem ?? { key: U(der), format: 'der', type: kind });
        if (!/^ml-dsa-/.test(key.asymmetricKeyType)) return 'refused';
        const pub = B((kind === 'spki' ? key : crypto.createPublicKey(key)).export({ format: 'raw-public' }));
        let seed = null;
        if (kind === 'pkcs8') try { seed = B(key.export({ format: 'raw-seed' })); } catch {}
        return { pub, seed };
      } catch (e) {
        return 'refused';
      }
    });`,
    inputs,
  );
}

test('round trips: every export of random keys reads back, in ours and in node:crypto', { skip, timeout: 300_000 }, () => {
  const made = [];
  fc.assert(
    fc.property(fc.constantFrom(...SETS), fc.uint8Array({ minLength: 32, maxLength: 32 }), (P, seed) => {
      const alg = lib[P.key];
      const { publicKey, secretKey } = alg.keygen(seed);
      const pk = toHex(publicKey);
      const whole = [toHex(seed), pk, toHex(secretKey)].join('/');
      const expandedOnly = ['', pk, toHex(secretKey)].join('/');
      for (const format of ['raw', 'spki', 'pem', 'jwk']) {
        const data = exportPublicKey(alg, publicKey, format);
        assert.equal(
          read(() => importPublicKey(alg, data, format)),
          pk,
          `${P.name} public ${format}`,
        );
      }
      assert.equal(
        read(() => importSecretKey(alg, exportSecretKey(alg, seed, 'raw-seed'), 'raw-seed')),
        whole,
      );
      assert.equal(
        read(() => importSecretKey(alg, exportSecretKey(alg, seed, 'jwk'), 'jwk')),
        whole,
      );
      assert.equal(
        read(() => importSecretKey(alg, exportSecretKey(alg, seed, 'raw'), 'raw')),
        expandedOnly,
      );
      for (const form of FORMS) {
        for (const format of ['pkcs8', 'pem']) {
          for (const key of form === 'expandedKey' ? [seed, secretKey] : [seed]) {
            const data = exportSecretKey(alg, key, format, { form });
            assert.equal(
              read(() => importSecretKey(alg, data, format)),
              form === 'expandedKey' ? expandedOnly : whole,
              `${P.name} ${format} ${form}`,
            );
          }
        }
      }
      made.push({ P, seed, publicKey });
    }),
    { seed: fcSeed, numRuns: RUNS },
  );
  // node:crypto reads each of them to the same key (and the seed, where the key has it).
  const inputs = made.flatMap(({ P, seed, publicKey }) => {
    const alg = lib[P.key];
    const want = (withSeed) => ({ pub: B(publicKey), seed: withSeed ? B(seed) : null });
    return [
      { kind: 'spki', der: B(exportPublicKey(alg, publicKey, 'spki')), want: want(false) },
      { kind: 'spki', pem: exportPublicKey(alg, publicKey, 'pem'), want: want(false) },
      ...FORMS.flatMap((form) => [
        { kind: 'pkcs8', der: B(exportSecretKey(alg, seed, 'pkcs8', { form })), want: want(form !== 'expandedKey') },
        { kind: 'pkcs8', pem: exportSecretKey(alg, seed, 'pem', { form }), want: want(form !== 'expandedKey') },
      ]),
    ];
  });
  const got = nodeReads(inputs.map(({ kind, der, pem }) => ({ kind, der, pem })));
  inputs.forEach((input, i) => {
    const what = `our ${input.kind} ${input.der ? 'DER' : 'PEM'} #${i}`;
    assert.notEqual(got[i], 'refused', `node:crypto refused ${what}`);
    assert.equal(got[i].pub, input.want.pub, `node:crypto read another public key from ${what}`);
    if (input.want.seed) assert.equal(got[i].seed, input.want.seed, `node:crypto read another seed from ${what}`);
  });
});

test("every single-byte change to a key's DER or PEM is refused or read as another key; node:crypto reads what ours reads alike", {
  skip,
  timeout: 600_000,
}, (t) => {
  const problems = [];
  const toNode = []; // [{ kind, der | pem }, what ours read, where]
  let changes = 0;
  let accepted = 0;
  const refusedSample = [];
  for (const P of SETS) {
    const alg = lib[P.key];
    const seed = rng.bytes(32);
    const { publicKey } = alg.keygen(seed);
    const cases = [
      ['spki', exportPublicKey(alg, publicKey, 'spki'), (d) => importPublicKey(alg, d, 'spki'), (d) => importPublicKey(alg, d, 'pem'), 'PUBLIC KEY'],
      ...FORMS.map((form) => [
        `pkcs8 ${form}`,
        exportSecretKey(alg, seed, 'pkcs8', { form }),
        (d) => importSecretKey(alg, d, 'pkcs8'),
        (d) => importSecretKey(alg, d, 'pem'),
        'PRIVATE KEY',
      ]),
    ];
    for (const [what, der, readDer, readPem, label] of cases) {
      const kind = what.split(' ')[0];
      const original = read(() => readDer(der));
      assert.notEqual(original, 'refused');
      const pem = `-----BEGIN ${label}-----\n${B(der)
        .match(/.{1,64}/g)
        .join('\n')}\n-----END ${label}-----\n`;
      assert.equal(
        read(() => readPem(pem)),
        original,
      );
      // DER: each byte XORed with a random non-zero byte.
      const noise = rng.bytes(der.length);
      for (let i = 0; i < der.length; i++) {
        const changed = der.slice();
        changed[i] ^= noise[i] || 1;
        const got = read(() => readDer(changed));
        changes++;
        if (got === original) problems.push(`${P.name} ${what} DER: byte ${i} changed, the same key read`);
        if (got === 'refused') {
          if (rng.int(64) === 0) refusedSample.push({ kind, der: B(changed), where: `${P.name} ${what} DER byte ${i}` });
          continue;
        }
        accepted++;
        toNode.push([{ kind, der: B(changed) }, got, `${P.name} ${what} DER byte ${i}`]);
      }
      // PEM: each character replaced by another printable one, or by whitespace.
      const chars = ' \t\r\nABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_*.';
      const end = pem.lastIndexOf('-----') + 5; // after it: a line end, text the reader ignores
      const armour = (i) => i < pem.indexOf('\n') || (i >= pem.lastIndexOf('-----END') && i < end); // (the space in a label is not layout)
      const space = (c) => ' \t\r\n\v\f'.includes(c);
      const picks = rng.bytes(pem.length);
      for (let i = 0; i < pem.length; i++) {
        let c = chars[picks[i] % chars.length];
        if (c === pem[i]) c = chars[(picks[i] + 1) % chars.length];
        const changed = pem.slice(0, i) + c + pem.slice(i + 1);
        const got = read(() => readPem(changed));
        changes++;
        const same = got === original;
        // Whitespace for whitespace, or the text after the armour: the same key, read.
        const layoutOnly = i >= end || (space(pem[i]) && space(c) && !armour(i));
        const change = `character ${i} (${JSON.stringify(pem[i])} → ${JSON.stringify(c)})`;
        if (same !== layoutOnly)
          problems.push(
            `${P.name} ${what} PEM: ${change}, ${same ? 'the same key read' : `not the same key read (${got === 'refused' ? 'refused' : 'another'})`}`,
          );
        if (got === 'refused' || same) continue;
        accepted++;
        toNode.push([{ kind, pem: changed }, got, `${P.name} ${what} PEM ${change}`]);
      }
    }
  }
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} changes were lost`);
  // node:crypto on a sample of what ours read (a different key each: all of them
  // would be tens of megabytes of JSON), and on a sample of what ours refused.
  const sample = toNode.filter((_, i) => i % Math.ceil(toNode.length / 600) === 0);
  const nodeGot = nodeReads(sample.map(([input]) => input));
  const disagree = [];
  sample.forEach(([input, ours, where], i) => {
    const n = nodeGot[i];
    if (n === 'refused') return disagree.push(`${where}: ours read a key, node:crypto refused it`);
    const pub = toHex(U(n.pub));
    if (!ours.includes(pub)) disagree.push(`${where}: node:crypto read another public key`);
    if (n.seed && input.kind === 'pkcs8' && !ours.startsWith(toHex(U(n.seed)))) disagree.push(`${where}: node:crypto read another seed`);
  });
  assert.deepEqual(disagree.slice(0, 20), [], `${disagree.length} of ${sample.length} keys ours read, node:crypto reads otherwise`);
  const nodeRefused = nodeReads(refusedSample.map(({ kind, der }) => ({ kind, der })));
  const laxer = refusedSample.filter((_, i) => nodeRefused[i] !== 'refused').map((c) => c.where);
  t.diagnostic(
    `${changes} single-byte changes; ${accepted} read as another key (${sample.length} of them by node:crypto too, alike); ` +
      `of ${refusedSample.length} DER changes ours refused, node:crypto read ${laxer.length}${laxer.length ? ` (${laxer.slice(0, 6).join('; ')})` : ''}`,
  );
});

test('PEM in random RFC 7468 layouts reads to the same key; node:crypto reads the same key from those it takes', { skip, timeout: 300_000 }, () => {
  const keysBySet = SETS.map((P) => {
    const alg = lib[P.key];
    const seed = rng.bytes(32);
    const { publicKey } = alg.keygen(seed);
    return { P, alg, seed, publicKey, spki: exportPublicKey(alg, publicKey, 'spki'), pkcs8: exportSecretKey(alg, seed, 'pkcs8', { form: 'both' }) };
  });
  // Text with no dash (a dash starts an armour line) and no base64 run that could pass for it.
  const text = fc.string({ unit: fc.constantFrom(...'Subject: ke y.\t,()#'.split('')), maxLength: 40 });
  const layout = fc.record({
    set: fc.nat(SETS.length - 1),
    secret: fc.boolean(),
    width: fc.integer({ min: 1, max: 300 }),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    indent: fc.constantFrom('', ' ', '\t', '   '),
    spaced: fc.nat(40), // a space every this many characters, 0: none
    before: text,
    after: text,
    bytes: fc.boolean(),
  });
  const forNode = [];
  fc.assert(
    fc.property(layout, (l) => {
      const k = keysBySet[l.set];
      const [label, der] = l.secret ? ['PRIVATE KEY', k.pkcs8] : ['PUBLIC KEY', k.spki];
      let body = B(der);
      if (l.spaced) body = body.replace(new RegExp(`(.{${l.spaced}})`, 'g'), '$1 ');
      const lines = body.match(new RegExp(`[^]{1,${l.width}}`, 'g')).map((s) => l.indent + s);
      const pem =
        [...(l.before ? [l.before] : []), `-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`, ...(l.after ? [l.after] : [])].join(l.eol) + l.eol;
      const data = l.bytes ? new TextEncoder().encode(pem) : pem;
      if (l.secret) {
        const key = importSecretKey(k.alg, data, 'pem');
        assert.equal(toHex(key.seed), toHex(k.seed));
      } else {
        assert.equal(toHex(importPublicKey(k.alg, data, 'pem')), toHex(k.publicKey));
      }
      if (l.eol !== '\r') forNode.push({ kind: l.secret ? 'pkcs8' : 'spki', pem, want: { pub: B(k.publicKey), seed: l.secret ? B(k.seed) : null } });
    }),
    { seed: fcSeed, numRuns: RUNS * 10 },
  );
  const got = nodeReads(forNode.map(({ kind, pem }) => ({ kind, pem })));
  const taken = forNode.filter((input, i) => got[i] !== 'refused');
  forNode.forEach((input, i) => {
    if (got[i] === 'refused') return;
    assert.equal(got[i].pub, input.want.pub, `node:crypto read another public key from layout #${i}`);
    if (input.want.seed) assert.equal(got[i].seed, input.want.seed, `node:crypto read another seed from layout #${i}`);
  });
  // node:crypto takes LF and CR LF layouts with text around the armour (keys-node24.test.mjs); most of these.
  assert.ok(taken.length >= forNode.length / 2, `node:crypto read only ${taken.length} of ${forNode.length} layouts`);
});
