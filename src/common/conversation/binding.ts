// The small choices that bind a conversation to an agent's process, as pure functions (the agent
// pool, session/agentPool.ts, and the controller run them): which running agent a conversation
// means, which start under way it waits for, who is told about an agent's crash or stray output,
// when an idle agent stops, and where a conversation's turn is for the lifecycle model.
import type { TurnPhase, WaitReason } from './lifecycle';

/**
 * The running agent a conversation means: its own agent's, while it runs. A conversation with no
 * agent yet means the agent started last (if it runs); one bound to another agent never does.
 */
export function runtimeOfConversation<T extends { readonly isRunning: boolean }>(agent: string, own: T | undefined, last: T | undefined): T | undefined {
  if (own?.isRunning) return own;
  return !agent && last?.isRunning ? last : undefined;
}

/** The start under way a conversation waits for: its agent's; a conversation with no agent yet waits for the start begun last. */
export function startOfConversation<T>(agent: string, own: T | undefined, last: T | undefined): T | undefined {
  return own ?? (agent ? undefined : last);
}

/** What an agent offers to reopen its sessions (its `initialize` capabilities). */
export interface ReopenCapabilities {
  readonly loadSession?: boolean | null;
  readonly sessionCapabilities?: { readonly resume?: unknown } | null;
}

/**
 * After how long (ms) an agent with nothing to do is stopped, or undefined: never (no idle time
 * set, or the agent can neither resume nor load a session, so stopping it would lose them).
 */
export function idleStopAfter(idleMs: number, caps: ReopenCapabilities | undefined): number | undefined {
  if (!caps || !idleMs || !(caps.loadSession || caps.sessionCapabilities?.resume)) return undefined;
  return idleMs;
}

/**
 * The conversations told about something an agent's process did (a crash, stray output): those
 * bound to that process, else those of that agent, else `fallback` (where the start was asked, the
 * shown one): never silently nobody.
 */
export function conversationsTold<T>(bound: readonly T[], ofAgent: readonly T[], fallback: T): readonly T[] {
  if (bound.length) return bound;
  return ofAgent.length ? ofAgent : [fallback];
}

/** What a conversation's tab says of its turn. */
export interface TurnFlags {
  /** A permission request or a question is open. */
  readonly waiting: boolean;
  /** A prompt was sent and its answer has not come. */
  readonly inTurn: boolean;
  /** The tab is taken (a prompt waits for its agent or session, or a turn runs). */
  readonly busy: boolean;
  readonly permissions: number;
  readonly questions: number;
}

/** The conversation's turn as the lifecycle model sees it, and (while it waits) what for. */
export function turnOf(t: TurnFlags): { turn: TurnPhase; waitingFor?: WaitReason[] } {
  const turn: TurnPhase = t.waiting ? 'waiting' : t.inTurn ? 'running' : t.busy ? 'opening' : 'none';
  if (!t.waiting) return { turn };
  return { turn, waitingFor: [...t.permissions ? ['permission' as const] : [], ...t.questions ? ['question' as const] : []] };
}
