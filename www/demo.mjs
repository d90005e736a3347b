// The demo page (www/index.html): key generation, import and export on the main
// thread (a few milliseconds), signing and verifying of the message in a module worker
// (www/demo-worker.mjs), which streams a file through createSign/createVerify
// and reports progress. The package (and its key formats, mldsa-simd/keys) is
// imported by URL, relative to this file, as the worker does: www/serve.mjs
// mounts the built package at /pkg/.
import { fromBase64, fromHex, toBase64, toHex } from './encoding.mjs';

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
// Remembering the key: CryptoKeys of mldsa-simd/webcrypto kept by mldsa-simd/keystore.
let store = null;
try {
  const [{ subtle }, { saveKey, loadKey, deleteKey }] = await Promise.all([import('../pkg/webcrypto.mjs'), import('../pkg/keystore.mjs')]);
  store = { subtle, saveKey, loadKey, deleteKey };
} catch {}
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
// key.secret is what signing takes: the seed, or the expanded secret key of a
// PKCS#8 key that came without its seed.
let key = null; // { set, secret, hasSeed, publicKey }
let exportFormat = 'pem';

/** Drops the key and everything made with it or for its set: signature, results, labels. */
function forgetKey() {
  if (job?.kind === 'sign') cancelJob();
  key?.secret.fill(0);
  key = null;
  for (const id of ['seed', 'public-hex', 'export-public', 'export-private', 'signature']) $(id).value = '';
  lastSignature = null;
  $('key-out').hidden = true;
  $('use-key').disabled = true;
  $('sign-btn').textContent = 'Sign';
  $('sign-progress').value = 0;
  setSignStatus('idle', 'Generate or import a key pair first.');
  if (!job) {
    $('verify-progress').value = 0;
    setVerifyResult('idle', '');
  }
  updateButtons();
}

/** Shows `k` ({ set, secret, hasSeed, publicKey }: the page's from now on) as the key of step 1. */
function useKey(k, how) {
  forgetKey();
  key = k;
  $('set').value = k.set;
  $('seed-label').textContent = k.hasSeed
    ? 'Private key: the 32-byte seed ξ (hex)'
    : 'Private key: this key came without its seed; signing uses its expanded form';
  $('seed').value = k.hasSeed ? toHex(k.secret) : '';
  $('public-hex').value = toHex(k.publicKey);
  $('public-len').textContent = k.publicKey.length;
  $('key-out').hidden = false;
  $('use-key').disabled = false;
  $('sign-btn').textContent = `Sign with the ${k.set} key`;
  showExport(exportFormat);
  updateButtons();
  setSignStatus('idle', `Ready to sign with the ${how} ${k.set} key.`);
  if (remembering() && how !== 'remembered') rememberKey();
}

function generate() {
  const set = $('set').value;
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const { publicKey, secretKey } = SETS[set].keygen(seed);
  secretKey.fill(0); // signing uses the seed; the expanded key is not kept
  useKey({ set, secret: seed, hasSeed: true, publicKey }, 'new');
}

/**
 * Reads a key with `read(params, data, format)` of mldsa-simd/keys in the
 * set that takes it. Its messages never quote the data; of several, the one
 * of the set the key is for (the others say it is for another set).
 */
function readInAnySet(read, data, format, what) {
  const errors = [];
  for (const set of NAMES) {
    try {
      return { set, key: read(SETS[set], data, format) };
    } catch (e) {
      errors.push(e);
    }
  }
  const best = errors.find((e) => !/^\w+: the key is for ML-DSA-\d+, but/.test(e.message)) ?? errors[0];
  return { error: new Error(`${what} (${format.toUpperCase()}): ${best.message}`) };
}

const SEED_HEX = /^[0-9a-fA-F]{64}$/;
const SEED_BASE64 = /^[A-Za-z0-9+/]{43}=?$|^[A-Za-z0-9_-]{43}$/;

/**
 * A private key pasted as PEM (PKCS#8), JWK (with "priv") or a 32-byte seed
 * (hex, base64 or base64url; for the set chosen in the list). Returns
 * { set, secret, hasSeed, publicKey }, new arrays. Messages say what is
 * wrong and never quote the text.
 */
function parseSecretKey(text) {
  const t = text.trim();
  const where = 'paste it under 4 Verify';
  if (!t) throw new Error('Private key: paste a PEM (-----BEGIN PRIVATE KEY-----), a JWK ({"kty":"AKP", …, "priv": …}) or a 32-byte seed in hex or base64.');
  let data;
  let format;
  if (t.startsWith('{')) {
    format = 'jwk';
    try {
      data = JSON.parse(t);
    } catch {
      throw new Error('Private key: this JWK is not valid JSON.');
    }
    if (data && typeof data === 'object' && !('priv' in data)) throw new Error(`Private key: this JWK has no "priv": it is a public key; ${where}.`);
  } else if (t.startsWith('-----BEGIN')) {
    format = 'pem';
    if (/^-----BEGIN PUBLIC KEY-----/.test(t)) throw new Error(`Private key: this is a public key (BEGIN PUBLIC KEY); ${where}.`);
    data = t + '\n';
  } else {
    const s = t.replace(/\s+/g, '');
    let seed;
    if (SEED_HEX.test(s)) seed = fromHex(s);
    else if (SEED_BASE64.test(s)) seed = fromBase64(s.replace(/-/g, '+').replace(/_/g, '/'));
    else
      throw new Error(
        'Private key: neither PEM (-----BEGIN PRIVATE KEY-----), JWK ({…}), nor a 32-byte seed (64 hex digits, or 43 characters of base64 or base64url).',
      );
    const set = $('set').value;
    try {
      const k = keys.importSecretKey(SETS[set], seed, 'raw-seed');
      k.secretKey.fill(0);
      return { set, secret: k.seed, hasSeed: true, publicKey: k.publicKey };
    } finally {
      seed.fill(0);
    }
  }
  const r = readInAnySet(keys.importSecretKey, data, format, 'Private key');
  if (r.error) throw r.error;
  const { seed, secretKey, publicKey } = r.key;
  if (seed) secretKey.fill(0);
  return { set: r.set, secret: seed ?? secretKey, hasSeed: !!seed, publicKey };
}

function importKey() {
  const status = (state, text) => {
    $('import-status').dataset.state = state;
    $('import-status').textContent = text;
  };
  let k;
  try {
    k = parseSecretKey($('import-key').value);
  } catch (e) {
    status('error', e.message);
    return;
  }
  $('import-key').value = ''; // shown again below, in the export boxes
  useKey(k, 'imported');
  status('done', `Imported an ${k.set} private key${k.hasSeed ? '' : ' (without its seed)'}; its public key is shown below.`);
}

function showExport(format) {
  exportFormat = format;
  $('export-pem').setAttribute('aria-pressed', String(format === 'pem'));
  $('export-jwk').setAttribute('aria-pressed', String(format === 'jwk'));
  if (!key) return;
  const alg = SETS[key.set];
  if (format === 'pem') {
    $('export-public').value = keys.exportPublicKey(alg, key.publicKey, 'pem');
    $('export-private').value = keys.exportSecretKey(alg, key.secret, 'pem', { form: key.hasSeed ? 'seed' : 'expandedKey' });
  } else {
    $('export-public').value = JSON.stringify(keys.exportPublicKey(alg, key.publicKey, 'jwk'), null, 2);
    if (!key.hasSeed) {
      $('export-private').value = '(A JWK holds the seed, and this key came without it: export it as PEM.)';
      return;
    }
    // priv first, so the visible top of the box shows that this one is the private key
    const { kty, alg: name, priv, ...rest } = keys.exportSecretKey(alg, key.secret, 'jwk');
    $('export-private').value = JSON.stringify({ kty, alg: name, priv, ...rest }, null, 2);
  }
}

// ---------------------------------------------------------------- remember
// While the box is ticked, the store holds the key of step 1 (or nothing,
// when there is none): each new key replaces it, and unticking deletes it.
// The private key is stored extractable, because signing here streams the
// message through createSign in the worker, which takes the seed.
const STORED = 'mldsa-simd-demo';
const remembering = () => $('remember').checked;

function setRememberStatus(state, text) {
  $('remember-status').dataset.state = state;
  $('remember-status').textContent = text;
}

// Saves run one after another, so that the last key shown is the one kept.
let saving = Promise.resolve();
function rememberKey() {
  const k = key;
  saving = saving.then(async () => {
    try {
      if (!k) {
        await store.deleteKey(STORED);
        setRememberStatus('idle', 'No key to remember now; the next one will be.');
        return;
      }
      if (!k.hasSeed) {
        await store.deleteKey(STORED);
        setRememberStatus('error', 'This key came without its seed, and WebCrypto keeps ML-DSA private keys as seeds: it cannot be remembered.');
        return;
      }
      const alg = { name: k.set };
      const privateKey = await store.subtle.importKey('raw-seed', k.secret, alg, true, ['sign']);
      const publicKey = await store.subtle.importKey('raw-public', k.publicKey, alg, true, ['verify']);
      await store.saveKey(STORED, { privateKey, publicKey });
      setRememberStatus('done', `Remembered: this ${k.set} key comes back after a reload (kept in this browser's IndexedDB).`);
    } catch (e) {
      setRememberStatus('error', `Not remembered: ${e.message}`);
    }
  });
  return saving;
}

async function toggleRemember() {
  if (remembering()) return rememberKey();
  saving = saving.then(async () => {
    try {
      await store.deleteKey(STORED);
      setRememberStatus('idle', 'Forgotten: no key is kept in this browser.');
    } catch (e) {
      setRememberStatus('error', `Not forgotten: ${e.message}`);
    }
  });
}

/** At start: the key remembered before the reload, if any, becomes the key of step 1. */
async function restoreKey() {
  try {
    const stored = await store.loadKey(STORED);
    if (!stored) return;
    const set = stored.privateKey.algorithm.name;
    const seed = new Uint8Array(await store.subtle.exportKey('raw-seed', stored.privateKey));
    const { publicKey, secretKey } = SETS[set].keygen(seed);
    secretKey.fill(0);
    useKey({ set, secret: seed, hasSeed: true, publicKey }, 'remembered');
    $('remember').checked = true;
    setRememberStatus('done', `The ${set} key remembered in this browser is back.`);
  } catch (e) {
    setRememberStatus('error', `The remembered key could not be read: ${e.message}`);
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
  const secret = key.secret.slice(); // moved to the worker, which wipes it after use
  const onProgress = progressReporter($('sign-progress'), (t) => setSignStatus('busy', t), 'Signing:', t0);
  $('signature').value = '';
  setSignStatus('busy', `Signing ${message.what}…`);
  const running = runJob({ op: 'sign', set, secret, message: message.blob }, onProgress, [secret.buffer]);
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

/** Where a private key was pasted for a public one: says so, and offers its public key. */
class PrivateKeyHere extends Error {}

/**
 * The public key pasted as PEM or JWK, with its parameter set: the set that
 * accepts it (each rejects the others' keys by OID or `alg`).
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
    if (data && typeof data === 'object' && 'priv' in data) throw new PrivateKeyHere('JWK');
  } else if (t.startsWith('-----BEGIN')) {
    format = 'pem';
    if (/^-----BEGIN (ENCRYPTED )?PRIVATE KEY-----/.test(t)) throw new PrivateKeyHere('PEM');
    data = t + '\n';
  } else {
    throw new Error('Public key: neither PEM (it starts with -----BEGIN PUBLIC KEY-----) nor JWK (it starts with {).');
  }
  const r = readInAnySet(keys.importPublicKey, data, format, 'Public key');
  if (r.error) throw r.error;
  return { set: r.set, publicKey: r.key, format };
}

/** Replaces the private key pasted under Verify with its public key, in the same format. */
function derivePublic() {
  $('derive-public').hidden = true;
  let k;
  try {
    k = parseSecretKey($('verify-key').value);
  } catch (e) {
    setVerifyResult('error', 'No public key', e.message);
    return;
  }
  k.secret.fill(0);
  const jwk = $('verify-key').value.trim().startsWith('{');
  const pub = keys.exportPublicKey(SETS[k.set], k.publicKey, jwk ? 'jwk' : 'pem');
  $('verify-key').value = jwk ? JSON.stringify(pub, null, 2) : pub;
  setVerifyResult('idle', '');
}

/**
 * A pasted signature: hex when it is only hex digits (an even number of
 * them; a base64 signature is never all hex), otherwise base64 or base64url
 * (RFC 4648 §4, §5), strictly, one alphabet or the other.
 */
function readSignature(text) {
  const s = text.replace(/\s+/g, '');
  if (!s) throw new Error('Signature: paste a signature (base64, base64url or hex).');
  if (/^[0-9a-fA-F]+$/.test(s) && s.length % 2 === 0) return fromHex(s);
  const url = /[-_]/.test(s);
  if (url && /[+/]/.test(s)) throw new Error('Signature: not base64: it mixes base64 (+ /) and base64url (- _) characters.');
  return fromBase64(url ? s.replace(/-/g, '+').replace(/_/g, '/') : s, 'Signature');
}

async function verify() {
  $('verify-progress').value = 0;
  let parsed, signature, message;
  try {
    parsed = parsePublicKey($('verify-key').value);
    signature = readSignature($('verify-sig').value);
    message = currentMessage();
  } catch (e) {
    if (e instanceof PrivateKeyHere) {
      $('derive-public').hidden = false;
      setVerifyResult(
        'error',
        'This is a private key',
        `Keep it secret. To sign with it, paste it under 1 Key pair ("Or sign with your own private key"). Here, paste its public key, or click "Put its public key here instead".`,
      );
    } else setVerifyResult('error', 'Cannot verify', e.message);
    return;
  }
  $('derive-public').hidden = true;
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
  forgetKey();
  if (remembering()) rememberKey();
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
$('import-btn').addEventListener('click', importKey);
$('derive-public').addEventListener('click', derivePublic);
$('verify-key').addEventListener('input', () => ($('derive-public').hidden = true));
$('use-sig').addEventListener('click', () => {
  if (lastSignature) $('verify-sig').value = toBase64(lastSignature);
});
for (const b of document.querySelectorAll('button[data-copy]')) b.addEventListener('click', () => copy(b));

$('remember').addEventListener('change', toggleRemember);

startWorker(); // loads the package in the worker now, not at the first click
updateButtons();
if (store) {
  $('remember').disabled = false;
  await restoreKey();
} else setRememberStatus('idle', 'This build of the package has no mldsa-simd/keystore.');
document.body.dataset.ready = 'yes';
