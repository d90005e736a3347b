// Hostile byte arguments, shared by hostile.test.mjs and soak.test.mjs.
//
// A hostile argument is a Uint8Array that lies (a subclass whose length, byteLength,
// byteOffset, buffer, subarray, slice, set or iterator says something else than its
// contents), one whose buffer changes under the call (resizable, detachable), or
// something that only looks like one (a Proxy). What the package must do with it:
// throw a TypeError/RangeError naming the argument, or compute on its REAL bytes,
// which are what the intrinsic %TypedArray%.prototype getters report. realBytes()
// reads them the same way, so that the expected result is computed on a plain copy.
import vm from 'node:vm';

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const getBuffer = intrinsic('buffer');
const getByteOffset = intrinsic('byteOffset');
const getByteLength = intrinsic('byteLength');
const getTag = intrinsic(Symbol.toStringTag);

/** True for a real Uint8Array of any realm (a Proxy or another typed array is not one). */
export const isRealUint8Array = (x) => getTag.call(x) === 'Uint8Array';

/** A plain copy of the bytes the intrinsic getters see now, or null for a non-Uint8Array. */
export function realBytes(x) {
  if (!isRealUint8Array(x)) return null;
  const n = getByteLength.call(x); // 0 when detached or out of bounds
  const out = new Uint8Array(n);
  if (n) out.set(new Uint8Array(getBuffer.call(x), getByteOffset.call(x), n));
  return out;
}

export const HAS_RESIZABLE = typeof ArrayBuffer.prototype.resize === 'function';
export const HAS_GROWABLE_SAB = typeof SharedArrayBuffer === 'function' && typeof SharedArrayBuffer.prototype.grow === 'function';

/** Detaches an ArrayBuffer (ArrayBuffer.prototype.transfer where it exists, else structuredClone). */
export function detach(buffer) {
  if (typeof buffer.transfer === 'function') buffer.transfer();
  else structuredClone(buffer, { transfer: [buffer] });
}

const junk = (n, seed) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (seed * 131 + i * 197 + 89) & 0xff;
  return out;
};
const concatBytes = (...parts) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

// ---------------------------------------------------------------- lying subclasses

/** An instance of a fresh Uint8Array subclass holding `bytes`, whose class body is `define(cls)`. */
function subclassOf(bytes, define) {
  class Hostile extends Uint8Array {}
  define(Hostile.prototype, Hostile);
  const h = new Hostile(bytes.length);
  Uint8Array.prototype.set.call(h, bytes);
  return h;
}
const getterOn = (proto, key, get) => Object.defineProperty(proto, key, { get, configurable: true });
const methodOn = (proto, key, value) => Object.defineProperty(proto, key, { value, configurable: true, writable: true });

/** What a lying property reports instead of the truth `n`, "shorter" and "longer". */
const LIES = {
  shorter: (n) => (n > 1 ? n - 1 : 0),
  zero: () => 0,
  longer: (n) => n + 1,
  double: (n) => 2 * n + 16,
  huge: () => 2 ** 31,
};

// The cross-realm constructors (a vm context: what an iframe's arrays are to a page).
const realm = vm.createContext({});
const OtherUint8Array = vm.runInContext('Uint8Array', realm);
const otherRealmSubclass = vm.runInContext(
  `(bytes, fake) => { class Lie extends Uint8Array { get length() { return fake } } const h = new Lie(bytes.length); h.set(bytes); return h }`,
  realm,
);
const otherRealmProxy = vm.runInContext('(x) => new Proxy(x, {})', realm);

/**
 * Shapes that do not change under the call. Each is { name, kind, make(bytes) }:
 * make returns the hostile value built around `bytes`, and kind says what the
 * package may do with it:
 *   'real'      throw a TypeError/RangeError naming the argument, or compute on realBytes(value)
 *   'works'     compute on realBytes(value), like plain bytes (SharedArrayBuffer, other realms)
 *   'typeError' throw a TypeError naming the argument (it is not a Uint8Array at all)
 */
export function staticShapes() {
  const shapes = [];
  const add = (name, kind, make) => shapes.push({ name, kind, make });

  add('plain copy', 'works', (b) => b.slice());
  add('subarray at offset 7 of a larger buffer', 'works', (b) => {
    const big = junk(b.length + 23, 1);
    big.set(b, 7);
    return big.subarray(7, 7 + b.length);
  });
  add('Node Buffer', 'works', (b) => Buffer.from(b));
  add('SharedArrayBuffer view', 'works', (b) => {
    const v = new Uint8Array(new SharedArrayBuffer(b.length + 5), 5);
    v.set(b);
    return v;
  });
  if (HAS_GROWABLE_SAB)
    add('growable SharedArrayBuffer, length-tracking view', 'works', (b) => {
      const v = new Uint8Array(new SharedArrayBuffer(b.length, { maxByteLength: 2 * b.length + 64 }));
      v.set(b);
      return v;
    });
  add('other realm (vm) Uint8Array', 'works', (b) => {
    const v = new OtherUint8Array(b.length);
    v.set(b);
    return v;
  });
  add('other realm (vm) view on a SharedArrayBuffer', 'works', (b) => {
    const v = new OtherUint8Array(new SharedArrayBuffer(b.length));
    v.set(b);
    return v;
  });
  add('other realm (vm) subclass whose length lies (shorter)', 'real', (b) => otherRealmSubclass(b, LIES.shorter(b.length)));
  add('other realm (vm) subclass whose length lies (longer)', 'real', (b) => otherRealmSubclass(b, LIES.longer(b.length)));
  if (HAS_RESIZABLE) {
    add('fixed view on a resizable ArrayBuffer', 'real', (b) => {
      const v = new Uint8Array(new ArrayBuffer(b.length + 8, { maxByteLength: 2 * b.length + 64 }), 3, b.length);
      v.set(b);
      return v;
    });
    add('length-tracking view on a resizable ArrayBuffer', 'real', (b) => {
      const v = new Uint8Array(new ArrayBuffer(b.length, { maxByteLength: 2 * b.length + 64 }));
      v.set(b);
      return v;
    });
    add('view left out of bounds by a shrunk resizable ArrayBuffer', 'real', (b) => {
      const buf = new ArrayBuffer(b.length + 4, { maxByteLength: 2 * b.length + 64 });
      const v = new Uint8Array(buf, 4, b.length);
      v.set(b);
      buf.resize(2);
      return v;
    });
  }
  add('view of a detached ArrayBuffer', 'real', (b) => {
    const v = b.slice();
    detach(v.buffer);
    return v;
  });

  for (const [lie, f] of Object.entries(LIES)) {
    for (const key of ['length', 'byteLength'])
      add(`subclass whose ${key} lies (${lie})`, 'real', (b) => subclassOf(b, (p) => getterOn(p, key, () => f(b.length))));
    add(`own "length" property that lies (${lie})`, 'real', (b) => Object.defineProperty(b.slice(), 'length', { value: f(b.length) }));
  }
  add('subclass whose length is not a number', 'real', (b) => subclassOf(b, (p) => getterOn(p, 'length', () => '32')));
  for (const [lie, d] of [
    ['+1', 1],
    ['-1', -1],
    ['+16', 16],
  ])
    add(`subclass whose byteOffset lies (${lie})`, 'real', (b) => subclassOf(b, (p) => getterOn(p, 'byteOffset', () => 16 + d)));
  for (const [lie, n] of [
    ['shorter', (b) => b.length >> 1],
    ['longer', (b) => 2 * b.length + 32],
  ])
    add(`subclass whose buffer is another, ${lie} ArrayBuffer`, 'real', (b) => {
      const other = junk(n(b), 2).buffer;
      return subclassOf(b, (p) => getterOn(p, 'buffer', () => other));
    });
  for (const method of ['subarray', 'slice']) {
    add(`subclass whose ${method}() returns other bytes`, 'real', (b) => subclassOf(b, (p) => methodOn(p, method, () => junk(b.length, 3))));
    add(`subclass whose ${method}() returns fewer bytes`, 'real', (b) => subclassOf(b, (p) => methodOn(p, method, () => junk(b.length >> 1, 4))));
    add(`subclass whose ${method}() returns more bytes`, 'real', (b) => subclassOf(b, (p) => methodOn(p, method, () => junk(2 * b.length + 16, 5))));
  }
  add('subclass whose set() does nothing', 'real', (b) => subclassOf(b, (p) => methodOn(p, 'set', () => {})));
  add('subclass whose set() writes other bytes', 'real', (b) =>
    subclassOf(b, (p) =>
      methodOn(p, 'set', function (src, offset = 0) {
        Uint8Array.prototype.set.call(this, junk(Math.min(src.length ?? 0, this.byteLength - offset), 6), offset);
      }),
    ),
  );
  add('subclass whose iterator yields other bytes', 'real', (b) =>
    subclassOf(b, (p) =>
      methodOn(p, Symbol.iterator, function* () {
        yield* junk(b.length, 7);
      }),
    ),
  );
  add('subclass whose Symbol.species makes other bytes', 'real', (b) =>
    subclassOf(b, (p, cls) => {
      Object.defineProperty(cls, Symbol.species, {
        get: () =>
          class extends Uint8Array {
            constructor(n) {
              super(typeof n === 'number' ? n : 0);
              Uint8Array.prototype.set.call(this, junk(this.length, 8));
            }
          },
      });
    }),
  );
  add('subclass where every property lies at once', 'real', (b) =>
    subclassOf(b, (p) => {
      const other = junk(b.length + 40, 9);
      getterOn(p, 'length', () => b.length + 40);
      getterOn(p, 'byteLength', () => b.length + 40);
      getterOn(p, 'byteOffset', () => 0);
      getterOn(p, 'buffer', () => other.buffer);
      for (const m of ['subarray', 'slice']) methodOn(p, m, () => other);
    }),
  );
  // The contents are longer or shorter than the length the subclass reports, which
  // is the right length: the overflow/underfill that the wasm-bindgen glue suffers.
  add('subclass holding 48 more bytes than its length says', 'real', (b) => {
    const n = b.length;
    return subclassOf(concatBytes(b, junk(48, 10)), (p) => getterOn(p, 'length', () => n));
  });
  add('subclass holding 64 KiB more bytes than its length says', 'real', (b) => {
    const n = b.length;
    return subclassOf(concatBytes(b, junk(65536, 11)), (p) => getterOn(p, 'length', () => n));
  });
  add('subclass holding fewer bytes than its length says', 'real', (b) => {
    const n = b.length;
    return subclassOf(b.subarray(0, n >> 1), (p) => getterOn(p, 'length', () => n));
  });
  add('plain array with the prototype of a lying subclass', 'real', (b) => {
    const n = b.length;
    const v = concatBytes(b, junk(32, 12));
    const proto = Object.create(Uint8Array.prototype, { length: { get: () => n } });
    return Object.setPrototypeOf(v, proto);
  });

  add('Proxy around a Uint8Array', 'typeError', (b) => new Proxy(b.slice(), {}));
  add('Proxy whose get() lies about length', 'typeError', (b) => {
    const n = b.length;
    return new Proxy(concatBytes(b, junk(16, 13)), { get: (t, k) => (k === 'length' ? n : Reflect.get(t, k)) });
  });
  add('Proxy whose getPrototypeOf() says Uint8Array', 'typeError', (b) => new Proxy(b.slice(), { getPrototypeOf: () => Uint8Array.prototype }));
  add('other realm (vm) Proxy around a Uint8Array', 'typeError', (b) => otherRealmProxy(b.slice()));
  return shapes;
}

// ---------------------------------------------------------------- buffers that change under the call

/**
 * Mutable holders: { name, make(bytes) → { value, mutations } } where each mutation
 * is [name, fn] and fn changes the buffer under `value` (shrink, grow, detach,
 * overwrite with `other` bytes of the same length).
 */
export function mutableHolders() {
  const holders = [];
  const add = (name, make) => holders.push({ name, make });
  if (HAS_RESIZABLE) {
    add('fixed view on a resizable ArrayBuffer', (b, other) => {
      const buf = new ArrayBuffer(b.length, { maxByteLength: 2 * b.length + 64 });
      const value = new Uint8Array(buf, 0, b.length);
      value.set(b);
      return {
        value,
        mutations: [
          ['resize(0)', () => buf.resize(0)],
          ['shrink by one byte', () => buf.resize(Math.max(0, b.length - 1))],
          ['grow', () => buf.resize(buf.maxByteLength)],
          ['detach', () => detach(buf)],
          ['overwrite', () => value.set(other)],
        ],
      };
    });
    add('length-tracking view on a resizable ArrayBuffer', (b, other) => {
      const buf = new ArrayBuffer(b.length, { maxByteLength: 2 * b.length + 64 });
      const value = new Uint8Array(buf);
      value.set(b);
      return {
        value,
        mutations: [
          ['resize(0)', () => buf.resize(0)],
          ['shrink to half', () => buf.resize(b.length >> 1)],
          ['grow with zeros', () => buf.resize(buf.maxByteLength)],
          [
            'grow by 16 bytes of B',
            () => {
              buf.resize(b.length + 16);
              new Uint8Array(buf, b.length).set(other.subarray(0, 16));
            },
          ],
          ['detach', () => detach(buf)],
        ],
      };
    });
  }
  add('plain Uint8Array', (b, other) => {
    const value = b.slice();
    return {
      value,
      mutations: [
        ['detach', () => detach(value.buffer)],
        ['overwrite', () => value.set(other)],
      ],
    };
  });
  return holders;
}

/** A subclass on a resizable buffer whose own `trigger` (length getter, subarray, slice, set) runs `mutate` once. */
export const SELF_TRIGGERS = ['length', 'subarray', 'slice', 'set'];
export function selfMutating(value, trigger, mutate) {
  let fired = false;
  const once = () => {
    if (!fired) {
      fired = true;
      mutate();
    }
  };
  const proto = Object.create(Object.getPrototypeOf(value));
  if (trigger === 'length') {
    const realLength = intrinsic('length');
    Object.defineProperty(proto, 'length', {
      get() {
        once();
        return realLength.call(this);
      },
    });
  } else {
    const honest = Uint8Array.prototype[trigger];
    Object.defineProperty(proto, trigger, {
      value(...args) {
        once();
        return honest.apply(this, args);
      },
    });
  }
  return Object.setPrototypeOf(value, proto);
}

export { concatBytes, junk };
