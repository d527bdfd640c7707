import assert from 'node:assert/strict';
import { forkSummary, MAX_SUMMARY_CHARS } from '../../src/common/conversation/forkSummary';
import type { Item } from '../../src/common/transcript';

const tool = (id: string, title: string): Item => ({ kind: 'tool', id, tool: { toolCallId: id, title, kind: 'edit', status: 'completed', content: [], locations: [] } });

describe('Fork summary', () => {
  it('lists each prompt with its answer and the tools run, then asks for the next request', () => {
    const items: Item[] = [
      { kind: 'notice', id: 'n', text: 'Restored' },
      { kind: 'user', id: 'u1', text: 'Rename foo to bar' },
      { kind: 'agent', id: 'a1', text: 'Renamed ' }, { kind: 'agent', id: 'a2', text: 'it.' },
      tool('t1', 'Edit src/foo.ts'), tool('t2', 'Edit src/foo.ts'),
      { kind: 'turnEnd', id: 'e', stopReason: 'end_turn' },
    ];
    const s = forkSummary(items, 'Rename')!;
    assert.match(s, /“Rename”/);
    assert.match(s, /### User\nRename foo to bar\n\n### Agent\nRenamed it\.\nTools used: Edit src\/foo\.ts\n/);
    assert.match(s, /My next request:\n$/);
  });

  it('nothing to continue without a prompt', () => {
    assert.equal(forkSummary([{ kind: 'notice', id: 'n', text: 'hi' }]), undefined);
  });

  it('cuts old answers, keeps the last ones whole, and stays bounded by dropping the oldest exchanges', () => {
    const long = 'x'.repeat(5000);
    const items: Item[] = [];
    for (let i = 0; i < 6; i++) items.push({ kind: 'user', id: `u${i}`, text: `prompt ${i}` }, { kind: 'agent', id: `a${i}`, text: long });
    const s = forkSummary(items)!;
    assert.ok(s.length <= MAX_SUMMARY_CHARS, `${s.length} chars`);
    assert.match(s, /earlier exchanges left out/);
    assert.ok(s.includes('prompt 5') && s.includes(long), 'the last exchange is whole');
    assert.ok(!s.includes('prompt 0'));
  });
});
