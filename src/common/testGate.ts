// A point that code passes at once, unless a test holds it: the test seams of the review
// (ChangeTracker.holdTurnEnds, holdUndos) drive the slow steps of a busy machine. Pure.

/** A point that code passes at once, unless a test holds it (test seams of the tracker). */
export class TestGate {
  private held: { gate: Promise<void>; arrived(): void } | undefined;

  hold(): { reached: Promise<void>; release(): void } {
    let open!: () => void;
    let arrived!: () => void;
    const gate = new Promise<void>(resolve => { open = resolve; });
    const reached = new Promise<void>(resolve => { arrived = resolve; });
    const held = { gate, arrived };
    this.held = held;
    return { reached, release: () => { if (this.held === held) this.held = undefined; open(); } };
  }

  async pass(): Promise<void> {
    const held = this.held;
    if (!held) return;
    held.arrived();
    await held.gate;
  }
}
