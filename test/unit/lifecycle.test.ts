import assert from 'node:assert/strict';
import {
  activeTurnsOf, agentPhase, conversation, conversationStatus, EMPTY_LIFECYCLE, waitingConversations, LifecycleEvent, LifecycleState, run, transition,
} from '../../src/common/conversation/lifecycle';

const turn = (s: LifecycleState, id: string) => conversation(s, id)?.turn;
const agentOf = (s: LifecycleState, id: string) => conversation(s, id)?.agent;

/** Conversation 1 talks to A and streams (its turn runs); the state and effects up to there. */
function streamingOn(agent: string, id = 't1', from: LifecycleState = EMPTY_LIFECYCLE): LifecycleState {
  return run(from, [
    { type: 'opened', conversation: id },
    { type: 'agentChosen', conversation: id, agent },
    { type: 'prompted', conversation: id },
    { type: 'agentReady', agent },
    { type: 'sessionOpened', conversation: id, sessionId: `${agent}-s1` },
  ]).state;
}

describe('conversation lifecycle', () => {
  it('a first prompt starts the chosen agent, opens the session once it is ready, then sends', () => {
    let s = run(EMPTY_LIFECYCLE, [{ type: 'opened', conversation: 't1' }]).state;
    let t = transition(s, { type: 'agentChosen', conversation: 't1', agent: 'A' });
    assert.deepEqual(t.effects, [{ type: 'spawn', agent: 'A' }]);
    assert.equal(agentPhase(t.state, 'A'), 'starting');
    t = transition(t.state, { type: 'prompted', conversation: 't1' });
    assert.deepEqual(t.effects, [], 'the agent starts already: the prompt waits');
    assert.equal(turn(t.state, 't1'), 'opening');
    t = transition(t.state, { type: 'agentReady', agent: 'A' });
    assert.deepEqual(t.effects, [{ type: 'openSession', conversation: 't1', agent: 'A', resume: false }]);
    t = transition(t.state, { type: 'sessionOpened', conversation: 't1', sessionId: 's1' });
    assert.deepEqual(t.effects, [{ type: 'sendPrompt', conversation: 't1' }]);
    assert.equal(turn(t.state, 't1'), 'running');
    s = transition(t.state, { type: 'turnEnded', conversation: 't1' }).state;
    assert.equal(turn(s, 't1'), 'none');
    // The next prompt goes straight to the session.
    t = transition(s, { type: 'prompted', conversation: 't1' });
    assert.deepEqual(t.effects, [{ type: 'sendPrompt', conversation: 't1' }]);
    assert.equal(turn(t.state, 't1'), 'running');
    assert.ok(conversation(t.state, 't1')?.hasHistory);
  });

  it('a prompt in a conversation with no agent yet does nothing (the host asks which agent first)', () => {
    const s = run(EMPTY_LIFECYCLE, [{ type: 'opened', conversation: 't1' }]).state;
    const t = transition(s, { type: 'prompted', conversation: 't1' });
    assert.deepEqual(t, { state: s, effects: [] });
  });

  it('a second prompt while the turn runs changes nothing (it is queued by the host)', () => {
    const s = streamingOn('A');
    assert.deepEqual(transition(s, { type: 'prompted', conversation: 't1' }).effects, []);
  });

  it('agent B chosen in another tab while A starts: B is spawned, A is never stopped, each tab talks to its own', () => {
    let s = run(EMPTY_LIFECYCLE, [
      { type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' },
      { type: 'opened', conversation: 't2' },
    ]).state;
    const t = transition(s, { type: 'agentChosen', conversation: 't2', agent: 'B' });
    assert.deepEqual(t.effects, [{ type: 'spawn', agent: 'B' }]);
    assert.equal(agentPhase(t.state, 'A'), 'starting');
    s = run(t.state, [{ type: 'prompted', conversation: 't2' }]).state;
    const ready = run(s, [{ type: 'agentReady', agent: 'B' }, { type: 'agentReady', agent: 'A' }]);
    assert.deepEqual(ready.effects, [
      { type: 'openSession', conversation: 't2', agent: 'B', resume: false },
      { type: 'openSession', conversation: 't1', agent: 'A', resume: false },
    ]);
  });

  it('agent B chosen in the same fresh tab while A starts: the tab talks to B; A is left to start and is not used by it', () => {
    let s = run(EMPTY_LIFECYCLE, [
      { type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' },
    ]).state;
    const t = transition(s, { type: 'agentChosen', conversation: 't1', agent: 'B' });
    assert.deepEqual(t.effects, [{ type: 'spawn', agent: 'B' }], 'no kill of A');
    assert.equal(agentOf(t.state, 't1'), 'B');
    s = run(t.state, [{ type: 'prompted', conversation: 't1' }]).state;
    assert.deepEqual(transition(s, { type: 'agentReady', agent: 'A' }).effects, [], 'A ready: no session of t1 on A');
    assert.deepEqual(transition(s, { type: 'agentReady', agent: 'B' }).effects, [{ type: 'openSession', conversation: 't1', agent: 'B', resume: false }]);
  });

  it('choosing the agent already running for a fresh tab opens its session without a second process', () => {
    const s = run(streamingOn('A'), [{ type: 'opened', conversation: 't2' }]).state;
    const t = transition(s, { type: 'agentChosen', conversation: 't2', agent: 'A' });
    assert.deepEqual(t.effects, [{ type: 'openSession', conversation: 't2', agent: 'A', resume: false }]);
    assert.deepEqual(transition(s, { type: 'agentChosen', conversation: 't1', agent: 'A' }).effects, [], 'its own agent, attached: nothing to do');
  });

  it('another agent for a conversation with history asks first, and continues in a new conversation', () => {
    let s = run(streamingOn('A'), [{ type: 'turnEnded', conversation: 't1' }]).state;
    let t = transition(s, { type: 'agentChosen', conversation: 't1', agent: 'B' });
    assert.deepEqual(t.effects, [{ type: 'confirmSwitch', conversation: 't1', from: 'A', to: 'B' }]);
    assert.equal(t.state, s, 'nothing changes until the user answers');
    t = transition(s, { type: 'switchConfirmed', conversation: 't1', agent: 'B', newConversation: 't2' });
    assert.deepEqual(t.effects, [{ type: 'spawn', agent: 'B' }]);
    assert.equal(agentOf(t.state, 't1'), 'A', 'the old conversation keeps its agent');
    assert.equal(agentOf(t.state, 't2'), 'B');
    assert.equal(agentPhase(t.state, 'A'), 'ready');
    s = t.state;
    assert.deepEqual(transition(s, { type: 'agentReady', agent: 'B' }).effects, [], 'an empty conversation opens its session when prompted');
    // B ready already: the new conversation's session opens at once.
    const withB = run(s, [{ type: 'agentReady', agent: 'B' }]).state;
    const again = transition(withB, { type: 'switchConfirmed', conversation: 't1', agent: 'B', newConversation: 't3' });
    assert.deepEqual(again.effects, [{ type: 'openSession', conversation: 't3', agent: 'B', resume: false }]);
    assert.deepEqual(transition(withB, { type: 'switchConfirmed', conversation: 't1', agent: 'B', newConversation: 't2' }).effects, [], 'an id in use is not reused');
  });

  it('A crashes while B streams: only A\'s turns end, each saying so; B\'s turn runs on', () => {
    let s = streamingOn('A', 't1');
    s = streamingOn('B', 't2', s);
    s = run(s, [{ type: 'opened', conversation: 't3' }, { type: 'agentChosen', conversation: 't3', agent: 'A' }]).state;
    const t = transition(s, { type: 'crashed', agent: 'A', reason: 'A exited with code 1' });
    assert.deepEqual(t.effects, [{ type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'crashed', reason: 'A exited with code 1' }],
      'the idle conversation of A gets no turn-end notice');
    assert.equal(agentPhase(t.state, 'A'), 'crashed');
    assert.equal(t.state.agents.A.reason, 'A exited with code 1');
    assert.equal(turn(t.state, 't1'), 'none');
    assert.equal(conversation(t.state, 't1')?.attached, false);
    assert.equal(conversation(t.state, 't1')?.sessionId, 'A-s1', 'kept, to load it again');
    assert.equal(turn(t.state, 't2'), 'running');
    assert.equal(agentPhase(t.state, 'B'), 'ready');
    // A crash of what is not running changes nothing.
    assert.deepEqual(transition(t.state, { type: 'crashed', agent: 'A', reason: 'again' }).effects, []);
    // The next prompt in A's conversation starts A again and resumes its session.
    const back = run(t.state, [{ type: 'prompted', conversation: 't1' }, { type: 'agentReady', agent: 'A' }]);
    assert.deepEqual(back.effects, [{ type: 'spawn', agent: 'A' }, { type: 'openSession', conversation: 't1', agent: 'A', resume: true }]);
  });

  it('a crash while a turn waits on a permission answers it cancelled and says where the turn stopped', () => {
    const s = run(streamingOn('A'), [{ type: 'asked', conversation: 't1' }]).state;
    assert.equal(turn(s, 't1'), 'waiting');
    assert.deepEqual(transition(s, { type: 'crashed', agent: 'A', reason: 'gone' }).effects, [
      { type: 'cancelRequests', conversation: 't1' },
      { type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'crashed', reason: 'gone' },
    ]);
  });

  it('a crash while a prompt waits for its session ends that prompt with a notice too', () => {
    const s = run(EMPTY_LIFECYCLE, [
      { type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' }, { type: 'agentReady', agent: 'A' },
    ]).state;
    assert.equal(turn(s, 't1'), 'opening');
    assert.deepEqual(transition(s, { type: 'crashed', agent: 'A', reason: 'x' }).effects, [{ type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'crashed', reason: 'x' }]);
  });

  it('a failed start ends the prompts that waited for it with why; another agent is untouched', () => {
    let s = streamingOn('B', 't2');
    s = run(s, [{ type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' }]).state;
    const t = transition(s, { type: 'startFailed', agent: 'A', reason: 'command not found' });
    assert.deepEqual(t.effects, [{ type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'startFailed', reason: 'command not found' }]);
    assert.deepEqual(t.state.agents.A, { phase: 'stopped', stoppedBy: 'startFailed', reason: 'command not found' });
    assert.equal(turn(t.state, 't2'), 'running');
    const cancelled = transition(s, { type: 'startFailed', agent: 'A', reason: 'cancelled', cancelled: true });
    assert.equal(cancelled.state.agents.A.stoppedBy, 'startCancelled');
    assert.deepEqual(transition(t.state, { type: 'startFailed', agent: 'A', reason: 'late' }).effects, [], 'not starting: ignored');
    assert.deepEqual(transition(t.state, { type: 'agentReady', agent: 'A' }).effects, [], 'not starting: ignored');
  });

  it('stop asked with turns running in other tabs asks first; confirmed, it ends only that agent\'s turns, each with a notice', () => {
    let s = streamingOn('A', 't1');
    s = streamingOn('A', 't2', s);
    s = streamingOn('B', 't3', s);
    const asked = transition(s, { type: 'stopAsked', agent: 'A', from: 't1' });
    assert.deepEqual(asked.effects, [{ type: 'confirmStop', agent: 'A', conversations: ['t2'] }]);
    assert.equal(asked.state, s, 'nothing stops before the answer');
    const t = transition(s, { type: 'stopConfirmed', agent: 'A' });
    assert.deepEqual(t.effects, [
      { type: 'kill', agent: 'A', cause: 'user' },
      { type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'stopped' },
      { type: 'turnEndedBy', conversation: 't2', agent: 'A', cause: 'stopped' },
    ]);
    assert.deepEqual(t.state.agents.A, { phase: 'stopped', stoppedBy: 'user' });
    assert.equal(turn(t.state, 't3'), 'running');
    assert.equal(agentPhase(t.state, 'B'), 'ready');
  });

  it('stop with no turn in another tab needs no question', () => {
    const s = run(streamingOn('A', 't1'), [{ type: 'opened', conversation: 't2' }, { type: 'agentChosen', conversation: 't2', agent: 'A' }]).state;
    const t = transition(s, { type: 'stopAsked', agent: 'A', from: 't1' });
    assert.deepEqual(t.effects.map(e => e.type), ['kill', 'turnEndedBy']);
    assert.deepEqual(transition(t.state, { type: 'stopAsked', agent: 'A' }).effects, [], 'already stopped');
    // From no tab (a command), every running turn counts as another's.
    assert.deepEqual(transition(s, { type: 'stopAsked', agent: 'A' }).effects, [{ type: 'confirmStop', agent: 'A', conversations: ['t1'] }]);
  });

  it('stop during the start ends the start; the prompt that waited says so', () => {
    const s = run(EMPTY_LIFECYCLE, [{ type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' }]).state;
    const t = transition(s, { type: 'stopAsked', agent: 'A', from: 't1' });
    assert.deepEqual(t.effects, [{ type: 'kill', agent: 'A', cause: 'user' }, { type: 'turnEndedBy', conversation: 't1', agent: 'A', cause: 'stopped' }]);
  });

  it('Stop in a conversation cancels its turn; a waiting permission is answered cancelled first', () => {
    const s = run(streamingOn('A'), [{ type: 'asked', conversation: 't1' }]).state;
    const t = transition(s, { type: 'cancelAsked', conversation: 't1' });
    assert.deepEqual(t.effects, [{ type: 'cancelRequests', conversation: 't1' }, { type: 'cancelTurn', conversation: 't1' }]);
    assert.equal(turn(t.state, 't1'), 'cancelling');
    assert.deepEqual(transition(t.state, { type: 'cancelAsked', conversation: 't1' }).effects, [], 'once');
    assert.equal(turn(transition(t.state, { type: 'turnEnded', conversation: 't1' }).state, 't1'), 'none');
    assert.deepEqual(transition(streamingOn('A'), { type: 'cancelAsked', conversation: 't1' }).effects, [{ type: 'cancelTurn', conversation: 't1' }]);
  });

  it('permissions: asked → waiting, answered → running; the turn ending with one open answers it cancelled', () => {
    let s = streamingOn('A');
    s = transition(s, { type: 'asked', conversation: 't1' }).state;
    assert.equal(turn(s, 't1'), 'waiting');
    assert.equal(turn(transition(s, { type: 'answered', conversation: 't1' }).state, 't1'), 'running');
    assert.deepEqual(transition(s, { type: 'turnEnded', conversation: 't1' }).effects, [{ type: 'cancelRequests', conversation: 't1' }]);
    const idle = run(s, [{ type: 'turnEnded', conversation: 't1' }]).state;
    assert.equal(turn(transition(idle, { type: 'asked', conversation: 't1' }).state, 't1'), 'none', 'outside a turn: no turn state');
    assert.equal(turn(transition(idle, { type: 'answered', conversation: 't1' }).state, 't1'), 'none');
  });

  it('a tab closed during a permission: the request is answered cancelled, the turn cancelled, the session closed; the agent and other tabs stay', () => {
    let s = streamingOn('A', 't1');
    s = streamingOn('A', 't2', s);
    s = transition(s, { type: 'asked', conversation: 't1' }).state;
    const t = transition(s, { type: 'closed', conversation: 't1' });
    assert.deepEqual(t.effects, [
      { type: 'cancelRequests', conversation: 't1' },
      { type: 'cancelTurn', conversation: 't1' },
      { type: 'closeSession', conversation: 't1', agent: 'A', sessionId: 'A-s1' },
    ]);
    assert.equal(conversation(t.state, 't1'), undefined);
    assert.equal(agentPhase(t.state, 'A'), 'ready');
    assert.equal(turn(t.state, 't2'), 'running');
    assert.deepEqual(transition(t.state, { type: 'closed', conversation: 't1' }).effects, [], 'closed once');
    // An idle, detached tab closes with nothing to release.
    const detached = run(streamingOn('A'), [{ type: 'turnEnded', conversation: 't1' }, { type: 'crashed', agent: 'A', reason: 'x' }]).state;
    assert.deepEqual(transition(detached, { type: 'closed', conversation: 't1' }).effects, []);
  });

  it('reload with three tabs on two agents: each keeps its agent and session, nothing runs until a prompt starts its own agent', () => {
    const s = transition(EMPTY_LIFECYCLE, {
      type: 'restored', conversations: [
        { id: 't1', agent: 'A', sessionId: 'a1', hasHistory: true },
        { id: 't2', agent: 'B', sessionId: 'b1', hasHistory: true },
        { id: 't3', agent: 'A', hasHistory: false },
      ],
    });
    assert.deepEqual(s.effects, [], 'no process starts at load');
    assert.deepEqual(s.state.conversations.map(c => [c.id, c.agent, c.sessionId, c.attached, c.turn]), [
      ['t1', 'A', 'a1', false, 'none'], ['t2', 'B', 'b1', false, 'none'], ['t3', 'A', undefined, false, 'none'],
    ]);
    assert.equal(agentPhase(s.state, 'A'), 'stopped');
    const t = run(s.state, [
      { type: 'prompted', conversation: 't2' }, { type: 'agentReady', agent: 'B' },
      { type: 'prompted', conversation: 't1' }, { type: 'prompted', conversation: 't3' }, { type: 'agentReady', agent: 'A' },
    ]);
    assert.deepEqual(t.effects, [
      { type: 'spawn', agent: 'B' }, { type: 'openSession', conversation: 't2', agent: 'B', resume: true },
      { type: 'spawn', agent: 'A' },
      { type: 'openSession', conversation: 't1', agent: 'A', resume: true }, { type: 'openSession', conversation: 't3', agent: 'A', resume: false },
    ]);
    // Restored twice (a second view): no duplicates.
    assert.equal(transition(s.state, { type: 'restored', conversations: [{ id: 't1', agent: 'A', hasHistory: true }] }).state.conversations.length, 3);
  });

  it('a restored conversation with history asks before another agent takes it', () => {
    const s = transition(EMPTY_LIFECYCLE, { type: 'restored', conversations: [{ id: 't1', agent: 'A', sessionId: 'a1', hasHistory: true }] }).state;
    assert.deepEqual(transition(s, { type: 'agentChosen', conversation: 't1', agent: 'B' }).effects, [{ type: 'confirmSwitch', conversation: 't1', from: 'A', to: 'B' }]);
  });

  it('idle timeout stops an agent with nothing to do, keeping its sessions; a turn anywhere keeps it running', () => {
    let s = streamingOn('A', 't1');
    s = streamingOn('A', 't2', s);
    assert.deepEqual(transition(s, { type: 'idleTimeout', agent: 'A' }).effects, [], 'turns run');
    s = run(s, [{ type: 'turnEnded', conversation: 't1' }]).state;
    assert.deepEqual(transition(s, { type: 'idleTimeout', agent: 'A' }).effects, [], 'one still runs');
    s = run(s, [{ type: 'turnEnded', conversation: 't2' }]).state;
    const t = transition(s, { type: 'idleTimeout', agent: 'A' });
    assert.deepEqual(t.effects, [{ type: 'kill', agent: 'A', cause: 'idle' }], 'no turn ended: no notice');
    assert.deepEqual(t.state.agents.A, { phase: 'stopped', stoppedBy: 'idle' });
    assert.deepEqual(t.state.conversations.map(c => [c.sessionId, c.attached]), [['A-s1', false], ['A-s1', false]]);
    assert.deepEqual(transition(t.state, { type: 'idleTimeout', agent: 'A' }).effects, [], 'not running');
    // On demand again: the session is resumed or loaded.
    const back = run(t.state, [{ type: 'prompted', conversation: 't1' }, { type: 'agentReady', agent: 'A' }]);
    assert.deepEqual(back.effects, [{ type: 'spawn', agent: 'A' }, { type: 'openSession', conversation: 't1', agent: 'A', resume: true }]);
  });

  it('a session that fails to open ends the wait; one opened for a conversation of an agent not ready is ignored', () => {
    const s = run(EMPTY_LIFECYCLE, [
      { type: 'opened', conversation: 't1' }, { type: 'agentChosen', conversation: 't1', agent: 'A' }, { type: 'prompted', conversation: 't1' }, { type: 'agentReady', agent: 'A' },
    ]).state;
    assert.equal(turn(transition(s, { type: 'sessionFailed', conversation: 't1' }).state, 't1'), 'none');
    const crashed = run(s, [{ type: 'crashed', agent: 'A', reason: 'x' }]).state;
    assert.deepEqual(transition(crashed, { type: 'sessionOpened', conversation: 't1', sessionId: 's' }).effects, []);
    // A session opened with no prompt waiting (a new conversation on a running agent) sends nothing.
    const fresh = run(streamingOn('A'), [{ type: 'opened', conversation: 't2', agent: 'A' }]).state;
    const opened = transition(fresh, { type: 'sessionOpened', conversation: 't2', sessionId: 's2' });
    assert.deepEqual(opened.effects, []);
    assert.deepEqual([conversation(opened.state, 't2')?.attached, turn(opened.state, 't2')], [true, 'none']);
  });

  it('events about unknown conversations change nothing', () => {
    const s = streamingOn('A');
    const events: LifecycleEvent[] = [
      { type: 'agentChosen', conversation: 'x', agent: 'A' }, { type: 'switchConfirmed', conversation: 'x', agent: 'B', newConversation: 'y' },
      { type: 'prompted', conversation: 'x' }, { type: 'sessionOpened', conversation: 'x', sessionId: 's' }, { type: 'sessionFailed', conversation: 'x' },
      { type: 'asked', conversation: 'x' }, { type: 'answered', conversation: 'x' }, { type: 'cancelAsked', conversation: 'x' },
      { type: 'turnEnded', conversation: 'x' }, { type: 'closed', conversation: 'x' }, { type: 'opened', conversation: 't1' },
    ];
    for (const e of events) assert.deepEqual(transition(s, e), { state: s, effects: [] }, e.type);
  });

  it('activeTurnsOf lists the turns that hold an agent', () => {
    let s = streamingOn('A', 't1');
    s = streamingOn('B', 't2', s);
    s = run(s, [{ type: 'opened', conversation: 't3' }, { type: 'agentChosen', conversation: 't3', agent: 'A' }, { type: 'prompted', conversation: 't3' }]).state;
    assert.deepEqual(activeTurnsOf(s, 'A').map(c => c.id), ['t1', 't3']);
  });

  describe('what a conversation is doing (the Agents view, the status bar)', () => {
    const status = (s: LifecycleState, id: string) => conversationStatus(s, conversation(s, id)!);

    it('new, starting while its agent and session start, working, done after its turn', () => {
      let s = run(EMPTY_LIFECYCLE, [{ type: 'opened', conversation: 't1' }]).state;
      assert.deepEqual(status(s, 't1'), { status: 'new', waitingFor: [] });
      s = run(s, [{ type: 'agentChosen', conversation: 't1', agent: 'A' }]).state;
      assert.equal(status(s, 't1').status, 'starting', 'its agent starts');
      s = run(s, [{ type: 'prompted', conversation: 't1' }, { type: 'agentReady', agent: 'A' }]).state;
      assert.equal(status(s, 't1').status, 'starting', 'its prompt waits for its session');
      s = run(s, [{ type: 'sessionOpened', conversation: 't1', sessionId: 's1' }]).state;
      assert.equal(status(s, 't1').status, 'working');
      s = run(s, [{ type: 'turnEnded', conversation: 't1' }]).state;
      assert.deepEqual(status(s, 't1'), { status: 'done', waitingFor: [] });
    });

    it('waiting says what for; each answer takes its reason away; the last one resumes the turn', () => {
      let s = run(streamingOn('A'), [
        { type: 'asked', conversation: 't1', reason: 'question' },
        { type: 'asked', conversation: 't1', reason: 'review' },
        { type: 'asked', conversation: 't1', reason: 'question' },
      ]).state;
      assert.deepEqual(status(s, 't1'), { status: 'waiting', waitingFor: ['question', 'review'] });
      assert.deepEqual(waitingConversations(s).map(c => c.id), ['t1']);
      s = transition(s, { type: 'answered', conversation: 't1', reason: 'question' }).state;
      assert.deepEqual(status(s, 't1'), { status: 'waiting', waitingFor: ['review'] });
      s = transition(s, { type: 'answered', conversation: 't1', reason: 'review' }).state;
      assert.deepEqual([turn(s, 't1'), status(s, 't1').status], ['running', 'working']);
      assert.deepEqual(waitingConversations(s), []);
    });

    it('a request with no reason is a permission; an answer with no reason answers everything', () => {
      let s = transition(streamingOn('A'), { type: 'asked', conversation: 't1' }).state;
      assert.deepEqual(status(s, 't1').waitingFor, ['permission']);
      s = run(s, [{ type: 'asked', conversation: 't1', reason: 'review' }, { type: 'answered', conversation: 't1' }]).state;
      assert.deepEqual([turn(s, 't1'), conversation(s, 't1')?.waitingFor], ['running', undefined]);
    });

    it('a request in a conversation with no running turn makes nothing wait', () => {
      const s = run(EMPTY_LIFECYCLE, [{ type: 'opened', conversation: 't1', agent: 'A' }]).state;
      assert.equal(status(transition(s, { type: 'asked', conversation: 't1', reason: 'review' }).state, 't1').status, 'new');
    });

    it('a cancel, the end of the turn, a stop or a crash ends the wait', () => {
      const waiting = run(streamingOn('A'), [{ type: 'asked', conversation: 't1', reason: 'question' }]).state;
      for (const e of [
        { type: 'cancelAsked', conversation: 't1' }, { type: 'turnEnded', conversation: 't1' },
        { type: 'stopConfirmed', agent: 'A' }, { type: 'crashed', agent: 'A', reason: 'x' },
      ] as LifecycleEvent[]) {
        const s = transition(waiting, e).state;
        assert.equal(conversation(s, 't1')?.waitingFor, undefined, e.type);
        assert.notEqual(status(s, 't1').status, 'waiting', e.type);
      }
    });

    it('crashed with the agent\'s last words, in each of its conversations only; a restart makes it starting again', () => {
      let s = streamingOn('A', 't1');
      s = streamingOn('B', 't2', s);
      s = run(s, [{ type: 'opened', conversation: 't3', agent: 'A' }, { type: 'crashed', agent: 'A', reason: 'A fell over' }]).state;
      assert.deepEqual(status(s, 't1'), { status: 'crashed', waitingFor: [], reason: 'A fell over' });
      assert.equal(status(s, 't3').status, 'crashed');
      assert.equal(status(s, 't2').status, 'working');
      s = transition(s, { type: 'prompted', conversation: 't1' }).state;
      assert.equal(status(s, 't1').status, 'starting');
      assert.equal(status(s, 't3').status, 'starting', 'its agent starts again');
    });

    it('a stopped agent\'s conversations are done (or new), not crashed', () => {
      const s = run(streamingOn('A'), [{ type: 'opened', conversation: 't2', agent: 'A' }, { type: 'stopConfirmed', agent: 'A' }]).state;
      assert.deepEqual([status(s, 't1').status, status(s, 't2').status], ['done', 'new']);
    });
  });
});
