// Transcript operations on their way from the host to the chat view, coalesced until the next
// post (one per frame): however many updates an agent sends in that time, the view receives at
// most one operation per item it touched, in the order the items first changed:
//  - text appended to an item added or appended to in the same frame extends that operation;
//  - an item replaced after it was added / appended to / replaced in the same frame: the one
//    operation carries its last state (an 'add' stays an 'add', with the new item);
//  - a permission request or a question makes the queue urgent: posted at once, never a frame later.
// Pure: no DOM, no `vscode`.
import type { Item, TranscriptOp } from './transcript';

/** Items that wait for the user: shown before anything else is rendered. */
export function isUrgent(op: TranscriptOp): boolean {
  return op.op === 'add' && (op.item.kind === 'permission' || op.item.kind === 'question');
}

export class OpQueue {
  private ops: TranscriptOp[] = [];
  /** Item id → the index of the one operation on it in `ops`. */
  private readonly at = new Map<string, number>();
  private urgentOps = false;

  get length(): number { return this.ops.length; }
  /** A permission request or a question is waiting: post now. */
  get urgent(): boolean { return this.urgentOps; }

  push(op: TranscriptOp): void {
    if (isUrgent(op)) this.urgentOps = true;
    const id = op.op === 'append' ? op.id : op.item.id;
    const k = this.at.get(id);
    const prev = k === undefined ? undefined : this.ops[k];
    if (k === undefined || !prev) { this.at.set(id, this.ops.length); this.ops.push(op); return; }
    if (op.op === 'add') { this.at.set(id, this.ops.length); this.ops.push(op); return; } // an id reused: kept apart
    if (op.op === 'replace') { this.ops[k] = prev.op === 'add' ? { op: 'add', item: op.item } : op; return; }
    if (prev.op === 'append') this.ops[k] = { op: 'append', id, text: prev.text + op.text };
    else this.ops[k] = { op: prev.op, item: withText(prev.item, op.text) } as TranscriptOp;
  }

  /** Everything queued, in order; the queue is empty after. */
  take(): TranscriptOp[] {
    const ops = this.ops;
    this.ops = [];
    this.at.clear();
    this.urgentOps = false;
    return ops;
  }
}

/** The item with `more` appended to its text, as the view would append it. */
function withText(item: Item, more: string): Item {
  return 'text' in item ? { ...item, text: item.text + more } as Item : item;
}
