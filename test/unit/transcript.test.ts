import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { Item, Transcript, TranscriptOp } from '../../src/common/transcript';

const chunk = (text: string, messageId?: string): SessionUpdate =>
  ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId });

/** Replays ops the way the webview does, to check that they rebuild the same transcript. */
function replay(ops: readonly TranscriptOp[], into: Map<string, Item>): void {
  for (const op of ops) {
    if (op.op === 'add' || op.op === 'replace') into.set(op.item.id, op.item);
    else {
      const item = into.get(op.id) as Extract<Item, { text: string }>;
      into.set(op.id, { ...item, text: item.text + op.text });
    }
  }
}

describe('Transcript', () => {
  it('joins streamed chunks into one message with one append each', () => {
    const t = new Transcript();
    const ops = [chunk('Hel'), chunk('lo'), chunk(' world')].flatMap(u => t.applyUpdate(u));
    assert.deepEqual(ops.map(o => o.op), ['add', 'append', 'append']);
    assert.deepEqual(t.snapshot().map(i => [i.kind, 'text' in i ? i.text : '']), [['agent', 'Hello world']]);
  });

  it('starts a new message when the messageId changes and keeps thoughts apart', () => {
    const t = new Transcript();
    t.applyUpdate(chunk('a', 'm1'));
    t.applyUpdate(chunk('b', 'm1'));
    t.applyUpdate({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } });
    t.applyUpdate(chunk('c', 'm2'));
    assert.deepEqual(t.snapshot().map(i => [i.kind, 'text' in i ? i.text : '']), [['agent', 'ab'], ['thought', 'hmm'], ['agent', 'c']]);
  });

  it('upserts a tool call sent twice with the same id, then updates it', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read' });
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read src/a.ts', kind: 'read', status: 'in_progress' });
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] });
    const tools = t.snapshot().filter(i => i.kind === 'tool');
    assert.equal(tools.length, 1);
    const tool = (tools[0] as Extract<Item, { kind: 'tool' }>).tool;
    assert.deepEqual([tool.title, tool.status, tool.content], ['Read src/a.ts', 'completed', [{ type: 'text', text: 'done' }]]);
  });

  it('shows diff content as a bounded preview with counts, and keeps terminal references', () => {
    const t = new Transcript();
    const oldText = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const newText = oldText.replace('line 10', 'LINE TEN').replace('line 400', 'line 400\nadded');
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'e', title: 'Edit', kind: 'edit', rawInput: { path: '/w/a.txt' },
      content: [{ type: 'diff', path: '/w/a.txt', oldText, newText }, { type: 'terminal', terminalId: 'term-1' }] });
    const tool = (t.snapshot()[0] as Extract<Item, { kind: 'tool' }>).tool;
    const [diff, term] = tool.content;
    assert.ok(diff.type === 'diff');
    assert.deepEqual([diff.path, diff.isNew, diff.preview.added, diff.preview.removed], ['/w/a.txt', false, 2, 1]);
    assert.ok(diff.preview.lines.includes('-line 10') && diff.preview.lines.includes('+LINE TEN') && diff.preview.lines.includes('+added'));
    assert.deepEqual(term, { type: 'terminal', terminalId: 'term-1' });
    assert.equal(tool.rawInput, '{\n  "path": "/w/a.txt"\n}');
  });

  it('a diff with null oldText is a new file', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'n', title: 'Write', content: [{ type: 'diff', path: '/w/new.txt', oldText: null, newText: 'a\nb\n' }] });
    const diff = (t.snapshot()[0] as Extract<Item, { kind: 'tool' }>).tool.content[0];
    assert.ok(diff.type === 'diff' && diff.isNew && diff.preview.added === 2 && diff.preview.removed === 0);
  });

  it('creates a card for an update whose tool_call never arrived', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'failed' });
    const tool = (t.snapshot()[0] as Extract<Item, { kind: 'tool' }>).tool;
    assert.deepEqual([tool.status, tool.title], ['failed', 'Tool call']);
  });

  it('marks unfinished tool calls cancelled when the turn is cancelled', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' });
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'completed' });
    t.endTurn('cancelled');
    const statuses = t.snapshot().flatMap(i => (i.kind === 'tool' ? [i.tool.status] : i.kind === 'turnEnd' ? [i.stopReason] : []));
    assert.deepEqual(statuses, ['cancelled', 'completed', 'cancelled']);
  });

  it('a turn that ends normally leaves no tool call spinning: unfinished calls say no result was reported', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' });
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'completed' });
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'C' });
    t.endTurn('end_turn');
    const statuses = t.snapshot().flatMap(i => (i.kind === 'tool' ? [i.tool.status] : []));
    assert.deepEqual(statuses, ['unfinished', 'completed', 'unfinished']);
  });

  it('a chunk after the turn ended starts a new message instead of extending the old one', () => {
    const t = new Transcript();
    t.applyUpdate(chunk('first'));
    t.endTurn('end_turn');
    t.applyUpdate(chunk('late'));
    assert.deepEqual(t.snapshot().map(i => i.kind), ['agent', 'turnEnd', 'agent']);
  });

  it('ignores updates it does not display without failing', () => {
    const t = new Transcript();
    assert.deepEqual(t.applyUpdate({ sessionUpdate: 'usage_update', used: 1, size: 2 }), []);
    assert.deepEqual(t.applyUpdate({ sessionUpdate: 'brand_new_variant' } as unknown as SessionUpdate), []);
  });

  it('its ops replayed in order rebuild exactly the snapshot', () => {
    const t = new Transcript();
    const view = new Map<string, Item>();
    replay(t.addUser('go'), view);
    for (let i = 0; i < 500; i++) replay(t.applyUpdate(chunk(`${i} `)), view);
    replay(t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'z', title: 'Z' }), view);
    replay(t.endTurn('end_turn'), view);
    assert.deepEqual([...view.values()], t.snapshot());
  });

  it('resolves a permission once; a second answer changes nothing', () => {
    const t = new Transcript();
    const { id } = t.addPermission({ requestId: 'r', title: 'Run rm?', options: [{ optionId: 'no', name: 'Reject', kind: 'reject_once' }] });
    assert.equal(t.resolvePermission(id, 'Reject').length, 1);
    assert.deepEqual(t.resolvePermission(id, 'Allow'), []);
    const p = t.get(id) as Extract<Item, { kind: 'permission' }>;
    assert.equal(p.permission.outcome, 'Reject');
  });
});
