// A child agent's transcript on its own (its "Open in tab" view): out of the parent conversation's
// items, those of child session `childId` (marked `inChild`) and of its own children, kept in step
// with the parent's operations. The child's own items lose their `inChild` mark (they are the tab's
// transcript, not hidden under a card); its children's cards and items keep theirs, so they fold
// under their cards as in the parent's chat. Requests (permissions, questions) are left out: they are
// answered in the parent's chat.
import type { Item, TranscriptOp } from './transcript';

export class ChildTranscript {
  private readonly list: Item[] = [];
  private readonly index = new Map<string, number>();
  /** `childId` and its children at any depth (learnt from their cards, which come before their items). */
  private readonly sessions: Set<string>;

  constructor(readonly childId: string, items: readonly Item[]) {
    this.sessions = new Set([childId]);
    for (const item of items) this.take(item);
  }

  /** The child's transcript as the tab shows it. */
  get items(): readonly Item[] {
    return this.list;
  }

  /** The parent's operations → the tab's (empty when none is about the child). */
  apply(ops: readonly TranscriptOp[]): TranscriptOp[] {
    const out: TranscriptOp[] = [];
    for (const op of ops) {
      if (op.op === 'append') {
        const at = this.index.get(op.id);
        if (at === undefined) continue;
        const item = this.list[at];
        if ('text' in item) this.list[at] = { ...item, text: item.text + op.text } as Item;
        out.push(op);
      } else if (this.index.has(op.item.id)) {
        const item = this.mine(op.item);
        if (!item) continue;
        this.list[this.index.get(op.item.id)!] = item;
        out.push({ op: 'replace', item });
      } else {
        const item = this.take(op.item);
        if (item) out.push({ op: 'add', item });
      }
    }
    return out;
  }

  /** Adds `item` when it belongs to the child; returns it as the tab shows it. */
  private take(item: Item): Item | undefined {
    const shown = this.mine(item);
    if (!shown) return undefined;
    if (shown.kind === 'child') this.sessions.add(shown.child.sessionId);
    this.index.set(shown.id, this.list.length);
    this.list.push(shown);
    return shown;
  }

  private mine(item: Item): Item | undefined {
    if (item.inChild === undefined || !this.sessions.has(item.inChild)) return undefined;
    if (item.kind === 'permission' || item.kind === 'question') return undefined;
    if (item.inChild !== this.childId) return item;
    const { inChild: _own, ...rest } = item;
    return rest as Item;
  }
}
