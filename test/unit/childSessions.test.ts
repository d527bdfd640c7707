import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { ChildRegistry, childState, MAX_DEPTH, rollUpCost, rollUpUsage } from '../../src/common/childSessions';
import { Transcript } from '../../src/common/transcript';

type SubagentUpdate = Extract<SessionUpdate, { sessionUpdate: 'subagent_update' }>;
const sub = (sessionId: string, rest: Partial<SubagentUpdate> = {}): SubagentUpdate => ({ sessionUpdate: 'subagent_update', sessionId, ...rest });
const ok = (r: ReturnType<ChildRegistry['apply']>) => { if ('refused' in r) throw new Error(r.refused); return r.child; };

describe('child sessions (subagent_update)', () => {
  const registry = () => new ChildRegistry(id => id === 'root');

  it('announces a child on a conversation\'s session; patches keep omitted fields and clear null ones', () => {
    const r = registry();
    const a = ok(r.apply('root', sub('c1', { title: 'Explore', description: 'Find tests', capabilities: { cancel: {} }, state: { state: 'running' } }), 1000));
    assert.deepEqual([a.title, a.task, a.state, a.canCancel, a.depth, a.startedAt, a.endedAt], ['Explore', 'Find tests', 'running', true, 1, 1000, undefined]);
    const b = ok(r.apply('root', sub('c1', { description: null, state: { state: 'requires_action' } }), 2000));
    assert.deepEqual([b.title, b.task, b.state, b.canCancel], ['Explore', undefined, 'needsYou', true]);
    const c = ok(r.apply('root', sub('c1', { state: { state: 'idle', stopReason: 'end_turn' } }), 5000));
    assert.deepEqual([c.state, c.stopReason, c.startedAt, c.endedAt], ['idle', 'end_turn', 1000, 5000]);
    assert.equal(ok(r.apply('root', sub('c1', { capabilities: null }), 6000)).canCancel, false);
  });

  it('serves only announced ids, nested through their parents; refuses the rest', () => {
    const r = registry();
    assert.equal(r.rootOf('c1'), undefined);
    ok(r.apply('root', sub('c1'), 0));
    ok(r.apply('c1', sub('c2'), 0));
    assert.deepEqual([r.rootOf('c1'), r.rootOf('c2'), r.get('c2')?.depth], ['root', 'root', 2]);
    assert.deepEqual(r.apply('stranger', sub('c3'), 0), { refused: 'announced by an unknown session' });
    assert.deepEqual(r.apply('c2', sub('c1'), 0), { refused: 'already a child of another session' });
    assert.ok('refused' in r.apply('root', sub('root'), 0));
    let parent = 'c2';
    for (let i = 3; i <= MAX_DEPTH; i++) { ok(r.apply(parent, sub(`c${i}`), 0)); parent = `c${i}`; }
    assert.deepEqual(r.apply(parent, sub('too-deep'), 0), { refused: 'nested too deep' });
    r.forget('root');
    assert.equal(r.rootOf('c2'), undefined);
  });

  it('counts each tool call once and lists the children still working', () => {
    const r = registry();
    ok(r.apply('root', sub('c1', { state: { state: 'running' } }), 0));
    ok(r.apply('root', sub('c2', { state: { state: 'idle' } }), 0));
    assert.equal(r.noteToolCall('c1', 't1')?.toolCalls, 1);
    assert.equal(r.noteToolCall('c1', 't1'), undefined);
    assert.deepEqual(r.workingChildrenOf('root').map(c => c.sessionId), ['c1']);
    assert.equal(childState({ state: 'something-new' }), 'unknown');
    assert.equal(childState(null), 'unset');
  });

  it('keeps a child\'s transcript apart: its own stream and tool ids, under its card; the parent\'s message keeps growing', () => {
    const t = new Transcript();
    t.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'parent ' } });
    const r = registry();
    t.upsertChild(ok(r.apply('root', sub('c1', { title: 'A' }), 0)));
    t.applyInChild('c1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'child ' } });
    t.applyInChild('c1', { sessionUpdate: 'tool_call', toolCallId: 'same', title: 'child tool' });
    t.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'same', title: 'parent tool' });
    t.applyUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'more' } });
    t.applyInChild('c1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'again' } });
    const shown = t.snapshot().map(i => `${i.inChild ?? '-'} ${i.kind} ${i.kind === 'agent' ? i.text : i.kind === 'tool' ? i.tool.title : ''}`.trim());
    assert.deepEqual(shown, ['- agent parent', '- child', 'c1 agent child', 'c1 tool child tool', '- tool parent tool', '- agent more', 'c1 agent again']);
    const ops = t.endTurn('end_turn', new Set(['c1']));
    assert.equal(ops.filter(o => o.op === 'replace').length, 1, 'only the parent\'s pending call is marked, the working child\'s keeps running');
  });

  it('shows a message between sessions once per messageId: upserted, chunks appended', () => {
    const t = new Transcript();
    t.sessionMessage(undefined, 'm', { from: 'Agent', to: 'A', text: 'Do it' });
    t.sessionMessage(undefined, 'm', { append: ' now' });
    t.sessionMessage('c1', 'm', { from: 'Agent', to: 'A', text: 'Do it' });
    const msgs = t.snapshot().filter(i => i.kind === 'sessionMessage');
    assert.deepEqual(msgs.map(m => [m.inChild, m.kind === 'sessionMessage' && `${m.from}→${m.to}: ${m.text}`]), [[undefined, 'Agent→A: Do it now'], ['c1', 'Agent→A: Do it']]);
  });

  it('adds its children\'s costs to the conversation\'s, in its currency only', () => {
    assert.deepEqual(rollUpCost({ amount: 1, currency: 'USD' }, [{ amount: 0.25, currency: 'USD' }, { amount: 9, currency: 'EUR' }]), { amount: 1.25, currency: 'USD' });
    assert.deepEqual(rollUpCost(undefined, [{ amount: 0.5, currency: 'USD' }]), { amount: 0.5, currency: 'USD' });
    assert.equal(rollUpCost(undefined, []), undefined);
  });

  it('counts its children\'s tokens apart from the conversation\'s own context, and adds their costs', () => {
    const own = { used: 5000, size: 200000, cost: { amount: 1, currency: 'USD' } };
    assert.deepEqual(rollUpUsage(own, [{ used: 1000, cost: { amount: 0.25, currency: 'USD' } }, { used: 3000 }]),
      { used: 5000, size: 200000, cost: { amount: 1.25, currency: 'USD' }, helpers: { tokens: 4000, count: 2 } });
    assert.equal(rollUpUsage(own, []), own, 'no children: the conversation\'s own, unchanged');
    assert.equal(rollUpUsage(undefined, []), undefined);
    assert.deepEqual(rollUpUsage(undefined, [{ used: 700 }, { used: Number.NaN }, { used: -5 }]),
      { used: 0, size: 0, helpers: { tokens: 700, count: 3 } }, 'the conversation reported nothing yet; nonsense counts as 0');
  });
});
