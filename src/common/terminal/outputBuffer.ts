// The output an agent reads back through `terminal/output`: at most `limit` bytes, the oldest
// dropped first. A ring buffer that grows (by doubling) up to the limit and never beyond it, so
// memory is bounded by the limit whatever the command prints, and each push costs one copy of the
// chunk (no concatenation of the whole stream). Text is decoded on read, starting on a UTF-8
// character boundary when bytes were dropped, and holding back an incomplete last character while
// the command may still finish it.

const MIN_CAPACITY = 4096;

export class OutputBuffer {
  private ring: Uint8Array = new Uint8Array(0);
  private start = 0;
  private length = 0;
  private droppedBytes = 0;
  private totalBytes = 0;

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`Invalid output limit: ${limit}`);
  }

  /** Bytes ever pushed. */
  get total(): number {
    return this.totalBytes;
  }

  /** Bytes dropped from the front to stay within the limit. */
  get dropped(): number {
    return this.droppedBytes;
  }

  /** Bytes currently kept (≤ limit). */
  get size(): number {
    return this.length;
  }

  /** Bytes allocated (≤ limit): what this buffer costs in memory. */
  get capacity(): number {
    return this.ring.length;
  }

  get truncated(): boolean {
    return this.droppedBytes > 0;
  }

  push(chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    this.totalBytes += n;
    const limit = this.limit;
    if (n >= limit) {
      // The chunk alone fills the limit: keep its last `limit` bytes.
      this.droppedBytes += this.length + n - limit;
      if (limit === 0) return;
      if (this.ring.length < limit) this.ring = new Uint8Array(limit);
      this.ring.set(chunk.subarray(n - limit), 0);
      this.start = 0;
      this.length = limit;
      return;
    }
    const needed = this.length + n;
    if (needed > this.ring.length && this.ring.length < limit) this.grow(Math.min(limit, needed));
    const cap = this.ring.length;
    const overflow = this.length + n - cap;
    if (overflow > 0) {
      this.start = (this.start + overflow) % cap;
      this.length -= overflow;
      this.droppedBytes += overflow;
    }
    const at = (this.start + this.length) % cap;
    const first = Math.min(n, cap - at);
    this.ring.set(first === n ? chunk : chunk.subarray(0, first), at);
    if (first < n) this.ring.set(chunk.subarray(first), 0);
    this.length += n;
  }

  /** The kept bytes, oldest first (a copy). */
  bytes(): Uint8Array {
    return this.lastBytes(this.length);
  }

  /**
   * The kept output as text. `complete`: the command has exited, so an unfinished last character
   * is decoded (as U+FFFD) rather than held back for the bytes still to come.
   */
  text(complete: boolean): string {
    return decodeFrom(this.bytes(), this.truncated, complete);
  }

  /** The last (at most) `maxBytes` bytes as text, starting on a character boundary. */
  tail(maxBytes: number, complete = true): string {
    const n = Math.max(0, Math.min(this.length, Math.floor(maxBytes)));
    return decodeFrom(this.lastBytes(n), this.truncated || n < this.length, complete);
  }

  /** A buffer of at most `limit` bytes holding this one's last bytes (on a character boundary), counts carried over. */
  keepLast(limit: number): OutputBuffer {
    const out = new OutputBuffer(limit);
    const n = Math.min(this.length, limit);
    const bytes = this.lastBytes(n);
    const from = n < this.length ? charStart(bytes) : 0;
    out.push(bytes.subarray(from));
    out.totalBytes = this.totalBytes;
    out.droppedBytes = this.totalBytes - out.length;
    return out;
  }

  private lastBytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    if (n === 0) return out;
    const cap = this.ring.length;
    const from = (this.start + this.length - n) % cap;
    const first = Math.min(n, cap - from);
    out.set(this.ring.subarray(from, from + first), 0);
    if (first < n) out.set(this.ring.subarray(0, n - first), first);
    return out;
  }

  private grow(atLeast: number): void {
    const cap = Math.min(this.limit, Math.max(atLeast, this.ring.length * 2, MIN_CAPACITY));
    const next = new Uint8Array(cap);
    next.set(this.bytes(), 0);
    this.ring = next;
    this.start = 0;
  }
}

const decoder = new TextDecoder('utf-8');

function decodeFrom(bytes: Uint8Array, cutAtStart: boolean, complete: boolean): string {
  const from = cutAtStart ? charStart(bytes) : 0;
  const to = complete ? bytes.length : bytes.length - incompleteTail(bytes);
  return from >= to ? '' : decoder.decode(bytes.subarray(from, to));
}

const isContinuation = (b: number) => (b & 0xc0) === 0x80;

/** Offset of the first character boundary: skips at most 3 continuation bytes of a cut character. */
export function charStart(bytes: Uint8Array): number {
  let i = 0;
  while (i < 3 && i < bytes.length && isContinuation(bytes[i])) i++;
  return i < bytes.length && isContinuation(bytes[i]) ? 0 : i; // not UTF-8 anyway: cut nothing
}

/** Length of an unfinished multi-byte sequence at the end (0 when the last character is whole). */
export function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back];
    if (isContinuation(b)) continue;
    const need = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
