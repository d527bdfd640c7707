// Maps bounded by the total size of their values, not by their count: the least recently set
// entries go first. For the texts an agent last read (the base of its next write), the texts behind
// diffs and similar caches that must not grow with every file a long session touches. An entry
// larger than the whole budget is not kept.
import { textOf, type SomeText } from './fs/lazyText';

export class BoundedMap<V> {
  private readonly values = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(private readonly maxSize: number, private readonly sizeOf: (value: V) => number) {}

  get(key: string): V | undefined {
    return this.values.get(key)?.value;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.maxSize) return;
    this.values.set(key, { value, size });
    this.total += size;
    for (const [k, v] of this.values) {
      if (this.total <= this.maxSize) break;
      this.values.delete(k);
      this.total -= v.size;
    }
  }

  delete(key: string): void {
    const old = this.values.get(key);
    if (old === undefined) return;
    this.values.delete(key);
    this.total -= old.size;
  }

  clear(): void {
    this.values.clear();
    this.total = 0;
  }

  get size(): number {
    return this.values.size;
  }

  /** The sum of the sizes of what is kept (≤ the budget). */
  get totalSize(): number {
    return this.total;
  }
}

/**
 * Texts bounded by their total length in characters; a text may be kept undecoded (LazyText,
 * counted by its bytes) and is decoded when first read back.
 */
export class BoundedTextMap {
  private readonly map: BoundedMap<SomeText>;

  constructor(maxChars: number) {
    this.map = new BoundedMap<SomeText>(maxChars, text => text.length);
  }

  get(key: string): string | undefined {
    return textOf(this.map.get(key));
  }

  has(key: string): boolean { return this.map.has(key); }
  set(key: string, text: SomeText): void { this.map.set(key, text); }
  delete(key: string): void { this.map.delete(key); }
  clear(): void { this.map.clear(); }
  get size(): number { return this.map.size; }
  get totalSize(): number { return this.map.totalSize; }
}
