// Child-agent sessions (ACP `clientCapabilities.subagents`): the agent announces a helper with a
// `subagent_update` on its parent session; after that, the child's own traffic (updates, permission
// requests, fs/*, terminal/*, questions) names the child's session id. This registry, one per agent
// connection, knows which ids were announced and by whom, so a child's traffic is served in the
// conversation of its top-level session, and anything else is still refused. Patch semantics as the
// SDK's SubagentUpdate says: an omitted field keeps its value, `null` clears it.
import type { SubagentUpdate } from '@agentclientprotocol/sdk/unstable';
import * as l10n from '@vscode/l10n';
import { escapeBidi } from './bidi';
import type { Usage } from './sessionMeta';
import { TITLE_MAX_CHARS, truncateText } from './truncate';

/** What the card says: the agent's state in words the user acts on ("needs you" = requires_action). */
export type ChildState = 'running' | 'idle' | 'needsYou' | 'unknown' | 'unset';

export interface ChildView {
  /** The child's session id. */
  readonly sessionId: string;
  /** The session that announced it (the top-level one, or another child). */
  readonly parentSessionId: string;
  /** 1 for a child of a top-level session, 2 for its child, … */
  readonly depth: number;
  readonly title: string;
  /** The parent's description of its role or task. */
  readonly task?: string;
  readonly state: ChildState;
  /** Why its work stopped, when it went idle with a reason (end_turn, cancelled, error, …). */
  readonly stopReason?: string;
  /** It offered `capabilities.cancel`: its card has its own Stop. */
  readonly canCancel: boolean;
  /** When it was announced and, once idle, when its work stopped (ms since epoch; the webview shows the difference). */
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Tool calls it made. */
  readonly toolCalls: number;
}

/** At most this many children per connection: an agent announcing ids in a loop cannot grow memory without bound. */
export const MAX_CHILDREN = 500;
/** How deep children may nest. */
export const MAX_DEPTH = 8;

/** The card's state for the SDK's state snapshot (an unknown discriminator reads as unknown). */
export function childState(state: SubagentUpdate['state']): ChildState | undefined {
  if (state === undefined) return undefined;
  if (state === null) return 'unset';
  switch (state.state) {
    case 'running': return 'running';
    case 'idle': return 'idle';
    case 'requires_action': return 'needsYou';
    default: return 'unknown';
  }
}

export class ChildRegistry {
  private readonly children = new Map<string, ChildView>();
  /** Tool-call ids each child made (counted once each). */
  private readonly tools = new Map<string, Set<string>>();

  constructor(private readonly isTopLevel: (sessionId: string) => boolean) {}

  get(sessionId: string): ChildView | undefined {
    return this.children.get(sessionId);
  }

  /** The top-level session a child belongs to (through its ancestors), else undefined. */
  rootOf(sessionId: string): string | undefined {
    let id = sessionId;
    for (let i = 0; i <= MAX_DEPTH; i++) {
      const child = this.children.get(id);
      if (!child) return i > 0 && this.isTopLevel(id) ? id : undefined;
      id = child.parentSessionId;
    }
    return undefined;
  }

  /**
   * A `subagent_update` on session `parentSessionId`: announces the child or patches it. Returns the
   * child's view, or a reason it was refused (an id already used by another parent or by a top-level
   * session, a parent that is neither, too deep, too many).
   */
  apply(parentSessionId: string, update: SubagentUpdate, now: number): { child: ChildView; isNew: boolean } | { refused: string } {
    const id = update.sessionId;
    if (id === parentSessionId || this.isTopLevel(id)) return { refused: l10n.t('a child cannot be a conversation\'s own session') };
    const parent = this.children.get(parentSessionId);
    if (!parent && !this.isTopLevel(parentSessionId)) return { refused: l10n.t('announced by an unknown session') };
    const existing = this.children.get(id);
    if (existing && existing.parentSessionId !== parentSessionId) return { refused: l10n.t('already a child of another session') };
    const depth = parent ? parent.depth + 1 : 1;
    if (depth > MAX_DEPTH) return { refused: l10n.t('nested too deep') };
    if (!existing && this.children.size >= MAX_CHILDREN) return { refused: l10n.t('too many child sessions') };
    const state = childState(update.state) ?? existing?.state ?? 'unset';
    const stopReason = update.state && update.state.state === 'idle' && typeof (update.state as { stopReason?: unknown }).stopReason === 'string'
      ? String((update.state as { stopReason: string }).stopReason) : update.state === undefined ? existing?.stopReason : undefined;
    const working = state === 'running' || state === 'needsYou';
    const title = update.title === undefined ? existing?.title : update.title === null ? undefined : shown(update.title);
    const task = update.description === undefined ? existing?.task : update.description === null ? undefined : shown(update.description);
    const child: ChildView = {
      sessionId: id, parentSessionId, depth,
      title: title || l10n.t({ message: 'Helper agent', comment: ['Names a child agent (a helper the agent started) that has no title'] }),
      ...(task ? { task } : {}),
      state,
      ...(stopReason ? { stopReason: truncateText(stopReason, 100) } : {}),
      canCancel: update.capabilities === undefined ? existing?.canCancel ?? false : !!update.capabilities?.cancel,
      startedAt: existing && !(working && existing.endedAt !== undefined) ? existing.startedAt : now,
      ...(working ? {} : { endedAt: existing?.endedAt ?? now }),
      toolCalls: existing?.toolCalls ?? 0,
    };
    this.children.set(id, child);
    return { child, isNew: !existing };
  }

  /** A tool call of the child: counted once per id; returns the new view when the count changed. */
  noteToolCall(sessionId: string, toolCallId: string): ChildView | undefined {
    const child = this.children.get(sessionId);
    if (!child) return undefined;
    const seen = this.tools.get(sessionId) ?? new Set<string>();
    this.tools.set(sessionId, seen);
    if (seen.has(toolCallId) || seen.size >= 10_000) return undefined;
    seen.add(toolCallId);
    const next = { ...child, toolCalls: seen.size };
    this.children.set(sessionId, next);
    return next;
  }

  /** The children (at any depth) of top-level session `rootId`. */
  childrenOf(rootId: string): ChildView[] {
    return [...this.children.values()].filter(c => this.rootOf(c.sessionId) === rootId);
  }

  /** The children of `rootId` still working (running or waiting for the user). */
  workingChildrenOf(rootId: string): ChildView[] {
    return this.childrenOf(rootId).filter(c => c.state === 'running' || c.state === 'needsYou');
  }

  /** Forgets the children of a top-level session that went away. */
  forget(rootId: string): void {
    for (const c of this.childrenOf(rootId)) { this.children.delete(c.sessionId); this.tools.delete(c.sessionId); }
  }
}

const shown = (text: string): string => escapeBidi(truncateText(String(text), TITLE_MAX_CHARS));

type Cost = { readonly amount: number; readonly currency: string };

/**
 * The conversation's cost with its children's added (each child's last reported cost): amounts in
 * the conversation's currency add up; a child reporting another currency is left out rather than
 * added wrongly.
 */
export function rollUpCost(own: Cost | undefined, children: Iterable<Cost>): Cost | undefined {
  let total = own;
  for (const c of children) {
    if (!Number.isFinite(c.amount)) continue;
    if (!total) total = { amount: c.amount, currency: c.currency };
    else if (c.currency === total.currency) total = { amount: total.amount + c.amount, currency: total.currency };
  }
  return total;
}

/** What a child agent last reported of its usage (`usage_update`). */
export interface ChildUsage { readonly used: number; readonly cost?: Cost }

/**
 * The conversation's usage with its children's: their costs added (rollUpCost), their tokens (each
 * child's last reported context use) summed apart as `helpers`, never into the conversation's own
 * context window. Without children: the conversation's own, unchanged.
 */
export function rollUpUsage(own: Usage | undefined, children: Iterable<ChildUsage>): Usage | undefined {
  const list = [...children];
  if (!list.length) return own;
  const cost = rollUpCost(own?.cost, list.flatMap(c => (c.cost ? [c.cost] : [])));
  const tokens = list.reduce((n, c) => n + (Number.isFinite(c.used) && c.used > 0 ? c.used : 0), 0);
  return { used: own?.used ?? 0, size: own?.size ?? 0, ...(cost ? { cost } : {}), helpers: { tokens, count: list.length } };
}
