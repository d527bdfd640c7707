// When the work that the chat's first state does not need may start (decision 0039). Opening
// Switchboard's view container activates the extension, and the workbench's one thread then lays
// out the container, creates the chat's webview and loads its page; whatever else activation
// registers (the Changes and Agents trees: ~10–20 ms of that thread in bench/activation's traces)
// is done in the same stretch and delays the chat. Such work waits for this gate:
// - a chat surface is being opened (`opening`): until it has shown its first state (`shown`), then
//   SETTLE_MS more (its page paints and gets the welcome), at most CAP_MS from opening;
// - no chat surface opening IDLE_MS after activation (the user opened the Agents or Changes view,
//   or ran a command): at once then.
// Node alone, timers injected: the transitions are unit-tested (test/unit/startupGate.test.ts).

export interface GateTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: GateTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: h => clearTimeout(h as ReturnType<typeof setTimeout>) };

/** No chat surface opening this long after activation: nothing to wait for. */
export const IDLE_MS = 150;
/** After the chat's first state: its first paint and the welcome. */
export const SETTLE_MS = 100;
/** From a surface opening: a page that never reports (a crashed webview) holds nothing back longer. */
export const CAP_MS = 2000;

export type GateState = 'waiting' | 'opening' | 'shown' | 'open';

export class StartupGate {
  private current: GateState = 'waiting';
  private timer: unknown;
  private release!: () => void;
  /** Resolves once, when deferred work may start. */
  readonly opened = new Promise<void>(resolve => { this.release = resolve; });

  constructor(private readonly timers: GateTimers = realTimers, private readonly times = { idle: IDLE_MS, settle: SETTLE_MS, cap: CAP_MS }) {
    this.wait(times.idle);
  }

  get state(): GateState { return this.current; }

  /** A chat surface is being opened (its webview resolved): deferred work waits for its first state. */
  opening(): void {
    if (this.current !== 'waiting') return;
    this.current = 'opening';
    this.wait(this.times.cap);
  }

  /** A chat surface has shown its first state. */
  shown(): void {
    if (this.current === 'shown' || this.current === 'open') return;
    this.current = 'shown';
    this.wait(this.times.settle);
  }

  /** Opens the gate now (e.g. a command needs what waits, or the extension is being disposed). */
  open(): void {
    if (this.current === 'open') return;
    this.current = 'open';
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.release();
  }

  private wait(ms: number): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => { this.timer = undefined; this.open(); }, ms);
  }
}
