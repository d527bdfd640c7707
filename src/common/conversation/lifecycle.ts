// The binding conversation → agent → process as data: which agent each conversation (a chat tab)
// talks to, where each agent's process is in its life, where each conversation's turn is, and what
// must happen when something changes. `transition(state, event)` is pure and returns the next state
// and the effects the host runs (spawn, open a session, ask the user, end a turn with a notice…).
//
// The rules it keeps (issue 19.1):
// - a conversation is bound to one agent; conversations of different agents run at the same time,
//   each agent's process shared by the conversations bound to it;
// - starting, stopping or crashing one agent never touches another agent's conversations;
// - a conversation whose agent is changed while the first one starts talks to the one chosen last;
// - stopping an agent whose turns run in other conversations asks first;
// - every turn ended by a stop or a crash says so in its conversation (never a silent freeze);
// - another agent for a conversation with history is asked for, and gets a new conversation;
// - a reload keeps each conversation's agent and session; nothing starts until it is needed;
// - an idle agent (no turn, no open request) stops after the idle time; its sessions stay, to be
//   resumed or loaded on the next prompt.

/** An agent's process. `crashed` and `stopped` carry why (shown where a turn ended). */
export type AgentPhase = 'starting' | 'ready' | 'crashed' | 'stopped';

export interface AgentState {
  readonly phase: AgentPhase;
  /** crashed: the agent's last words; stopped: `user`, `idle`, `startFailed` (with `reason`), `startCancelled`. */
  readonly reason?: string;
  readonly stoppedBy?: StopCause;
}

export type StopCause = 'user' | 'idle' | 'startFailed' | 'startCancelled';

/**
 * A conversation's turn: `none` (nothing asked), `opening` (a prompt waits for its agent or session),
 * `running`, `waiting` (a permission or a question is open), `cancelling` (Stop sent, the agent
 * has not ended the turn yet).
 */
export type TurnPhase = 'none' | 'opening' | 'running' | 'waiting' | 'cancelling';

export interface ConversationState {
  readonly id: string;
  /** The agent it is bound to ('' before any agent was chosen for it). */
  readonly agent: string;
  /** Its session on the agent's side; kept when the process ends, to resume or load later. */
  readonly sessionId?: string;
  /** A live session on the running process (false after a stop, a crash, a reload). */
  readonly attached: boolean;
  /** Something was said in it (a user message, a restored transcript). */
  readonly hasHistory: boolean;
  readonly turn: TurnPhase;
  /** While the turn is `waiting`: what for (a permission, a write to review, a question), oldest first. */
  readonly waitingFor?: readonly WaitReason[];
}

/** What a waiting turn waits for: a permission request, an agent's write to review, a question (elicitation). */
export type WaitReason = 'permission' | 'review' | 'question';

export interface LifecycleState {
  readonly agents: Readonly<Record<string, AgentState>>;
  readonly conversations: readonly ConversationState[];
}

export const EMPTY_LIFECYCLE: LifecycleState = { agents: {}, conversations: [] };

/** Why a turn ended without its agent's answer. */
export type TurnEndCause = 'stopped' | 'crashed' | 'startFailed' | 'closed';

export type LifecycleEvent =
  /** A new, empty conversation (a new tab), bound to `agent` if one is known. */
  | { readonly type: 'opened'; readonly conversation: string; readonly agent?: string }
  /** A window reload: the saved conversations come back with their agents and sessions; no process runs. */
  | { readonly type: 'restored'; readonly conversations: readonly { readonly id: string; readonly agent: string; readonly sessionId?: string; readonly hasHistory: boolean }[] }
  /** The user chose `agent` for the conversation (the picker, the agent button, "Start agent"). */
  | { readonly type: 'agentChosen'; readonly conversation: string; readonly agent: string }
  /** The user agreed: `agent` continues in a new conversation `newConversation` (the old one keeps its agent). */
  | { readonly type: 'switchConfirmed'; readonly conversation: string; readonly agent: string; readonly newConversation: string }
  /** The user sent a prompt in the conversation. */
  | { readonly type: 'prompted'; readonly conversation: string }
  | { readonly type: 'agentReady'; readonly agent: string }
  | { readonly type: 'startFailed'; readonly agent: string; readonly reason: string; readonly cancelled?: boolean }
  | { readonly type: 'sessionOpened'; readonly conversation: string; readonly sessionId: string }
  | { readonly type: 'sessionFailed'; readonly conversation: string }
  /** A permission request, a write to review or a question opened in the running turn (`reason`: which; none: a permission). */
  | { readonly type: 'asked'; readonly conversation: string; readonly reason?: WaitReason }
  /** The last open request of that kind (none: of every kind) was answered. */
  | { readonly type: 'answered'; readonly conversation: string; readonly reason?: WaitReason }
  /** Stop in the conversation: `session/cancel`. */
  | { readonly type: 'cancelAsked'; readonly conversation: string }
  /** The agent answered the prompt (any stop reason, or an error while it runs). */
  | { readonly type: 'turnEnded'; readonly conversation: string }
  /** Stop (or Restart) of an agent, asked from conversation `from` (none: a command with no tab behind it). */
  | { readonly type: 'stopAsked'; readonly agent: string; readonly from?: string }
  /** The user agreed to stop an agent whose turns run in other conversations (or nothing needed asking). */
  | { readonly type: 'stopConfirmed'; readonly agent: string }
  /** The agent's process ended without being asked to (or its connection broke). */
  | { readonly type: 'crashed'; readonly agent: string; readonly reason: string }
  /** The conversation's tab was closed. */
  | { readonly type: 'closed'; readonly conversation: string }
  /** The agent had nothing to do for the idle time. */
  | { readonly type: 'idleTimeout'; readonly agent: string };

export type LifecycleEffect =
  /** Start the agent's process (never stops another agent). */
  | { readonly type: 'spawn'; readonly agent: string }
  /** Open the conversation's session on its agent: `resume` when it had one (resume or load, as the agent offers). */
  | { readonly type: 'openSession'; readonly conversation: string; readonly agent: string; readonly resume: boolean }
  /** Send the waiting prompt. */
  | { readonly type: 'sendPrompt'; readonly conversation: string }
  /** Ask the user before another agent takes a conversation that has history. */
  | { readonly type: 'confirmSwitch'; readonly conversation: string; readonly from: string; readonly to: string }
  /** Ask the user before stopping an agent whose turns run in these other conversations. */
  | { readonly type: 'confirmStop'; readonly agent: string; readonly conversations: readonly string[] }
  /** End the agent's process. */
  | { readonly type: 'kill'; readonly agent: string; readonly cause: StopCause }
  /** Answer the conversation's open permission requests and questions `cancelled`. */
  | { readonly type: 'cancelRequests'; readonly conversation: string }
  /** `session/cancel` for the conversation's turn. */
  | { readonly type: 'cancelTurn'; readonly conversation: string }
  /** Say in the conversation that its turn ended there and why (the transcript never just freezes). */
  | { readonly type: 'turnEndedBy'; readonly conversation: string; readonly agent: string; readonly cause: TurnEndCause; readonly reason?: string }
  /** Release the conversation's session (`session/close` where the agent offers it). */
  | { readonly type: 'closeSession'; readonly conversation: string; readonly agent: string; readonly sessionId: string };

export interface Transition {
  readonly state: LifecycleState;
  readonly effects: readonly LifecycleEffect[];
}

/** A turn in one of these phases holds its agent: the agent is busy, a stop must ask, a crash ends it. */
export function turnActive(turn: TurnPhase): boolean {
  return turn === 'running' || turn === 'waiting' || turn === 'cancelling' || turn === 'opening';
}

export function agentPhase(state: LifecycleState, agent: string): AgentPhase {
  return state.agents[agent]?.phase ?? 'stopped';
}

export function conversation(state: LifecycleState, id: string): ConversationState | undefined {
  return state.conversations.find(c => c.id === id);
}

/** The conversations bound to `agent` whose turn runs (or waits for it to start). */
export function activeTurnsOf(state: LifecycleState, agent: string): ConversationState[] {
  return state.conversations.filter(c => c.agent === agent && turnActive(c.turn));
}

/** The next state and what the host must do. Unknown conversations and agents leave the state as it is. */
export function transition(state: LifecycleState, event: LifecycleEvent): Transition {
  const effects: LifecycleEffect[] = [];
  const done = (next: LifecycleState): Transition => ({ state: next, effects });
  const setConv = (s: LifecycleState, id: string, patch: Partial<ConversationState>): LifecycleState =>
    ({ ...s, conversations: s.conversations.map(c => (c.id === id ? { ...c, ...patch } : c)) });
  const setAgent = (s: LifecycleState, agent: string, a: AgentState): LifecycleState => ({ ...s, agents: { ...s.agents, [agent]: a } });
  /** The agent's process is gone: each of its conversations detached, each running turn ended with why. */
  const agentGone = (s: LifecycleState, agent: string, a: AgentState, cause: TurnEndCause, reason?: string): LifecycleState => {
    let next = setAgent(s, agent, a);
    for (const c of s.conversations) {
      if (c.agent !== agent) continue;
      if (turnActive(c.turn)) {
        if (c.turn === 'waiting') effects.push({ type: 'cancelRequests', conversation: c.id });
        effects.push({ type: 'turnEndedBy', conversation: c.id, agent, cause, ...(reason !== undefined ? { reason } : {}) });
      }
      next = setConv(next, c.id, { attached: false, turn: 'none', waitingFor: undefined });
    }
    return next;
  };
  /** `agent` is needed by a conversation: spawned unless it runs or starts already. */
  const need = (s: LifecycleState, agent: string): LifecycleState => {
    const phase = agentPhase(s, agent);
    if (phase === 'ready' || phase === 'starting') return s;
    effects.push({ type: 'spawn', agent });
    return setAgent(s, agent, { phase: 'starting' });
  };

  switch (event.type) {
    case 'opened': {
      if (conversation(state, event.conversation)) return done(state);
      return done({ ...state, conversations: [...state.conversations, { id: event.conversation, agent: event.agent ?? '', attached: false, hasHistory: false, turn: 'none' }] });
    }
    case 'restored': {
      // Each conversation keeps its agent and session; no process runs yet (the next prompt starts its own agent).
      const known = new Set(state.conversations.map(c => c.id));
      const added = event.conversations.filter(c => !known.has(c.id)).map((c): ConversationState => ({
        id: c.id, agent: c.agent, ...(c.sessionId ? { sessionId: c.sessionId } : {}), attached: false, hasHistory: c.hasHistory, turn: 'none',
      }));
      let next: LifecycleState = { ...state, conversations: [...state.conversations, ...added] };
      for (const c of added) if (c.agent && !next.agents[c.agent]) next = setAgent(next, c.agent, { phase: 'stopped' });
      return done(next);
    }
    case 'agentChosen': {
      const c = conversation(state, event.conversation);
      if (!c) return done(state);
      if (c.agent === event.agent) {
        // Its own agent: started if it is not running; the session opens once it is ready.
        const next = need(state, event.agent);
        if (agentPhase(next, event.agent) === 'ready' && !c.attached) effects.push({ type: 'openSession', conversation: c.id, agent: c.agent, resume: !!c.sessionId });
        return done(next);
      }
      if (c.agent && (c.hasHistory || turnActive(c.turn))) {
        // Never continued by another agent without the user's word, and then in a new conversation.
        effects.push({ type: 'confirmSwitch', conversation: c.id, from: c.agent, to: event.agent });
        return done(state);
      }
      // A fresh conversation takes the agent chosen last (even while the first one still starts):
      // the other agent is left as it is, never stopped for this.
      let next = setConv(state, c.id, { agent: event.agent, attached: false, sessionId: undefined });
      next = need(next, event.agent);
      if (agentPhase(next, event.agent) === 'ready') effects.push({ type: 'openSession', conversation: c.id, agent: event.agent, resume: false });
      return done(next);
    }
    case 'switchConfirmed': {
      const c = conversation(state, event.conversation);
      if (!c || conversation(state, event.newConversation)) return done(state);
      let next: LifecycleState = {
        ...state,
        conversations: [...state.conversations, { id: event.newConversation, agent: event.agent, attached: false, hasHistory: false, turn: 'none' }],
      };
      next = need(next, event.agent);
      if (agentPhase(next, event.agent) === 'ready') effects.push({ type: 'openSession', conversation: event.newConversation, agent: event.agent, resume: false });
      return done(next);
    }
    case 'prompted': {
      const c = conversation(state, event.conversation);
      if (!c || !c.agent || turnActive(c.turn)) return done(state);
      let next = setConv(state, c.id, { turn: 'opening', hasHistory: true });
      next = need(next, c.agent);
      if (agentPhase(next, c.agent) === 'ready') {
        if (c.attached) {
          effects.push({ type: 'sendPrompt', conversation: c.id });
          next = setConv(next, c.id, { turn: 'running' });
        } else {
          effects.push({ type: 'openSession', conversation: c.id, agent: c.agent, resume: !!c.sessionId });
        }
      }
      return done(next);
    }
    case 'agentReady': {
      if (agentPhase(state, event.agent) !== 'starting') return done(state);
      const next = setAgent(state, event.agent, { phase: 'ready' });
      // The conversations that wait for this agent (and are still bound to it) open their sessions.
      for (const c of next.conversations) {
        if (c.agent === event.agent && c.turn === 'opening') effects.push({ type: 'openSession', conversation: c.id, agent: c.agent, resume: !!c.sessionId });
      }
      return done(next);
    }
    case 'startFailed': {
      if (agentPhase(state, event.agent) !== 'starting') return done(state);
      const cause: StopCause = event.cancelled ? 'startCancelled' : 'startFailed';
      return done(agentGone(state, event.agent, { phase: 'stopped', stoppedBy: cause, reason: event.reason }, 'startFailed', event.reason));
    }
    case 'sessionOpened': {
      const c = conversation(state, event.conversation);
      if (!c || agentPhase(state, c.agent) !== 'ready') return done(state);
      const waited = c.turn === 'opening';
      if (waited) effects.push({ type: 'sendPrompt', conversation: c.id });
      return done(setConv(state, c.id, { sessionId: event.sessionId, attached: true, turn: waited ? 'running' : c.turn }));
    }
    case 'sessionFailed': {
      const c = conversation(state, event.conversation);
      if (!c) return done(state);
      return done(setConv(state, c.id, { attached: false, turn: 'none', waitingFor: undefined }));
    }
    case 'asked': {
      const c = conversation(state, event.conversation);
      if (!c || (c.turn !== 'running' && c.turn !== 'waiting')) return done(state);
      const reason = event.reason ?? 'permission';
      const waitingFor = c.waitingFor?.includes(reason) ? c.waitingFor : [...c.waitingFor ?? [], reason];
      return done(setConv(state, c.id, { turn: 'waiting', waitingFor }));
    }
    case 'answered': {
      const c = conversation(state, event.conversation);
      if (!c || c.turn !== 'waiting') return done(state);
      const left = event.reason ? (c.waitingFor ?? []).filter(r => r !== event.reason) : [];
      return done(setConv(state, c.id, left.length ? { waitingFor: left } : { turn: 'running', waitingFor: undefined }));
    }
    case 'cancelAsked': {
      const c = conversation(state, event.conversation);
      if (!c || (c.turn !== 'running' && c.turn !== 'waiting')) return done(state);
      // The protocol: every pending request of the turn is answered `cancelled` after a cancel.
      if (c.turn === 'waiting') effects.push({ type: 'cancelRequests', conversation: c.id });
      effects.push({ type: 'cancelTurn', conversation: c.id });
      return done(setConv(state, c.id, { turn: 'cancelling', waitingFor: undefined }));
    }
    case 'turnEnded': {
      const c = conversation(state, event.conversation);
      if (!c || c.turn === 'none') return done(state);
      if (c.turn === 'waiting') effects.push({ type: 'cancelRequests', conversation: c.id });
      return done(setConv(state, c.id, { turn: 'none', waitingFor: undefined }));
    }
    case 'stopAsked': {
      const phase = agentPhase(state, event.agent);
      if (phase !== 'ready' && phase !== 'starting') return done(state);
      const others = activeTurnsOf(state, event.agent).filter(c => c.id !== event.from).map(c => c.id);
      if (others.length) {
        effects.push({ type: 'confirmStop', agent: event.agent, conversations: others });
        return done(state);
      }
      return transitionInto(effects, transition(state, { type: 'stopConfirmed', agent: event.agent }));
    }
    case 'stopConfirmed': {
      const phase = agentPhase(state, event.agent);
      if (phase !== 'ready' && phase !== 'starting') return done(state);
      effects.push({ type: 'kill', agent: event.agent, cause: 'user' });
      return done(agentGone(state, event.agent, { phase: 'stopped', stoppedBy: 'user' }, 'stopped'));
    }
    case 'crashed': {
      const phase = agentPhase(state, event.agent);
      if (phase !== 'ready' && phase !== 'starting') return done(state);
      return done(agentGone(state, event.agent, { phase: 'crashed', reason: event.reason }, 'crashed', event.reason));
    }
    case 'closed': {
      const c = conversation(state, event.conversation);
      if (!c) return done(state);
      // A permission still open is answered `cancelled` (never an allow), the turn cancelled, the session released.
      if (c.turn === 'waiting') effects.push({ type: 'cancelRequests', conversation: c.id });
      if (c.turn === 'running' || c.turn === 'waiting') effects.push({ type: 'cancelTurn', conversation: c.id });
      if (c.attached && c.sessionId) effects.push({ type: 'closeSession', conversation: c.id, agent: c.agent, sessionId: c.sessionId });
      return done({ ...state, conversations: state.conversations.filter(x => x.id !== c.id) });
    }
    case 'idleTimeout': {
      // Only an agent with nothing to do: a turn (or a prompt waiting for it) keeps it running.
      if (agentPhase(state, event.agent) !== 'ready' || activeTurnsOf(state, event.agent).length) return done(state);
      effects.push({ type: 'kill', agent: event.agent, cause: 'idle' });
      return done(agentGone(state, event.agent, { phase: 'stopped', stoppedBy: 'idle' }, 'stopped'));
    }
  }
}

/**
 * What a conversation is doing, as the Agents view and the status bar show it:
 * `new` (nothing asked yet), `starting` (its agent or its session starts, or its prompt waits for
 * them), `working`, `waiting` for the user (`waitingFor` says what), `done` (its last turn ended),
 * `crashed` (its agent's process ended without being asked to; `reason` is the agent's last words).
 */
export type ConversationStatus = 'new' | 'starting' | 'working' | 'waiting' | 'done' | 'crashed';

export interface ConversationView {
  readonly status: ConversationStatus;
  readonly waitingFor: readonly WaitReason[];
  readonly reason?: string;
}

export function conversationStatus(state: LifecycleState, c: ConversationState): ConversationView {
  const none: readonly WaitReason[] = [];
  const agent = state.agents[c.agent];
  switch (c.turn) {
    case 'waiting': return { status: 'waiting', waitingFor: c.waitingFor?.length ? c.waitingFor : ['permission'] };
    case 'running': case 'cancelling': return { status: 'working', waitingFor: none };
    case 'opening': return { status: 'starting', waitingFor: none };
    case 'none': break;
  }
  if (agent?.phase === 'crashed' && !c.attached) return { status: 'crashed', waitingFor: none, ...(agent.reason !== undefined ? { reason: agent.reason } : {}) };
  if (agent?.phase === 'starting' && !c.attached) return { status: 'starting', waitingFor: none };
  return { status: c.hasHistory ? 'done' : 'new', waitingFor: none };
}

/** The conversations that wait for the user, in the order they are listed. */
export function waitingConversations(state: LifecycleState): ConversationState[] {
  return state.conversations.filter(c => c.turn === 'waiting');
}

function transitionInto(effects: LifecycleEffect[], t: Transition): Transition {
  return { state: t.state, effects: [...effects, ...t.effects] };
}

/** Runs the events in order from `state`: the final state and every effect, in order (tests, replays). */
export function run(state: LifecycleState, events: readonly LifecycleEvent[]): Transition {
  const effects: LifecycleEffect[] = [];
  for (const e of events) {
    const t = transition(state, e);
    state = t.state;
    effects.push(...t.effects);
  }
  return { state, effects };
}
