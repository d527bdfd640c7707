// What an untrusted agent gets wrong is logged once per kind, never once per message: a flood of
// 100,000 bad messages of a few kinds leaves a few lines, each with its count so far. The number of
// kinds is bounded too (the agent chooses the words a kind is made of).

export interface OnceLogEntry {
  readonly kind: string;
  /** How many times this kind was seen, this one included. */
  readonly count: number;
}

export class OnceLog {
  private readonly counts = new Map<string, number>();
  private dropped = 0;

  /** `maxKinds`: kinds remembered; `maxKindChars`: a longer kind is cut (it may come from the agent). */
  constructor(private readonly maxKinds = 50, private readonly maxKindChars = 120) {}

  /**
   * Counts one occurrence. Returns what to log: the entry the first time a kind is seen, `'full'`
   * the first time a new kind no longer fits, else undefined (seen before, or past the bound).
   */
  note(kind: string): OnceLogEntry | 'full' | undefined {
    const key = kind.length > this.maxKindChars ? kind.slice(0, this.maxKindChars) + '…' : kind;
    const seen = this.counts.get(key);
    if (seen !== undefined) { this.counts.set(key, seen + 1); return undefined; }
    if (this.counts.size >= this.maxKinds) return this.dropped++ === 0 ? 'full' : undefined;
    this.counts.set(key, 1);
    return { kind: key, count: 1 };
  }

  /** Every kind seen with its count, most frequent first (for a summary). */
  summary(): OnceLogEntry[] {
    return [...this.counts].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count);
  }
}

/** Runs `fn`; an exception is handed to `onError` instead of reaching the caller (one listener never stops the next). */
export function isolated<A extends unknown[]>(fn: (...args: A) => void, onError: (err: unknown) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch (err) {
      onError(err);
    }
  };
}

/** A short description of a thrown value: its class and message, first line only. */
export function describeThrown(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message.split('\n')[0]}`;
  return String(err).split('\n')[0];
}
