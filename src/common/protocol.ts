// Messages between the chat webview and the extension host, imported by both bundles.
// The host is the source of truth: on `view/ready` it replays the whole state, so the view can be
// hidden, moved or reloaded at any time without losing the conversation.
import type { Item, ItemAction, TranscriptOp } from './transcript';

export type AgentStatus = 'stopped' | 'starting' | 'ready' | 'busy' | 'error';

export interface ChatStatus {
  readonly agentName: string | undefined;
  readonly status: AgentStatus;
  /** Short human text shown next to the status, e.g. "Starting Claude Code…". */
  readonly detail: string;
}

export type HostMessage =
  | { readonly type: 'state/reset'; readonly items: readonly Item[]; readonly status: ChatStatus }
  | { readonly type: 'transcript/ops'; readonly ops: readonly TranscriptOp[] }
  | { readonly type: 'status'; readonly status: ChatStatus };

export type ViewMessage =
  | { readonly type: 'view/ready' }
  | { readonly type: 'prompt/send'; readonly text: string }
  | { readonly type: 'turn/cancel' }
  | { readonly type: 'permission/answer'; readonly itemId: string; readonly optionId: string | null }
  | { readonly type: 'item/action'; readonly itemId: string; readonly action: ItemAction }
  | { readonly type: 'agent/pick' };

const ACTIONS: readonly ItemAction[] = ['restart', 'retry', 'openSettings', 'authenticate', 'showLog'];
const MAX_PROMPT_CHARS = 1_000_000;

/** Validates a message from the webview (untrusted input); returns undefined for anything malformed. */
export function parseViewMessage(raw: unknown): ViewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  const str = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length <= max;
  switch (m.type) {
    case 'view/ready':
    case 'turn/cancel':
    case 'agent/pick':
      return { type: m.type };
    case 'prompt/send':
      return str(m.text, MAX_PROMPT_CHARS) ? { type: 'prompt/send', text: m.text } : undefined;
    case 'permission/answer':
      if (!str(m.itemId) || !(m.optionId === null || str(m.optionId, 500))) return undefined;
      return { type: 'permission/answer', itemId: m.itemId, optionId: m.optionId };
    case 'item/action':
      if (!str(m.itemId) || !ACTIONS.includes(m.action as ItemAction)) return undefined;
      return { type: 'item/action', itemId: m.itemId, action: m.action as ItemAction };
    default:
      return undefined;
  }
}
