// Bidirectional-control characters in names the user must judge (file names, titles, commands):
// shown as visible escapes, so "report\u202Etxt.sh" can never pass for "reporths.txt".

/** Embeddings, overrides, isolates and the invisible direction marks. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with every bidirectional-control character replaced by `<U+XXXX>`. */
export function escapeBidi(text: string): string {
  return text.replace(BIDI, c => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}

export function hasBidi(text: string): boolean {
  BIDI.lastIndex = 0;
  return BIDI.test(text);
}

/** The file name of `filePath` (either separator), escaped: what titles, dialogs and lists show. */
export function fileLabel(filePath: string): string {
  return escapeBidi(filePath.split(/[\\/]/).pop() || filePath);
}
