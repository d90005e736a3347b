// The demo page's signing and verifying, off the main thread so that the page
// stays responsive while a large file is read. Module workers do not see the
// page's import map, so the package is imported by its URL (www/serve.mjs
// mounts the built package at /pkg/, beside /www/).
//
// Messages in:  { id, op: 'sign', set, secret (seed or secret key), message: Blob }
//               { id, op: 'verify', set, publicKey, signature, message: Blob }
// Messages out: { type: 'ready' } once, then per job { id, type: 'progress', done, total }
//               and one of { id, type: 'signed', signature } / { id, type: 'verified', valid }
//               / { id, type: 'error', message }.
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '../pkg/index.mjs';

const SETS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
// About 200 progress messages per job at most, whatever the chunk size.
const PROGRESS_STEPS = 200;

/** Reads `blob` through its stream into `sink.update`, reporting progress. */
async function feed(id, blob, sink) {
  const total = blob.size;
  const step = Math.max(1, Math.floor(total / PROGRESS_STEPS));
  const reader = blob.stream().getReader();
  let done = 0;
  let reported = 0;
  for (;;) {
    const { done: end, value } = await reader.read();
    if (end) break;
    sink.update(value);
    done += value.length;
    if (done - reported >= step) {
      postMessage({ id, type: 'progress', done, total });
      reported = done;
    }
  }
  postMessage({ id, type: 'progress', done, total });
}

self.onmessage = async ({ data }) => {
  const { id, op, set } = data;
  try {
    const alg = SETS[set];
    if (!alg) throw new TypeError(`set: expected one of ${Object.keys(SETS).join(', ')}, got ${set}`);
    if (op === 'sign') {
      try {
        const signer = alg.createSign(data.secret);
        await feed(id, data.message, signer);
        postMessage({ id, type: 'signed', signature: signer.sign() });
      } finally {
        data.secret.fill(0); // this worker's copy of the key; the page keeps its own
      }
    } else if (op === 'verify') {
      const verifier = alg.createVerify(data.publicKey);
      await feed(id, data.message, verifier);
      postMessage({ id, type: 'verified', valid: verifier.verify(data.signature) });
    } else {
      throw new TypeError(`op: expected "sign" or "verify", got ${op}`);
    }
  } catch (e) {
    postMessage({ id, type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};

postMessage({ type: 'ready' });
