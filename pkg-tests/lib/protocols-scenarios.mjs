// What protocols.test.mjs runs, in Node and in a page alike: jose (JWT, JWS,
// JWK), @peculiar/x509 (RFC 9881's example certificates, a CA issuing a
// leaf, chains) and @simplewebauthn/server (registration and authentication
// of ML-DSA credentials from lib/authenticator.mjs), all through
// globalThis.crypto.subtle, after mldsa-simd/webcrypto's install(). It
// returns what each step gave (a value, or the error's name and code), and
// the test compares that with what it expects: valid things accepted,
// changed ones refused.
import { COSE_ALGS, createCredential, fromBase64url, base64url } from './authenticator.mjs';

const SETS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

/** A copy of `bytes` with byte `at` (from the end when negative) XORed with 1. */
function flipped(bytes, at) {
  const copy = new Uint8Array(bytes);
  copy[at < 0 ? copy.length + at : at] ^= 1;
  return copy;
}

/** What a step gave: its value, or `throws <name>[ <code>]` (the message is kept apart, for the report). */
async function outcome(step, errors) {
  try {
    return await step();
  } catch (e) {
    const what = `throws ${e?.name ?? typeof e}${e?.code ? ` ${e.code}` : ''}`;
    errors.push(`${what}: ${e?.message}`);
    return what;
  }
}

/**
 * Runs every scenario with the given libraries; `certs` maps 'ML-DSA-44' etc.
 * to RFC 9881's example certificate (PEM); `OurCryptoKey` is mldsa-simd/webcrypto's
 * CryptoKey class, to tell whether the keys the libraries get are the package's. Resolves to { results, errors }:
 * results maps each step's name to what it gave; errors holds the messages of
 * the errors thrown, for the test's diagnostics.
 */
export async function run({ jose, x509, webauthn, certs, OurCryptoKey }) {
  const results = {};
  const errors = [];
  const step = async (name, fn) => {
    results[name] = await outcome(fn, errors);
  };
  const enc = (s) => new TextEncoder().encode(s);
  const subtle = globalThis.crypto.subtle;

  // ------------------------------------------------------------ jose
  for (const alg of SETS) {
    const j = `jose ${alg}`;
    const keys = await outcome(() => jose.generateKeyPair(alg, { extractable: true }), errors);
    if (typeof keys === 'string') {
      results[`${j} generateKeyPair`] = keys;
      continue;
    }
    const { publicKey, privateKey } = keys;
    const other = await jose.generateKeyPair(alg);
    results[`${j} keys are CryptoKeys, and the package's`] =
      `${publicKey instanceof CryptoKey && privateKey instanceof CryptoKey}, ${publicKey instanceof OurCryptoKey && privateKey instanceof OurCryptoKey}`;
    const jwt = await new jose.SignJWT({ sub: 'alice', scope: alg })
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    await step(`${j} JWT verified`, async () => {
      const { payload, protectedHeader } = await jose.jwtVerify(jwt, publicKey, { algorithms: [alg] });
      return `${protectedHeader.alg} ${payload.sub} ${payload.scope}`;
    });
    const [h, p, s] = jwt.split('.');
    const badSig = base64url(flipped(fromBase64url(s), 100));
    await step(`${j} JWT with a flipped signature byte`, () => jose.jwtVerify(`${h}.${p}.${badSig}`, publicKey).then(() => 'accepted'));
    const otherPayload = jose.base64url.encode(JSON.stringify({ ...jose.decodeJwt(jwt), sub: 'mallory' }));
    await step(`${j} JWT with a changed payload`, () => jose.jwtVerify(`${h}.${otherPayload}.${s}`, publicKey).then(() => 'accepted'));
    await step(`${j} JWT under another key`, () => jose.jwtVerify(jwt, other.publicKey).then(() => 'accepted'));

    const jws = await new jose.CompactSign(enc('a compact JWS')).setProtectedHeader({ alg }).sign(privateKey);
    await step(`${j} compact JWS verified`, async () => new TextDecoder().decode((await jose.compactVerify(jws, publicKey)).payload));
    const [jh, jp, js] = jws.split('.');
    await step(`${j} compact JWS with the last signature byte flipped`, () =>
      jose.compactVerify(`${jh}.${jp}.${base64url(flipped(fromBase64url(js), -1))}`, publicKey).then(() => 'accepted'),
    );
    await step(`${j} compact JWS with another payload`, () =>
      jose.compactVerify(`${jh}.${jose.base64url.encode('another')}.${js}`, publicKey).then(() => 'accepted'),
    );

    await step(`${j} JWK export and import`, async () => {
      const priv = await jose.exportJWK(privateKey);
      const pub = await jose.exportJWK(publicKey);
      const shape = `${priv.kty} ${priv.alg} pub ${jose.base64url.decode(priv.pub).length} B, priv ${jose.base64url.decode(priv.priv).length} B; public ${Object.keys(pub).sort().join(',')}`;
      if (pub.pub !== priv.pub) return 'the public JWK and the private one differ in pub';
      const privAgain = await jose.importJWK(priv, alg);
      const pubAgain = await jose.importJWK(pub, alg);
      // The imported private key signs what the original public key accepts, and the other way round.
      const one = await new jose.CompactSign(enc('imported')).setProtectedHeader({ alg }).sign(privAgain);
      const two = await new jose.CompactSign(enc('original')).setProtectedHeader({ alg }).sign(privateKey);
      const a = new TextDecoder().decode((await jose.compactVerify(one, publicKey)).payload);
      const b = new TextDecoder().decode((await jose.compactVerify(two, pubAgain)).payload);
      return `${shape}; ${a}, ${b}`;
    });
    await step(`${j} JWK with another pub refused`, async () => {
      const priv = await jose.exportJWK(privateKey);
      priv.pub = (await jose.exportJWK(other.publicKey)).pub;
      await jose.importJWK(priv, alg);
      return 'accepted';
    });
  }

  // ------------------------------------------------------------ @peculiar/x509
  x509.cryptoProvider.set(globalThis.crypto);
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
  for (const alg of SETS) {
    const x = `x509 RFC 9881 ${alg}`;
    const cert = new x509.X509Certificate(certs[alg]);
    results[`${x} parsed`] = `${cert.subject}; ${cert.issuer}; ${cert.signatureAlgorithm.name}; ${cert.publicKey.algorithm.name}`;
    await step(`${x} self-signature verifies`, () => cert.verify({ signatureOnly: true }));
    await step(`${x} verifies (signature and dates)`, () => cert.verify());
    await step(`${x} is self-signed`, () => cert.isSelfSigned());
    // RFC 9881 derives its example keys from the seed 00 01 … 1f: ours from that seed is the certificate's.
    await step(`${x} key from the RFC's seed`, async () => {
      const priv = await subtle.importKey('raw-seed', seed, alg, false, ['sign']);
      const pub = await subtle.getPublicKey(priv, ['verify']);
      const spki = new Uint8Array(await subtle.exportKey('spki', pub));
      return base64url(spki) === base64url(new Uint8Array(cert.publicKey.rawData));
    });
    await step(`${x} public key length`, async () => {
      const key = await cert.publicKey.export();
      return new Uint8Array(await subtle.exportKey('raw-public', key)).length;
    });
    const der = new Uint8Array(cert.rawData);
    await step(`${x} with a flipped signature byte`, () => new x509.X509Certificate(flipped(der, -5)).verify({ signatureOnly: true }));
    // A byte of the signed part (inside the subject public key) changed, checked against the original key.
    await step(`${x} with a changed signed part`, () => new x509.X509Certificate(flipped(der, 300)).verify({ publicKey: cert.publicKey, signatureOnly: true }));
  }
  await step('x509 RFC 9881 ML-DSA-44 under the ML-DSA-65 key', async () => {
    const cert = new x509.X509Certificate(certs['ML-DSA-44']);
    const key = await new x509.X509Certificate(certs['ML-DSA-65']).publicKey.export();
    return cert.verify({ publicKey: key, signatureOnly: true });
  });

  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 86_400_000);
  const makeCa = async (serialNumber) => {
    const keys = await subtle.generateKey('ML-DSA-87', false, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber,
      name: 'CN=mldsa-simd test CA',
      notBefore,
      notAfter,
      keys,
      signingAlgorithm: { name: 'ML-DSA-87' },
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ],
    });
    return { keys, cert };
  };
  const makeLeaf = async (ca, serialNumber) => {
    const keys = await subtle.generateKey('ML-DSA-44', true, ['sign', 'verify']);
    return x509.X509CertificateGenerator.create({
      serialNumber,
      subject: 'CN=leaf.example',
      issuer: ca.cert.subject,
      notBefore,
      notAfter,
      publicKey: keys.publicKey,
      signingKey: ca.keys.privateKey,
      signingAlgorithm: { name: 'ML-DSA-87' },
      extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
    });
  };
  // Two CAs of the same name, without key identifiers: only their signatures tell them apart.
  const ca = await makeCa('01');
  const rogue = await makeCa('02');
  const leaf = await makeLeaf(ca, '03');
  const rogueLeaf = await makeLeaf(rogue, '04');
  await step('x509 CA ML-DSA-87 self-signed', async () => `${ca.cert.signatureAlgorithm.name} ${await ca.cert.verify()}`);
  await step('x509 leaf ML-DSA-44 under the CA', async () => {
    const parsed = new x509.X509Certificate(leaf.toString('pem'));
    return `${parsed.publicKey.algorithm.name} signed ${parsed.signatureAlgorithm.name}: ${await parsed.verify({ publicKey: ca.cert.publicKey })}`;
  });
  await step('x509 leaf under the other CA', () => leaf.verify({ publicKey: rogue.cert.publicKey, signatureOnly: true }));
  await step('x509 chain of the leaf', async () => {
    const chain = await new x509.X509ChainBuilder({ certificates: [rogue.cert, ca.cert] }).build(leaf);
    return chain.map((c) => c.serialNumber).join(' ');
  });
  await step('x509 leaf of another CA under the CA', () => rogueLeaf.verify({ publicKey: ca.cert.publicKey, signatureOnly: true }));
  await step('x509 chain of the leaf of another CA', async () => {
    const chain = await new x509.X509ChainBuilder({ certificates: [ca.cert] }).build(rogueLeaf);
    return chain.map((c) => c.serialNumber).join(' ');
  });

  // ------------------------------------------------------------ @simplewebauthn/server
  const rpId = 'example.test';
  const origin = 'https://example.test';
  for (const alg of [-48, -49, -50]) {
    for (const attestation of ['none', 'packed']) {
      const w = `webauthn ${alg} (${COSE_ALGS[alg]}) ${attestation}`;
      const credential = await createCredential(alg);
      const challenge = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const expect = { expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpId, supportedAlgorithmIDs: [alg] };
      const reg = await credential.register({ rpId, origin, challenge, attestation });
      let stored;
      await step(`${w} registration`, async () => {
        const r = await webauthn.verifyRegistrationResponse({ response: reg, ...expect });
        stored = r.registrationInfo?.credential;
        const same = stored && base64url(stored.publicKey) === base64url(credential.coseKey);
        return `${r.verified} ${r.registrationInfo?.fmt} ${same ? 'the COSE key' : 'another key'}`;
      });
      await step(`${w} registration for another challenge`, () =>
        webauthn.verifyRegistrationResponse({ response: reg, ...expect, expectedChallenge: 'b3RoZXI' }).then((r) => `${r.verified}`),
      );
      if (attestation === 'packed') {
        await step(`${w} registration with a flipped attestation signature byte`, async () => {
          // attStmt's sig: after its key, the text "sig" (63 73 69 67), and the byte string's head (59 + 2 bytes).
          const object = fromBase64url(reg.response.attestationObject);
          const key = indexOf(object, [0x63, 0x73, 0x69, 0x67]);
          if (key < 0) return 'no sig in the attestation object';
          const sigStart = key + 4 + 3;
          const bad = { ...reg, response: { ...reg.response, attestationObject: base64url(flipped(object, sigStart + 10)) } };
          return `${(await webauthn.verifyRegistrationResponse({ response: bad, ...expect })).verified}`;
        });
      }
      if (!stored) continue;
      const challenge2 = base64url(crypto.getRandomValues(new Uint8Array(32)));
      const auth = await credential.authenticate({ rpId, origin, challenge: challenge2 });
      const expect2 = { expectedChallenge: challenge2, expectedOrigin: origin, expectedRPID: rpId, credential: stored };
      await step(`${w} authentication`, async () => {
        const r = await webauthn.verifyAuthenticationResponse({ response: auth, ...expect2 });
        return `${r.verified} counter ${r.authenticationInfo?.newCounter}`;
      });
      const sig = fromBase64url(auth.response.signature);
      for (const [where, at] of [
        ['first', 0],
        ['middle', sig.length >> 1],
        ['last', -1],
      ]) {
        await step(`${w} authentication with the ${where} signature byte flipped`, async () => {
          const bad = { ...auth, response: { ...auth.response, signature: base64url(flipped(sig, at)) } };
          return `${(await webauthn.verifyAuthenticationResponse({ response: bad, ...expect2 })).verified}`;
        });
      }
      await step(`${w} authentication signed by another credential`, async () => {
        const other = await createCredential(alg);
        const forged = await other.authenticate({ rpId, origin, challenge: challenge2 });
        const bad = { ...forged, id: auth.id, rawId: auth.rawId };
        return `${(await webauthn.verifyAuthenticationResponse({ response: bad, ...expect2 })).verified}`;
      });
    }
  }
  // Without supportedAlgorithmIDs the library offers ML-DSA-44 where SubtleCrypto.supports says it can verify it.
  await step('webauthn default algorithms', async () => {
    const options = await webauthn.generateRegistrationOptions({ rpName: 'test', rpID: rpId, userName: 'alice' });
    return options.pubKeyCredParams.map((p) => p.alg).join(' ');
  });
  return { results, errors };
}

/** Where `pattern` first occurs in `bytes` (-1 if nowhere). */
function indexOf(bytes, pattern) {
  outer: for (let i = 0; i + pattern.length <= bytes.length; i++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  return -1;
}
