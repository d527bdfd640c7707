// Decides whether file bytes are text the agent can read: UTF-8 without NUL bytes. A NUL byte is
// the usual sign of a binary file (or UTF-16, which we do not serve either).
import { isUtf8 } from 'node:buffer';

export type DecodeResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'binary' | 'encoding' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 strictly. A leading BOM is dropped, as editors do. Validation uses Buffer's
 * isUtf8 (simdutf) and then a plain decode: on Node 20 that is ~2x faster for 5 MB than a fatal
 * TextDecoder, which remains the fallback.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  if (bytes.indexOf(0) !== -1) return { ok: false, reason: 'binary' };
  if (typeof isUtf8 === 'function') {
    if (!isUtf8(bytes)) return { ok: false, reason: 'encoding' };
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  }
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'encoding' };
  }
}
