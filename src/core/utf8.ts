/** UTF-8 decoding for the core's byte readers (snapshot pickles, safetensors headers). */

/**
 * UTF-8 text of bytes[start, end), decoded here (src/core has no TextDecoder); the caller has checked
 * that `end` ≤ bytes.length. A 3-byte form of a lone surrogate is kept as that UTF-16 code unit, as
 * Python's 'surrogatepass' handler writes pickled str (Lib/pickle.py save_str); any other malformed
 * sequence becomes U+FFFD. Linear in the span.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  // short ASCII (keys, actions, file names): one char per byte, no code-unit buffer
  if (end - start <= 64) {
    let ascii = '';
    let i = start;
    for (; i < end && bytes[i]! < 0x80; i++) ascii += String.fromCharCode(bytes[i]!);
    if (i === end) return ascii;
  }
  let out = '';
  const units: number[] = [];
  let i = start;
  // every index read is below `end`, which the caller checked against bytes.length
  while (i < end) {
    const c = bytes[i]!;
    let cp = 0xfffd;
    let len = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c < 0xe0 && i + 1 < end && (bytes[i + 1]! & 0xc0) === 0x80) {
      cp = ((c & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      len = 2;
    } else if (c >= 0xe0 && c < 0xf0 && i + 2 < end && (bytes[i + 1]! & 0xc0) === 0x80 && (bytes[i + 2]! & 0xc0) === 0x80) {
      const v = ((c & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      if (v >= 0x800) [cp, len] = [v, 3];
    } else if (c >= 0xf0 && c < 0xf5 && i + 3 < end && (bytes[i + 1]! & 0xc0) === 0x80 && (bytes[i + 2]! & 0xc0) === 0x80 && (bytes[i + 3]! & 0xc0) === 0x80) {
      const v = ((c & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f);
      if (v >= 0x10000 && v <= 0x10ffff) [cp, len] = [v, 4];
    }
    if (cp >= 0x10000) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    else units.push(cp);
    i += len;
    if (units.length >= 8192) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return out + String.fromCharCode(...units);
}
