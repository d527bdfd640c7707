// A conversation's file is written whole or not at all (a temporary file, then a rename: a crash
// leaves the old file or the new, never half of one): at once, or in the thread pool while its agent
// streams. Never over a version another extension host wrote (ownWrites.ts): the tab is then saved
// again soon, to a file of its own (savedChats.ts).
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Logger } from '../common/logger';
import { chatFileName, STORE_KEY } from '../common/conversation/savedIndex';
import { stampOf, statFile, writeAtomically } from './fileVersions';
import type { OwnWrites } from './ownWrites';

export class ChatFileWrites {
  /** A write failed and was logged (logged once until one succeeds). */
  private failing = false;
  /** Files being written in the thread pool (later): the number of the latest write of each. */
  private readonly inFlight = new Map<string, number>();
  private generation = 0;
  private readonly pending = new Set<Promise<void>>();

  /** `saveSoon`: the tabs are saved again soon (a write was not done). */
  constructor(private readonly dir: string | undefined, private readonly own: OwnWrites, private readonly saveSoon: () => void, private readonly log?: Logger) {}

  /** File `key` is being written in the thread pool. */
  busy(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** A write of file `key` under way is not to land (the file is removed). */
  drop(key: string): void {
    this.inFlight.delete(key);
  }

  /** Writes a conversation's file now: a temporary file, then a rename (a crash leaves the old file or the new, never half of one). */
  now(key: string, text: string): boolean {
    if (!this.dir || !STORE_KEY.test(key)) return false;
    // A write still under way for this file is older: it will not replace this one (later).
    this.inFlight.delete(key);
    const file = path.join(this.dir, chatFileName(key));
    const written = this.writeNow(file, text);
    // The version this host wrote (another host's write since shows as another).
    if (written) this.own.knew(key, stampOf(written));
    return !!written;
  }

  private writeNow(file: string, text: string): fsSync.Stats | undefined {
    try {
      const written = writeAtomically(file, text);
      this.failing = false;
      return written;
    } catch (err) {
      this.writeFailed(file, err);
      return undefined;
    }
  }

  /**
   * Writes a conversation's file in the thread pool (the extension host goes on with the agent's
   * updates meanwhile), to a temporary file of its own, renamed on this thread only if no later
   * write of the file started (a later one, or the synchronous one at shutdown, always wins). A
   * failed write makes the next save write the conversation again.
   */
  later(tab: string, key: string, text: string): boolean {
    if (!this.dir || !STORE_KEY.test(key)) return false;
    const dir = this.dir;
    const generation = ++this.generation;
    this.inFlight.set(key, generation);
    const file = path.join(dir, chatFileName(key));
    const tmp = `${file}.${generation}.tmp`;
    const superseded = () => this.inFlight.get(key) !== generation;
    const job = (async () => {
      try {
        await fs.mkdir(dir, { recursive: true });
        await fs.writeFile(tmp, text, 'utf8');
        // Another host wrote the file meanwhile: not written over, the tab's next save keeps both (save).
        if (!superseded() && this.own.whose(key, true) === 'keepBoth') {
          this.inFlight.delete(key);
          this.own.unsaved(tab, key);
          this.saveSoon();
        } else if (!superseded()) {
          const written = statFile(tmp);
          fsSync.renameSync(tmp, file);
          if (written) this.own.knew(key, written);
          this.inFlight.delete(key);
          this.failing = false;
          return;
        }
      } catch (err) {
        if (!superseded()) {
          this.inFlight.delete(key);
          this.writeFailed(file, err);
          this.own.unsaved(tab, key);
        }
      }
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    })();
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
    return true;
  }

  /** Done when the writes under way are (tests). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private writeFailed(file: string, err: unknown): void {
    if (!this.failing) this.log?.warn(`Could not save a conversation to ${file}: ${err instanceof Error ? err.message : String(err)}`);
    this.failing = true;
  }
}
