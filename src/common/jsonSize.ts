// The size of a string once it is a JSON string literal in a JSON-RPC message, computed without
// building it: what counts against the 32 MiB message limit of the ACP SDK. Escapes make it larger
// than the text's UTF-8 size: a control character costs up to 6 bytes (binary output decoded as
// text comes to about 2.4 times its raw size), a lone surrogate 6.

/** UTF-8 bytes of JSON.stringify(s), quotes included. */
export function jsonStringBytes(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const b = unitBytes(s, i);
    if (b > 0) n += b; else { n += 4; i++; }
  }
  return n;
}

/**
 * The longest tail of `s` whose JSON literal is at most `maxBytes` (never a cut surrogate pair),
 * and whether anything was cut.
 */
export function fitJsonTail(s: string, maxBytes: number): { text: string; cut: boolean } {
  // Every UTF-16 unit costs at most 6 bytes: short texts need no scan.
  if (s.length * 6 + 2 <= maxBytes) return { text: s, cut: false };
  let n = 2;
  let i = s.length;
  while (i > 0) {
    const c = s.charCodeAt(i - 1);
    // A low surrogate with its high one before it: the pair is 4 bytes, taken whole.
    const pair = c >= 0xdc00 && c <= 0xdfff && i >= 2 && isHigh(s.charCodeAt(i - 2));
    const cost = pair ? 4 : unitBytes(s, i - 1);
    if (n + cost > maxBytes) break;
    n += cost;
    i -= pair ? 2 : 1;
  }
  return i === 0 ? { text: s, cut: false } : { text: s.slice(i), cut: true };
}

/** Whether `s` as a JSON literal exceeds `maxBytes` (stops counting once it does). */
export function jsonExceeds(s: string, maxBytes: number): boolean {
  if (s.length * 6 + 2 <= maxBytes) return false;
  if (s.length + 2 > maxBytes) return true;
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const b = unitBytes(s, i);
    if (b > 0) n += b; else { n += 4; i++; }
    if (n > maxBytes) return true;
  }
  return false;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** Bytes of the unit at i as JSON; 0 when it starts a valid surrogate pair (4 bytes for both). */
function unitBytes(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0x80) {
    if (c === 0x22 || c === 0x5c) return 2;
    if (c >= 0x20) return 1;
    return c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
  }
  if (c < 0x800) return 2;
  if (isHigh(c)) {
    const d = s.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 0 : 6;
  }
  if (c >= 0xdc00 && c <= 0xdfff) return 6; // lone low surrogate: escaped
  return 3;
}
