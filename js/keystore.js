/**
 * mldsa-simd/keystore: CryptoKeys (and CryptoKeyPairs) kept by name in the
 * browser's IndexedDB, so that a page finds them again after a reload.
 *
 * A platform CryptoKey (any algorithm, native ML-DSA included) is stored as
 * it is: IndexedDB clones it, as browsers clone CryptoKeys. A key of
 * mldsa-simd/webcrypto cannot be cloned: it is stored as the record of
 * ./webcrypto.js's sealKey (a private key's seed encrypted with AES-GCM),
 * under one non-extractable AES-GCM key made for the database at its first
 * need and kept in it, with the record's name bound to it; loadKey opens it
 * with unsealKey. Where there is no IndexedDB (Node), every function
 * rejects with a NotSupportedError.
 * @module
 */
import { CryptoKey as OurCryptoKey, sealKey, unsealKey } from './webcrypto.js';

const DEFAULT_DATABASE = 'mldsa-simd-keystore';
// The object stores: the keys' entries by name; the wrapping key, under WRAPPING_ID.
const KEYS = 'keys';
const WRAPPING = 'wrapping';
const WRAPPING_ID = 'AES-GCM';
const ENTRY_VERSION = 1;

// The platform's, as they were at load (install() of mldsa-simd/webcrypto passes AES-GCM on to them anyway).
const platformSubtle = globalThis.crypto?.subtle;
const platformGenerateKey = globalThis.SubtleCrypto?.prototype.generateKey;
const platformKeyType = globalThis.CryptoKey && Object.getOwnPropertyDescriptor(globalThis.CryptoKey.prototype, 'type')?.get;

const DOMExceptionCtor = globalThis.DOMException;
function fail(name, message, cause) {
  const e = new DOMExceptionCtor(message, name);
  if (cause !== undefined) Object.defineProperty(e, 'cause', { value: cause, writable: true, configurable: true });
  return e;
}

/** Whether `key` is a CryptoKey of the platform (its own getters answer for it). */
function isPlatformKey(key) {
  if (!platformKeyType || key === null || typeof key !== 'object') return false;
  try {
    Reflect.apply(platformKeyType, key, []);
    return true;
  } catch {
    return false;
  }
}
const isKey = (key) => isPlatformKey(key) || key instanceof OurCryptoKey;

function readName(name, op) {
  if (typeof name !== 'string') throw new TypeError(`${op}: name: expected a string`);
  return name;
}

function readDatabase(options, op) {
  if (options === undefined) return DEFAULT_DATABASE;
  if (options === null || typeof options !== 'object') throw new TypeError(`${op}: options: expected an object`);
  const { database = DEFAULT_DATABASE } = options;
  if (typeof database !== 'string') throw new TypeError(`${op}: options.database: expected a string`);
  return database;
}

function indexedDb(op) {
  const factory = globalThis.indexedDB;
  if (!factory) throw fail('NotSupportedError', `${op}: there is no IndexedDB here (mldsa-simd/keystore keeps keys in a browser's IndexedDB)`);
  return factory;
}

/** The result of an IDBRequest, as a promise. */
const settled = (request) =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** The keystore database `name`, made (with its two object stores) if it does not exist. */
async function open(name, op) {
  const request = indexedDb(op).open(name);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const store of [KEYS, WRAPPING]) if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
  };
  const db = await settled(request);
  // Another page's upgrade of the database waits for no one.
  db.onversionchange = () => db.close();
  if (!db.objectStoreNames.contains(KEYS) || !db.objectStoreNames.contains(WRAPPING)) {
    db.close();
    throw fail('NotSupportedError', `${op}: the IndexedDB database "${name}" is not a keystore of mldsa-simd (give options.database another name)`);
  }
  return db;
}

/** Runs `work(store, setResult)` in one transaction on `storeName`; resolves to the result once the transaction is complete. */
function transaction(db, storeName, mode, work) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(storeName, mode);
    let result;
    tx.oncomplete = () => resolve(result);
    tx.onabort = () => reject(tx.error ?? fail('AbortError', 'keystore: the IndexedDB transaction was aborted'));
    try {
      work(tx.objectStore(storeName), (value) => (result = value));
    } catch (e) {
      try {
        tx.abort();
      } catch {}
      reject(e);
    }
  });
}

function get(db, storeName, id) {
  return transaction(db, storeName, 'readonly', (store, done) => {
    const request = store.get(id);
    request.onsuccess = () => done(request.result);
  });
}

/**
 * The database's wrapping key; made and stored if it has none and `make` is
 * set (two pages doing so at once keep the one stored first).
 */
async function wrappingKey(db, make) {
  const found = await get(db, WRAPPING, WRAPPING_ID);
  if (found !== undefined || !make) return found;
  if (!platformGenerateKey || !platformSubtle) throw fail('NotSupportedError', 'saveKey: this platform has no crypto.subtle');
  const made = await Reflect.apply(platformGenerateKey, platformSubtle, [{ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']]);
  return transaction(db, WRAPPING, 'readwrite', (store, done) => {
    const request = store.get(WRAPPING_ID);
    request.onsuccess = () => {
      if (request.result !== undefined) return done(request.result);
      store.add(made, WRAPPING_ID);
      done(made);
    };
  });
}

// An entry: { version, key } for a key, { version, publicKey, privateKey }
// for a pair; each part { key } (a platform CryptoKey) or { sealed } (a
// record of sealKey, with the label below).
const SLOTS = ['key', 'publicKey', 'privateKey'];
const label = (name, slot) => JSON.stringify([name, slot]);

/**
 * Saves `keyOrPair` (a CryptoKey, or a CryptoKeyPair { publicKey, privateKey })
 * as `name` in the database (options.database, default "mldsa-simd-keystore"),
 * replacing what was saved under that name.
 */
export async function saveKey(name, keyOrPair, options) {
  const op = 'saveKey';
  const id = readName(name, op);
  const database = readDatabase(options, op);
  let parts;
  if (isKey(keyOrPair)) parts = { key: keyOrPair };
  else if (keyOrPair !== null && typeof keyOrPair === 'object') {
    const { publicKey, privateKey } = keyOrPair; // each member read once
    if (isKey(publicKey) && isKey(privateKey)) parts = { publicKey, privateKey };
  }
  if (!parts) throw new TypeError(`${op}: keyOrPair: expected a CryptoKey or a CryptoKeyPair`);
  const db = await open(database, op);
  try {
    const sealing = Object.values(parts).some((key) => !isPlatformKey(key));
    const wrapping = sealing ? await wrappingKey(db, true) : undefined;
    const entry = { version: ENTRY_VERSION };
    for (const [slot, key] of Object.entries(parts)) entry[slot] = isPlatformKey(key) ? { key } : { sealed: await sealKey(key, wrapping, label(id, slot)) };
    await transaction(db, KEYS, 'readwrite', (store) => store.put(entry, id));
  } finally {
    db.close();
  }
}

/**
 * The key or pair saved as `name`, as it was saved (type, algorithm,
 * extractability, usages), or undefined if there is none. An entry altered
 * in storage is a DataError.
 */
export async function loadKey(name, options) {
  const op = 'loadKey';
  const id = readName(name, op);
  const database = readDatabase(options, op);
  const db = await open(database, op);
  try {
    const entry = await get(db, KEYS, id);
    if (entry === undefined) return undefined;
    const bad = () => fail('DataError', `${op}: the entry "${id}" is not as saveKey writes it`);
    if (entry === null || typeof entry !== 'object' || entry.version !== ENTRY_VERSION) throw bad();
    const slots = SLOTS.filter((slot) => entry[slot] !== undefined);
    if (slots.join() !== 'key' && slots.join() !== 'publicKey,privateKey') throw bad();
    const part = (slot) => entry[slot];
    if (slots.some((slot) => part(slot) === null || typeof part(slot) !== 'object')) throw bad();
    const sealing = slots.some((slot) => part(slot).key === undefined);
    const wrapping = sealing ? await wrappingKey(db, false) : undefined;
    if (sealing && wrapping === undefined) throw fail('DataError', `${op}: the key that "${id}" is sealed under is missing from the database`);
    const out = {};
    for (const slot of slots) {
      const { key, sealed } = part(slot);
      if (key !== undefined) {
        if (!isPlatformKey(key)) throw bad();
        out[slot] = key;
      } else out[slot] = await unsealKey(sealed, wrapping, label(id, slot));
    }
    return slots[0] === 'key' ? out.key : out;
  } finally {
    db.close();
  }
}

/** Deletes the key or pair saved as `name`; resolves to whether there was one. */
export async function deleteKey(name, options) {
  const op = 'deleteKey';
  const id = readName(name, op);
  const database = readDatabase(options, op);
  const db = await open(database, op);
  try {
    return await transaction(db, KEYS, 'readwrite', (store, done) => {
      const request = store.count(id);
      request.onsuccess = () => {
        done(request.result > 0);
        store.delete(id);
      };
    });
  } finally {
    db.close();
  }
}
