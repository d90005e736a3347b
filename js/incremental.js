/**
 * The objects of createSign() and createVerify(): update() until sign() or
 * verify(), then finished; and the registry that wipes the key copy of a
 * createSign() object dropped before it signed.
 * @module
 */
import { apply, u8Fill, freeze, FR, readBytes } from './boundary.js';

/**
 * An incremental object (createSign/createVerify): `update(chunk)` reads the
 * chunk and feeds it to `update`; `name(arg)` (sign or verify) reads `arg` with
 * `read`, then finishes the object and returns `finish(read's result)`. A
 * finished object throws Error, and so does a call made from inside another
 * call on the same object (from a caller's hash function). `close` (which
 * wipes a key copy) runs when the object finishes, by its method or by an
 * update that failed half-way.
 */
function incremental(what, update, name, read, finish, close) {
  let finished; // why, once finished
  let busy = false;
  const enter = (method) => {
    if (busy) throw new Error(`${what}: ${method}() called during another call on this object`);
    if (finished) throw new Error(`${what}: ${method}() on a finished object (${finished}); create a new one`);
  };
  const object = freeze({
    update(chunk) {
      const bytes = readBytes(chunk, 'chunk');
      enter('update');
      busy = true;
      try {
        update(bytes);
      } catch (e) {
        finished = 'an update failed';
        close?.();
        throw e;
      } finally {
        busy = false;
      }
      return object;
    },
    [name](arg) {
      const input = read(arg);
      enter(name);
      finished = `${name}() was called`;
      try {
        return finish(input);
      } finally {
        close?.();
      }
    },
  });
  return object;
}

// Wipes the secret-key copy of a createSign() object dropped before sign().
const wipeDropped = typeof FR === 'function' ? new FR((bytes) => apply(u8Fill, bytes, [0])) : undefined;

export { incremental, wipeDropped };
