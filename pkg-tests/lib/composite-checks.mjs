// The checks of mldsa-simd/composite against the draft's test vectors
// (../shared/vectors/composite/testvectors.json), written for any platform:
// Node, and a browser page that imports this file. Only the package, the
// platform's crypto.subtle, atob and TextEncoder are used (and, given by the
// caller, the main entry's ml_dsa44/65/87 and mldsa-simd/prehash's shake256). `checkAll`
// resolves to, per combination, either { unsupported: message } (every
// operation that needs the traditional algorithm rejected with a
// NotSupportedError) or { checks: { name: true|false|'error text' } }, and
// for the plain ML-DSA vectors { checks }. The caller asserts.

const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let n = 0;
  for (const p of parts) out.set(p, (n += p.length) - p.length);
  return out;
};
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const flip = (sig, at) => {
  const s = sig.slice();
  s[at] ^= 1;
  return s;
};
const ascii = (t) => new TextEncoder().encode(t);

// ML-DSA sizes (FIPS 204 Table 2): public key, signature.
const ML = { 44: [1312, 2420], 65: [1952, 3309], 87: [2592, 4627] };

/** tbsCertificate, signatureAlgorithm OID (DER TLV) and signatureValue of a certificate; the SPKI of the tbs. */
function certificate(d) {
  // [start of value, end] of the TLV at `at` (definite lengths).
  const tlv = (at) => {
    let n = d[at + 1];
    let i = at + 2;
    if (n & 0x80) {
      const k = n & 0x7f;
      for (n = 0; i < at + 2 + k; i++) n = n * 256 + d[i];
    }
    return [i, i + n];
  };
  const cert = tlv(0);
  const tbs = tlv(cert[0]);
  const alg = tlv(tbs[1]);
  const value = tlv(alg[1]);
  // tbsCertificate: [0] version, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo.
  let at = tbs[0];
  const fields = [];
  for (let k = 0; k < 7; k++) {
    fields.push(at);
    at = tlv(at)[1];
  }
  const spkiAt = fields[6];
  return {
    tbs: d.slice(cert[0], tbs[1]),
    algOid: d.slice(alg[0], tlv(alg[0])[1]),
    algRest: d.slice(tlv(alg[0])[1], alg[1]),
    signature: d.slice(value[0] + 1, value[1]), // after the unused-bits byte
    unusedBits: d[value[0]],
    spki: d.slice(spkiAt, tlv(spkiAt)[1]),
  };
}

export async function checkAll({ composite, mlDsa, shake256 }, vectors) {
  const m = b64(vectors.m);
  const ctx = b64(vectors.ctx);
  const other = ascii('another context');
  const out = {};
  const sigs = {}; // name → { s, pk } of the vectors, for the cross-combination checks
  for (const t of vectors.tests) sigs[t.tcId.slice(3)] = { s: b64(t.s), pk: b64(t.pk) };

  for (const t of vectors.tests) {
    const name = t.tcId.slice(3);
    const pk = b64(t.pk);
    const sk = b64(t.sk);
    const s = b64(t.s);
    const sc = b64(t.sWithContext);
    const checks = {};
    const check = async (label, f) => {
      try {
        checks[label] = (await f()) === true;
      } catch (e) {
        checks[label] = `${e?.name}: ${e?.message}`;
      }
    };
    const pure = /^ML-DSA-(\d\d)$/.exec(name);
    if (pure) {
      // Plain ML-DSA vectors: the main entry's, and no composite of that name.
      const ml = mlDsa[pure[1]];
      await check('pure vector verifies', () => ml.verify(s, m, pk));
      await check('pure vector with context verifies', () => ml.verify(sc, m, pk, { context: ctx }));
      await check('pure vector: no composite of this name', () => {
        try {
          composite(name);
          return false;
        } catch (e) {
          return e instanceof TypeError;
        }
      });
      out[name] = { checks };
      continue;
    }
    const alg = composite(name);
    const ps = name.slice(5, 7);
    const [PK, SIG] = ML[ps];
    const ml = mlDsa[ps];
    // The formats work where the platform lacks the algorithm: checked everywhere.
    await check('pkcs8 imports to the raw key', () => equal(alg.importSecretKey(b64(t.sk_pkcs8), 'pkcs8'), sk));
    await check('raw key exports to the pkcs8', () => equal(alg.exportSecretKey(sk, 'pkcs8'), b64(t.sk_pkcs8)));
    await check(
      'raw keys import and export unchanged',
      () =>
        equal(alg.importSecretKey(sk), sk) &&
        equal(alg.exportSecretKey(sk, 'raw'), sk) &&
        equal(alg.importPublicKey(pk), pk) &&
        equal(alg.exportPublicKey(pk), pk),
    );
    const cert = certificate(b64(t.x5c));
    await check('certificate SPKI imports to the public key', () => equal(alg.importPublicKey(cert.spki, 'spki'), pk));
    await check('public key exports to the certificate SPKI', () => equal(alg.exportPublicKey(pk, 'spki'), cert.spki));
    await check('PEM round trip', () => equal(alg.importPublicKey(alg.exportPublicKey(pk, 'pem'), 'pem'), pk));
    await check(
      'certificate signed with this algorithm (OID, no parameters)',
      () =>
        cert.unusedBits === 0 &&
        cert.algRest.length === 0 &&
        equal(cert.algOid, cat(new Uint8Array([6, 8, 0x2b, 6, 1, 5, 5, 7, 6]), new Uint8Array([+alg.oid.split('.').pop()]))),
    );

    let unsupported;
    try {
      await alg.verify(s, m, pk);
    } catch (e) {
      if (e?.name !== 'NotSupportedError') throw e;
      unsupported = e.message;
    }
    if (unsupported) {
      // Every operation that needs the traditional algorithm says the same.
      await check('sign: NotSupportedError', () =>
        alg.sign(m, sk).then(
          () => false,
          (e) => e.name === 'NotSupportedError' && e instanceof DOMException,
        ),
      );
      await check('keygen: NotSupportedError', () =>
        alg.keygen().then(
          () => false,
          (e) => e.name === 'NotSupportedError',
        ),
      );
      out[name] = { unsupported, checks };
      continue;
    }
    await check('vector verifies', () => alg.verify(s, m, pk));
    await check('vector with context verifies', () => alg.verify(sc, m, pk, { context: ctx }));
    await check(
      'vector refused under another context',
      async () => !(await alg.verify(s, m, pk, { context: ctx })) && !(await alg.verify(sc, m, pk)) && !(await alg.verify(sc, m, pk, { context: other })),
    );
    await check('vector refused for another message', () => alg.verify(s, ascii('The quick brown fox jumps over the lazy cat.'), pk).then((ok) => !ok));
    await check('certificate signature verifies under its own key', async () => {
      const key = alg.importPublicKey(cert.spki, 'spki');
      return (await alg.verify(cert.signature, cert.tbs, key)) && !(await alg.verify(cert.signature, flip(cert.tbs, 20), key));
    });
    await check('our signature with the vector key verifies, also under the certificate key', async () => {
      const sig = await alg.sign(m, alg.importSecretKey(b64(t.sk_pkcs8), 'pkcs8'), { context: ctx });
      return (
        (await alg.verify(sig, m, pk, { context: ctx })) &&
        (await alg.verify(sig, m, alg.importPublicKey(cert.spki, 'spki'), { context: ctx })) &&
        !(await alg.verify(sig, m, pk))
      );
    });
    await check('keygen, sign, verify (with context)', async () => {
      const k = await alg.keygen();
      const sig = await alg.sign(m, k.secretKey, { context: ctx });
      const spki = alg.exportPublicKey(k.publicKey, 'spki');
      return (
        (await alg.verify(sig, m, k.publicKey, { context: ctx })) &&
        equal(alg.importPublicKey(spki, 'spki'), k.publicKey) &&
        !(await alg.verify(sig, m, pk, { context: ctx })) &&
        !(await alg.verify(s, m, k.publicKey))
      );
    });
    // Non-separability.
    await check(
      'flipped bit in the ML-DSA half refused',
      async () => !(await alg.verify(flip(s, 0), m, pk)) && !(await alg.verify(flip(sc, SIG - 1), m, pk, { context: ctx })),
    );
    await check(
      'flipped bit in the traditional half refused',
      async () => !(await alg.verify(flip(s, s.length - 1), m, pk)) && !(await alg.verify(flip(sc, SIG + 10), m, pk, { context: ctx })),
    );
    await check('swapped half refused', async () => {
      // The ML-DSA half of the signature with context beside the traditional half of the one without, and the reverse.
      const a = cat(sc.subarray(0, SIG), s.subarray(SIG));
      const b = cat(s.subarray(0, SIG), sc.subarray(SIG));
      return (
        !(await alg.verify(a, m, pk)) &&
        !(await alg.verify(a, m, pk, { context: ctx })) &&
        !(await alg.verify(b, m, pk)) &&
        !(await alg.verify(b, m, pk, { context: ctx }))
      );
    });
    await check('signature of another combination refused', async () => {
      // Every other combination's vector signature (both its halves, and its
      // ML-DSA half beside this one's traditional half, when its set is this one's).
      for (const [n, v] of Object.entries(sigs)) {
        if (n === name || n.startsWith('ML-DSA')) continue;
        if (await alg.verify(v.s, m, pk)) return false;
        if (n.slice(5, 7) === ps && (await alg.verify(cat(v.s.subarray(0, SIG), s.subarray(SIG)), m, cat(v.pk.subarray(0, PK), pk.subarray(PK))))) return false;
      }
      return true;
    });
    await check('ML-DSA half refused as a pure ML-DSA signature', async () => {
      const half = s.subarray(0, SIG);
      const halfc = sc.subarray(0, SIG);
      const mlpk = pk.subarray(0, PK);
      // Positive control: the half is ML-DSA over M′ with the Label as its context.
      const label = ascii('COMPSIG-' + name.replace(/brainpoolP(\d+)r1/, 'BP$1'));
      const ph = name.endsWith('SHAKE256') ? shake256(m) : new Uint8Array(await crypto.subtle.digest(name.endsWith('SHA256') ? 'SHA-256' : 'SHA-512', m));
      const mp = cat(ascii('CompositeAlgorithmSignatures2025'), label, new Uint8Array([0]), ph);
      const control = ml.verify(half, mp, mlpk, { context: label });
      return control && !ml.verify(half, m, mlpk) && !ml.verify(halfc, m, mlpk, { context: ctx }) && !ml.verify(half, mp, mlpk);
    });
    // Bad bytes: false, never an error.
    await check('bad signature bytes: false', async () => {
      const bad = [
        new Uint8Array(0),
        s.subarray(0, SIG),
        s.subarray(0, SIG - 1),
        s.subarray(0, s.length - 1),
        cat(s, new Uint8Array(1)),
        cat(s.subarray(0, SIG), new Uint8Array([0x30, 0x03, 0x02, 0x01])),
        cat(s.subarray(0, SIG), new Uint8Array(600).fill(0xff)),
        new Uint8Array(s.length),
      ];
      for (const x of bad) if ((await alg.verify(x, m, pk)) !== false) return false;
      return true;
    });
    await check('bad public key bytes: false', async () => {
      const bad = [
        new Uint8Array(0),
        pk.subarray(0, PK),
        pk.subarray(0, pk.length - 1),
        cat(pk, new Uint8Array(1)),
        cat(pk.subarray(0, PK), new Uint8Array(pk.length - PK).fill(0x30)),
      ];
      for (const x of bad) if ((await alg.verify(s, m, x)) !== false) return false;
      return true;
    });
    await check('wrong argument types: TypeError naming the argument', async () => {
      const names = [];
      for (const args of [
        ['x', m, pk],
        [s, [1, 2], pk],
        [s, m, null],
        [s, m, pk, { context: 'ctx' }],
        [s, m, pk, { ctx }],
      ])
        await alg.verify(...args).then(
          () => names.push('resolved'),
          (e) => names.push(e instanceof TypeError ? e.message.split(':')[0] : e.name),
        );
      await alg.sign(m, 'key').then(
        () => names.push('resolved'),
        (e) => names.push(e instanceof TypeError ? e.message.split(':')[0] : e.name),
      );
      return names.join() === 'signature,message,publicKey,context,options,secretKey';
    });
    out[name] = { checks };
  }
  return out;
}
