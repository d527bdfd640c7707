// Saves of agent edits still running. An accepted edit to an open file answers the agent once it
// is in the buffer; its save follows (save participants such as format on save can take seconds).
// A command the agent starts next must see the edit on disk: terminal/create waits for these first.
export class PendingSaves {
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
  async settled(timeoutMs: number): Promise<void> {
    if (!this.running.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise<void>(r => { timer = setTimeout(r, timeoutMs); }),
    ]);
    clearTimeout(timer);
  }
}

export const pendingSaves = new PendingSaves();
