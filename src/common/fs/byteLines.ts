// The `line`/`limit` window of a UTF-8 text read from its bytes (Node only: the webview bundle
// uses lines.ts). A line break is the same single byte in any UTF-8 text (`\r`, `\n`), never part
// of a multi-byte character, so the window is found in the bytes and only its lines are decoded.
import { lineWindow } from './lines';

/** sliceLines of the text whose UTF-8 bytes (valid, no BOM) are `body`, decoding only the window. */
export function sliceUtf8Lines(body: Uint8Array, line?: number | null, limit?: number | null): string {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if ((line ?? 1) <= 1 && limit == null) return buf.toString('utf8');
  const at = lineWindow(buf.length, byteLineStarts(buf), line, limit);
  return at ? buf.toString('utf8', at[0], at[1]) : '';
}

/** lineStarts for the bytes of a UTF-8 text (`\r` and `\n` are single bytes there). */
function byteLineStarts(buf: Buffer): (pos: number) => number {
  let cr = buf.indexOf(13);
  return pos => {
    if (cr !== -1 && cr < pos) cr = buf.indexOf(13, pos);
    const lf = buf.indexOf(10, pos);
    if (cr === -1 || (lf !== -1 && lf < cr)) return lf === -1 ? -1 : lf + 1;
    return buf[cr + 1] === 10 ? cr + 2 : cr + 1;
  };
}



/**
 * The same window as byte offsets in the first bytes of a UTF-8 text (`complete`: they are all of
 * it): 'more' while bytes not read yet could still change it; undefined when it is empty.
 */
export function utf8WindowIn(prefix: Uint8Array, complete: boolean, line?: number | null, limit?: number | null): [number, number] | undefined | 'more' {
  if (limit == null && !complete) return 'more';
  const buf = Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const at = lineWindow(buf.length, byteLineStarts(buf), line, limit);
  if (complete) return at;
  // Final once the window's last line break is inside what was read and followed by a byte (a
  // `\r` at the very end may be the first half of a `\r\n`; a window that reaches the end of what
  // was read, or is empty there, may change with the bytes after it).
  return at && at[1] < buf.length ? at : 'more';
}
