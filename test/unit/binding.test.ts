import assert from 'node:assert/strict';
import { conversationsTold, idleStopAfter, runtimeOfConversation, startOfConversation, turnOf } from '../../src/common/conversation/binding';

const runtime = (name: string, isRunning = true) => ({ name, isRunning });

describe('Conversation binding (which process a conversation means)', () => {
  it('a conversation means its own agent while it runs, never another agent', () => {
    const a = runtime('A');
    const b = runtime('B');
    assert.equal(runtimeOfConversation('A', a, b), a);
    assert.equal(runtimeOfConversation('A', undefined, b), undefined);
    assert.equal(runtimeOfConversation('A', runtime('A', false), b), undefined);
  });

  it('a conversation with no agent yet means the agent started last, while it runs', () => {
    const b = runtime('B');
    assert.equal(runtimeOfConversation('', undefined, b), b);
    assert.equal(runtimeOfConversation('', undefined, runtime('B', false)), undefined);
    assert.equal(runtimeOfConversation('', undefined, undefined), undefined);
  });

  it('Stop during a start cancels the conversation’s own agent’s start, or (no agent yet) the one begun last', () => {
    assert.equal(startOfConversation('A', 'start A', 'start B'), 'start A');
    assert.equal(startOfConversation('A', undefined, 'start B'), undefined);
    assert.equal(startOfConversation('', undefined, 'start B'), 'start B');
  });

  it('an idle agent stops after the idle time only when it can reopen its sessions', () => {
    assert.equal(idleStopAfter(60_000, { loadSession: true }), 60_000);
    assert.equal(idleStopAfter(60_000, { sessionCapabilities: { resume: {} } }), 60_000);
    assert.equal(idleStopAfter(60_000, { loadSession: false, sessionCapabilities: {} }), undefined);
    assert.equal(idleStopAfter(0, { loadSession: true }), undefined, 'no idle time set');
    assert.equal(idleStopAfter(60_000, undefined), undefined, 'not running');
  });

  it('a crash or stray output is told where the process served, else to its agent’s conversations, else where it was asked', () => {
    assert.deepEqual(conversationsTold(['t1'], ['t1', 't2'], 'shown'), ['t1']);
    assert.deepEqual(conversationsTold([], ['t2', 't3'], 'shown'), ['t2', 't3']);
    assert.deepEqual(conversationsTold([], [], 'shown'), ['shown']);
  });

  it('a tab’s turn as the lifecycle model sees it, and what a waiting one waits for', () => {
    const none = { waiting: false, inTurn: false, busy: false, permissions: 0, questions: 0 };
    assert.deepEqual(turnOf(none), { turn: 'none' });
    assert.deepEqual(turnOf({ ...none, busy: true }), { turn: 'opening' });
    assert.deepEqual(turnOf({ ...none, busy: true, inTurn: true }), { turn: 'running' });
    assert.deepEqual(turnOf({ ...none, busy: true, inTurn: true, waiting: true, permissions: 1, questions: 2 }), { turn: 'waiting', waitingFor: ['permission', 'question'] });
    assert.deepEqual(turnOf({ ...none, inTurn: true, waiting: true, questions: 1 }), { turn: 'waiting', waitingFor: ['question'] });
  });
});
