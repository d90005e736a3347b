// The check every cell of the compatibility matrix runs, in whatever runtime the
// cell is (Node, a bundled page or worker, Bun, Deno, workerd): no imports, the
// package's modules come in as arguments. It returns plain data; the test in
// Node judges it against @noble/post-quantum (pkg-tests/lib/compat.mjs, judge()).
export async function probe({ lib, subtle, OurKey, platformHasMlDsa }) {
  const enc = new TextEncoder();
  const sha256 = async (bytes) => Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
  const r = {};
  const ml = lib.ml_dsa65;
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
  const msg = enc.encode('mldsa-simd compat');
  const wrong = enc.encode('mldsa-simd compaT');
  const { publicKey, secretKey } = ml.keygen(seed);
  // Deterministic values the test compares with noble's: the keys and the signature are right, not just present.
  r.publicKey = await sha256(publicKey);
  r.deterministic = await sha256(ml.sign(msg, secretKey, { extraEntropy: false }));
  const sig = ml.sign(msg, secretKey);
  r.signatureLength = sig.length;
  r.verify = ml.verify(sig, msg, publicKey);
  r.wrongMessage = ml.verify(sig, wrong, publicKey);
  if (subtle) {
    const keys = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    // The platform's own key where its ML-DSA signs (with a context) what
    // ours verifies; one of ours elsewhere. (A caller that installed the
    // package's subtle into crypto.subtle asks the platform first and says.)
    if (OurKey) r.subtleKeyIsRight = keys.privateKey instanceof OurKey === !(platformHasMlDsa ?? (await platformMlDsa(ml)));
    const s = await subtle.sign({ name: 'ML-DSA-65' }, keys.privateKey, msg);
    r.subtleSignatureLength = s.byteLength;
    r.subtleVerify = await subtle.verify({ name: 'ML-DSA-65' }, keys.publicKey, s, msg);
    r.subtleWrongMessage = await subtle.verify({ name: 'ML-DSA-65' }, keys.publicKey, s, wrong);
  }
  return r;
}

/** Whether crypto.subtle's ML-DSA (as it is now) signs with a context what `ml` verifies. */
export async function platformMlDsa(ml) {
  try {
    const seed = new Uint8Array(32);
    const key = await crypto.subtle.importKey('raw-seed', seed, 'ML-DSA-65', false, ['sign']);
    const context = new Uint8Array([1]),
      msg = new Uint8Array([2]);
    const sig = new Uint8Array(await crypto.subtle.sign({ name: 'ML-DSA-65', context }, key, msg));
    return ml.verify(sig, msg, ml.keygen(seed).publicKey, { context });
  } catch {
    return false;
  }
}
