// Agents often write `\n` text back into a file that uses `\r\n`. The editor would convert the
// inserted text to the document's line ending anyway; doing it before diffing and merging keeps
// every line from looking changed.

/** `content` with `\n` turned into `\r\n` when `reference` uses CRLF and `content` has no `\r` at all. */
export function matchLineEndings(content: string, reference: string): string {
  if (content.includes('\r') || !reference.includes('\r\n')) return content;
  const crlf = reference.split('\r\n').length - 1;
  const lf = reference.split('\n').length - 1 - crlf;
  return crlf > lf ? content.replace(/\n/g, '\r\n') : content;
}
