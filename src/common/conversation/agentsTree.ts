// The Agents view as data: each agent (running or not) with its conversations, and for each what it
// is doing (common/conversation/lifecycle's `conversationStatus`), its mode and model, and the
// requests that wait for the user. Pure: the host's TreeDataProvider (views/agentsView) only turns
// these nodes into TreeItems, and the status bar (host/waitingAlert) reads the same waits.
import * as l10n from '@vscode/l10n';
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk/unstable';
import { modeControl } from '../agentModes';
import { AgentPhase, agentPhase, ConversationStatus, conversationStatus, LifecycleState, WaitReason } from './lifecycle';

/** What the host knows of a conversation besides the model: its title, its session's meta, its open requests. */
export interface ConversationFacts {
  readonly title: string;
  readonly meta?: {
    readonly modes?: { readonly currentModeId: string; readonly availableModes: readonly SessionMode[] };
    readonly configOptions: readonly SessionConfigOption[];
  };
  /** Open requests by kind (permission requests, writes waiting for review, questions). */
  readonly pending: Readonly<Partial<Record<WaitReason, number>>>;
}

export interface ConversationNode {
  readonly kind: 'conversation';
  readonly id: string;
  readonly agent: string;
  readonly label: string;
  readonly status: ConversationStatus;
  readonly waitingFor: readonly WaitReason[];
  /** Status, then mode and model, as the line next to the title says them. */
  readonly description: string;
  readonly tooltip: string;
  /** A codicon id. */
  readonly icon: string;
  /** `switchboard.conversation.<status>` (the menus' `viewItem`). */
  readonly contextValue: string;
}

export interface AgentNode {
  readonly kind: 'agent';
  readonly name: string;
  readonly phase: AgentPhase;
  readonly description: string;
  readonly tooltip: string;
  readonly icon: string;
  /** `switchboard.agent.running` (Stop, Restart) or `switchboard.agent.stopped` (Start). */
  readonly contextValue: string;
  readonly conversations: readonly ConversationNode[];
}

/** The current mode's and model's names, where the session has them. */
export function modeAndModel(meta: ConversationFacts['meta']): { mode?: string; model?: string } {
  if (!meta) return {};
  const control = modeControl(meta);
  const mode = control?.modes.find(m => m.id === control.current)?.name ?? control?.current;
  const option = meta.configOptions.find(o => o.category === 'model' && o.type === 'select') ?? meta.configOptions.find(o => o.id === 'model' && o.type === 'select');
  let model: string | undefined;
  if (option?.type === 'select') {
    const flat = option.options.flatMap(e => ('group' in e ? e.options : [e]));
    model = flat.find(o => o.value === option.currentValue)?.name ?? option.currentValue;
  }
  return { ...(mode ? { mode } : {}), ...(model ? { model } : {}) };
}

export function statusText(status: ConversationStatus, waitingFor: readonly WaitReason[]): string {
  switch (status) {
    case 'new': return l10n.t({ message: 'new', comment: 'A conversation where nothing was asked yet (Agents view)' });
    case 'starting': return l10n.t({ message: 'starting', comment: 'A conversation whose agent or session starts (Agents view)' });
    case 'working': return l10n.t({ message: 'working', comment: 'A conversation whose agent works on a prompt (Agents view)' });
    case 'done': return l10n.t({ message: 'done', comment: 'A conversation whose last turn ended (Agents view)' });
    case 'crashed': return l10n.t({ message: 'crashed', comment: 'A conversation whose agent process ended unasked (Agents view)' });
    case 'waiting': return l10n.t({ message: 'waiting for you: {0}', args: [waitingFor.map(waitText).join(', ')], comment: '{0} lists what for: permission, review, question' });
  }
}

export function waitText(reason: WaitReason): string {
  switch (reason) {
    case 'permission': return l10n.t({ message: 'permission', comment: 'A conversation waits for the user to answer a permission request' });
    case 'review': return l10n.t({ message: 'review', comment: 'A conversation waits for the user to review a write' });
    case 'question': return l10n.t({ message: 'question', comment: 'A conversation waits for the user to answer a question' });
  }
}

const CONVERSATION_ICONS: Record<ConversationStatus, string> = {
  new: 'comment', starting: 'loading~spin', working: 'sync~spin', waiting: 'bell-dot', done: 'pass', crashed: 'error',
};
const AGENT_ICONS: Record<AgentPhase, string> = { starting: 'loading~spin', ready: 'vm-running', crashed: 'error', stopped: 'vm-outline' };

/**
 * The tree: every agent that is running, starting, or has a conversation (in the order first met:
 * running ones first by `agents`' order, then the conversations'), each with its conversations in
 * tab order. A conversation with no agent yet is left out (it has nothing to show here).
 */
export function agentsTree(state: LifecycleState, facts: (id: string) => ConversationFacts | undefined): AgentNode[] {
  const names = [...new Set([...Object.keys(state.agents), ...state.conversations.map(c => c.agent)].filter(Boolean))];
  return names.map(name => {
    const phase = agentPhase(state, name);
    const conversations = state.conversations.filter(c => c.agent === name).map((c): ConversationNode => {
      const f = facts(c.id);
      const view = conversationStatus(state, c);
      const { mode, model } = modeAndModel(f?.meta);
      const pending = (Object.entries(f?.pending ?? {}) as [WaitReason, number][]).filter(([, n]) => n > 0);
      const parts = [statusText(view.status, view.waitingFor), ...(mode ? [mode] : []), ...(model ? [model] : [])];
      const tooltip = [
        `${f?.title ?? c.id} — ${name}`,
        statusText(view.status, view.waitingFor) + (view.reason ? `: ${view.reason}` : ''),
        ...(mode ? [l10n.t('Mode: {0}', mode)] : []),
        ...(model ? [l10n.t('Model: {0}', model)] : []),
        ...(pending.length ? [l10n.t('Open requests: {0}', pending.map(([r, n]) => `${waitText(r)} × ${n}`).join(', '))] : []),
      ].join('\n');
      return {
        kind: 'conversation', id: c.id, agent: name, label: f?.title ?? c.id, status: view.status, waitingFor: view.waitingFor,
        description: parts.join(' · '), tooltip, icon: CONVERSATION_ICONS[view.status], contextValue: `switchboard.conversation.${view.status}`,
      };
    });
    const reason = state.agents[name]?.reason;
    const waiting = conversations.filter(c => c.status === 'waiting').length;
    const description = [agentPhaseText(phase), ...(waiting ? [l10n.t('{0} waiting for you', waiting)] : [])].join(' · ');
    return {
      kind: 'agent', name, phase, description, conversations, icon: AGENT_ICONS[phase],
      tooltip: phase === 'crashed' && reason ? `${name}: ${reason}` : `${name}: ${agentPhaseText(phase)}`,
      contextValue: phase === 'ready' || phase === 'starting' ? 'switchboard.agent.running' : 'switchboard.agent.stopped',
    };
  });
}

export function agentPhaseText(phase: AgentPhase): string {
  switch (phase) {
    case 'starting': return l10n.t({ message: 'starting', comment: 'An agent process starts (Agents view)' });
    case 'ready': return l10n.t({ message: 'running', comment: 'An agent process runs (Agents view)' });
    case 'crashed': return l10n.t({ message: 'crashed', comment: 'An agent process ended unasked (Agents view)' });
    case 'stopped': return l10n.t({ message: 'not running', comment: 'No process of this agent runs (Agents view)' });
  }
}
