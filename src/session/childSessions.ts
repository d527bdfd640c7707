// Child-agent sessions on one agent connection (ACP `subagents`): a `subagent_update` announces a
// child on its parent session; from then on the child's traffic is served in the conversation of its
// top-level session: its updates become its own transcript under its card, its permission requests
// and questions are asked there naming it, its fs/* and terminal/* requests pass the same gate as
// the parent's. An id nobody announced on this connection is still refused (-32602).
import type * as acp from '@agentclientprotocol/sdk/unstable';
import * as vscode from 'vscode';
import { ChildRegistry, ChildView } from '../common/childSessions';
import type { Transcript, TranscriptOp } from '../common/transcript';
import { blockText } from '../common/transcript';
import { BLOCK_MAX_CHARS, truncateText } from '../common/truncate';
import { escapeBidi } from '../common/bidi';
import type { GatedSession } from './requestGate';

/** What a session does with the traffic addressed to it. */
export interface SessionSink extends GatedSession {
  onUpdate(update: acp.SessionUpdate, afterAnswer?: boolean): void;
  /** `from`: asked by that child agent (its top-level conversation asks naming it). */
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal, from?: ChildView): Promise<acp.RequestPermissionResponse>;
  elicit(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete`: true when this session had that elicitation. */
  completeElicitation(elicitationId: string): boolean;
}

/** What a conversation does for its children (ChatSession implements it). */
export interface ChildHost {
  /** A child's card changed (announced, new state, another tool call). */
  onChild(child: ChildView): void;
  /** An update on child session `childId`. */
  onChildUpdate(childId: string, update: acp.SessionUpdate): void;
  /** A question (elicitation) of a child, asked in the conversation naming it. */
  elicitForChild(params: acp.CreateElicitationRequest, signal: AbortSignal, child: ChildView | undefined): Promise<acp.CreateElicitationResponse>;
}

export class ChildSessions {
  readonly registry: ChildRegistry;
  private readonly sinks = new Map<string, SessionSink>();

  constructor(private readonly topLevel: (sessionId: string) => (SessionSink & Partial<ChildHost>) | undefined, private readonly now: () => number = Date.now) {
    this.registry = new ChildRegistry(id => topLevel(id) !== undefined);
  }

  /** The sink serving child `childId`, once announced by a session of this connection. */
  sink(childId: string): SessionSink | undefined {
    const rootId = this.registry.rootOf(childId);
    const root = rootId === undefined ? undefined : this.topLevel(rootId);
    if (!root?.onChildUpdate) return undefined;
    let sink = this.sinks.get(childId);
    if (!sink) this.sinks.set(childId, sink = childSink(root as SessionSink & ChildHost, this.registry, childId));
    return sink;
  }

  /** A `subagent_update` on session `parentId`: the child is announced or patched; a refusal's reason otherwise. */
  announce(parentId: string, update: Extract<acp.SessionUpdate, { sessionUpdate: 'subagent_update' }>): string | undefined {
    const result = this.registry.apply(parentId, update, this.now());
    if ('refused' in result) return result.refused;
    this.rootOf(result.child.sessionId)?.onChild?.(result.child);
    return undefined;
  }

  /** A tool call of a child: its card's count follows. */
  noteToolCall(childId: string, toolCallId: string): void {
    const child = this.registry.noteToolCall(childId, toolCallId);
    if (child) this.rootOf(childId)?.onChild?.(child);
  }

  /** The conversation's session ended: its children go too. */
  forget(rootId: string): void {
    for (const c of this.registry.childrenOf(rootId)) this.sinks.delete(c.sessionId);
    this.registry.forget(rootId);
  }

  private rootOf(childId: string): Partial<ChildHost> | undefined {
    const rootId = this.registry.rootOf(childId);
    return rootId === undefined ? undefined : this.topLevel(rootId);
  }
}

/** Child `childId`'s traffic, served by its top-level conversation. */
function childSink(root: SessionSink & ChildHost, registry: ChildRegistry, childId: string): SessionSink {
  const child = () => registry.get(childId);
  const working = () => { const s = child()?.state; return s === 'running' || s === 'needsYou'; };
  return {
    // A child at work is in a turn of its own, even after the parent's turn ended.
    get inTurn() { return root.inTurn || working(); },
    get allowedThisTurn() { return root.allowedThisTurn; },
    confirm: q => root.confirm(q),
    onUpdate: update => root.onChildUpdate(childId, update),
    requestPermission: (params, signal) => root.requestPermission(params, signal, child()),
    elicit: (params, signal) => root.elicitForChild(params, signal, child()),
    completeElicitation: id => root.completeElicitation(id),
  };
}

const META_UPDATES = new Set(['available_commands_update', 'current_mode_update', 'config_option_update', 'session_info_update', 'usage_update', 'plan', 'plan_update', 'plan_removed', 'subagent_update']);

/**
 * The transcript ops of an update shown in session `inChild`'s transcript (undefined: the
 * conversation's own): messages between sessions, and every update of a child. Undefined when the
 * update is the conversation's own and not a message between sessions (the caller applies it).
 */
export function childUpdateOps(t: Transcript, inChild: string | undefined, update: acp.SessionUpdate, name: (sessionId: string | null | undefined) => string | undefined): TranscriptOp[] | undefined {
  if (update.sessionUpdate === 'session_message') {
    const text = update.content === undefined ? undefined : truncateText((update.content ?? []).map(blockText).join(''), BLOCK_MAX_CHARS, '\n');
    return t.sessionMessage(inChild, update.messageId, {
      ...(update.senderSessionId !== undefined ? { from: name(update.senderSessionId) } : {}),
      ...(update.recipientSessionId !== undefined ? { to: name(update.recipientSessionId) } : {}),
      ...(text !== undefined ? { text } : {}),
    });
  }
  if (update.sessionUpdate === 'session_message_chunk') return t.sessionMessage(inChild, update.messageId, { append: blockText(update.content) });
  if (inChild === undefined) return undefined;
  // A child's plans, commands, modes and usage are its own business: its transcript shows its work.
  if (META_UPDATES.has(update.sessionUpdate)) return [];
  return t.applyInChild(inChild, update);
}

/** The name of a session in "from → to": the conversation's agent, a child's title, else unknown. */
export function sessionName(id: string | null | undefined, own: string | undefined, agentName: string, registry: ChildRegistry | undefined): string {
  if (!id) return vscode.l10n.t({ message: 'unknown', comment: ['Stands for a session a message between agents does not name'] });
  if (id === own) return agentName;
  const child = registry?.get(id);
  return child ? child.title : escapeBidi(truncateText(id, 80));
}
