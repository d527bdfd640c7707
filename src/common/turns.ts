// A conversation as turns: a turn starts at each prompt of the user and holds everything shown
// until the next one (items before the first prompt form a turn of their own). Long conversations
// stay cheap by turns:
//  - the host keeps the last turns in memory (`turnsToArchive`) and writes older ones to disk,
//    keeping a one-line summary of each (`summarizeTurn`);
//  - the chat view shows old turns collapsed to that summary (`TurnList.collapsed`), renders only
//    the turns in view, and keeps the items of a bounded number of turns (`TurnList.evict`): the
//    rest it asks the host for again when the user opens or scrolls to them.
// Pure: no DOM, no `vscode`.
import type { Item, TranscriptOp } from './transcript';

/** What a collapsed turn shows, and all the view keeps of a turn whose items it dropped. */
export interface TurnSummary {
  /** The id of the turn's first item: the turn's name on both sides. */
  readonly id: string;
  /** The first line of the user's prompt ('' for what came before the first prompt). */
  readonly prompt: string;
  /** The beginning of the agent's answer. */
  readonly answer: string;
  readonly tools: number;
  readonly items: number;
  /** How the turn ended, when it did. */
  readonly stopReason?: string;
}

/** Completed turns shown in full at the end of the conversation; older ones are collapsed. */
export const RECENT_TURNS_EXPANDED = 4;
const SUMMARY_CHARS = 160;

/** The items split into turns, in order. */
export function splitTurns(items: readonly Item[]): Item[][] {
  const turns: Item[][] = [];
  for (const item of items) {
    if (item.kind === 'user' || !turns.length) turns.push([item]);
    else turns[turns.length - 1].push(item);
  }
  return turns;
}

export function summarizeTurn(items: readonly Item[]): TurnSummary {
  const user = items.find(i => i.kind === 'user');
  const agent = items.find(i => i.kind === 'agent');
  let end: Item | undefined;
  for (let i = items.length - 1; i >= 0 && !end; i--) if (items[i].kind === 'turnEnd') end = items[i];
  return {
    id: items[0]?.id ?? '',
    prompt: firstLine(user?.kind === 'user' ? user.text : ''),
    answer: firstLine(agent?.kind === 'agent' ? agent.text : ''),
    tools: items.filter(i => i.kind === 'tool').length,
    items: items.length,
    ...(end?.kind === 'turnEnd' ? { stopReason: end.stopReason } : {}),
  };
}

function firstLine(text: string): string {
  const line = text.trimStart().slice(0, SUMMARY_CHARS * 2).split('\n').find(l => l.trim()) ?? '';
  const clean = line.replace(/\s+/g, ' ').trim();
  return clean.length > SUMMARY_CHARS ? clean.slice(0, SUMMARY_CHARS) + '…' : clean;
}

/** Roughly how much memory a turn's items take (their text, in characters). */
export function turnChars(items: readonly Item[]): number {
  let n = 0;
  for (const item of items) {
    switch (item.kind) {
      case 'user': case 'agent': case 'thought': case 'notice': n += item.text.length; break;
      case 'tool': n += 200 + (item.tool.rawInput?.length ?? 0) + (item.tool.rawOutput?.length ?? 0) + item.tool.content.reduce((s, c) => s + (c.type === 'text' ? c.text.length : c.type === 'diff' ? c.preview.lines.join('').length : 0), 0); break;
      default: n += 200;
    }
  }
  return n;
}

/** How many turns the host keeps in memory, in full. */
export interface MemoryBound {
  /** At most this many turns… */
  readonly maxTurns: number;
  /** …and no more characters than this, beyond the last `minTurns` turns (always kept). */
  readonly maxChars: number;
  readonly minTurns: number;
}

export const HOST_MEMORY_BOUND: MemoryBound = { maxTurns: 20, maxChars: 1_000_000, minTurns: 2 };

/**
 * How many turns, from the oldest, go out of memory, given each turn's size (`turnChars`), oldest
 * first. The last turn (the one running, or the last answer) always stays.
 */
export function turnsToArchive(sizes: readonly number[], bound: MemoryBound = HOST_MEMORY_BOUND): number {
  const keepAtLeast = Math.max(1, bound.minTurns);
  let kept = 0;
  let chars = 0;
  for (let i = sizes.length - 1; i >= 0; i--) {
    const within = kept < bound.maxTurns && chars + sizes[i] <= bound.maxChars;
    if (kept >= keepAtLeast && !within) return i + 1;
    kept++;
    chars += sizes[i];
  }
  return 0;
}

// ---- the chat view's model of the turns --------------------------------------------------------

export interface Turn {
  readonly id: string;
  /** Its items; undefined when the view dropped them (or never had them): the summary stands in. */
  items?: Item[];
  summary?: TurnSummary;
  /** The user's choice, once made: open (true) or collapsed (false). */
  open?: boolean;
}

/** What an operation changed: the turn it touched (its index), and whether that turn is new. */
export interface TurnChange { readonly index: number; readonly added: boolean }

/** Turns whose items the view keeps at most (beyond those on screen and the last ones). */
export const VIEW_TURNS_LOADED = 24;

export class TurnList {
  private list: Turn[] = [];
  /** Item id → the id of its turn (for items the view holds). */
  private readonly turnOf = new Map<string, string>();
  private readonly position = new Map<string, number>();
  /** Item id → its index in its turn (items are only ever appended). */
  private readonly itemAt = new Map<string, number>();

  get turns(): readonly Turn[] { return this.list; }
  get length(): number { return this.list.length; }
  at(index: number): Turn | undefined { return this.list[index]; }
  indexOf(turnId: string): number { return this.position.get(turnId) ?? -1; }
  /** The index of the turn holding item `itemId`, or -1. */
  indexOfItem(itemId: string): number { return this.indexOf(this.turnOf.get(itemId) ?? ''); }

  /** Turns known only by their summary (the host keeps them on disk), then the items it holds. */
  reset(archived: readonly TurnSummary[], items: readonly Item[]): void {
    this.list = [];
    this.turnOf.clear();
    this.position.clear();
    this.itemAt.clear();
    for (const summary of archived) this.push({ id: summary.id, summary });
    for (const turn of splitTurns(items)) this.push({ id: turn[0].id, items: [] }, turn);
  }

  private push(turn: Turn, items: readonly Item[] = []): void {
    this.position.set(turn.id, this.list.length);
    this.list.push(turn);
    for (const item of items) this.addItem(turn, item);
  }

  private addItem(turn: Turn, item: Item): void {
    this.itemAt.set(item.id, turn.items!.push(item) - 1);
    this.turnOf.set(item.id, turn.id);
  }

  /** Applies one transcript operation; undefined when it concerns an item the view does not hold. */
  apply(op: TranscriptOp): TurnChange | undefined {
    if (op.op === 'add') {
      const last = this.list[this.list.length - 1];
      if (op.item.kind === 'user' || !last) {
        this.push({ id: op.item.id, items: [] }, [op.item]);
        return { index: this.list.length - 1, added: true };
      }
      if (!last.items) return undefined;
      this.addItem(last, op.item);
      return { index: this.list.length - 1, added: false };
    }
    const id = op.op === 'append' ? op.id : op.item.id;
    const index = this.indexOfItem(id);
    const items = this.list[index]?.items;
    const known = this.itemAt.get(id) ?? -1;
    const at = items?.[known]?.id === id ? known : items?.findIndex(i => i.id === id) ?? -1;
    if (!items || at < 0) return undefined;
    if (op.op === 'replace') items[at] = op.item;
    else {
      const item = items[at];
      if ('text' in item) items[at] = { ...item, text: item.text + op.text } as Item;
    }
    return { index, added: false };
  }

  /** The turn's items, fetched again from the host. */
  load(turnId: string, items: readonly Item[]): number {
    const index = this.indexOf(turnId);
    const turn = this.list[index];
    if (!turn || turn.items) return -1;
    turn.items = [];
    for (const item of items) this.addItem(turn, item);
    return index;
  }

  /** Shown collapsed: a completed turn older than the last few, unless the user opened it (or the reverse). */
  collapsed(index: number): boolean {
    const turn = this.list[index];
    if (!turn || index === this.list.length - 1) return false;
    return !(turn.open ?? index >= this.list.length - 1 - RECENT_TURNS_EXPANDED);
  }

  toggle(index: number): void {
    const turn = this.list[index];
    if (turn) turn.open = this.collapsed(index);
  }

  summary(index: number): TurnSummary | undefined {
    const turn = this.list[index];
    if (!turn) return undefined;
    return turn.items ? summarizeTurn(turn.items) : turn.summary;
  }

  /**
   * Drops the items of the oldest turns beyond the `max` most recent that hold items, except the
   * last turns and those in `keep` (on screen): their summary stays. Returns the indexes dropped.
   */
  evict(keep: ReadonlySet<number>, max = VIEW_TURNS_LOADED): number[] {
    const loaded = this.list.map((t, i) => (t.items ? i : -1)).filter(i => i >= 0);
    const dropped: number[] = [];
    const last = this.list.length - 1 - RECENT_TURNS_EXPANDED;
    for (const i of loaded) {
      if (loaded.length - dropped.length <= max) break;
      if (keep.has(i) || i >= last) continue;
      const turn = this.list[i];
      turn.summary = summarizeTurn(turn.items!);
      for (const item of turn.items!) { this.turnOf.delete(item.id); this.itemAt.delete(item.id); }
      turn.items = undefined;
      dropped.push(i);
    }
    return dropped;
  }
}
