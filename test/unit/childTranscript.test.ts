import assert from 'node:assert/strict';
import { ChildTranscript } from '../../src/common/childTranscript';
import type { ChildView } from '../../src/common/childSessions';
import type { Item } from '../../src/common/transcript';

const child = (sessionId: string, parentSessionId: string, depth: number): ChildView =>
  ({ sessionId, parentSessionId, depth, title: sessionId, state: 'running', canCancel: false, startedAt: 0, toolCalls: 0 });
const text = (items: readonly Item[]) => items.map(i => `${i.kind}${i.inChild ? `@${i.inChild}` : ''}: ${'text' in i ? i.text : i.kind === 'child' ? i.child.sessionId : ''}`);

describe('a child agent\'s own transcript (its tab)', () => {
  it('keeps the child\'s items (unmarked) and its children\'s (marked), not the parent\'s nor requests; follows the parent\'s operations', () => {
    const t = new ChildTranscript('c1', [
      { kind: 'agent', id: 'p1', text: 'parent says' },
      { kind: 'child', id: 'k1', child: child('c1', 'root', 1) },
      { kind: 'thought', id: 't1', text: 'child thinks', inChild: 'c1' },
      { kind: 'agent', id: 'o1', text: 'other child', inChild: 'c2' },
    ]);
    assert.deepEqual(text(t.items), ['thought: child thinks']);
    const ops = t.apply([
      { op: 'append', id: 't1', text: ' more' },
      { op: 'append', id: 'p1', text: ' ignored' },
      { op: 'add', item: { kind: 'child', id: 'k2', child: child('c3', 'c1', 2), inChild: 'c1' } },
      { op: 'add', item: { kind: 'agent', id: 'g1', text: 'grandchild', inChild: 'c3' } },
      { op: 'add', item: { kind: 'permission', id: 'q1', inChild: 'c1', permission: {} as never } },
      { op: 'add', item: { kind: 'agent', id: 'p2', text: 'parent again' } },
      { op: 'replace', item: { kind: 'thought', id: 't1', text: 'replaced', inChild: 'c1' } },
    ]);
    assert.deepEqual(ops.map(o => o.op), ['append', 'add', 'add', 'replace']);
    assert.equal(ops[3].op === 'replace' && ops[3].item.inChild, undefined, 'the child\'s own items are the tab\'s, not folded under a card');
    assert.deepEqual(text(t.items), ['thought: replaced', 'child: c3', 'agent@c3: grandchild']);
  });
});
