import assert from 'node:assert/strict';
import { searchTurns } from '../../src/common/conversationSearch';
import type { Item } from '../../src/common/transcript';

const tool = (id: string, text: string): Item => ({ kind: 'tool', id, tool: { toolCallId: id, title: `Run ${id}`, status: 'completed', content: [{ type: 'text', text }], locations: [] } as never });

describe('conversation search', () => {
  const turns = [
    { id: 'u1', items: [{ kind: 'user', id: 'u1', text: 'build it' } as Item, tool('t1', 'compiling...\nerror: Zanzibar not found\ndone')] },
    { id: 'u2', items: [{ kind: 'user', id: 'u2', text: 'again' } as Item, { kind: 'agent', id: 'a2', text: 'The zanzibar module is back.' } as Item] },
  ];

  it('finds the text in tool outputs and messages of every turn, case-insensitive, in order', () => {
    const hits = searchTurns(turns, 'ZANZIBAR');
    assert.deepEqual(hits.map(h => [h.turnId, h.itemId, h.kind]), [['u1', 't1', 'tool'], ['u2', 'a2', 'agent']]);
    const first = hits[0];
    assert.equal(first.snippet.slice(first.at, first.at + first.length).toLowerCase(), 'zanzibar');
    assert.ok(!first.snippet.includes('\n'), 'one line');
  });

  it('cuts the line around the match in a long text, and stops at the limit', () => {
    const long = 'x'.repeat(10_000) + ' needle ' + 'y'.repeat(10_000);
    const [hit] = searchTurns([{ id: 'u', items: [tool('t', long)] }], 'needle');
    assert.ok(hit.snippet.length < 100, `${hit.snippet.length}`);
    assert.equal(hit.snippet.slice(hit.at, hit.at + 6), 'needle');
    const many = Array.from({ length: 200 }, (_, i) => tool(`t${i}`, 'needle'));
    assert.equal(searchTurns([{ id: 'u', items: many }], 'needle', 50).length, 50);
  });

  it('finds nothing for an empty query', () => {
    assert.deepEqual(searchTurns(turns, '  '), []);
  });
});
