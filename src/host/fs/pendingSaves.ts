// Work on files that goes on after the agent was answered, which what it does next must not
// overtake. Saves of agent edits still running: an accepted edit to an open file answers the agent
// once it is in the buffer; its save follows (save participants such as format on save can take
// seconds), and a command the agent starts next must see the edit on disk: terminal/create waits
// for these first. (files.ts keeps another: ranged reads whose whole file is still to be read.)
export class PendingWork {
  private readonly running = new Set<Promise<unknown>>();

  get size(): number {
    return this.running.size;
  }

  /** Keeps `save` until it settles; returns it. */
  track<T>(save: Promise<T>): Promise<T> {
    this.running.add(save);
    const done = () => { this.running.delete(save); };
    save.then(done, done);
    return save;
  }

  /** Resolves once every save running now has settled, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    return settledWithin([...this.running], timeoutMs);
  }
}

/** Resolves once all of `work` has settled, or after `timeoutMs`. */
export async function settledWithin(work: readonly Promise<unknown>[], timeoutMs: number): Promise<void> {
  if (!work.length) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(work),
    new Promise<void>(r => { timer = setTimeout(r, timeoutMs); }),
  ]);
  clearTimeout(timer);
}

export const pendingSaves = new PendingWork();
