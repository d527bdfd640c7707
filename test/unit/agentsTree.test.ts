import assert from 'node:assert/strict';
import { agentsTree, ConversationFacts, modeAndModel } from '../../src/common/conversation/agentsTree';
import { EMPTY_LIFECYCLE, run } from '../../src/common/conversation/lifecycle';
import { WaitNotices, waitingLabel, waitingMessage, type Waiter } from '../../src/common/conversation/waiting';

const modeMeta: ConversationFacts['meta'] = {
  configOptions: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'auto', name: 'Auto' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'm2', options: [{ group: 'g', name: 'G', options: [{ value: 'm1', name: 'Small' }, { value: 'm2', name: 'Large' }] }] },
  ],
};

/** A streams in t1 and waits on a permission; B streams in t2; t3 has no agent yet; A's t4 is new. */
function twoAgents() {
  return run(EMPTY_LIFECYCLE, [
    { type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' },
    { type: 'agentReady', agent: 'A' }, { type: 'sessionOpened', conversation: 't1', sessionId: 'a1' }, { type: 'asked', conversation: 't1', reason: 'permission' },
    { type: 'opened', conversation: 't2' }, { type: 'agentChosen', conversation: 't2', agent: 'B' }, { type: 'prompted', conversation: 't2' },
    { type: 'agentReady', agent: 'B' }, { type: 'sessionOpened', conversation: 't2', sessionId: 'b1' },
    { type: 'opened', conversation: 't3' },
    { type: 'opened', conversation: 't4', agent: 'A' },
  ]).state;
}

describe('Agents view (tree data)', () => {
  it('lists each agent with its conversations in tab order, what each does, and leaves out a conversation with no agent', () => {
    const facts = (id: string): ConversationFacts => ({ title: `Chat ${id}`, pending: id === 't1' ? { permission: 1 } : {}, ...(id === 't1' ? { meta: modeMeta } : {}) });
    const tree = agentsTree(twoAgents(), facts);
    assert.deepEqual(tree.map(a => [a.name, a.phase, a.contextValue, a.conversations.map(c => [c.id, c.status])]), [
      ['A', 'ready', 'switchboard.agent.running', [['t1', 'waiting'], ['t4', 'new']]],
      ['B', 'ready', 'switchboard.agent.running', [['t2', 'working']]],
    ]);
    const t1 = tree[0].conversations[0];
    assert.equal(t1.label, 'Chat t1');
    assert.equal(t1.description, 'waiting for you: permission · Ask · Large');
    assert.equal(t1.contextValue, 'switchboard.conversation.waiting');
    assert.equal(t1.icon, 'bell-dot');
    assert.match(t1.tooltip, /Open requests: permission × 1/);
    assert.match(t1.tooltip, /Mode: Ask\nModel: Large/);
    assert.equal(tree[0].description, 'running · 1 waiting for you');
    assert.equal(tree[1].conversations[0].description, 'working');
  });

  it('a crashed agent says why, and its conversations say crashed; a stopped one offers Start', () => {
    const s = run(twoAgents(), [{ type: 'crashed', agent: 'A', reason: 'A fell over' }, { type: 'stopConfirmed', agent: 'B' }]).state;
    const tree = agentsTree(s, () => undefined);
    assert.deepEqual(tree.map(a => [a.name, a.phase, a.contextValue, a.tooltip]), [
      ['A', 'crashed', 'switchboard.agent.stopped', 'A: A fell over'],
      ['B', 'stopped', 'switchboard.agent.stopped', 'B: not running'],
    ]);
    assert.deepEqual(tree[0].conversations.map(c => [c.label, c.status, c.icon]), [['t1', 'crashed', 'error'], ['t4', 'crashed', 'error']]);
    assert.deepEqual(tree[1].conversations.map(c => c.status), ['done']);
  });

  it('an empty model (nothing opened) is an empty tree', () => {
    assert.deepEqual(agentsTree(EMPTY_LIFECYCLE, () => undefined), []);
  });

  it('mode and model: legacy modes by name, an unknown current value as it is, nothing without a session', () => {
    assert.deepEqual(modeAndModel({ modes: { currentModeId: 'plan', availableModes: [{ id: 'plan', name: 'Plan' }] }, configOptions: [] }), { mode: 'Plan' });
    assert.deepEqual(modeAndModel({ configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'x9', options: [] }] }), { model: 'x9' });
    assert.deepEqual(modeAndModel(undefined), {});
  });
});

describe('conversations waiting for the user (status bar, notifications)', () => {
  const w = (id: string, agent = 'A', waitingFor: Waiter['waitingFor'] = ['permission']): Waiter => ({ id, title: `Chat ${id}`, agent, waitingFor });

  it('the status bar counts them and is hidden at 0', () => {
    assert.equal(waitingLabel([]), undefined);
    assert.equal(waitingLabel([w('t1')])?.text, 'A is waiting for you');
    const two = waitingLabel([w('t1'), w('t2', 'B', ['review', 'question'])])!;
    assert.equal(two.text, '2 conversations are waiting for you');
    assert.equal(two.tooltip, '“Chat t1” (A): permission\n“Chat t2” (B): review, question\nClick to open the first one.');
  });

  it('the notification names the conversation and what it waits for', () => {
    assert.equal(waitingMessage(w('t2', 'B', ['question'])), '“Chat t2” (B) is waiting for you: question.');
  });

  it('names each wait once, only while its chat is not shown; a new wait is named again', () => {
    const notices = new WaitNotices();
    const hidden = () => false;
    assert.deepEqual(notices.next([w('t1')], hidden).map(x => x.id), ['t1']);
    assert.deepEqual(notices.next([w('t1', 'A', ['permission', 'review'])], hidden), [], 'the same wait, another request: not again');
    assert.deepEqual(notices.next([w('t1'), w('t2')], id => id === 't2').map(x => x.id), [], 't2 is on screen');
    assert.deepEqual(notices.next([w('t1'), w('t2')], hidden), [], 't2 was seen while it waited');
    assert.deepEqual(notices.next([], hidden), []);
    assert.deepEqual(notices.next([w('t1')], hidden).map(x => x.id), ['t1'], 'it waits again');
  });
});
