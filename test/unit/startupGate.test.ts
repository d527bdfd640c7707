import assert from 'node:assert/strict';
import { StartupGate, type GateTimers } from '../../src/common/startupGate';

/** A clock the test advances: timers fire in due order, only when it moves past them. */
class Clock implements GateTimers {
  now = 0;
  private next = 0;
  private readonly due = new Map<number, { at: number; run: () => void }>();
  setTimeout(run: () => void, ms: number): unknown { const id = ++this.next; this.due.set(id, { at: this.now + ms, run }); return id; }
  clearTimeout(handle: unknown): void { this.due.delete(handle as number); }
  get pending(): number { return this.due.size; }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [id, t] = [...this.due].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || !t) break;
      this.due.delete(id);
      this.now = t.at;
      t.run();
    }
    this.now = end;
  }
}

const times = { idle: 150, settle: 100, cap: 2000 };

/** The gate and whether it has opened, as a promise callback sees it. */
async function gate(): Promise<{ clock: Clock; g: StartupGate; isOpen: () => Promise<boolean> }> {
  const clock = new Clock();
  const g = new StartupGate(clock, times);
  let opened = false;
  void g.opened.then(() => { opened = true; });
  const isOpen = async () => { await Promise.resolve(); await Promise.resolve(); return opened; };
  return { clock, g, isOpen };
}

describe('startup gate', () => {
  it('opens IDLE ms after activation when no chat surface is opening (the Agents view opened, a command run)', async () => {
    const { clock, g, isOpen } = await gate();
    clock.advance(149);
    assert.equal(await isOpen(), false);
    clock.advance(1);
    assert.equal(await isOpen(), true);
    assert.equal(g.state, 'open');
    assert.equal(clock.pending, 0);
  });

  it('waits for an opening chat surface to show its first state, then SETTLE ms (its paint and welcome)', async () => {
    const { clock, g, isOpen } = await gate();
    clock.advance(40);
    g.opening();
    clock.advance(1000);
    assert.equal(await isOpen(), false, 'the idle time no longer applies once a surface opens');
    assert.equal(g.state, 'opening');
    g.shown();
    clock.advance(99);
    assert.equal(await isOpen(), false);
    clock.advance(1);
    assert.equal(await isOpen(), true);
    assert.equal(clock.pending, 0);
  });

  it('opens CAP ms after a surface opened that never shows its state (a crashed webview)', async () => {
    const { clock, g, isOpen } = await gate();
    g.opening();
    clock.advance(1999);
    assert.equal(await isOpen(), false);
    clock.advance(1);
    assert.equal(await isOpen(), true);
  });

  it('a first state shown without a surface reported opening (a restored editor tab) also settles', async () => {
    const { clock, g, isOpen } = await gate();
    clock.advance(10);
    g.shown();
    clock.advance(200);
    assert.equal(await isOpen(), true);
    assert.equal(clock.pending, 0);
  });

  it('a second surface opening or showing changes nothing: the first one decides', async () => {
    const { clock, g, isOpen } = await gate();
    g.opening();
    clock.advance(50);
    g.shown();
    clock.advance(60);
    g.opening();
    g.shown();
    clock.advance(40);
    assert.equal(await isOpen(), true, 'SETTLE counted from the first state shown, not restarted');
    g.opening();
    g.shown();
    assert.equal(g.state, 'open');
    assert.equal(clock.pending, 0, 'nothing scheduled once open');
  });

  it('open() opens at once and cancels what was scheduled', async () => {
    const { clock, g, isOpen } = await gate();
    g.opening();
    g.open();
    assert.equal(await isOpen(), true);
    assert.equal(clock.pending, 0);
    assert.equal(g.state, 'open');
  });
});
