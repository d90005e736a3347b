// Interoperability of keys (mldsa-simd/keys) and signatures with node:crypto, both ways, every
// set: keys that Node 24 exports (PEM and DER SPKI/PKCS#8, JWK, raw-public,
// raw-seed) import into ours, and ours (every format and PKCS#8 form) import
// into Node's createPublicKey/createPrivateKey; signatures with an empty and a
// non-empty context made on one side verify on the other. The tests run on
// the Node that runs npm test; node:crypto's ML-DSA comes from the Node 24
// binary that scripts/setup.sh installs in .tools/node24 (MLDSA_NODE24
// overrides the path), run as a child process with JSON on stdin/stdout.
// PEM in other layouts than the strict one: the lax layouts both read, to the
// same key; what node:crypto (OpenSSL) takes and ours refuses, on purpose.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib, keys, SETS, IMPL, inNode24 } from './lib/load.mjs';
import { Rng, toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'key formats are not part of the noble API (MLDSA_IMPL=noble)' : false;
const rng = new Rng('keys-node24');
test('random seed', (t) => t.diagnostic(`keys-node24: MLDSA_TEST_SEED=${rng.seedHex}`));

const { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } = keys;
const B = (b) => Buffer.from(b).toString('base64');
const U = (s) => new Uint8Array(Buffer.from(s, 'base64'));

test('Node 24 is the node:crypto under test', { skip }, (t) => {
  const v = inNode24('return process.version', {});
  t.diagnostic(`keys-node24: node:crypto of Node ${v}`);
  assert.match(v, /^v24\./);
});

const CTXS = [new Uint8Array(0), new Uint8Array([1, 2, 3]), rng.bytes(255)];
const MSG = rng.bytes(777);

test('keys and signatures from node:crypto import and verify in ours', { skip }, () => {
  const out = inNode24(
    `
    const res = {};
    for (const name of input.names) {
      const { publicKey, privateKey } = crypto.generateKeyPairSync(name.toLowerCase());
      const msg = U(input.msg);
      res[name] = {
        spkiPem: publicKey.export({ type: 'spki', format: 'pem' }),
        spkiDer: B(publicKey.export({ type: 'spki', format: 'der' })),
        pkcs8Pem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        pkcs8Der: B(privateKey.export({ type: 'pkcs8', format: 'der' })),
        jwkPublic: publicKey.export({ format: 'jwk' }),
        jwkPrivate: privateKey.export({ format: 'jwk' }),
        rawPublic: B(publicKey.export({ format: 'raw-public' })),
        rawSeed: B(privateKey.export({ format: 'raw-seed' })),
        sigs: input.ctxs.map((c) => B(crypto.sign(null, msg, { key: privateKey, context: U(c) }))),
      };
    }
    return res;`,
    { names: SETS.map((s) => s.name), msg: B(MSG), ctxs: CTXS.map(B) },
  );
  for (const P of SETS) {
    const ours = lib[P.key];
    const n = out[P.name];
    const pk = U(n.rawPublic);
    const seed = U(n.rawSeed);
    assert.equal(pk.length, P.pk);
    for (const [data, format] of [
      [n.spkiPem, 'pem'],
      [U(n.spkiDer), 'spki'],
      [n.jwkPublic, 'jwk'],
      [pk, 'raw'],
    ])
      assert.equal(toHex(importPublicKey(ours, data, format)), toHex(pk), `${P.name}: Node's ${format} public key`);
    for (const [data, format] of [
      [n.pkcs8Pem, 'pem'],
      [U(n.pkcs8Der), 'pkcs8'],
      [n.jwkPrivate, 'jwk'],
      [seed, 'raw-seed'],
    ]) {
      const key = importSecretKey(ours, data, format);
      assert.equal(toHex(key.seed), toHex(seed), `${P.name}: Node's ${format} private key: seed`);
      assert.equal(toHex(key.publicKey), toHex(pk), `${P.name}: Node's ${format} private key: public key`);
    }
    // Node writes the seed form, and the same bytes as ours.
    assert.equal(toHex(U(n.pkcs8Der)), toHex(exportSecretKey(ours, seed, 'pkcs8')), `${P.name}: PKCS#8 bytes`);
    assert.equal(n.pkcs8Pem, exportSecretKey(ours, seed, 'pem'), `${P.name}: PKCS#8 PEM`);
    assert.equal(n.spkiPem, exportPublicKey(ours, pk, 'pem'), `${P.name}: SPKI PEM`);
    assert.deepEqual(n.jwkPrivate, exportSecretKey(ours, seed, 'jwk'), `${P.name}: private JWK`);
    CTXS.forEach((ctx, i) => {
      const sig = U(n.sigs[i]);
      assert.ok(ours.verify(sig, MSG, pk, { context: ctx }), `${P.name}: Node's signature, context of ${ctx.length} bytes`);
      const other = new Uint8Array(ctx.length ? 0 : 1);
      assert.equal(ours.verify(sig, MSG, pk, { context: other }), false, `${P.name}: Node's signature under another context`);
    });
  }
});

test('keys and signatures from ours import and verify in node:crypto', { skip }, () => {
  const input = { msg: B(MSG), ctxs: CTXS.map(B), sets: {} };
  const mine = {};
  for (const P of SETS) {
    const ours = lib[P.key];
    const seed = rng.bytes(32);
    const { publicKey: pk, secretKey: sk } = ours.keygen(seed);
    mine[P.name] = { pk };
    input.sets[P.name] = {
      publicKeys: [
        ['pem', exportPublicKey(ours, pk, 'pem')],
        ['der', B(exportPublicKey(ours, pk, 'spki'))],
        ['jwk', exportPublicKey(ours, pk, 'jwk')],
        ['raw-public', B(pk)],
      ],
      privateKeys: [
        ['pem', exportSecretKey(ours, seed, 'pem')],
        ['der', B(exportSecretKey(ours, seed, 'pkcs8'))],
        ['der', B(exportSecretKey(ours, seed, 'pkcs8', { form: 'both' }))],
        ['der', B(exportSecretKey(ours, sk, 'pkcs8', { form: 'expandedKey' }))],
        ['pem', exportSecretKey(ours, seed, 'pem', { form: 'expandedKey' })],
        ['jwk', exportSecretKey(ours, seed, 'jwk')],
        ['raw-seed', B(seed)],
      ],
      sigs: CTXS.map((ctx) => B(ours.sign(MSG, sk, { context: ctx }))),
    };
  }
  const out = inNode24(
    `
    const msg = U(input.msg);
    const res = {};
    for (const [name, s] of Object.entries(input.sets)) {
      const type = name.toLowerCase();
      const load = (make, format, data) =>
        format === 'jwk' ? make({ key: data, format: 'jwk' })
        : format === 'pem' ? make(data)
        : format === 'der' ? make({ key: U(data), format: 'der', type: make === crypto.createPublicKey ? 'spki' : 'pkcs8' })
        : make({ key: U(data), format, asymmetricKeyType: type });
      const pubs = s.publicKeys.map(([f, d]) => load(crypto.createPublicKey, f, d));
      const privs = s.privateKeys.map(([f, d]) => load(crypto.createPrivateKey, f, d));
      res[name] = {
        types: [...pubs, ...privs].map((k) => k.asymmetricKeyType),
        rawPublic: pubs.map((k) => B(k.export({ format: 'raw-public' }))),
        fromPrivate: privs.map((k) => B(crypto.createPublicKey(k).export({ format: 'raw-public' }))),
        verified: s.sigs.map((sig, i) => pubs.map((k) => crypto.verify(null, msg, { key: k, context: U(input.ctxs[i]) }, U(sig)))),
        wrongContext: s.sigs.map((sig, i) => crypto.verify(null, msg, { key: pubs[0], context: Buffer.from('x' + i) }, U(sig))),
        sigs: privs.map((k, i) => B(crypto.sign(null, msg, { key: k, context: U(input.ctxs[i % input.ctxs.length]) }))),
        expandedExport: (() => { try { return B(privs[3].export({ type: 'pkcs8', format: 'der' })); } catch (e) { return 'error: ' + e.message; } })(),
      };
    }
    return res;`,
    input,
  );
  for (const P of SETS) {
    const ours = lib[P.key];
    const n = out[P.name];
    const pk = mine[P.name].pk;
    assert.ok(
      n.types.every((t) => t === P.name.toLowerCase()),
      `${P.name}: key types ${n.types}`,
    );
    for (const got of [...n.rawPublic, ...n.fromPrivate]) assert.equal(toHex(U(got)), toHex(pk), `${P.name}: Node read our key`);
    n.verified.forEach((row, i) => assert.deepEqual(row, [true, true, true, true], `${P.name}: our signature, context ${i}`));
    assert.deepEqual(n.wrongContext, [false, false, false], `${P.name}: our signatures under another context`);
    n.sigs.forEach((sig, i) =>
      assert.ok(ours.verify(U(sig), MSG, pk, { context: CTXS[i % CTXS.length] }), `${P.name}: Node's signature with our private key #${i}`),
    );
    // A key Node read from the expanded form: what Node writes for it, if anything, reads back in ours.
    if (!n.expandedExport.startsWith('error')) {
      const key = importSecretKey(ours, U(n.expandedExport), 'pkcs8');
      assert.equal(toHex(key.publicKey), toHex(pk), `${P.name}: Node's PKCS#8 of an expanded-only key`);
    }
  }
});

// The base64 of `der` in lines of `n` characters joined by `eol`.
const lines = (der, n, eol = '\n') =>
  B(der)
    .match(new RegExp(`.{1,${n}}`, 'g'))
    .join(eol);

test('PEM in RFC 7468 lax layouts: node:crypto and ours read the same key', { skip }, () => {
  const input = { sets: {} };
  const texts = {};
  for (const P of SETS) {
    const ours = lib[P.key];
    const { publicKey, seed } = ours.keygen(rng.bytes(32));
    const spki = exportPublicKey(ours, publicKey, 'spki');
    const pkcs8 = exportSecretKey(ours, seed, 'pkcs8');
    const layouts = (label, der) => {
      const [b, e] = [`-----BEGIN ${label}-----`, `-----END ${label}-----`];
      return [
        ['76 columns', `${b}\n${lines(der, 76)}\n${e}\n`],
        ['76 columns, CR LF', `${b}\r\n${lines(der, 76, '\r\n')}\r\n${e}\r\n`],
        ['one line', `${b}\n${B(der)}\n${e}\n`],
        ['tabs and spaces', `${b}\n${lines(der, 64, ' \t\n\t')} \n${e}\n`],
        ['spaces inside lines', `${b}\n${lines(der, 64).replace(/(.{10})/g, '$1 ')}\n${e}\n`],
        ['padding apart', `${b}\n${lines(der, 64).replace(/=/g, '\n=')}\n${e}\n`],
        ['text before and after', `Subject: test\nNotes: none\n\n${b}\n${lines(der, 64)}\n${e}\nmore text\n`],
      ];
    };
    texts[P.name] = { publicKey, seed, pub: layouts('PUBLIC KEY', spki), priv: layouts('PRIVATE KEY', pkcs8) };
    input.sets[P.name] = { pub: texts[P.name].pub.map(([, t]) => t), priv: texts[P.name].priv.map(([, t]) => t) };
  }
  const out = inNode24(
    `
    const res = {};
    const read = (f) => { try { return f(); } catch (e) { return 'error: ' + e.message; } };
    for (const [name, s] of Object.entries(input.sets)) {
      res[name] = {
        pub: s.pub.map((t) => read(() => B(crypto.createPublicKey(t).export({ format: 'raw-public' })))),
        privBytes: s.priv.map((t) => read(() => B(crypto.createPrivateKey(Buffer.from(t)).export({ format: 'raw-seed' })))),
      };
    }
    return res;`,
    input,
  );
  for (const P of SETS) {
    const ours = lib[P.key];
    const t = texts[P.name];
    t.pub.forEach(([layout, text], i) => {
      assert.equal(out[P.name].pub[i], B(t.publicKey), `${P.name}: node:crypto reads a public key PEM in ${layout}`);
      assert.equal(toHex(importPublicKey(ours, text, 'pem')), toHex(t.publicKey), `${P.name}: ours reads a public key PEM in ${layout}`);
    });
    t.priv.forEach(([layout, text], i) => {
      assert.equal(out[P.name].privBytes[i], B(t.seed), `${P.name}: node:crypto reads a private key PEM (bytes) in ${layout}`);
      const key = importSecretKey(ours, new TextEncoder().encode(text), 'pem');
      assert.equal(toHex(key.seed), toHex(t.seed), `${P.name}: ours reads a private key PEM (bytes) in ${layout}`);
    });
  }
});

test('PEM that node:crypto takes and ours refuses, on purpose: a non-canonical last character, bytes after the DER', { skip }, () => {
  const P = SETS[0];
  const ours = lib[P.key];
  const { publicKey } = ours.keygen(rng.bytes(32));
  const der = exportPublicKey(ours, publicKey, 'spki');
  const body = B(der);
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const at = body.indexOf('=') - 1;
  assert.ok(at > 0, `${P.name}: an SPKI whose base64 is padded`);
  const wrap = (b) => `-----BEGIN PUBLIC KEY-----\n${b.match(/.{1,64}/g).join('\n')}\n-----END PUBLIC KEY-----\n`;
  const cases = [
    ['a non-canonical last character', wrap(body.slice(0, at) + A[A.indexOf(body[at]) | 1] + body.slice(at + 1)), /not canonical/],
    ['base64 after the DER', wrap(B(Buffer.concat([der, Buffer.from([0, 0, 0])]))), /bytes after/],
  ];
  const out = inNode24(
    `return input.map((t) => { try { return B(crypto.createPublicKey(t).export({ format: 'raw-public' })); } catch (e) { return 'error: ' + e.message; } });`,
    cases.map(([, t]) => t),
  );
  cases.forEach(([what, text, re], i) => {
    assert.equal(out[i], B(publicKey), `node:crypto takes ${what} (if it stops, docs/key-formats.md should say so)`);
    assert.throws(
      () => importPublicKey(ours, text, 'pem'),
      (e) => re.test(e.message),
      `ours refuses ${what}`,
    );
  });
  // Missing padding: both refuse it.
  const unpadded = wrap(body.replace(/=+$/, ''));
  assert.match(inNode24(`try { crypto.createPublicKey(input); return 'read'; } catch (e) { return 'error: ' + e.message; }`, unpadded), /^error/);
  assert.throws(() => importPublicKey(ours, unpadded, 'pem'), /padding missing/);
});
