// One scenario suite for ML-DSA through the Web Cryptography API, run against
// this package's `subtle` (pkg-tests/webcrypto.test.mjs) and against Node 24's
// native crypto.subtle (in a child process), whose outcomes are compared.
// No dependencies: it must load in either Node as it is.
//
// Each scenario returns an outcome string: the shape of the result (with a
// digest of deterministic bytes, so that both sides must produce the same
// ones), or the name of the error.
import { createHash } from 'node:crypto';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const MSG = new TextEncoder().encode('the WebCrypto scenario suite');
const digest = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** The outcome string of a value a SubtleCrypto method resolved to. */
function shape(v) {
  if (v instanceof ArrayBuffer) return `ArrayBuffer(${v.byteLength})`;
  if (typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object' && 'publicKey' in v && 'privateKey' in v) return `pair[${shape(v.publicKey)} ${shape(v.privateKey)}]`;
  if (v && typeof v === 'object' && Object.prototype.toString.call(v) === '[object CryptoKey]')
    return `CryptoKey(${v.type},${v.extractable},${v.algorithm.name},${[...v.usages].sort().join('+')})`;
  if (v && typeof v === 'object') return `object{${Object.keys(v).sort().join(',')}}`;
  return `${typeof v}:${String(v)}`;
}

async function outcome(fn) {
  try {
    return shape(await fn());
  } catch (e) {
    return e && typeof e === 'object' && 'name' in e ? String(e.name) : `thrown:${String(e)}`;
  }
}

/** The scenarios: name → async (subtle, supports) => value (shaped by `outcome`). */
export function scenarios() {
  const s = {};
  const add = (name, fn) => {
    s[name] = fn;
  };
  for (const set of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
    const seedKey = (sub, usages = ['sign'], extractable = true) => sub.importKey('raw-seed', SEED, set, extractable, usages);
    const pubOf = async (sub) => sub.getPublicKey(await seedKey(sub), ['verify']);
    add(`${set}: generateKey sign+verify`, (sub) => sub.generateKey(set, true, ['sign', 'verify']));
    add(`${set}: raw-seed → raw-public bytes`, async (sub) => {
      const pub = await pubOf(sub);
      const raw = await sub.exportKey('raw-public', pub);
      return `${shape(raw)}:${digest(new Uint8Array(raw))}`;
    });
    for (const format of ['spki', 'raw-public', 'jwk']) {
      add(`${set}: export public ${format}`, async (sub) => {
        const v = await sub.exportKey(format, await pubOf(sub));
        return format === 'jwk' ? `${shape(v)}:${digest(new TextEncoder().encode(v.pub))}:${v.key_ops}:${v.ext}` : `${shape(v)}:${digest(new Uint8Array(v))}`;
      });
    }
    for (const format of ['pkcs8', 'raw-seed', 'jwk']) {
      add(`${set}: export private ${format}`, async (sub) => {
        const v = await sub.exportKey(format, await seedKey(sub));
        return format === 'jwk'
          ? `${shape(v)}:${digest(new TextEncoder().encode(v.priv + v.pub))}:${v.key_ops}:${v.ext}`
          : `${shape(v)}:${digest(new Uint8Array(v))}`;
      });
    }
    add(`${set}: sign and verify, no context`, async (sub) => {
      const sig = await sub.sign(set, await seedKey(sub), MSG);
      return `${shape(sig)} ${await sub.verify(set, await pubOf(sub), sig, MSG)}`;
    });
  }

  const set = 'ML-DSA-65';
  const gen = (sub, usages = ['sign', 'verify'], extractable = true) => sub.generateKey(set, extractable, usages);
  const withCtx = (n) => ({ name: set, context: new Uint8Array(n).fill(7) });
  add('generateKey: name in lower case', async (sub) => (await sub.generateKey({ name: 'ml-dsa-65' }, true, ['sign'])).privateKey);
  add('generateKey: only sign', (sub) => gen(sub, ['sign']));
  add('generateKey: only verify', (sub) => gen(sub, ['verify']));
  add('generateKey: no usages', (sub) => gen(sub, []));
  add('generateKey: encrypt', (sub) => gen(sub, ['sign', 'encrypt']));
  add('generateKey: not a KeyUsage', (sub) => gen(sub, ['sign', 'signing']));
  add('generateKey: duplicate usages', (sub) => gen(sub, ['sign', 'sign', 'verify']));
  add('generateKey: non-extractable', async (sub) => (await gen(sub, ['sign', 'verify'], false)).privateKey);
  add('generateKey: algorithm without name', (sub) => sub.generateKey({}, true, ['sign']));
  add('generateKey: unknown algorithm', (sub) => sub.generateKey('ML-DSA-66', true, ['sign']));
  for (const n of [0, 1, 255]) {
    add(`sign/verify: context of ${n} bytes`, async (sub) => {
      const k = await gen(sub);
      const sig = await sub.sign(withCtx(n), k.privateKey, MSG);
      return `${await sub.verify(withCtx(n), k.publicKey, sig, MSG)} ${await sub.verify(withCtx(n === 0 ? 1 : 0), k.publicKey, sig, MSG)}`;
    });
  }
  add('sign: context of 256 bytes', async (sub) => sub.sign(withCtx(256), (await gen(sub)).privateKey, MSG));
  add('verify: context of 256 bytes', async (sub) => {
    const k = await gen(sub);
    return sub.verify(withCtx(256), k.publicKey, await sub.sign(set, k.privateKey, MSG), MSG);
  });
  add('sign: context not a BufferSource', async (sub) => sub.sign({ name: set, context: 'abc' }, (await gen(sub)).privateKey, MSG));
  for (const [what, edit] of [
    ['empty', () => new Uint8Array(0)],
    ['one byte short', (sig) => sig.slice(0, -1)],
    ['one byte long', (sig) => Uint8Array.of(...sig, 0)],
    [
      'first bit flipped',
      (sig) => {
        const s = sig.slice();
        s[0] ^= 1;
        return s;
      },
    ],
    [
      'last bit flipped',
      (sig) => {
        const s = sig.slice();
        s[s.length - 1] ^= 0x80;
        return s;
      },
    ],
  ]) {
    add(`verify: signature ${what}`, async (sub) => {
      const k = await gen(sub);
      const sig = new Uint8Array(await sub.sign(set, k.privateKey, MSG));
      return sub.verify(set, k.publicKey, edit(sig), MSG);
    });
  }
  add('verify: another message', async (sub) => {
    const k = await gen(sub);
    return sub.verify(set, k.publicKey, await sub.sign(set, k.privateKey, MSG), MSG.subarray(1));
  });
  add('sign: with the public key', async (sub) => sub.sign(set, (await gen(sub)).publicKey, MSG));
  add('verify: with the private key', async (sub) => {
    const k = await gen(sub);
    return sub.verify(set, k.privateKey, await sub.sign(set, k.privateKey, MSG), MSG);
  });
  add('sign: ML-DSA-44 named, ML-DSA-65 key', async (sub) => sub.sign('ML-DSA-44', (await gen(sub)).privateKey, MSG));
  add('sign: data as DataView, Uint16Array and ArrayBuffer', async (sub) => {
    const k = await gen(sub);
    const buf = MSG.slice(0, 28).buffer;
    const a = await sub.sign(set, k.privateKey, new DataView(buf));
    const b = await sub.sign(set, k.privateKey, new Uint16Array(buf));
    return [await sub.verify(set, k.publicKey, a, buf), await sub.verify(set, k.publicKey, new Uint8Array(b), new DataView(buf))].join(' ');
  });
  add('sign: data a string', async (sub) => sub.sign(set, (await gen(sub)).privateKey, 'text'));
  add('sign: key not a CryptoKey', async (sub) => sub.sign(set, {}, MSG));
  add('exportKey: spki of a private key', async (sub) => sub.exportKey('spki', (await gen(sub)).privateKey));
  add('exportKey: pkcs8 of a public key', async (sub) => sub.exportKey('pkcs8', (await gen(sub)).publicKey));
  add('exportKey: raw', async (sub) => sub.exportKey('raw', (await gen(sub)).publicKey));
  add('exportKey: not a format', async (sub) => sub.exportKey('der', (await gen(sub)).publicKey));
  add('exportKey: non-extractable private key', async (sub) => sub.exportKey('pkcs8', (await gen(sub, ['sign'], false)).privateKey));
  add('exportKey: public key of a non-extractable pair', async (sub) => sub.exportKey('spki', (await gen(sub, ['sign', 'verify'], false)).publicKey));
  const exported = async (sub, format, type = 'public') => {
    const k = await gen(sub);
    return sub.exportKey(format, type === 'public' ? k.publicKey : k.privateKey);
  };
  for (const [format, type, usages] of [
    ['spki', 'public', ['verify']],
    ['raw-public', 'public', ['verify']],
    ['pkcs8', 'private', ['sign']],
    ['raw-seed', 'private', ['sign']],
    ['jwk', 'public', ['verify']],
    ['jwk', 'private', ['sign']],
  ]) {
    add(`importKey: ${format} ${type}`, async (sub) => sub.importKey(format, await exported(sub, format, type), set, true, usages));
    add(`importKey: ${format} ${type}, wrong usage`, async (sub) =>
      sub.importKey(format, await exported(sub, format, type), set, true, type === 'public' ? ['sign'] : ['verify']),
    );
    add(`importKey: ${format} ${type}, no usages`, async (sub) => sub.importKey(format, await exported(sub, format, type), set, true, []));
    add(`importKey: ${format} ${type} as ML-DSA-44`, async (sub) => sub.importKey(format, await exported(sub, format, type), 'ML-DSA-44', true, usages));
  }
  const expandedPkcs8 = (sk) => {
    // OneAsymmetricKey { 0, id-ml-dsa-65, OCTET STRING { OCTET STRING sk } } (RFC 9881's expandedKey form).
    const inner = Uint8Array.of(0x04, 0x82, sk.length >> 8, sk.length & 0xff, ...sk);
    const body = Uint8Array.of(
      0x02,
      1,
      0,
      0x30,
      11,
      6,
      9,
      0x60,
      0x86,
      0x48,
      1,
      0x65,
      3,
      4,
      3,
      18,
      0x04,
      0x82,
      inner.length >> 8,
      inner.length & 0xff,
      ...inner,
    );
    return Uint8Array.of(0x30, 0x82, body.length >> 8, body.length & 0xff, ...body);
  };
  add('importKey: pkcs8 expandedKey form', (sub) => sub.importKey('pkcs8', expandedPkcs8(new Uint8Array(4032)), set, true, ['sign']));
  add('importKey: pkcs8 with a trailing byte', async (sub) =>
    sub.importKey('pkcs8', Uint8Array.of(...new Uint8Array(await exported(sub, 'pkcs8', 'private')), 0), set, true, ['sign']),
  );
  add('importKey: spki truncated', async (sub) => sub.importKey('spki', new Uint8Array(await exported(sub, 'spki')).subarray(0, 100), set, true, ['verify']));
  add('importKey: raw-public one byte short', async (sub) =>
    sub.importKey('raw-public', new Uint8Array(await exported(sub, 'raw-public')).subarray(1), set, true, ['verify']),
  );
  add('importKey: raw-seed of 31 bytes', (sub) => sub.importKey('raw-seed', SEED.subarray(1), set, true, ['sign']));
  add('importKey: raw format', (sub) => sub.importKey('raw', new Uint8Array(1952), set, true, ['verify']));
  add('importKey: spki as a string', (sub) => sub.importKey('spki', 'MIIH', set, true, ['verify']));
  add('importKey: jwk given as bytes', (sub) => sub.importKey('jwk', new Uint8Array(10), set, true, ['verify']));
  const jwkEdit =
    (edit, type = 'public', usages = type === 'public' ? ['verify'] : ['sign'], extractable = true) =>
    async (sub) => {
      const jwk = await exported(sub, 'jwk', type);
      return sub.importKey('jwk', edit(jwk), set, extractable, usages);
    };
  add(
    'importKey: jwk kty OKP',
    jwkEdit((j) => ({ ...j, kty: 'OKP' })),
  );
  add(
    'importKey: jwk alg ML-DSA-44',
    jwkEdit((j) => ({ ...j, alg: 'ML-DSA-44' })),
  );
  add(
    'importKey: jwk without alg',
    jwkEdit(({ alg, ...j }) => j),
  );
  add(
    'importKey: jwk use enc',
    jwkEdit((j) => ({ ...j, use: 'enc' })),
  );
  add(
    'importKey: jwk use sig',
    jwkEdit((j) => ({ ...j, use: 'sig' })),
  );
  add(
    'importKey: jwk key_ops without verify',
    jwkEdit((j) => ({ ...j, key_ops: ['sign'] })),
  );
  add(
    'importKey: jwk ext false, extractable',
    jwkEdit((j) => ({ ...j, ext: false })),
  );
  add(
    'importKey: jwk ext false, not extractable',
    jwkEdit((j) => ({ ...j, ext: false }), 'public', ['verify'], false),
  );
  add(
    'importKey: jwk pub truncated',
    jwkEdit((j) => ({ ...j, pub: j.pub.slice(0, -4) })),
  );
  add('importKey: jwk priv of another key', async (sub) => {
    const a = await exported(sub, 'jwk', 'private');
    const b = await exported(sub, 'jwk', 'private');
    return sub.importKey('jwk', { ...a, pub: b.pub }, set, true, ['sign']);
  });
  add(
    'importKey: jwk without pub',
    jwkEdit(({ pub, ...j }) => j, 'private'),
  );
  add('getPublicKey: of a private key', async (sub) => sub.getPublicKey((await gen(sub)).privateKey, ['verify']));
  add('getPublicKey: no usages', async (sub) => sub.getPublicKey((await gen(sub)).privateKey, []));
  add('getPublicKey: of a public key', async (sub) => sub.getPublicKey((await gen(sub)).publicKey, ['verify']));
  add('getPublicKey: with usage sign', async (sub) => sub.getPublicKey((await gen(sub)).privateKey, ['sign']));
  add('getPublicKey: equals the generated public key', async (sub) => {
    const k = await gen(sub);
    const a = new Uint8Array(await sub.exportKey('raw-public', k.publicKey));
    const b = new Uint8Array(await sub.exportKey('raw-public', await sub.getPublicKey(k.privateKey, ['verify'])));
    return digest(a) === digest(b);
  });
  // sign and verify: the algorithm is normalized, then the bytes are copied
  // (w3c/webcrypto#426): what a getter of the algorithm does to them is seen.
  add('sign: the algorithm name getter overwrites the data', async (sub) => {
    const k = await gen(sub);
    const data = MSG.slice();
    const sig = await sub.sign(
      {
        get name() {
          data.fill(1);
          return set;
        },
      },
      k.privateKey,
      data,
    );
    return `${await sub.verify(set, k.publicKey, sig, data)} ${await sub.verify(set, k.publicKey, sig, MSG)}`;
  });
  add('sign: the algorithm context getter detaches the data', async (sub) => {
    const k = await gen(sub);
    const data = MSG.slice();
    const sig = await sub.sign(
      {
        name: set,
        get context() {
          structuredClone(data.buffer, { transfer: [data.buffer] });
          return undefined;
        },
      },
      k.privateKey,
      data,
    );
    return `${await sub.verify(set, k.publicKey, sig, new Uint8Array(0))} ${await sub.verify(set, k.publicKey, sig, MSG)}`;
  });
  add('verify: the algorithm context getter flips a bit of the signature', async (sub) => {
    const k = await gen(sub);
    const sig = new Uint8Array(await sub.sign(set, k.privateKey, MSG));
    return sub.verify(
      {
        name: set,
        get context() {
          sig[0] ^= 1;
          return undefined;
        },
      },
      k.publicKey,
      sig,
      MSG,
    );
  });
  // Our keys given to the methods ML-DSA has no use for, and to sign and
  // verify with another algorithm: the errors of normalizing the algorithm,
  // else InvalidAccessError.
  const aesGcm = { name: 'AES-GCM', iv: new Uint8Array(12) };
  const aesKey = (sub, usages) => sub.importKey('raw', new Uint8Array(16), 'AES-GCM', true, usages);
  add('encrypt: AES-GCM, ML-DSA key', async (sub) => sub.encrypt(aesGcm, (await gen(sub)).publicKey, MSG));
  add('encrypt: AES-GCM without iv, ML-DSA key', async (sub) => sub.encrypt({ name: 'AES-GCM' }, (await gen(sub)).publicKey, MSG));
  add('encrypt: algorithm ML-DSA-65, ML-DSA key', async (sub) => sub.encrypt(set, (await gen(sub)).publicKey, MSG));
  add('encrypt: unknown algorithm, ML-DSA key', async (sub) => sub.encrypt('ROT13', (await gen(sub)).publicKey, MSG));
  add('decrypt: AES-GCM, ML-DSA key', async (sub) => sub.decrypt(aesGcm, (await gen(sub)).privateKey, new Uint8Array(32)));
  add('deriveBits: HKDF, ML-DSA key', async (sub) =>
    sub.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new Uint8Array(0) }, (await gen(sub)).privateKey, 256),
  );
  add('deriveKey: HKDF to AES-GCM, ML-DSA key', async (sub) =>
    sub.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new Uint8Array(0) },
      (await gen(sub)).privateKey,
      { name: 'AES-GCM', length: 128 },
      true,
      ['encrypt'],
    ),
  );
  add('wrapKey: ML-DSA wrapping key', async (sub) => sub.wrapKey('raw', await aesKey(sub, ['encrypt']), (await gen(sub)).publicKey, aesGcm));
  add('wrapKey: non-extractable ML-DSA key', async (sub) =>
    sub.wrapKey('pkcs8', (await gen(sub, ['sign'], false)).privateKey, await aesKey(sub, ['wrapKey']), aesGcm),
  );
  add('wrapKey: spki of an ML-DSA private key', async (sub) => sub.wrapKey('spki', (await gen(sub)).privateKey, await aesKey(sub, ['wrapKey']), aesGcm));
  add('wrapKey: pkcs8 of an ML-DSA key', async (sub) => sub.wrapKey('pkcs8', (await gen(sub)).privateKey, await aesKey(sub, ['wrapKey']), aesGcm));
  add('wrapKey: wrapping key without wrapKey usage, ML-DSA key', async (sub) =>
    sub.wrapKey('pkcs8', (await gen(sub)).privateKey, await aesKey(sub, ['encrypt']), aesGcm),
  );
  add('unwrapKey: ML-DSA unwrapping key', async (sub) =>
    sub.unwrapKey('raw', new Uint8Array(32), (await gen(sub)).privateKey, aesGcm, 'AES-GCM', true, ['encrypt']),
  );
  add('sign: ECDSA without hash, ML-DSA key', async (sub) => sub.sign('ECDSA', (await gen(sub)).privateKey, MSG));
  add('sign: Ed25519, ML-DSA key', async (sub) => sub.sign('Ed25519', (await gen(sub)).privateKey, MSG));
  add('sign: unknown algorithm, ML-DSA key', async (sub) => sub.sign('ML-DSA-66', (await gen(sub)).privateKey, MSG));
  add('verify: HMAC, ML-DSA key', async (sub) => sub.verify({ name: 'HMAC' }, (await gen(sub)).publicKey, new Uint8Array(32), MSG));
  for (const op of ['generateKey', 'importKey', 'exportKey', 'sign', 'verify', 'getPublicKey', 'encrypt', 'digest', 'deriveBits'])
    add(`supports: ${op} ML-DSA-65`, (sub, supports) => supports(op, set));
  add('supports: sign with a context', (sub, supports) => supports('sign', withCtx(3)));
  add('supports: sign ML-DSA-66', (sub, supports) => supports('sign', 'ML-DSA-66'));
  return s;
}

/** Runs every scenario against `subtle`; returns { name: outcome }. */
export async function run(subtle, supports) {
  const out = {};
  for (const [name, fn] of Object.entries(scenarios())) out[name] = await outcome(() => fn(subtle, supports));
  return out;
}
