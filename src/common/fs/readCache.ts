// Decoded file texts kept between reads, keyed by real path and trusted only while the file's
// identity and times are exactly what they were when the text was read (device, inode, size,
// mtime and ctime in nanoseconds). A re-read of an unchanged file then costs one stat.
//
// Timestamps have a granularity (a kernel tick, or up to 2 s on some file systems), so two writes
// of the same size within one tick can leave the same stamp. A text is therefore kept only when
// both its mtime and ctime were already RACY_MARGIN_MS old when the file was stat'ed (git's "racily
// clean" rule): any later write then gets a newer ctime (which no program can set back), so it
// always shows in the stamp. The stat is taken before the bytes are read: the bytes are at least as
// new as the stamp, and if they are newer, the next stat no longer matches.
import { BoundedMap } from '../boundedTextMap';
import type { SomeText } from './lazyText';

/** What a stat says about a file's identity and version (bigint stats, nanosecond times). */
export interface FileStamp {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

/** How old a file's mtime and ctime must be (at the stat) for its text to be kept. */
export const RACY_MARGIN_MS = 3000;

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** True when a later write to the file is sure to change the stamp (see the rule above). */
export function settled(stamp: FileStamp, statAtMs: number, marginMs = RACY_MARGIN_MS): boolean {
  const limit = BigInt(Math.floor(statAtMs - marginMs)) * 1_000_000n;
  return stamp.mtimeNs <= limit && stamp.ctimeNs <= limit;
}

export interface CachedText {
  readonly stamp: FileStamp;
  /** The text, or its bytes until something needs the string (a file read by range: LazyText). */
  readonly text: SomeText;
  /** UTF-8 bytes of the whole text as a JSON string literal, computed once when first needed. */
  jsonBytes?: number;
}

export class FileTextCache {
  private readonly entries: BoundedMap<CachedText>;
  /** Counters, for the tests and the benchmark to see what was served from here. */
  hits = 0;
  misses = 0;

  constructor(maxChars: number, private readonly marginMs = RACY_MARGIN_MS) {
    this.entries = new BoundedMap<CachedText>(maxChars, e => e.text.length);
  }

  /** The text kept for `key` if `stamp` (a fresh stat) is still the one it was read at. */
  get(key: string, stamp: FileStamp): CachedText | undefined {
    const e = this.entries.get(key);
    if (e && sameStamp(e.stamp, stamp)) {
      this.hits++;
      return e;
    }
    if (e) this.entries.delete(key);
    this.misses++;
    return undefined;
  }

  /** The entry kept for `key` at `stamp` (a fresh stat); counts neither a hit nor a miss. */
  peek(key: string, stamp: FileStamp): CachedText | undefined {
    const e = this.entries.get(key);
    return e && sameStamp(e.stamp, stamp) ? e : undefined;
  }

  /**
   * Keeps `text`, read after the stat `stamp` taken at `statAtMs` (epoch ms), if that stamp is
   * settled; returns the entry either way (its jsonBytes memo serves this request too).
   */
  set(key: string, stamp: FileStamp, statAtMs: number, text: SomeText): CachedText {
    const entry: CachedText = { stamp, text };
    if (settled(stamp, statAtMs, this.marginMs)) this.entries.set(key, entry);
    else this.entries.delete(key);
    return entry;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
