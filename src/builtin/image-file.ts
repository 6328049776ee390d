/**
 * Images Read can hand back as image blocks. The type is decided by the file's first bytes, not its
 * name, so a text file called `notes.png` is read as text and a PNG called `logo` is still an image.
 */

/**
 * Largest image returned. Provider APIs take about 5 MB of base64 per image; base64 grows data by a
 * third, so 3.75 MB of file is the most that fits.
 */
export const MAX_IMAGE_BYTES = 3_750_000;

const SIGNATURES: ReadonlyArray<{ mimeType: string; matches: (bytes: Uint8Array) => boolean }> = [
  { mimeType: "image/png", matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: "image/jpeg", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mimeType: "image/gif", matches: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    mimeType: "image/webp",
    matches: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

/** The MIME type of an image format the model can see, or undefined. */
export function sniffImageType(head: Uint8Array): string | undefined {
  return SIGNATURES.find((signature) => signature.matches(head))?.mimeType;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((byte, index) => bytes[index] === byte);
}
