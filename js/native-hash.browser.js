/**
 * ./native-hash.js for the browser entries: no platform SHAKE256 (browsers
 * have none that is synchronous), so long messages are hashed in wasm.
 * @module
 */
export const nativeShake256 = () => null;
export const nativeShake256Start = () => null;
