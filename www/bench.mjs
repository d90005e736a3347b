// The benchmark page (www/bench.html): loads the peers that run in a browser,
// runs the shared harness (bench-js/core.mjs, the same code as `npm run bench`),
// and shows progress, a bar chart of ops/s and a table of µs/op with ratios.
// window.__bench holds the state and results for pkg-tests/bench-page.test.mjs.
import { BUDGETS, METHOD, fmtUs, generatedMessages, liboqsShaped, nobleShaped, runBench } from '../bench-js/core.mjs';

const params = new URLSearchParams(location.search);
const quick = params.has('quick');
const SETS = [44, 65, 87];
const OPS = ['keygen', 'sign', 'verify'];
const COLORS = { ours: '#175cd3', native: '#7a5af8', liboqs: '#f79009', noble: '#98a2b3', node: '#12b76a' };

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
};
const state = { state: 'loading', quick, results: [], problems: [], peers: {}, userAgent: navigator.userAgent };
window.__bench = state;

// A module whose one function returns v128.const 0: it validates only where
// WebAssembly SIMD (simd128) is supported.
const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x16,
  0x01,
  0x14,
  0x00,
  0xfd,
  0x0c,
  ...new Array(16).fill(0),
  0x0b, // code: v128.const 0; end
]);
const simd = WebAssembly.validate(SIMD_PROBE);
state.simd = simd;

async function version(url) {
  try {
    return (await (await fetch(url)).json()).version;
  } catch {
    return '?';
  }
}

// liboqs-js's Emscripten runtime reads randomness through crypto.getRandomValues
// at each call: see liboqsShaped() in bench-js/core.mjs.
function fixBrowserRandom(fill) {
  const c = globalThis.crypto;
  c.getRandomValues = fill;
  return () => {
    delete c.getRandomValues;
  };
}

/**
 * The browser's own ML-DSA in crypto.subtle, found by trying it: the sets
 * whose generateKey and sign work, and whether it takes a context string
 * (a signature with one verifies under it and not under another). Returns
 * null where there is none. Our keys go in through mldsa-simd/keys' DER
 * (PKCS#8 seed form, SPKI), so the cross-check also checks those.
 */
async function loadNative() {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const keys = await import('mldsa-simd/keys');
  const ours = await import('mldsa-simd');
  const msg = new Uint8Array(1);
  const sets = [];
  let context = true;
  for (const set of SETS) {
    const name = `ML-DSA-${set}`;
    let kp;
    try {
      kp = await subtle.generateKey({ name }, false, ['sign', 'verify']);
      await subtle.sign({ name }, kp.privateKey, msg);
      sets.push(set);
    } catch {
      continue;
    }
    try {
      const ctx = new Uint8Array([1, 2, 3]);
      const sig = await subtle.sign({ name, context: ctx }, kp.privateKey, msg);
      context &&= (await subtle.verify({ name, context: ctx }, kp.publicKey, sig, msg)) && !(await subtle.verify({ name }, kp.publicKey, sig, msg));
    } catch {
      context = false;
    }
  }
  if (!sets.length) return null;
  const b64url = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const impl = (set) => {
    if (!sets.includes(set)) return null;
    const alg = { name: `ML-DSA-${set}` };
    const params = ours[`ml_dsa${set}`];
    return {
      // generateKey draws its own seed and makes two CryptoKeys; ours expands a given seed into raw bytes.
      keygen: () => subtle.generateKey(alg, false, ['sign', 'verify']),
      publicKeyOf: async (seed) => {
        const k = await subtle.importKey('raw-seed', seed, alg, true, ['sign']);
        return b64url((await subtle.exportKey('jwk', k)).pub);
      },
      signer: async (secretKey, seed) => {
        const k = await subtle.importKey('pkcs8', keys.exportSecretKey(params, seed, 'pkcs8'), alg, false, ['sign']);
        return async (m) => new Uint8Array(await subtle.sign(alg, k, m));
      },
      verifier: async (publicKey) => {
        const k = await subtle.importKey('spki', keys.exportPublicKey(params, publicKey, 'spki'), alg, false, ['verify']);
        return (sig, m) => subtle.verify(alg, k, sig, m);
      },
    };
  };
  const engine = navigator.userAgent.match(/(Chrome|Firefox|Version)\/([\d.]+)/);
  return { version: engine ? `${engine[1] === 'Version' ? 'Safari' : engine[1]} ${engine[2]}` : 'built in', impl, sets, context };
}

const PEERS = [
  {
    id: 'ours',
    name: 'mldsa-simd',
    load: async () => ({ version: await version('/pkg/package.json'), impl: nobleShaped(await import('mldsa-simd')) }),
  },
  {
    id: 'native',
    name: 'WebCrypto (this browser)',
    async: true,
    hedged: true,
    note: "native: the browser's own ML-DSA in crypto.subtle, each call awaited before the next (its times include the promise's round trip). keygen = generateKey (a random seed, two CryptoKeys), ours = keygen(seed) to raw bytes. Its signing is hedged (WebCrypto has no deterministic signing), so its rejection-loop iterations are random, not the message set's: same mean, more spread. Keys imported once from our PKCS#8 / SPKI; the cross-check has it verify our signatures and ours verify its.",
    load: loadNative,
  },
  {
    id: 'liboqs',
    name: '@oqs/liboqs-js',
    note: 'liboqs-js (liboqs compiled with Emscripten) takes raw keys; having no seed or deterministic-signing entry, it gets ξ = seed and rnd = 0 through its random source (crypto.getRandomValues, swapped around each call), so its outputs equal ours byte for byte.',
    load: async () => {
      const [a, b, c] = await Promise.all(SETS.map((s) => import(`@oqs/liboqs-js/ml-dsa/ml-dsa-${s}.js`)));
      const instances = { 44: await a.createMLDSA44(), 65: await b.createMLDSA65(), 87: await c.createMLDSA87() };
      return { version: await version('/node_modules/@oqs/liboqs-js/package.json'), impl: liboqsShaped(instances, fixBrowserRandom) };
    },
  },
  {
    id: 'noble',
    name: '@noble/post-quantum',
    load: async () => ({
      version: await version('/node_modules/@noble/post-quantum/package.json'),
      impl: nobleShaped(await import('@noble/post-quantum/ml-dsa.js')),
    }),
  },
];

async function messagesFor(set) {
  try {
    const res = await fetch(`/cctv-bench/ML-DSA-${set}.json`);
    if (!res.ok) throw new Error(String(res.status));
    const te = new TextEncoder();
    return { source: `CCTV ML-DSA-${set}.json`, messages: (await res.json()).map((s) => te.encode(s)) };
  } catch {
    return { source: 'generated (CCTV set not served)', messages: generatedMessages() };
  }
}

// ------------------------------------------------------------------ view
function showEnv(peers) {
  const env = $('env');
  env.replaceChildren();
  const row = (k, v) => env.append(el('dt', {}, k), el('dd', {}, v));
  row('Engine', navigator.userAgent);
  row('WebAssembly SIMD', el('span', { class: simd ? 'yes' : 'no' }, simd ? 'supported' : 'not supported'));
  row('Logical CPUs', String(navigator.hardwareConcurrency ?? '?'));
  // Without cross-origin isolation (COOP + COEP headers, set by www/serve.mjs)
  // browsers coarsen performance.now() to about 100 µs; batches of ≥ 10 ms keep that small.
  row('Timer', crossOriginIsolated ? 'cross-origin isolated (fine performance.now())' : 'not cross-origin isolated (performance.now() coarsened to ~100 µs)');
  const list = el('span');
  peers.forEach((p, i) => {
    if (i) list.append(', ');
    list.append(el('span', { class: 'swatch', style: `background:${COLORS[p.id]}` }), `${p.name} ${p.version}`);
  });
  row('Peers', list);
  const native = state.peers.native;
  row(
    'WebCrypto ML-DSA',
    native
      ? el('span', { class: 'yes' }, `${native.sets.map((s) => `ML-DSA-${s}`).join(', ')}; context ${native.context ? 'supported' : 'not supported'}`)
      : el('span', { class: 'no' }, 'this browser has no ML-DSA in WebCrypto'),
  );
}

function ratioCell(r) {
  const cls = r >= 1.005 ? 'win' : r <= 0.995 ? 'loss' : '';
  return el('td', { class: `ratio ${cls}`.trim() }, `${r.toFixed(2)}×`);
}

function renderTable(results, peers) {
  const others = peers.slice(1);
  const table = $('table');
  const head = el('tr', {}, el('th', {}, 'operation'), el('th', {}, 'parameter set'), el('th', {}, 'ours µs'), el('th', {}, 'ours ops/s'));
  for (const p of others) head.append(el('th', {}, `${p.id} µs`), el('th', {}, `${p.id} / ours`));
  const body = [];
  let lastOp = null;
  for (const op of OPS) {
    for (const r of results.filter((x) => x.op === op)) {
      const us = r.peers.ours.us;
      const tr = el('tr', { class: lastOp && lastOp !== op ? 'group-start' : '' }, el('td', {}, op), el('td', {}, r.set));
      tr.append(el('td', { 'data-peer': 'ours', 'data-us': String(us) }, fmtUs(us)), el('td', {}, Math.round(1e6 / us).toLocaleString('en-US')));
      for (const p of others) {
        const m = r.peers[p.id];
        if (m) tr.append(el('td', { 'data-peer': p.id, 'data-us': String(m.us) }, fmtUs(m.us)), ratioCell(r.ratio[p.id]));
        else tr.append(el('td', { 'data-peer': p.id }, '–'), el('td', {}, '–'));
      }
      body.push(tr);
      lastOp = op;
    }
  }
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body));
  $('table-legend').textContent = state.peers.native
    ? "native = this browser's WebCrypto: its keygen is generateKey (a random seed, two CryptoKeys) where ours is keygen(seed) to raw bytes; its sign is hedged; each of its calls is awaited before the next."
    : 'This browser has no ML-DSA in WebCrypto.';
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Horizontal bars, one panel per operation with its own linear scale; a group per parameter set, a bar per peer. */
function renderChart(results, peers) {
  const W = 930;
  const labelW = 92;
  const valueW = 96;
  const barH = 13;
  const barGap = 3;
  const groupGap = 10;
  const panelGap = 26;
  const plotW = W - labelW - valueW;
  const root = svg('svg', { viewBox: `0 0 ${W} 100`, role: 'img', 'aria-label': 'operations per second per peer' });
  let y = 4;
  for (const op of OPS) {
    const rows = results.filter((r) => r.op === op);
    if (!rows.length) continue;
    const max = Math.max(...rows.flatMap((r) => peers.filter((p) => r.peers[p.id]).map((p) => 1e6 / r.peers[p.id].us)));
    root.append(svg('text', { x: 0, y: y + 13, class: 'title' }, `${op} (operations per second; longer is faster)`));
    y += 22;
    const top = y;
    for (const r of rows) {
      const present = peers.filter((p) => r.peers[p.id]);
      const groupH = present.length * (barH + barGap) - barGap;
      root.append(svg('text', { x: 0, y: y + groupH / 2 + 4 }, r.set));
      for (const p of present) {
        const ops = 1e6 / r.peers[p.id].us;
        const w = Math.max(1, (ops / max) * plotW);
        const bar = svg('rect', { x: labelW, y, width: w.toFixed(1), height: barH, rx: 2, fill: COLORS[p.id] });
        bar.append(svg('title', {}, `${p.name}: ${Math.round(ops).toLocaleString('en-US')} ops/s (${fmtUs(r.peers[p.id].us)} µs)`));
        root.append(bar);
        const label = `${Math.round(ops).toLocaleString('en-US')}${p.id === 'ours' ? '' : `  (${r.ratio[p.id].toFixed(1)}×)`}`;
        root.append(svg('text', { x: labelW + w + 5, y: y + barH - 2.5, class: p.id === 'ours' ? '' : 'muted' }, label));
        y += barH + barGap;
      }
      y += groupGap - barGap;
    }
    root.append(svg('line', { x1: labelW - 0.5, x2: labelW - 0.5, y1: top - 3, y2: y - groupGap + 3, stroke: '#9aa3b2' }));
    y += panelGap - groupGap;
  }
  root.setAttribute('viewBox', `0 0 ${W} ${y}`);
  $('chart').replaceChildren(root);
  const legend = $('chart-legend');
  legend.replaceChildren();
  peers.forEach((p) => {
    legend.append(el('span', { class: 'swatch', style: `background:${COLORS[p.id]}` }), `${p.id === 'ours' ? 'mldsa-simd (ours)' : p.name}\u2003`);
  });
  legend.append('(n×): the peer takes n times as long as ours; each operation has its own scale.');
}

function renderNotes(peers, problems, seconds) {
  const notes = $('notes');
  notes.replaceChildren();
  notes.append(el('li', {}, `Method: ${METHOD}.`));
  notes.append(
    el(
      'li',
      {},
      `Ratio = peer µs / ours µs (above 1: ours is faster). ${quick ? 'Quick run (?quick): few rounds and 16 signing messages; not representative. ' : ''}Finished in ${seconds.toFixed(1)} s.`,
    ),
  );
  const signs = state.results.filter((r) => r.op === 'sign' && r.messages);
  if (signs.length)
    notes.append(el('li', {}, `Signing messages: ${signs.map((r) => `${r.messages.source} (${r.messages.count} of ${r.messages.of})`).join(', ')}.`));
  for (const p of peers) if (p.note) notes.append(el('li', {}, p.note));
  const native = state.peers.native;
  notes.append(
    el(
      'li',
      {},
      native
        ? `This browser has ML-DSA in WebCrypto (${native.sets.map((s) => `ML-DSA-${s}`).join(', ')}); context strings ${native.context ? 'supported' : 'not supported'}.`
        : 'This browser has no ML-DSA in WebCrypto.',
    ),
  );
  notes.append(el('li', {}, 'node:crypto (OpenSSL) is a peer in `npm run bench` only.'));
  for (const p of problems) notes.append(el('li', { class: 'warn' }, `WARNING: ${p}`));
  const json = {
    date: new Date().toISOString(),
    quick,
    userAgent: navigator.userAgent,
    simd,
    crossOriginIsolated,
    cpus: navigator.hardwareConcurrency,
    peers: state.peers,
    method: METHOD,
    seconds,
    problems,
    results: state.results,
  };
  const link = el(
    'a',
    {
      href: URL.createObjectURL(new Blob([JSON.stringify(json, null, 2) + '\n'], { type: 'application/json' })),
      download: `mldsa-simd-bench-${quick ? 'quick-' : ''}browser.json`,
    },
    'these results as JSON',
  );
  notes.append(el('li', {}, 'Download ', link, ' (the format of bench-js/results.json).'));
}

// ------------------------------------------------------------------ run
async function main() {
  $('mode').textContent = quick ? 'Quick run (few rounds).' : 'Full run (one to two minutes; ?quick for a short one).';
  const peers = [];
  for (const p of PEERS) {
    try {
      const loaded = await p.load();
      if (!loaded) continue; // (no native ML-DSA: said in the notes, not a problem)
      const { version: v, impl, ...about } = loaded;
      peers.push({ ...p, version: v, impl });
      state.peers[p.id] = { name: p.name, version: v, ...about };
    } catch (e) {
      if (p.id === 'ours') throw e;
      state.problems.push(`peer ${p.id} not loaded: ${e && e.message}`);
    }
  }
  showEnv(peers);
  state.state = 'running';
  const t0 = performance.now();
  const progress = $('progress');
  const status = $('status');
  const { results, problems } = await runBench({
    peers,
    sets: SETS,
    ops: OPS,
    budgets: quick ? BUDGETS.quick : BUDGETS.full,
    messagesFor,
    onRow: (entry) => state.results.push(entry),
    onProgress: ({ done, total, label }) => {
      progress.value = done / total;
      status.textContent = `${label} — ${Math.floor(done)} of ${total} measurements done, ${((performance.now() - t0) / 1000).toFixed(0)} s`;
    },
  });
  state.problems.push(...problems);
  state.seconds = (performance.now() - t0) / 1000;
  $('progress-box').hidden = true;
  $('results').hidden = false;
  renderChart(results, peers);
  renderTable(results, peers);
  renderNotes(peers, state.problems, state.seconds);
  state.state = 'done';
}

main().catch((e) => {
  state.state = 'error';
  state.error = String((e && e.stack) || e);
  $('status').replaceChildren(el('span', { class: 'error' }, `ERROR: ${state.error}`));
});
