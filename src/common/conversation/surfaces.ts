// Which conversation each chat surface shows (the side bar's view, each editor tab of the chat),
// and which one is "current": the conversation that commands without a tab of their own act on
// (New Conversation, Stop, Choose Agent, Fork…). Pure: no `vscode`, no DOM.
//
// The rules:
//  - each surface shows its own conversation; selecting a tab in one surface never changes another;
//  - the current conversation is the one shown in the surface used last (a message from it, its
//    editor tab brought to front); with no surface (no chat open yet) it is kept on its own;
//  - a conversation opened by a command (new, fork, a session of the agent, another agent chosen)
//    is shown in the surface used last, and becomes current;
//  - a conversation closed: each surface that showed it goes back to the conversation it showed
//    before (most recent first) that is still open, else to the last open one;
//  - a surface that (re)appears (the window reloaded, the view re-created) shows the conversation it
//    saved if it is still open, else the current one;
//  - "show conversation X" (the Agents view's Open, a notification's Open): in a visible surface
//    already showing it, else in any surface showing it, else in the visible surface used last,
//    else in the surface used last; none at all: the caller opens one.

/** How many conversations a surface remembers having shown (for where it goes when one closes). */
const HISTORY = 20;

export class SurfaceSelections {
  /** Surface id → the conversations it showed, most recent first ([0]: shown now). */
  private readonly shownBy = new Map<string, string[]>();
  /** Surface ids, used last first. */
  private used: string[] = [];
  /** The current conversation when no surface exists; each conversation made current, most recent first. */
  private currentHistory: string[] = [];

  /** The conversation commands act on: the one shown in the surface used last. */
  get current(): string {
    const last = this.used[0];
    return (last !== undefined ? this.shownBy.get(last)?.[0] : undefined) ?? this.currentHistory[0] ?? '';
  }

  /** The surfaces, used last first. */
  get surfaces(): readonly string[] { return this.used; }

  /** The conversation surface `id` shows (undefined: no such surface). */
  shown(id: string): string | undefined {
    return this.shownBy.get(id)?.[0];
  }

  /** The surfaces showing conversation `tab`, used last first. */
  showing(tab: string): string[] {
    return this.used.filter(id => this.shownBy.get(id)?.[0] === tab);
  }

  /** The conversations of the last window were restored: `tab` is current until a surface is used. */
  restore(tab: string): void {
    this.makeCurrent(tab);
  }

  /**
   * Surface `id` appeared (or re-appeared), with the conversation it saved: it shows that one if it
   * is open, else the current one. It is not "used" by appearing. Returns what it shows.
   */
  attach(id: string, saved: string | undefined, open: readonly string[]): string {
    const tab = saved !== undefined && open.includes(saved) ? saved : this.current || open.at(-1) || '';
    const known = this.shownBy.get(id);
    this.shownBy.set(id, remember(known ?? [], tab));
    if (!known) this.used.push(id);
    return tab;
  }

  /**
   * Surface `id` went away (its editor tab closed): the conversation of the surface used before it
   * is current; with none left, the current conversation stays what it was.
   */
  detach(id: string): void {
    this.shownBy.delete(id);
    this.used = this.used.filter(s => s !== id);
    this.makeCurrent(this.current);
  }

  /** Surface `id` was used (typed in, clicked, brought to front): its conversation is current. */
  use(id: string): void {
    if (!this.shownBy.has(id)) return;
    this.used = [id, ...this.used.filter(s => s !== id)];
    this.makeCurrent(this.current);
  }

  /**
   * Conversation `tab` is shown in surface `from` (a tab picked there), or, with no surface named,
   * in the surface used last (a command opened or picked it); it becomes current. Returns the
   * surfaces whose conversation changed.
   */
  select(tab: string, from?: string): string[] {
    const id = from !== undefined && this.shownBy.has(from) ? from : this.used[0];
    this.makeCurrent(tab);
    if (id === undefined) return [];
    this.used = [id, ...this.used.filter(s => s !== id)];
    const before = this.shownBy.get(id)!;
    this.shownBy.set(id, remember(before, tab));
    return before[0] === tab ? [] : [id];
  }

  /**
   * Conversation `tab` was closed; `open`: the conversations still open, in tab order. Each surface
   * that showed it goes back to the one it showed before that is still open, else the last open one.
   * Returns the surfaces whose conversation changed.
   */
  closed(tab: string, open: readonly string[]): string[] {
    const changed: string[] = [];
    const fallback = (history: readonly string[]) => history.find(t => t !== tab && open.includes(t)) ?? open.at(-1) ?? '';
    const wasCurrent = this.current === tab;
    for (const [id, history] of this.shownBy) {
      const next = history.filter(t => t !== tab && open.includes(t));
      if (history[0] === tab) {
        changed.push(id);
        this.shownBy.set(id, remember(next, fallback(history)));
      } else this.shownBy.set(id, next);
    }
    if (wasCurrent && this.used.length === 0) this.currentHistory = remember(this.currentHistory, fallback(this.currentHistory));
    this.currentHistory = this.currentHistory.filter(t => open.includes(t));
    this.makeCurrent(this.current || open.at(-1) || '');
    return this.used.filter(id => changed.includes(id));
  }

  /**
   * Where to show conversation `tab` when asked from outside the chat (the Agents view, a
   * notification): a visible surface already showing it, else any surface showing it, else the
   * visible surface used last, else the surface used last. Undefined: there is no surface.
   */
  placeFor(tab: string, visible: (id: string) => boolean): string | undefined {
    const showing = this.showing(tab);
    return showing.find(visible) ?? showing[0] ?? this.used.find(visible) ?? this.used[0];
  }

  private makeCurrent(tab: string): void {
    if (tab) this.currentHistory = remember(this.currentHistory, tab);
  }
}

/** `history` with `tab` first (once), at most HISTORY long. */
function remember(history: readonly string[], tab: string): string[] {
  return [tab, ...history.filter(t => t !== tab)].slice(0, HISTORY);
}
