/** Bytes decoded per slice (specification §9: "in chunks of size 512"). */
export const base64SliceSize = 512;

/**
 * Turns base64 text (optionally a `data:` URL) into a File with the given content type, decoding
 * with `atob` and copying 512 bytes at a time, so large images from a canvas or an API answer
 * become uploadable files without one huge intermediate array of numbers.
 */
export function base64ToFile(base64: string, contentType: string, name: string): File {
  const commaIndex = base64.indexOf(',');
  const payload = base64.startsWith('data:') && commaIndex !== -1 ? base64.slice(commaIndex + 1) : base64;
  const binary = atob(payload.replace(/\s+/g, ''));
  const slices: Uint8Array<ArrayBuffer>[] = [];
  for (let offset = 0; offset < binary.length; offset += base64SliceSize) {
    const slice = binary.slice(offset, offset + base64SliceSize);
    const bytes = new Uint8Array(slice.length);
    for (let index = 0; index < slice.length; index += 1) {
      bytes[index] = slice.charCodeAt(index);
    }
    slices.push(bytes);
  }
  return new File(slices, name, { type: contentType });
}
