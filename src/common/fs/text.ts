// Decides whether file bytes are text the agent can read: UTF-8 without NUL bytes. A NUL byte is
// the usual sign of a binary file (or UTF-16, which we do not serve either).

export type DecodeResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: 'binary' | 'encoding' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly. A leading BOM is dropped, as editors do. */
export function decodeText(bytes: Uint8Array): DecodeResult {
  if (bytes.indexOf(0) !== -1) return { ok: false, reason: 'binary' };
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'encoding' };
  }
}
