/** Typed arrays that grow by doubling; the caller keeps the used length. */

export function ensureInt32(array: Int32Array<ArrayBuffer>, minLength: number): Int32Array<ArrayBuffer> {
  if (array.length >= minLength) return array;
  const grown = new Int32Array(Math.max(minLength, array.length * 2, 8));
  grown.set(array);
  return grown;
}

export function ensureUint8(array: Uint8Array<ArrayBuffer>, minLength: number): Uint8Array<ArrayBuffer> {
  if (array.length >= minLength) return array;
  const grown = new Uint8Array(Math.max(minLength, array.length * 2, 8));
  grown.set(array);
  return grown;
}

export function ensureFloat32(array: Float32Array<ArrayBuffer>, minLength: number): Float32Array<ArrayBuffer> {
  if (array.length >= minLength) return array;
  const grown = new Float32Array(Math.max(minLength, array.length * 2, 8));
  grown.set(array);
  return grown;
}
