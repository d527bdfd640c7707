// Lines an agent writes to its stdout that are not JSON-RPC messages: a stray `console.log`, a
// banner, a debugger's "Debugger attached.". The SDK answers each with -32700 and goes on; the user
// must still hear of it (the agent may be misconfigured, or printing what it meant to tell them).
// Found without parsing: a message line starts with `{` (or `[`, a batch the SDK refuses), so a line
// starting with anything else is stray. Costs one scan of the bytes, no JSON parse.

const MAX_LINE_CHARS = 200;
const decoder = new TextDecoder();

export class StrayLines {
  /** At the start of a line (after a newline), and what of a stray line has been seen so far. */
  private atStart = true;
  private stray: string | undefined;

  /** Feeds stdout bytes in order; returns the stray lines that ended in them (each cut to 200 chars). */
  push(chunk: Uint8Array): string[] {
    const found: string[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.atStart) {
        const b = chunk[i];
        if (b === 0x20 || b === 0x09 || b === 0x0d) { i++; continue; } // leading blanks
        if (b === 0x0a) { i++; continue; } // an empty line
        this.atStart = false;
        if (b !== 0x7b && b !== 0x5b) this.stray = '';
      }
      const nl = chunk.indexOf(0x0a, i);
      const end = nl < 0 ? chunk.length : nl;
      if (this.stray !== undefined && this.stray.length < MAX_LINE_CHARS * 4) {
        this.stray += decoder.decode(chunk.subarray(i, Math.min(end, i + MAX_LINE_CHARS * 4)));
      }
      if (nl < 0) break;
      if (this.stray !== undefined) found.push(cut(this.stray));
      this.stray = undefined;
      this.atStart = true;
      i = nl + 1;
    }
    return found;
  }
}

function cut(line: string): string {
  const text = line.replace(/\r$/, '').trim();
  return text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) + '…' : text;
}
