// The output an agent reads back through `terminal/output`: at most `limit` bytes, the oldest
// dropped first. The chunks read from the command are kept by reference (no copy: a 100 MB flood
// through a 1 MB limit copied every byte into a ring before, the first cost of the extension host
// in bench/terminal), and dropped from the front as newer ones arrive, so memory stays within the
// limit plus one chunk whatever the command prints. Small chunks (a command writing a byte at a
// time) are copied into shared blocks, so they cost no per-chunk overhead either. Chunks must not
// be changed after push (pipe reads and Buffer.from never are). Text is decoded on read, starting
// on a UTF-8 character boundary when bytes were dropped, and holding back an incomplete last
// character while the command may still finish it.

/** Chunks smaller than this are copied into a block of BLOCK bytes (a block is shared by many). */
const SMALL = 1024;
const BLOCK = 4096;

export class OutputBuffer {
  /** Kept bytes, oldest first, from `head` on (views; the first may start inside its chunk). */
  private segs: Uint8Array[] = [];
  private head = 0;
  private length = 0;
  /** The block small chunks are copied into; the last segment is its used part when `lastInBlock`. */
  private block: Uint8Array | undefined;
  private blockUsed = 0;
  private lastInBlock = false;
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

  /** Bytes this buffer holds in memory: what it keeps, and the unused rest of its current block (≤ limit + BLOCK). */
  get capacity(): number {
    return this.length + (this.block && this.lastInBlock ? this.block.length - this.blockUsed : 0);
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
      this.segs = limit === 0 ? [] : [chunk.subarray(n - limit)];
      this.head = 0;
      this.length = limit;
      this.lastInBlock = false;
      return;
    }
    if (n >= SMALL) {
      this.segs.push(chunk);
      this.lastInBlock = false;
    } else {
      this.append(chunk);
    }
    this.length += n;
    this.trim();
  }

  /** Copies a small chunk into the current block (a new one when it is full), growing the last segment. */
  private append(chunk: Uint8Array): void {
    const n = chunk.length;
    let block = this.block;
    if (!block || !this.lastInBlock || this.blockUsed + n > block.length) {
      block = this.block = new Uint8Array(Math.max(n, Math.min(BLOCK, this.limit)));
      this.blockUsed = 0;
      this.segs.push(block.subarray(0, 0));
      this.lastInBlock = true;
    }
    block.set(chunk, this.blockUsed);
    const last = this.segs.length - 1;
    const from = this.blockUsed - this.segs[last].length;
    this.blockUsed += n;
    this.segs[last] = block.subarray(from, this.blockUsed);
  }

  /** Drops the oldest bytes beyond the limit. */
  private trim(): void {
    const segs = this.segs;
    while (this.length - segs[this.head].length >= this.limit) {
      this.length -= segs[this.head].length;
      this.droppedBytes += segs[this.head].length;
      segs[this.head++] = EMPTY;
    }
    const over = this.length - this.limit;
    if (over > 0) {
      segs[this.head] = segs[this.head].subarray(over);
      this.length -= over;
      this.droppedBytes += over;
    }
    if (this.head > 64 && this.head * 2 > segs.length) {
      this.segs = segs.slice(this.head);
      this.head = 0;
    }
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

  /** The last `n` kept bytes, copied into one array. */
  private lastBytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = n;
    for (let i = this.segs.length - 1; i >= this.head && at > 0; i--) {
      const seg = this.segs[i];
      const take = Math.min(seg.length, at);
      out.set(take === seg.length ? seg : seg.subarray(seg.length - take), at - take);
      at -= take;
    }
    return out;
  }
}

const EMPTY = new Uint8Array(0);

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
