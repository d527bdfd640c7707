// The turns a tab no longer keeps in memory (see common/turns) go to a file of their own in the
// conversations' folder, `<dir>/<archiveKey>.jsonl`, one JSON line per turn, in full (any message or
// tool output opens in full later); read back when the chat view shows one of them again, or a
// search looks through them. Each file's writes and reads are in order.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../common/logger';
import type { Item } from '../common/transcript';
import { historyItem, STORE_KEY } from '../common/conversation/savedIndex';

/** Where a conversation's old turns go, and come back from. */
export interface TurnArchive {
  /** A new name for one conversation's file. */
  newKey(): string;
  write(key: string, turns: readonly (readonly Item[])[]): void;
  read(key: string, turnId: string): Promise<Item[] | undefined>;
  /** Every turn in the file, oldest first (search, and an item asked for by id). */
  readAll(key: string): Promise<{ id: string; items: Item[] }[]>;
  forget(key: string): void;
}

/** The key of an old turns' file name (`<key>.jsonl`), else undefined. */
export function turnFileKey(name: string): string | undefined {
  const key = name.replace(/\.jsonl$/, '');
  return STORE_KEY.test(key) ? key : undefined;
}

export class TurnFiles implements TurnArchive {
  /** Writes per file, in order: a read waits for the writes before it. */
  private readonly writing = new Map<string, Promise<void>>();

  /** `dir`: the folder (none: nothing is kept). */
  constructor(private readonly dir: string | undefined, private readonly log?: Logger) {}

  /** File `key` is being written (not to be pruned). */
  busy(key: string): boolean {
    return this.writing.has(key);
  }

  newKey(): string {
    return randomUUID();
  }

  write(key: string, turns: readonly (readonly Item[])[]): void {
    const file = this.file(key);
    if (!file || !turns.length) return;
    const lines = turns.map(t => JSON.stringify({ id: t[0]?.id, items: t.map(historyItem) }) + '\n').join('');
    this.queue(key, async () => {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, lines, 'utf8');
    });
  }

  async read(key: string, turnId: string): Promise<Item[] | undefined> {
    const file = this.file(key);
    if (!file) return undefined;
    await this.writing.get(key);
    let text: string;
    try { text = await fs.readFile(file, 'utf8'); } catch { return undefined; }
    const prefix = JSON.stringify({ id: turnId }).slice(0, -1) + ',';
    const line = text.split('\n').find(l => l.startsWith(prefix));
    if (!line) return undefined;
    try {
      const items = (JSON.parse(line) as { items?: unknown }).items;
      return Array.isArray(items) ? items as Item[] : undefined;
    } catch { return undefined; }
  }

  async readAll(key: string): Promise<{ id: string; items: Item[] }[]> {
    const file = this.file(key);
    if (!file) return [];
    await this.writing.get(key);
    let text: string;
    try { text = await fs.readFile(file, 'utf8'); } catch { return []; }
    const turns: { id: string; items: Item[] }[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const t = JSON.parse(line) as { id?: unknown; items?: unknown };
        if (typeof t.id === 'string' && Array.isArray(t.items)) turns.push({ id: t.id, items: t.items as Item[] });
      } catch { /* a line cut by a crash: the others stay readable */ }
    }
    return turns;
  }

  forget(key: string): void {
    const file = this.file(key);
    if (file) this.queue(key, () => fs.rm(file, { force: true }));
  }

  private file(key: string): string | undefined {
    return this.dir && STORE_KEY.test(key) ? path.join(this.dir, `${key}.jsonl`) : undefined;
  }

  private queue(key: string, job: () => Promise<unknown>): void {
    const next = (this.writing.get(key) ?? Promise.resolve()).then(job).then(() => undefined, err => {
      this.log?.warn(`Could not keep the old turns of a conversation on disk: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.writing.set(key, next);
    void next.then(() => { if (this.writing.get(key) === next) this.writing.delete(key); });
  }
}
