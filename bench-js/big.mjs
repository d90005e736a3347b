import path from 'node:path';
import nodeCrypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { liboqsShaped, nobleShaped } from './core.mjs';
import { fixNodeRandom, nodeCryptoShaped } from './node-peer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opts = { rounds: 41, bytes: 1 << 20, sets: [44, 65, 87], before: null, pkg: path.join(root, 'pkg') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--rounds') opts.rounds = +argv[++i];
  else if (a === '--bytes') opts.bytes = +argv[++i];
  else if (a === '--sets') opts.sets = argv[++i].split(',').map(Number);
  else if (a === '--before') opts.before = path.resolve(argv[++i]);
  else if (a.startsWith('-')) throw new Error(`unknown argument ${a}`);
  else opts.pkg = path.resolve(a);
}

const load = async (dir) => nobleShaped(await import(pathToFileURL(path.join(dir, 'index.mjs')).href));
const peers = [{ id: 'ours', impl: await load(opts.pkg) }];
if (opts.before) peers.push({ id: 'before', impl: await load(opts.before) });
let hasNode = true;
try {
  nodeCrypto.generateKeyPairSync('ml-dsa-44');
  peers.push({ id: 'node', impl: nodeCryptoShaped() });
} catch {
  hasNode = false;
}
try {
  const oqs = await import('@oqs/liboqs-js/sig');
  const inst = { 44: await oqs.createMLDSA44(), 65: await oqs.createMLDSA65(), 87: await oqs.createMLDSA87() };
  peers.push({ id: 'liboqs', impl: liboqsShaped(inst, fixNodeRandom) });
} catch (e) {
  console.log(`liboqs-js not loaded: ${e.message}`);
}

const med = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const now = () => performance.now();
const msg = new Uint8Array(opts.bytes);
for (let i = 0; i < msg.length; i++) msg[i] = (i * 31 + (i >> 8)) & 0xff;

console.log(`${process.version}, ${opts.bytes} bytes, ${opts.rounds} rounds${hasNode ? '' : ' (no ML-DSA in node:crypto)'}`);
for (const set of opts.sets) {
  const seed = new Uint8Array(32).fill(set);
  const { publicKey, secretKey } = peers[0].impl(set).keygen(seed);
  const runs = peers.map((p) => {
    const im = p.impl(set);
    const sign = im.signer(secretKey);
    const verify = im.verifier(publicKey);
    const sig = sign(msg);
    if (!peers[0].impl(set).verifier(publicKey)(sig, msg) || !verify(sig, msg)) throw new Error(`${p.id} ${set}: bad signature`);
    return { id: p.id, sign: () => sign(msg), verify: () => verify(sig, msg), t: { sign: [], verify: [] } };
  });
  for (const r of runs) for (let k = 0; k < 3; k++) r.sign(), r.verify();
  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 ? [...runs].reverse() : runs;
    for (const op of ['sign', 'verify'])
      for (const r of order) {
        const t = now();
        r[op]();
        r.t[op].push(now() - t);
      }
  }
  for (const op of ['sign', 'verify']) {
    const ours = runs[0].t[op];
    const cells = runs.map((r) => {
      const ratio = med(r.t[op].map((t, i) => t / ours[i]));
      return `${r.id} ${med(r.t[op]).toFixed(2)} ms${r === runs[0] ? '' : ` (${ratio.toFixed(2)}×)`}`;
    });
    console.log(`ML-DSA-${set} ${op.padEnd(6)} ${cells.join('  ')}`);
  }
}
