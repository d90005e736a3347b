// Key formats (importPublicKey/exportPublicKey/importSecretKey/exportSecretKey):
// raw, SPKI and PKCS#8 DER in RFC 9881's three private-key forms, PEM, and JWK
// (RFC 9964), for every set. The expected bytes are built here from the RFCs'
// ASN.1, not taken from the package; node:crypto's view (Node 24) is in
// keys-node24.test.mjs. Random inputs come from a seeded generator
// (MLDSA_TEST_SEED=<seed> repeats a run).
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib, SETS, IMPL } from './lib/load.mjs';
import { Rng, toHex, hex, concat } from './lib/util.mjs';

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
const pemOf = (label, der) =>
  `-----BEGIN ${label}-----\n${b64(der).match(/.{1,64}/g).join('\n')}\n-----END ${label}-----\n`;
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
    assert.deepEqual(Object.keys(k), ['publicKey', 'secretKey', 'seed'], 'noble\'s two keys, then the seed');
    eqBytes(k.seed, given, 'keygen(seed).seed');
    eqBytes(ours.getPublicKey(k.secretKey), k.publicKey, 'the key pair of keygen(seed)');
    assert.notEqual(k.seed.buffer, given.buffer, 'keygen(seed).seed is a copy');
    k.seed.fill(0);
    eqBytes(given, kept, 'the given seed, after wiping the copy');
    const r = ours.keygen();
    assert.ok(r.seed instanceof Uint8Array && r.seed.length === 32, 'keygen().seed is 32 bytes');
    assert.ok(r.seed.some((x) => x !== 0), 'keygen().seed is not wiped');
    eqBytes(ours.keygen(r.seed).secretKey, r.secretKey, 'keygen(keygen().seed) gives the same key');
    assert.notEqual(toHex(ours.keygen().seed), toHex(r.seed), 'two keygen() calls drew the same seed');
    // The default form after a plain keygen().
    const pem = ours.exportSecretKey(r.seed, 'pem');
    const back = ours.importSecretKey(pem, 'pem');
    eqBytes(back.secretKey, r.secretKey, 'exportSecretKey(keygen().seed, "pem"): secretKey');
    eqBytes(back.seed, r.seed, 'exportSecretKey(keygen().seed, "pem"): seed');
  });

  test(`${P.name}: an export that needs the seed says how to get it`, { skip }, () => {
    for (const [format, opts] of [['raw-seed'], ['jwk'], ['pkcs8'], ['pem'], ['pkcs8', { form: 'both' }], ['pem', { form: 'seed' }]]) {
      let message = '';
      try {
        ours.exportSecretKey(sk, format, opts);
      } catch (e) {
        message = e.message;
      }
      assert.match(message, new RegExp(`needs the 32-byte seed, and a ${P.sk}-byte expanded secret key does not contain it`), format);
      assert.match(message, /keygen\(\) returns the seed as \.seed/, `${format}: where the seed comes from`);
      assert.match(message, /\{ form: 'expandedKey' \}/, `${format}: how to export the expanded key`);
      assert.doesNotMatch(message, new RegExp(b64(sk.subarray(0, 12)).slice(0, 12) + '|' + toHex(sk.subarray(0, 8))), `${format}: no key bytes in the message`);
    }
    // What the hint says works.
    eqBytes(ours.exportSecretKey(sk, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'the expandedKey form');
    assert.equal(ours.exportSecretKey(sk, 'pem', { form: 'expandedKey' }), pemOf('PRIVATE KEY', pkcs8Of(P, expandedForm(sk))));
  });

  test(`${P.name}: every format holds the bytes RFC 9881 / 7468 / 9964 say`, { skip }, () => {
    eqBytes(ours.exportPublicKey(pk, 'raw'), pk, 'raw');
    eqBytes(ours.exportPublicKey(pk, 'spki'), spkiOf(P, pk), 'spki');
    assert.equal(ours.exportPublicKey(pk, 'pem'), pemOf('PUBLIC KEY', spkiOf(P, pk)));
    assert.deepEqual(ours.exportPublicKey(pk, 'jwk'), { kty: 'AKP', alg: P.name, pub: b64url(pk) });
    for (const key of [seed]) {
      eqBytes(ours.exportSecretKey(key, 'raw-seed'), seed, 'raw-seed');
      eqBytes(ours.exportSecretKey(key, 'raw'), sk, 'raw (expanded) from the seed');
      eqBytes(ours.exportSecretKey(key, 'pkcs8'), pkcs8Of(P, seedForm(seed)), 'pkcs8 (default: seed form)');
      eqBytes(ours.exportSecretKey(key, 'pkcs8', { form: 'seed' }), pkcs8Of(P, seedForm(seed)), 'pkcs8 seed');
      eqBytes(ours.exportSecretKey(key, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'pkcs8 expandedKey');
      eqBytes(ours.exportSecretKey(key, 'pkcs8', { form: 'both' }), pkcs8Of(P, bothForm(seed, sk)), 'pkcs8 both');
      assert.equal(ours.exportSecretKey(key, 'pem'), pemOf('PRIVATE KEY', pkcs8Of(P, seedForm(seed))));
      assert.equal(ours.exportSecretKey(key, 'pem', { form: 'both' }), pemOf('PRIVATE KEY', pkcs8Of(P, bothForm(seed, sk))));
      assert.deepEqual(ours.exportSecretKey(key, 'jwk'), { kty: 'AKP', alg: P.name, pub: b64url(pk), priv: b64url(seed) });
    }
    // From the expanded key: only the forms without the seed.
    eqBytes(ours.exportSecretKey(sk, 'raw'), sk, 'raw from the expanded key');
    eqBytes(ours.exportSecretKey(sk, 'pkcs8', { form: 'expandedKey' }), pkcs8Of(P, expandedForm(sk)), 'pkcs8 expandedKey from sk');
    for (const [format, opts] of [['raw-seed'], ['jwk'], ['pkcs8'], ['pem'], ['pkcs8', { form: 'both' }]])
      refuses(() => ours.exportSecretKey(sk, format, opts), /needs the 32-byte seed/, `${format} from an expanded key`);
  });

  test(`${P.name}: every format imports back to the same key`, { skip }, () => {
    const pubs = [
      [pk, 'raw'], [spkiOf(P, pk), 'spki'], [pemOf('PUBLIC KEY', spkiOf(P, pk)), 'pem'],
      [pemOf('PUBLIC KEY', spkiOf(P, pk)).replaceAll('\n', '\r\n'), 'pem'],
      [pemOf('PUBLIC KEY', spkiOf(P, pk)).trimEnd(), 'pem'],
      [{ kty: 'AKP', alg: P.name, pub: b64url(pk), kid: 'x', key_ops: ['verify'] }, 'jwk'],
    ];
    for (const [data, format] of pubs) eqBytes(ours.importPublicKey(data, format), pk, `importPublicKey ${format}`);
    const secrets = [
      [seed, 'raw-seed', true], [sk, 'raw', false],
      [pkcs8Of(P, seedForm(seed)), 'pkcs8', true], [pkcs8Of(P, expandedForm(sk)), 'pkcs8', false],
      [pkcs8Of(P, bothForm(seed, sk)), 'pkcs8', true], [pemOf('PRIVATE KEY', pkcs8Of(P, bothForm(seed, sk))), 'pem', true],
      [{ kty: 'AKP', alg: P.name, pub: b64url(pk), priv: b64url(seed) }, 'jwk', true],
    ];
    for (const [data, format, hasSeed] of secrets) {
      const key = ours.importSecretKey(data, format);
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
      ['spki', (d) => ours.importPublicKey(d, 'spki'), spkiOf(P, pk)],
      ['pkcs8 seed', (d) => ours.importSecretKey(d, 'pkcs8'), pkcs8Of(P, seedForm(seed))],
      ['pkcs8 expandedKey', (d) => ours.importSecretKey(d, 'pkcs8'), pkcs8Of(P, expandedForm(sk))],
      ['pkcs8 both', (d) => ours.importSecretKey(d, 'pkcs8'), pkcs8Of(P, bothForm(seed, sk))],
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
    refuses(() => ours.importPublicKey(tlv(0x30, u8(withParams(P, [5, 0]), tlv(0x03, u8(0, pk)))), 'spki'), /parameters/, 'NULL parameters');
    refuses(() => ours.importSecretKey(tlv(0x30, u8(tlv(0x02, [0]), withParams(P, [5, 0]), tlv(0x04, seedForm(seed)))), 'pkcs8'), /parameters/, 'pkcs8 NULL parameters');
    const ed25519 = tlv(0x30, tlv(0x06, hex('2b6570')));
    refuses(() => ours.importPublicKey(tlv(0x30, u8(ed25519, tlv(0x03, u8(0, pk)))), 'spki'), /not ML-DSA/, 'an Ed25519 OID');
    refuses(() => ours.importPublicKey(tlv(0x30, u8(algorithmId(P), tlv(0x03, u8(1, pk)))), 'spki'), /unused bits/, 'unused bits');
    refuses(() => ours.importPublicKey(tlv(0x30, u8(algorithmId(P), tlv(0x04, pk))), 'spki'), /BIT STRING/, 'an OCTET STRING key');
    refuses(() => ours.importSecretKey(tlv(0x30, u8(tlv(0x02, [1]), algorithmId(P), tlv(0x04, seedForm(seed)))), 'pkcs8'), /version must be 0/, 'version 1');
    refuses(() => ours.importSecretKey(tlv(0x30, u8(tlv(0x02, [0]), algorithmId(P), tlv(0x04, tlv(0x04, seed)))), 'pkcs8'), /wrong length/, 'a seed as an OCTET STRING');
    refuses(() => ours.importSecretKey(pkcs8Of(P, tlv(0x80, seed.subarray(1))), 'pkcs8'), /seed must be 32 bytes/, 'a 31-byte seed');
    refuses(() => ours.importSecretKey(pkcs8Of(P, tlv(0xa0, seedForm(seed))), 'pkcs8'), /none of seed/, 'a constructed [0]');
    const withAttributes = tlv(0x30, u8(tlv(0x02, [0]), algorithmId(P), tlv(0x04, seedForm(seed)), tlv(0xa0, [])));
    refuses(() => ours.importSecretKey(withAttributes, 'pkcs8'), /fields after privateKey/, 'attributes');
  });

  test(`${P.name}: the parameter set must be the one asked for`, { skip }, () => {
    const theirs = lib[other.key].keygen(seed);
    const re = new RegExp(`for ${other.name}, but ${P.key} \\(${P.name}\\) was asked for`);
    refuses(() => ours.importPublicKey(lib[other.key].exportPublicKey(theirs.publicKey, 'spki'), 'spki'), re, 'spki of another set');
    refuses(() => ours.importPublicKey(lib[other.key].exportPublicKey(theirs.publicKey, 'pem'), 'pem'), re, 'pem of another set');
    refuses(() => ours.importSecretKey(lib[other.key].exportSecretKey(seed, 'pkcs8'), 'pkcs8'), re, 'pkcs8 of another set');
    refuses(() => ours.importSecretKey(lib[other.key].exportSecretKey(seed, 'jwk'), 'jwk'), re, 'jwk of another set');
    refuses(() => ours.importPublicKey(lib[other.key].exportPublicKey(theirs.publicKey, 'jwk'), 'jwk'), re, 'public jwk of another set');
  });

  test(`${P.name}: a private key whose parts do not belong together is refused`, { skip }, () => {
    const stranger = ours.keygen(rng.bytes(32)).secretKey;
    refuses(() => ours.importSecretKey(pkcs8Of(P, bothForm(seed, stranger)), 'pkcs8'), /do not belong together/, 'both: another key');
    for (const at of [64 + rng.int(64), P.sk - 1 - rng.int(400), 128 + rng.int(32)]) {
      const bad = new Uint8Array(sk);
      bad[at] ^= 1 << rng.int(8);
      // tr, t0 or s1: the key's parts no longer agree (or s1 is out of range).
      refuses(() => ours.importSecretKey(pkcs8Of(P, expandedForm(bad)), 'pkcs8'), /malformed/, `expandedKey with byte ${at} changed`);
      refuses(() => ours.importSecretKey(bad, 'raw'), /malformed/, `raw with byte ${at} changed`);
      refuses(() => ours.importSecretKey(pkcs8Of(P, bothForm(seed, bad)), 'pkcs8'), /do not belong together/, `both with byte ${at} changed`);
    }
    const jwk = { kty: 'AKP', alg: P.name, pub: b64url(ours.keygen(rng.bytes(32)).publicKey), priv: b64url(seed) };
    refuses(() => ours.importSecretKey(jwk, 'jwk'), /"pub" is not the public key of the seed/, 'jwk with another pub');
  });

  test(`${P.name}: strict PEM and base64url`, { skip }, () => {
    const good = pemOf('PUBLIC KEY', spkiOf(P, pk));
    const lines = good.split('\n');
    const body = lines.slice(1, -2).join('');
    const cases = [
      [good.replace('PUBLIC KEY', 'PRIVATE KEY'), /start with the line -----BEGIN PUBLIC KEY-----/],
      [good.replace('-----END PUBLIC KEY-----', '-----END RSA PUBLIC KEY-----'), /end with the line -----END PUBLIC KEY-----/],
      [`${good}\n`, /end with/],
      [`preamble\n${good}`, /start with/],
      [`-----BEGIN PUBLIC KEY-----\n${body.match(/.{1,76}/g).join('\n')}\n-----END PUBLIC KEY-----\n`, /64 characters/],
      [`-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`, /64 characters/],
      [good.replace(lines[1], lines[1].slice(0, 30) + ' ' + lines[1].slice(31)), /base64/],
      [good.replace(lines[2], lines[2].slice(0, 63) + '\n' + lines[2].slice(63)), /64 characters/],
      [good.replace(lines[3], ''), /64 characters|base64/],
    ];
    for (const [text, re] of cases) refuses(() => ours.importPublicKey(text, 'pem'), re, JSON.stringify(text.slice(0, 60)));
    refuses(() => ours.importPublicKey(Buffer.from(good), 'pem'), /expected a string/, 'pem as bytes');
    const jwk = (pub) => ({ kty: 'AKP', alg: P.name, pub });
    refuses(() => ours.importPublicKey(jwk(b64(pk)), 'jwk'), /base64/, 'jwk pub in base64 with + / and =');
    refuses(() => ours.importPublicKey(jwk(b64url(pk) + 'A'), 'jwk'), /base64|bytes/, 'jwk pub one character longer');
    refuses(() => ours.importPublicKey(jwk(b64url(pk.subarray(1))), 'jwk'), /expected \d+ base64url characters \(\d+ bytes\)/, 'jwk pub one byte short');
    refuses(() => ours.importPublicKey({ ...jwk(b64url(pk)), kty: 'OKP' }, 'jwk'), /kty "AKP"/, 'kty OKP');
    refuses(() => ours.importPublicKey({ ...jwk(b64url(pk)), alg: 'ML-DSA-66' }, 'jwk'), /expected alg "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87", got a string of 9 characters$/, 'an unknown alg');
    refuses(() => ours.importPublicKey({ ...jwk(b64url(pk)), priv: b64url(seed) }, 'jwk'), /private key/, 'a private JWK as public');
    refuses(() => ours.importSecretKey(jwk(b64url(pk)), 'jwk'), /"priv" member is missing/, 'a public JWK as private');
  });

  test(`${P.name}: arguments are read once and checked by type`, { skip }, () => {
    let reads = 0;
    const counted = { kty: 'AKP', alg: P.name, get pub() { reads++; return b64url(pk); } };
    eqBytes(ours.importPublicKey(counted, 'jwk'), pk, 'jwk with a getter');
    assert.equal(reads, 1, 'jwk.pub read once');
    // A subclass whose length lies: the real bytes are read.
    class Liar extends Uint8Array { get length() { return 5; } }
    const der = spkiOf(P, pk);
    const liar = new Liar(der.length);
    liar.set(der);
    eqBytes(ours.importPublicKey(liar, 'spki'), pk, 'spki in a lying subclass');
    const typeErrors = [
      () => ours.importPublicKey(pk, 'der'), () => ours.importPublicKey(pk), () => ours.importPublicKey([...pk], 'raw'),
      () => ours.importSecretKey(seed, 'seed'), () => ours.exportSecretKey(seed, 'pkcs8', { form: 'expanded' }),
      () => ours.exportSecretKey(seed, 'raw-seed', { form: 'seed' }), () => ours.exportSecretKey(seed, 'pkcs8', { fmt: 1 }),
      () => ours.importPublicKey(null, 'jwk'), () => ours.importPublicKey(new ArrayBuffer(10), 'spki'),
    ];
    for (const fn of typeErrors) assert.throws(fn, TypeError, String(fn));
    assert.throws(() => ours.exportSecretKey(rng.bytes(33), 'pkcs8'), RangeError);
    assert.throws(() => ours.exportPublicKey(pk.subarray(1), 'spki'), RangeError);
    // The instance is fine after all of it.
    eqBytes(ours.importPublicKey(spkiOf(P, pk), 'spki'), pk, 'afterwards');
  });
}
