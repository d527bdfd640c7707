// A terminal needs `\r\n` to start the next line at column 0; commands mostly print `\n`. Converts
// each bare `\n`, leaves existing `\r\n` alone, including a `\r` and `\n` split across two chunks.

export class CrlfNormalizer {
  private lastWasCr = false;

  convert(text: string): string {
    if (text.length === 0) return text;
    let out = text.indexOf('\n') < 0 ? text : text.replace(/(?<!\r)\n/g, '\r\n');
    // The previous chunk ended with `\r`: its `\n` is already part of a `\r\n`.
    if (this.lastWasCr && text.charCodeAt(0) === 10) out = out.slice(1);
    this.lastWasCr = text.charCodeAt(text.length - 1) === 13;
    return out;
  }

  /** Forget the previous chunk (after output was skipped). */
  reset(): void {
    this.lastWasCr = false;
  }
}
