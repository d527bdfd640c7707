// What is waiting to be shown in the integrated terminal. A Pseudoterminal has no flow control, so a
// flood (100 MB of build log) must not be queued for the renderer: at most `cap` bytes wait, the
// oldest are skipped, and the consumer is told how many. After a skip the shown text resumes at the
// next line start (or at least a character boundary), so no half escape sequence or half character
// is rendered.
import { charStart } from './outputBuffer';

export interface MirrorBatch {
  /** Bytes to show, in order. */
  readonly data: Uint8Array;
  /** Bytes skipped before `data` since the last batch (0: `data` continues the previous batch). */
  readonly skipped: number;
}

const RESYNC_SEARCH = 4096;

export class MirrorQueue {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private skipped = 0;

  constructor(readonly cap: number) {}

  get pending(): number {
    return this.bytes;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (chunk.length >= this.cap) {
      this.skipped += this.bytes + chunk.length - this.cap;
      this.chunks = [chunk.subarray(chunk.length - this.cap)];
      this.bytes = this.cap;
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.cap) {
      const first = this.chunks[0];
      const over = this.bytes - this.cap;
      if (first.length <= over) {
        this.chunks.shift();
        this.bytes -= first.length;
        this.skipped += first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.bytes -= over;
        this.skipped += over;
      }
    }
  }

  /**
   * What is pending, as one batch: everything, or its last `maxBytes` (the older part counts as
   * skipped). Undefined when nothing is.
   */
  take(maxBytes = Infinity): MirrorBatch | undefined {
    if (this.bytes === 0 && this.skipped === 0) return undefined;
    let data = this.chunks.length === 1 ? this.chunks[0] : concat(this.chunks, this.bytes);
    let skipped = this.skipped;
    if (data.length > maxBytes) {
      skipped += data.length - maxBytes;
      data = data.subarray(data.length - maxBytes);
    }
    if (skipped > 0) {
      const nl = data.subarray(0, RESYNC_SEARCH).indexOf(10);
      const from = nl >= 0 ? nl + 1 : charStart(data);
      skipped += from;
      data = data.subarray(from);
    }
    this.chunks = [];
    this.bytes = 0;
    this.skipped = 0;
    return { data, skipped };
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** "12.3 MB" for the skip marker. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
