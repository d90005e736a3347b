// Key formats of mldsa-simd/keys (importPublicKey/exportPublicKey/importSecretKey/
// exportSecretKey, each taking the parameter set first): raw, SPKI and PKCS#8 DER
// in RFC 9881's three private-key forms, PEM, and JWK (RFC 9964), for every set.
// The expected bytes are built here from the RFCs' ASN.1, not taken from the
// package; node:crypto's view (Node 24) is in keys-node24.test.mjs, and
// properties against it in keys-property.test.mjs. The keys entries are plain
// JavaScript: they carry no WebAssembly of their own. Random inputs come from a
// seeded generator (MLDSA_TEST_SEED=<seed> repeats a run).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { lib, keys, SETS, IMPL, installedPackageDir } from './lib/load.mjs';
import { Rng, toHex, hex, concat } from './lib/util.mjs';

const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;

const skip = IMPL === 'noble' ? 'key formats are not part of the noble API (MLDSA_IMPL=noble)' : false;
const rng = new Rng('keys');
test('random seed', (t) => t.diagnostic(`keys: MLDSA_TEST_SEED=${rng.seedHex}`));

const ARC = { 'ML-DSA-44': 0x11, 'ML-DSA-65': 0x12, 'ML-DSA-87': 0x13 };
const u8 = (...parts) => concat(...parts.map((p) => (typeof p === 'number' ? [p] : p)));
/** DER tag ‖ length ‖ value, lengths in the shortest form. */
function tlv(tag, value) {
  const n = value.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return u8(tag, len, value);
}
const algorithmId = (P) => tlv(0x30, tlv(0x06, hex('608648016503040' + '3' + ARC[P.name].toString(16))));
const spkiOf = (P, pk) => tlv(0x30, u8(algorithmId(P), tlv(0x03, u8(0, pk))));
const pkcs8Of = (P, inner) => tlv(0x30, u8(tlv(0x02, [0]), algorithmId(P), tlv(0x04, inner)));
const seedForm = (seed) => tlv(0x80, seed);
const expandedForm = (sk) => tlv(0x04, sk);
const bothForm = (seed, sk) => tlv(0x30, u8(tlv(0x04, seed), tlv(0x04, sk)));
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
/** The base64 of `der` in lines of `n` characters joined by `eol`. */
const lines = (der, n, eol = '\n') =>
  b64(der)
    .match(new RegExp(`.{1,${n}}`, 'g'))
    .join(eol);
const pemOf = (label, der) => `-----BEGIN ${label}-----\n${lines(der, 64)}\n-----END ${label}-----\n`;
/**
 * The PEM of `der` in layouts that RFC 7468 §3's lax grammar (and §2's text
 * around the armour) allows, each with a name; node:crypto reads all of
 * them too (keys-node24.test.mjs).
 */
const laxLayouts = (label, der) => {
  const [b, e] = [`-----BEGIN ${label}-----`, `-----END ${label}-----`];
  return [
    ['76 columns', `${b}\n${lines(der, 76)}\n${e}\n`],
    ['76 columns, CR LF', `${b}\r\n${lines(der, 76, '\r\n')}\r\n${e}\r\n`],
    ['one line', `${b}\n${b64(der)}\n${e}\n`],
    ['lines of 40 and 64 mixed', `${b}\n${lines(der, 40).replace(/\n(.{64})/, '$1\n')}\n${e}\n`],
    ['tabs and spaces', `${b}\n${lines(der, 64, ' \t\n\t')} \n${e}\n`],
    ['spaces inside lines', `${b}\n${lines(der, 64).replace(/(.{10})/g, '$1 ')}\n${e}\n`],
    ['CR LF, no final line break', `${b}\r\n${lines(der, 64, '\r\n')}\r\n${e}`],
    ['text before and after', `Subject: the key of test.example\nValid until: never\n\n${b}\n${lines(der, 64)}\n${e}\nNotes: none\n`],
  ];
};
test('the keys entries carry no WebAssembly: each imports the main entry of its runtime', { skip }, () => {
  const dir = installedPackageDir();
  const entries = fs.readdirSync(dir).filter((f) => /^keys\.[\w.-]*[mc]?js$/.test(f) && !f.endsWith('.map'));
  assert.deepEqual(entries.sort(), ['keys.cjs', 'keys.edge-light.mjs', 'keys.mjs', 'keys.node.cjs', 'keys.node.mjs', 'keys.workerd.mjs']);
  // (Long strings are continued over lines with a backslash: joined before the search.)
  const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8').replace(/\\\n/g, '');
  const main = read('index.mjs');
  for (const entry of entries) {
    // (The banner, a comment, names the package as "in WebAssembly".)
    const code = read(entry).replace(/^\/\*![^*]*\*\//, '');
    const variant = entry.slice('keys.'.length);
    assert.ok(code.includes(`"./index.${variant}"`), `${entry} does not import ./index.${variant}`);
    assert.doesNotMatch(code, /WebAssembly|\bwasm_bindgen|\.wasm\b/, `${entry} names WebAssembly`);
    // No embedded module: no long base64 run (the main entry has its .wasm as one), no "\0asm" bytes.
    assert.doesNotMatch(code, /[A-Za-z0-9+/]{200}/, `${entry} holds a long base64 string`);
    assert.ok(!code.includes('\0asm') && !code.includes('AGFzbQ'), `${entry} holds a wasm module`);
    assert.ok(code.length < 24_000, `${entry} is ${code.length} bytes: more than key formats need`);
  }
  assert.match(main, /[A-Za-z0-9+/]{200}/, 'the check above would not see an embedded module (the main entry has one)');
});

test('alg: only the parameter-set objects of the package, recognised by identity', { skip }, () => {
  const pk = lib.ml_dsa65.keygen(rng.bytes(32)).publicKey;
  const fakes = [undefined, 'ML-DSA-65', 'ml_dsa65', 65, { ...lib.ml_dsa65 }, Object.create(lib.ml_dsa65), lib.ml_dsa65.internal, pk];
  for (const alg of fakes) {
    assert.throws(
      () => exportPublicKey(alg, pk, 'raw'),
      (e) => e instanceof TypeError && /^alg: expected ml_dsa44, ml_dsa65 or ml_dsa87/.test(e.message),
      String(alg),
    );
    assert.throws(() => importSecretKey(alg, rng.bytes(32), 'raw-seed'), TypeError);
  }
  // The calling convention of the methods these replaced: said plainly, without the argument.
  assert.throws(
    () => importPublicKey(pk, 'raw'),
    (e) => e instanceof TypeError && /^alg: .*, got Uint8Array$/.test(e.message),
  );
  assert.throws(
    () => importSecretKey('-----BEGIN PRIVATE KEY-----', 'pem'),
    (e) => /got a string of 27 characters$/.test(e.message),
  );
});

const eqBytes = (got, want, what) => {
  assert.ok(got instanceof Uint8Array, `${what}: expected a Uint8Array`);
  assert.equal(toHex(got), toHex(want), `${what}: bytes differ`);
};
const refuses = (fn, pattern, what) =>
  assert.throws(fn, (e) => e instanceof Error && pattern.test(e.message), `${what}: expected an error matching ${pattern}`);

for (const P of SETS) {
  const ours = lib[P.key];
  const other = SETS.find((s) => s !== P);
  const seed = rng.bytes(32);
  const { publicKey: pk, secretKey: sk } = skip ? {} : ours.keygen(seed);

  test(`${P.name}: keygen returns its seed, the caller's own`, { skip }, () => {
    const given = rng.bytes(32);
    const kept = new Uint8Array(given);
    const k = ours.keygen(given);
    assert.deepEqual(Object.keys(k), ['publicKey', 'secretKey', 'seed'], "noble's two keys, then the seed");
    eqBytes(k.seed, given, 'keygen(seed).seed');
    eqBytes(ours.getPublicKey(k.secretKey), k.publicKey, 'the key pair of keygen(seed)');
    assert.notEqual(k.seed.buffer, given.buffer, 'keygen(seed).seed is a copy');
    k.seed.fill(0);
    eqBytes(given, kept, 'the given seed, after wiping the copy');
    const r = ours.keygen();
    assert.ok(r.seed instanceof Uint8Array && r.seed.length === 32, 'keygen().seed is 32 bytes');
    assert.ok(
      r.seed.some((x) => x !== 0),
      'keygen().seed is not wiped',
    );
    eqBytes(ours.keygen(r.seed).secretKey, r.secretKey, 'keygen(keygen().seed) gives the same key');
    assert.notEqual(toHex(ours.keygen().seed), toHex(r.seed), 'two keygen() calls drew the same seed');
    // The default form after a plain keygen().
    const pem = exportSecretKey(ours, r.seed, 'pem');
    const back = importSecretKey(ours, pem, 'pem');
    eqBytes(back.secretKey, r.secretKey, 'exportSecretKey(keygen().seed, "pem"): secretKey');
    eqBytes(back.seed, r.seed, 'exportSecretKey(keygen().seed, "pem"): seed');
  });

  test(`${P.name}: an export that needs the seed says how to get it`, { skip }, () => {
    for (const [format, opts] of [['raw-seed'], ['jwk'], ['pkcs8'], ['pem'], ['pkcs8', { form: 'both' }], ['pem', { form: 'seed' }]]) {
      let message = '';
      try {
        exportSecretKey(ours, sk, format, opts);
      } catch (e) {
        message = e.message;
      }
      assert.match(message, new RegExp(`needs the 32-byte seed, and a ${P.sk}-byte expanded secret key does not contain it`), format);
      assert.match(message, /keygen\(\) returns the seed as \.seed/, `${format}: where the seed comes from`);
      assert.match(message, /\{ form: 'expandedKey' \}/, `${format}: how to export the expanded key`);
      // (Compared as text: the key's base64 may hold '+' and '/', which a RegExp would read as syntax.)
      for (const piece of [b64(sk.subarray(0, 12)).slice(0, 12), toHex(sk.subarray(0, 8))])
        assert.ok(!message.includes(piece), `${format}: no key bytes in the message`);
    }
    // What the hint says works.
    eqBytes(exportSecretKey(ours, sk, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'the expandedKey form');
    assert.equal(exportSecretKey(ours, sk, 'pem', { form: 'expandedKey' }), pemOf('PRIVATE KEY', pkcs8Of(P, expandedForm(sk))));
  });

  test(`${P.name}: every format holds the bytes RFC 9881 / 7468 / 9964 say`, { skip }, () => {
    eqBytes(exportPublicKey(ours, pk, 'raw'), pk, 'raw');
    eqBytes(exportPublicKey(ours, pk, 'spki'), spkiOf(P, pk), 'spki');
    assert.equal(exportPublicKey(ours, pk, 'pem'), pemOf('PUBLIC KEY', spkiOf(P, pk)));
    assert.deepEqual(exportPublicKey(ours, pk, 'jwk'), { kty: 'AKP', alg: P.name, pub: b64url(pk) });
    for (const key of [seed]) {
      eqBytes(exportSecretKey(ours, key, 'raw-seed'), seed, 'raw-seed');
      eqBytes(exportSecretKey(ours, key, 'raw'), sk, 'raw (expanded) from the seed');
      eqBytes(exportSecretKey(ours, key, 'pkcs8'), pkcs8Of(P, seedForm(seed)), 'pkcs8 (default: seed form)');
      eqBytes(exportSecretKey(ours, key, 'pkcs8', { form: 'seed' }), pkcs8Of(P, seedForm(seed)), 'pkcs8 seed');
      eqBytes(exportSecretKey(ours, key, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'pkcs8 expandedKey');
      eqBytes(exportSecretKey(ours, key, 'pkcs8', { form: 'both' }), pkcs8Of(P, bothForm(seed, sk)), 'pkcs8 both');
      assert.equal(exportSecretKey(ours, key, 'pem'), pemOf('PRIVATE KEY', pkcs8Of(P, seedForm(seed))));
      assert.equal(exportSecretKey(ours, key, 'pem', { form: 'both' }), pemOf('PRIVATE KEY', pkcs8Of(P, bothForm(seed, sk))));
      assert.deepEqual(exportSecretKey(ours, key, 'jwk'), { kty: 'AKP', alg: P.name, pub: b64url(pk), priv: b64url(seed) });
    }
    // From the expanded key: only the forms without the seed.
    eqBytes(exportSecretKey(ours, sk, 'raw'), sk, 'raw from the expanded key');
    eqBytes(exportSecretKey(ours, sk, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'pkcs8 expandedKey from sk');
    for (const [format, opts] of [['raw-seed'], ['jwk'], ['pkcs8'], ['pem'], ['pkcs8', { form: 'both' }]])
      refuses(() => exportSecretKey(ours, sk, format, opts), /needs the 32-byte seed/, `${format} from an expanded key`);
  });

  test(`${P.name}: every format imports back to the same key`, { skip }, () => {
    const pubs = [
      [pk, 'raw'],
      [spkiOf(P, pk), 'spki'],
      [pemOf('PUBLIC KEY', spkiOf(P, pk)), 'pem'],
      [pemOf('PUBLIC KEY', spkiOf(P, pk)).replaceAll('\n', '\r\n'), 'pem'],
      [pemOf('PUBLIC KEY', spkiOf(P, pk)).trimEnd(), 'pem'],
      [{ kty: 'AKP', alg: P.name, pub: b64url(pk), kid: 'x', key_ops: ['verify'] }, 'jwk'],
    ];
    for (const [data, format] of pubs) eqBytes(importPublicKey(ours, data, format), pk, `importPublicKey ${format}`);
    const secrets = [
      [seed, 'raw-seed', true],
      [sk, 'raw', false],
      [pkcs8Of(P, seedForm(seed)), 'pkcs8', true],
      [pkcs8Of(P, expandedForm(sk)), 'pkcs8', false],
      [pkcs8Of(P, bothForm(seed, sk)), 'pkcs8', true],
      [pemOf('PRIVATE KEY', pkcs8Of(P, bothForm(seed, sk))), 'pem', true],
      [{ kty: 'AKP', alg: P.name, pub: b64url(pk), priv: b64url(seed) }, 'jwk', true],
    ];
    for (const [data, format, hasSeed] of secrets) {
      const key = importSecretKey(ours, data, format);
      eqBytes(key.publicKey, pk, `importSecretKey ${format}: publicKey`);
      eqBytes(key.secretKey, sk, `importSecretKey ${format}: secretKey`);
      if (hasSeed) eqBytes(key.seed, seed, `importSecretKey ${format}: seed`);
      else assert.equal(key.seed, undefined, `importSecretKey ${format}: no seed`);
    }
  });

  test(`${P.name}: a prepared signer works from the seed`, { skip }, () => {
    const msg = rng.bytes(100);
    const ctx = rng.bytes(9);
    const want = ours.sign(msg, sk, { context: ctx, extraEntropy: false });
    const s = ours.signer(seed);
    try {
      eqBytes(s.sign(msg, { context: ctx, extraEntropy: false }), want, 'signer(seed).sign');
    } finally {
      s.free();
    }
    refuses(() => ours.signer(rng.bytes(31)), /expected .* bytes \(or a 32-byte seed\)/, 'a 31-byte seed');
  });

  test(`${P.name}: strict DER: truncations, extra bytes, BER, parameters, wrong OIDs, v2`, { skip }, () => {
    const ders = [
      ['spki', (d) => importPublicKey(ours, d, 'spki'), spkiOf(P, pk)],
      ['pkcs8 seed', (d) => importSecretKey(ours, d, 'pkcs8'), pkcs8Of(P, seedForm(seed))],
      ['pkcs8 expandedKey', (d) => importSecretKey(ours, d, 'pkcs8'), pkcs8Of(P, expandedForm(sk))],
      ['pkcs8 both', (d) => importSecretKey(ours, d, 'pkcs8'), pkcs8Of(P, bothForm(seed, sk))],
    ];
    for (const [what, read, der] of ders) {
      read(der); // the good one
      for (let cut = 0; cut < der.length; cut += cut < 40 ? 1 : 97) refuses(() => read(der.subarray(0, cut)), /^(spki|pkcs8): /, `${what} cut at ${cut}`);
      refuses(() => read(u8(der, 0)), /bytes after/, `${what} with a trailing byte`);
      // The outer length in a longer form than needed (BER, not DER).
      const body = der.subarray(der[1] < 0x80 ? 2 : 2 + (der[1] & 0x7f));
      refuses(() => read(u8(0x30, 0x83, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff, body)), /not a DER/, `${what} BER length`);
      refuses(() => read(u8(0x30, 0x80, body, 0, 0)), /not a DER/, `${what} indefinite length`);
    }
    const withParams = (P, nul) => tlv(0x30, u8(tlv(0x06, hex('608648016503040' + '3' + ARC[P.name].toString(16))), nul));
    refuses(() => importPublicKey(ours, tlv(0x30, u8(withParams(P, [5, 0]), tlv(0x03, u8(0, pk)))), 'spki'), /parameters/, 'NULL parameters');
    refuses(
      () => importSecretKey(ours, tlv(0x30, u8(tlv(0x02, [0]), withParams(P, [5, 0]), tlv(0x04, seedForm(seed)))), 'pkcs8'),
      /parameters/,
      'pkcs8 NULL parameters',
    );
    const ed25519 = tlv(0x30, tlv(0x06, hex('2b6570')));
    refuses(() => importPublicKey(ours, tlv(0x30, u8(ed25519, tlv(0x03, u8(0, pk)))), 'spki'), /not ML-DSA/, 'an Ed25519 OID');
    refuses(() => importPublicKey(ours, tlv(0x30, u8(algorithmId(P), tlv(0x03, u8(1, pk)))), 'spki'), /unused bits/, 'unused bits');
    refuses(() => importPublicKey(ours, tlv(0x30, u8(algorithmId(P), tlv(0x04, pk))), 'spki'), /BIT STRING/, 'an OCTET STRING key');
    refuses(() => importSecretKey(ours, tlv(0x30, u8(tlv(0x02, [1]), algorithmId(P), tlv(0x04, seedForm(seed)))), 'pkcs8'), /version must be 0/, 'version 1');
    refuses(
      () => importSecretKey(ours, tlv(0x30, u8(tlv(0x02, [0]), algorithmId(P), tlv(0x04, tlv(0x04, seed)))), 'pkcs8'),
      /wrong length/,
      'a seed as an OCTET STRING',
    );
    refuses(() => importSecretKey(ours, pkcs8Of(P, tlv(0x80, seed.subarray(1))), 'pkcs8'), /seed must be 32 bytes/, 'a 31-byte seed');
    refuses(() => importSecretKey(ours, pkcs8Of(P, tlv(0xa0, seedForm(seed))), 'pkcs8'), /none of seed/, 'a constructed [0]');
    const withAttributes = tlv(0x30, u8(tlv(0x02, [0]), algorithmId(P), tlv(0x04, seedForm(seed)), tlv(0xa0, [])));
    refuses(() => importSecretKey(ours, withAttributes, 'pkcs8'), /fields after privateKey/, 'attributes');
  });

  test(`${P.name}: the parameter set must be the one asked for`, { skip }, () => {
    const theirs = lib[other.key].keygen(seed);
    const re = new RegExp(`for ${other.name}, but ${P.key} \\(${P.name}\\) was asked for`);
    refuses(() => importPublicKey(ours, exportPublicKey(lib[other.key], theirs.publicKey, 'spki'), 'spki'), re, 'spki of another set');
    refuses(() => importPublicKey(ours, exportPublicKey(lib[other.key], theirs.publicKey, 'pem'), 'pem'), re, 'pem of another set');
    refuses(() => importSecretKey(ours, exportSecretKey(lib[other.key], seed, 'pkcs8'), 'pkcs8'), re, 'pkcs8 of another set');
    refuses(() => importSecretKey(ours, exportSecretKey(lib[other.key], seed, 'jwk'), 'jwk'), re, 'jwk of another set');
    refuses(() => importPublicKey(ours, exportPublicKey(lib[other.key], theirs.publicKey, 'jwk'), 'jwk'), re, 'public jwk of another set');
  });

  test(`${P.name}: a private key whose parts do not belong together is refused`, { skip }, () => {
    const stranger = ours.keygen(rng.bytes(32)).secretKey;
    refuses(() => importSecretKey(ours, pkcs8Of(P, bothForm(seed, stranger)), 'pkcs8'), /do not belong together/, 'both: another key');
    for (const at of [64 + rng.int(64), P.sk - 1 - rng.int(400), 128 + rng.int(32)]) {
      const bad = new Uint8Array(sk);
      bad[at] ^= 1 << rng.int(8);
      // tr, t0 or s1: the key's parts no longer agree (or s1 is out of range).
      refuses(() => importSecretKey(ours, pkcs8Of(P, expandedForm(bad)), 'pkcs8'), /malformed/, `expandedKey with byte ${at} changed`);
      refuses(() => importSecretKey(ours, bad, 'raw'), /malformed/, `raw with byte ${at} changed`);
      refuses(() => importSecretKey(ours, pkcs8Of(P, bothForm(seed, bad)), 'pkcs8'), /do not belong together/, `both with byte ${at} changed`);
    }
    const jwk = { kty: 'AKP', alg: P.name, pub: b64url(ours.keygen(rng.bytes(32)).publicKey), priv: b64url(seed) };
    refuses(() => importSecretKey(ours, jwk, 'jwk'), /"pub" is not the public key of the seed/, 'jwk with another pub');
  });

  test(`${P.name}: PEM is read as RFC 7468's lax grammar allows, to the same key`, { skip }, () => {
    const spki = spkiOf(P, pk);
    const both = pkcs8Of(P, bothForm(seed, sk));
    const utf8 = (text) => new TextEncoder().encode(text);
    for (const [name, text] of laxLayouts('PUBLIC KEY', spki)) {
      eqBytes(importPublicKey(ours, text, 'pem'), pk, `public key, ${name}`);
      eqBytes(importPublicKey(ours, utf8(text), 'pem'), pk, `public key, ${name}, as bytes`);
    }
    for (const [name, text] of laxLayouts('PRIVATE KEY', both)) {
      for (const [how, data] of [
        ['a string', text],
        ['bytes', Buffer.from(text)],
      ]) {
        const key = importSecretKey(ours, data, 'pem');
        eqBytes(key.seed, seed, `private key, ${name}, as ${how}: seed`);
        eqBytes(key.secretKey, sk, `private key, ${name}, as ${how}: secretKey`);
      }
    }
    // Lax layouts that node:crypto does not read: VT and FF, CR alone, armour
    // lines indented or with text on them, no line break at all.
    const b = b64(spki);
    const more = [
      `-----BEGIN PUBLIC KEY-----\n${lines(spki, 64, '\x0b\n\x0c')}\n-----END PUBLIC KEY-----\n`,
      `-----BEGIN PUBLIC KEY-----\r${lines(spki, 64, '\r')}\r-----END PUBLIC KEY-----\r`,
      `  -----BEGIN PUBLIC KEY-----\n  ${lines(spki, 64, '\n  ')}\n  -----END PUBLIC KEY-----  \n`,
      `key: -----BEGIN PUBLIC KEY-----\n${lines(spki, 64)}\n-----END PUBLIC KEY----- (end)`,
      `-----BEGIN PUBLIC KEY-----${b}-----END PUBLIC KEY-----`,
    ];
    for (const text of more) eqBytes(importPublicKey(ours, text, 'pem'), pk, JSON.stringify(text.slice(0, 40)));
    // Bytes: a view inside a larger buffer, read in place and left as it was.
    const text = utf8(pemOf('PRIVATE KEY', both));
    const big = new Uint8Array(text.length + 20).fill(0x41);
    big.set(text, 10);
    const view = big.subarray(10, 10 + text.length);
    const before = big.slice();
    eqBytes(importSecretKey(ours, view, 'pem').secretKey, sk, 'PEM bytes in a subarray');
    eqBytes(big, before, "the caller's bytes after the import");
    // Writing stays strict: lines of 64, LF.
    assert.equal(exportPublicKey(ours, pk, 'pem'), pemOf('PUBLIC KEY', spki));
    assert.equal(exportSecretKey(ours, seed, 'pem', { form: 'both' }), pemOf('PRIVATE KEY', both));
  });

  test(`${P.name}: PEM still refuses non-canonical base64, a wrong label, other text inside the armour, and BER`, { skip }, () => {
    const der = spkiOf(P, pk);
    const wrap = (body, label = 'PUBLIC KEY') => `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g).join('\n')}\n-----END ${label}-----\n`;
    const good = wrap(b64(der));
    // DER one byte short when its base64 has no padding: the refusals of the
    // base64 come before the DER is read.
    const short = der.subarray(0, der.length - (der.length % 3 === 0 ? 1 : 0));
    const padded = b64(short);
    assert.ok(padded.endsWith('='), 'a padded base64');
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const at = padded.indexOf('=') - 1;
    const nonCanonical = padded.slice(0, at) + A[A.indexOf(padded[at]) | 1] + padded.slice(at + 1);
    const body = b64(der);
    const ber = (d) => u8(0x30, 0x83, 0, (d.length - 4) >> 8, (d.length - 4) & 0xff, d.subarray(4));
    assert.equal(der[1], 0x82, 'SPKI with a 2-byte length');
    const cases = [
      ['a bad character', wrap(body.slice(0, 30) + '*' + body.slice(31)), /base64: a character outside the alphabet/],
      ['a non-ASCII character', wrap(body.slice(0, 30) + '\u00e9' + body.slice(32)), /base64: a character outside the alphabet/],
      ['a NUL', wrap(body.slice(0, 30) + '\0' + body.slice(31)), /base64: a character outside the alphabet/],
      ['a dash in the base64', wrap(body.slice(0, 30) + '-' + body.slice(31)), /-----END PUBLIC KEY-----/],
      ['padding missing', wrap(padded.replace(/=+$/, '')), /padding missing or extra/],
      ['padding extra', wrap(padded + '='), /padding missing or extra/],
      ['padding in the middle', wrap(padded.slice(0, 8) + '=' + padded.slice(9)), /padding before the end/],
      ['a non-canonical last character', wrap(nonCanonical), /not canonical/],
      ['base64 after the padding', wrap(padded + 'AAAA'), /padding before the end/],
      ['base64 after the DER', wrap(b64(u8(der, 0, 0, 0))), /bytes after/],
      ['words after the base64', wrap(body).replace('\n-----END', '\nsee the notes\n-----END'), /base64|bytes after|not a DER/],
      ['an RFC 1421 header', good.replace('KEY-----\n', 'KEY-----\nProc-Type: 4,ENCRYPTED\n\n'), /-----END PUBLIC KEY-----/],
      ['the private label', good.replaceAll('PUBLIC KEY', 'PRIVATE KEY'), /-----BEGIN PUBLIC KEY-----/],
      ['an RSA label', good.replaceAll('PUBLIC KEY', 'RSA PUBLIC KEY'), /-----BEGIN PUBLIC KEY-----/],
      ['a lower-case label', good.replaceAll('PUBLIC KEY', 'public key'), /-----BEGIN PUBLIC KEY-----/],
      ['another END label', good.replace('END PUBLIC', 'END PRIVATE'), /-----END PUBLIC KEY-----/],
      ['no END line', good.replace('-----END PUBLIC KEY-----\n', ''), /-----END PUBLIC KEY-----/],
      ['four dashes', good.replace('-----BEGIN', '----BEGIN'), /-----BEGIN PUBLIC KEY-----/],
      ['no base64', '-----BEGIN PUBLIC KEY-----\n \n-----END PUBLIC KEY-----\n', /no base64/],
      ['no armour', body, /-----BEGIN PUBLIC KEY-----/],
      ['BER: a long-form length', wrap(b64(ber(der))), /not a DER/],
      ['BER: an indefinite length', wrap(b64(u8(0x30, 0x80, der.subarray(4), 0, 0))), /not a DER/],
    ];
    for (const [what, text, re] of cases) {
      refuses(() => importPublicKey(ours, text, 'pem'), re, what);
      refuses(() => importPublicKey(ours, Buffer.from(text), 'pem'), re, `${what}, as bytes`);
    }
    const privateBer = pkcs8Of(P, seedForm(seed));
    refuses(
      () => importSecretKey(ours, wrap(b64(u8(0x30, 0x81, privateBer.length - 2, privateBer.subarray(2))), 'PRIVATE KEY'), 'pem'),
      /not a DER/,
      'PKCS#8 BER',
    );
    for (const wrong of [42, null, new ArrayBuffer(8), [...Buffer.from(good)], new Uint16Array(4), { toString: () => good }])
      assert.throws(
        () => importPublicKey(ours, wrong, 'pem'),
        (e) => e instanceof TypeError && /pem: expected a string or a Uint8Array/.test(e.message),
        String(wrong),
      );
    assert.throws(
      () => importSecretKey(ours, new Uint8Array(1 << 20), 'pem'),
      (e) => e instanceof RangeError && /pem: expected at most \d+ bytes/.test(e.message),
    );
    assert.throws(
      () => importSecretKey(ours, ' '.repeat(1 << 20), 'pem'),
      (e) => e instanceof RangeError && /pem: expected at most \d+ characters/.test(e.message),
    );
  });

  test(`${P.name}: strict base64url in JWK`, { skip }, () => {
    const jwk = (pub) => ({ kty: 'AKP', alg: P.name, pub });
    refuses(() => importPublicKey(ours, jwk(b64(pk)), 'jwk'), /base64/, 'jwk pub in base64 with + / and =');
    refuses(() => importPublicKey(ours, jwk(b64url(pk) + 'A'), 'jwk'), /base64|bytes/, 'jwk pub one character longer');
    refuses(() => importPublicKey(ours, jwk(b64url(pk.subarray(1))), 'jwk'), /expected \d+ base64url characters \(\d+ bytes\)/, 'jwk pub one byte short');
    refuses(() => importPublicKey(ours, { ...jwk(b64url(pk)), kty: 'OKP' }, 'jwk'), /kty "AKP"/, 'kty OKP');
    refuses(
      () => importPublicKey(ours, { ...jwk(b64url(pk)), alg: 'ML-DSA-66' }, 'jwk'),
      /expected alg to be one of "ML-DSA-44", "ML-DSA-65", "ML-DSA-87", got a string of 9 characters$/,
      'an unknown alg',
    );
    refuses(() => importPublicKey(ours, { ...jwk(b64url(pk)), priv: b64url(seed) }, 'jwk'), /private key/, 'a private JWK as public');
    refuses(() => importSecretKey(ours, jwk(b64url(pk)), 'jwk'), /"priv" member is missing/, 'a public JWK as private');
  });

  test(`${P.name}: arguments are read once and checked by type`, { skip }, () => {
    let reads = 0;
    const counted = {
      kty: 'AKP',
      alg: P.name,
      get pub() {
        reads++;
        return b64url(pk);
      },
    };
    eqBytes(importPublicKey(ours, counted, 'jwk'), pk, 'jwk with a getter');
    assert.equal(reads, 1, 'jwk.pub read once');
    // A subclass whose length lies: the real bytes are read.
    class Liar extends Uint8Array {
      get length() {
        return 5;
      }
    }
    const der = spkiOf(P, pk);
    const liar = new Liar(der.length);
    liar.set(der);
    eqBytes(importPublicKey(ours, liar, 'spki'), pk, 'spki in a lying subclass');
    const typeErrors = [
      () => importPublicKey(ours, pk, 'der'),
      () => importPublicKey(ours, pk),
      () => importPublicKey(ours, [...pk], 'raw'),
      () => importSecretKey(ours, seed, 'seed'),
      () => exportSecretKey(ours, seed, 'pkcs8', { form: 'expanded' }),
      () => exportSecretKey(ours, seed, 'raw-seed', { form: 'seed' }),
      () => exportSecretKey(ours, seed, 'pkcs8', { fmt: 1 }),
      () => importPublicKey(ours, null, 'jwk'),
      () => importPublicKey(ours, new ArrayBuffer(10), 'spki'),
    ];
    for (const fn of typeErrors) assert.throws(fn, TypeError, String(fn));
    assert.throws(() => exportSecretKey(ours, rng.bytes(33), 'pkcs8'), RangeError);
    assert.throws(() => exportPublicKey(ours, pk.subarray(1), 'spki'), RangeError);
    // The instance is fine after all of it.
    eqBytes(importPublicKey(ours, spkiOf(P, pk), 'spki'), pk, 'afterwards');
  });
}
