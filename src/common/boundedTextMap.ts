// A map of texts bounded by their total length: the least recently set entries go first. For the
// texts an agent last read (the base of its next write) and similar caches that must not grow with
// every file a long session touches.
export class BoundedTextMap {
  private readonly texts = new Map<string, string>();
  private total = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    return this.texts.get(key);
  }

  set(key: string, text: string): void {
    this.delete(key);
    if (text.length > this.maxChars) return;
    this.texts.set(key, text);
    this.total += text.length;
    for (const [k, t] of this.texts) {
      if (this.total <= this.maxChars) break;
      this.texts.delete(k);
      this.total -= t.length;
    }
  }

  delete(key: string): void {
    const old = this.texts.get(key);
    if (old === undefined) return;
    this.texts.delete(key);
    this.total -= old.length;
  }

  clear(): void {
    this.texts.clear();
    this.total = 0;
  }

  get size(): number {
    return this.texts.size;
  }
}
