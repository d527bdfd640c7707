import assert from 'node:assert/strict';
import { OpQueue } from '../../src/common/opQueue';
import type { Item, TranscriptOp } from '../../src/common/transcript';
import { TurnList } from '../../src/common/turns';

const agent = (id: string, text: string): Item => ({ kind: 'agent', id, text });
const tool = (id: string, status: string): Item => ({ kind: 'tool', id, tool: { toolCallId: id, title: id, status, content: [], locations: [] } as never });

/** What a view shows after applying `ops` (TurnList is the view's model). */
function shown(ops: readonly TranscriptOp[]): unknown {
  const list = new TurnList();
  list.reset([], [{ kind: 'user', id: 'u', text: 'go' }]);
  for (const op of ops) list.apply(op);
  return list.turns.map(t => t.items);
}

describe('op queue', () => {
  it('sends one operation per item, in the order the items first changed, that shows the same as all of them', () => {
    const ops: TranscriptOp[] = [
      { op: 'add', item: agent('a', 'Hel') },
      { op: 'add', item: tool('t1', 'pending') },
      { op: 'append', id: 'a', text: 'lo' },
      { op: 'replace', item: tool('t1', 'in_progress') },
      { op: 'add', item: agent('b', 'x') },
      { op: 'replace', item: tool('t1', 'completed') },
      { op: 'append', id: 'b', text: 'y' },
      { op: 'append', id: 'a', text: '!' },
    ];
    const q = new OpQueue();
    ops.forEach(op => q.push(op));
    const out = q.take();
    assert.deepEqual(out.map(o => o.op), ['add', 'add', 'add']);
    assert.deepEqual(shown(out), shown(ops));
    assert.equal(q.length, 0);
  });

  it('keeps appends to an item added before this frame, merged, and a replace after them wins', () => {
    const q = new OpQueue();
    q.push({ op: 'append', id: 'old', text: 'a' });
    q.push({ op: 'append', id: 'old', text: 'b' });
    assert.deepEqual(q.take(), [{ op: 'append', id: 'old', text: 'ab' }]);
    q.push({ op: 'append', id: 'old', text: 'a' });
    q.push({ op: 'replace', item: agent('old', 'whole') });
    q.push({ op: 'append', id: 'old', text: '+' });
    assert.deepEqual(q.take(), [{ op: 'replace', item: agent('old', 'whole+') }]);
  });

  it('stays one operation per item however many updates a burst sends', () => {
    const q = new OpQueue();
    for (let n = 0; n < 20_000; n++) {
      const id = `t${n % 50}`;
      q.push(n < 50 ? { op: 'add', item: tool(id, 'pending') } : { op: 'replace', item: tool(id, `s${n}`) });
      q.push({ op: 'append', id: 'old', text: 'x' });
    }
    assert.equal(q.length, 51);
  });

  it('is urgent once a permission request or a question is queued, until taken', () => {
    const q = new OpQueue();
    q.push({ op: 'add', item: tool('t', 'pending') });
    assert.equal(q.urgent, false);
    q.push({ op: 'add', item: { kind: 'question', id: 'q', question: {} as never } });
    assert.equal(q.urgent, true);
    q.take();
    assert.equal(q.urgent, false);
    q.push({ op: 'add', item: { kind: 'permission', id: 'p', permission: {} as never } });
    assert.equal(q.urgent, true);
  });
});
