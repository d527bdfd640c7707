// Keeps the last N lines of a byte stream (the agent's stderr) in bounded memory, so a crash can be
// shown with its last words however much the agent logged before.

export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  /** `filter` rewrites each whole line before it is shown (secrets redacted). */
  constructor(private readonly maxLines = 20, private readonly maxLineChars = 500, private readonly filter: (line: string) => string = l => l) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop()!.slice(-this.maxLineChars * 2);
    for (const line of parts) this.keep(line);
  }

  /** The kept lines, including an unterminated last one. */
  text(): string {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.slice(-this.maxLines).map(this.filter).map(l => (l.length > this.maxLineChars ? l.slice(0, this.maxLineChars) + '…' : l)).join('\n');
  }

  private keep(line: string): void {
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
