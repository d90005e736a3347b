// The demo page (www/index.html): key generation and export on the main thread
// (a few milliseconds), signing and verifying of the message in a module worker
// (www/demo-worker.mjs), which streams a file through createSign/createVerify
// and reports progress. The package (and its key formats, mldsa-simd/keys) is
// imported by URL, relative to this file, as the worker does: www/serve.mjs
// mounts the built package at /pkg/.
import { fromBase64, toBase64, toHex } from './encoding.mjs';

const $ = (id) => document.getElementById(id);
const NAMES = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

function fatal(text) {
  $('fatal').textContent = text;
  $('fatal').hidden = false;
  document.body.dataset.ready = 'error';
}

let lib;
let keys;
try {
  lib = await import('../pkg/index.mjs');
  keys = await import('../pkg/keys.mjs'); // (imports ../pkg/index.mjs: the same parameter-set objects)
} catch (e) {
  fatal(`The package did not load from ../pkg/ (${e.message}). Build it with \`npm run build\` and serve the page with \`node www/serve.mjs\`.`);
  throw e;
}
const SETS = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };

function formatBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
const formatSeconds = (ms) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);

// ---------------------------------------------------------------- the worker
// One worker and one job at a time; Cancel terminates the worker (which also
// drops its copy of the seed) and the next job starts a new one.
let worker = null;
let job = null; // { id, resolve, reject, onProgress }
let nextId = 1;

function startWorker() {
  worker = new Worker(new URL('./demo-worker.mjs', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (!job || data.id !== job.id) return;
    if (data.type === 'progress') job.onProgress(data.done, data.total);
    else if (data.type === 'error') finishJob().reject(new Error(data.message));
    else finishJob().resolve(data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    const message = e.message || 'the worker script or ../pkg/index.mjs did not load (is the package built?)';
    stopWorker();
    const j = finishJob();
    if (j) j.reject(new Error(`Worker: ${message}`));
    else fatal(`The signing worker did not start: ${message}`);
  };
}

function stopWorker() {
  worker?.terminate();
  worker = null;
}

function finishJob() {
  const j = job;
  job = null;
  return j;
}

/** Runs one job in the worker; `transfer` lists buffers to move, not copy. */
function runJob(request, onProgress, transfer = []) {
  if (job) return Promise.reject(new Error('another job is running'));
  if (!worker) startWorker();
  return new Promise((resolve, reject) => {
    job = { id: nextId++, resolve, reject, onProgress };
    worker.postMessage({ ...request, id: job.id }, transfer);
  });
}

class Cancelled extends Error {}

function cancelJob() {
  stopWorker();
  finishJob()?.reject(new Cancelled('cancelled'));
}

// ---------------------------------------------------------------- key pair
let key = null; // { set, seed, publicKey }
let exportFormat = 'pem';

function forgetKey() {
  key?.seed.fill(0);
  key = null;
  for (const id of ['seed', 'public-hex', 'export-public', 'export-private']) $(id).value = '';
  $('key-out').hidden = true;
  $('use-key').disabled = true;
  updateButtons();
  if (!job) setSignStatus('idle', 'Generate a key pair first.');
}

function generate() {
  forgetKey();
  const set = $('set').value;
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const { publicKey, secretKey } = SETS[set].keygen(seed);
  secretKey.fill(0); // signing uses the seed; the expanded key is not kept
  key = { set, seed, publicKey };
  $('seed').value = toHex(seed);
  $('public-hex').value = toHex(publicKey);
  $('public-len').textContent = publicKey.length;
  $('key-out').hidden = false;
  $('use-key').disabled = false;
  $('sign-btn').textContent = `Sign with the ${set} key`;
  showExport(exportFormat);
  updateButtons();
  if (!job) setSignStatus('idle', `Ready to sign with the new ${set} key.`);
}

function showExport(format) {
  exportFormat = format;
  $('export-pem').setAttribute('aria-pressed', String(format === 'pem'));
  $('export-jwk').setAttribute('aria-pressed', String(format === 'jwk'));
  if (!key) return;
  const alg = SETS[key.set];
  if (format === 'pem') {
    $('export-public').value = keys.exportPublicKey(alg, key.publicKey, 'pem');
    $('export-private').value = keys.exportSecretKey(alg, key.seed, 'pem');
  } else {
    $('export-public').value = JSON.stringify(keys.exportPublicKey(alg, key.publicKey, 'jwk'), null, 2);
    // priv first, so the visible top of the box shows that this one is the private key
    const { kty, alg: name, priv, ...rest } = keys.exportSecretKey(alg, key.seed, 'jwk');
    $('export-private').value = JSON.stringify({ kty, alg: name, priv, ...rest }, null, 2);
  }
}

// ---------------------------------------------------------------- message
let chosenFile = null;

function chooseFile(file) {
  chosenFile = file;
  $('file-info').textContent = file ? `${file.name}: ${formatBytes(file.size)}` : 'No file chosen.';
  if (file) $('source-file').checked = true;
}

/** The message to sign or verify, as a Blob (text is UTF-8), and how to name it. */
function currentMessage() {
  if ($('source-file').checked) {
    if (!chosenFile) throw new Error('Message: choose or drop a file first.');
    return { blob: chosenFile, what: `the file ${chosenFile.name} (${formatBytes(chosenFile.size)})` };
  }
  const blob = new Blob([$('text').value]);
  return { blob, what: `the text (${formatBytes(blob.size)})` };
}

// ---------------------------------------------------------------- sign
let lastSignature = null;

function setSignStatus(state, text) {
  $('sign-status').dataset.state = state;
  $('sign-status').textContent = text;
}

function updateButtons() {
  $('keygen').disabled = false;
  $('sign-btn').disabled = !key || !!job;
  $('verify-btn').disabled = !!job;
  $('sign-cancel').disabled = !(job && job.kind === 'sign');
  $('verify-cancel').disabled = !(job && job.kind === 'verify');
  $('use-sig').disabled = !lastSignature;
}

/** Progress bar and status text of a running job. */
function progressReporter(bar, show, verb, t0) {
  bar.value = 0;
  return (done, total) => {
    bar.value = total ? done / total : 1;
    show(`${verb} ${formatBytes(done)} of ${formatBytes(total)}, ${formatSeconds(performance.now() - t0)}`);
  };
}

async function sign() {
  let message;
  try {
    message = currentMessage();
  } catch (e) {
    setSignStatus('error', e.message);
    return;
  }
  const { set } = key;
  const t0 = performance.now();
  const seed = key.seed.slice(); // moved to the worker, which wipes it after use
  const onProgress = progressReporter($('sign-progress'), (t) => setSignStatus('busy', t), 'Signing:', t0);
  $('signature').value = '';
  setSignStatus('busy', `Signing ${message.what}…`);
  const running = runJob({ op: 'sign', set, seed, message: message.blob }, onProgress, [seed.buffer]);
  job.kind = 'sign';
  updateButtons();
  try {
    const { signature } = await running;
    const ms = performance.now() - t0;
    $('sign-progress').value = 1;
    lastSignature = signature;
    $('signature').value = toBase64(signature);
    setSignStatus('done', `Signed ${message.what} with ${set} in ${formatSeconds(ms)}: ${signature.length}-byte signature.`);
  } catch (e) {
    if (e instanceof Cancelled) setSignStatus('cancelled', `Cancelled after ${formatSeconds(performance.now() - t0)}; no signature.`);
    else setSignStatus('error', `Signing failed: ${e.message}`);
  } finally {
    updateButtons();
  }
}

// ---------------------------------------------------------------- verify
function setVerifyResult(state, headline, detail = '') {
  const p = $('verify-result');
  p.dataset.state = state;
  p.textContent = headline;
  if (detail) {
    p.append(' ');
    const d = document.createElement('span');
    d.className = 'detail';
    d.textContent = detail;
    p.append(d);
  }
}

/**
 * The public key pasted as PEM or JWK, with its parameter set: the first set
 * that accepts it (each rejects the others' keys by OID or `alg`).
 */
function parsePublicKey(text) {
  const t = text.trim();
  if (!t) throw new Error('Public key: paste a PEM (-----BEGIN PUBLIC KEY-----) or a JWK ({"kty":"AKP", …}).');
  let data;
  let format;
  if (t.startsWith('{')) {
    format = 'jwk';
    try {
      data = JSON.parse(t);
    } catch {
      throw new Error('Public key: this JWK is not valid JSON.');
    }
  } else if (t.startsWith('-----BEGIN')) {
    format = 'pem';
    data = t + '\n';
  } else {
    throw new Error('Public key: neither PEM (it starts with -----BEGIN PUBLIC KEY-----) nor JWK (it starts with {).');
  }
  let firstError;
  for (const set of NAMES) {
    try {
      return { set, publicKey: keys.importPublicKey(SETS[set], data, format), format };
    } catch (e) {
      firstError ??= e;
    }
  }
  throw new Error(`Public key (${format.toUpperCase()}): ${firstError.message}`);
}

async function verify() {
  $('verify-progress').value = 0;
  let parsed, signature, message;
  try {
    parsed = parsePublicKey($('verify-key').value);
    if (!$('verify-sig').value.trim()) throw new Error('Signature: paste a base64 signature.');
    signature = fromBase64($('verify-sig').value, 'Signature');
    message = currentMessage();
  } catch (e) {
    setVerifyResult('error', 'Cannot verify', e.message);
    return;
  }
  const { set, publicKey } = parsed;
  const expected = SETS[set].lengths.signature;
  if (signature.length !== expected) {
    setVerifyResult('invalid', '✗ Invalid signature', `It is ${signature.length} bytes; ${set} signatures are ${expected} bytes.`);
    return;
  }
  const t0 = performance.now();
  const onProgress = progressReporter($('verify-progress'), (t) => setVerifyResult('busy', t), 'Verifying:', t0);
  setVerifyResult('busy', `Verifying ${message.what}…`);
  const running = runJob({ op: 'verify', set, publicKey, signature, message: message.blob }, onProgress);
  job.kind = 'verify';
  updateButtons();
  try {
    const { valid } = await running;
    $('verify-progress').value = 1;
    const detail = `${set} key, ${message.what}, ${formatSeconds(performance.now() - t0)}.`;
    if (valid) setVerifyResult('valid', '✓ Valid signature', detail);
    else setVerifyResult('invalid', '✗ Invalid signature: not made by this key for this message', detail);
  } catch (e) {
    if (e instanceof Cancelled) setVerifyResult('error', 'Cancelled', 'The verification was stopped; no answer.');
    else setVerifyResult('error', 'Verification failed', e.message);
  } finally {
    updateButtons();
  }
}

// ---------------------------------------------------------------- copy
async function copy(button) {
  const text = $(button.dataset.copy).value;
  if (!text) return;
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    // No clipboard permission (or no secure context): select it for Ctrl-C.
    $(button.dataset.copy).select();
    button.textContent = 'Selected: press Ctrl-C';
  }
  setTimeout(() => (button.textContent = label), 1500);
}

// ---------------------------------------------------------------- wiring
$('keygen').addEventListener('click', generate);
$('set').addEventListener('change', () => {
  if (key && key.set !== $('set').value) forgetKey();
});
$('export-pem').addEventListener('click', () => showExport('pem'));
$('export-jwk').addEventListener('click', () => showExport('jwk'));
$('text').addEventListener('input', () => ($('source-text').checked = true));
$('file').addEventListener('change', () => chooseFile($('file').files[0] ?? null));
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const file = e.dataTransfer?.files[0];
  if (file) chooseFile(file);
});
// A file dropped elsewhere on the page would otherwise be opened by the browser.
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => e.preventDefault());
$('sign-btn').addEventListener('click', sign);
$('sign-cancel').addEventListener('click', cancelJob);
$('verify-btn').addEventListener('click', verify);
$('verify-cancel').addEventListener('click', cancelJob);
$('use-key').addEventListener('click', () => {
  if (key) $('verify-key').value = keys.exportPublicKey(SETS[key.set], key.publicKey, 'pem');
});
$('use-sig').addEventListener('click', () => {
  if (lastSignature) $('verify-sig').value = toBase64(lastSignature);
});
for (const b of document.querySelectorAll('button[data-copy]')) b.addEventListener('click', () => copy(b));

startWorker(); // loads the package in the worker now, not at the first click
updateButtons();
document.body.dataset.ready = 'yes';
