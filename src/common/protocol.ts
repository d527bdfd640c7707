// Messages between the chat webview and the extension host, imported by both bundles.
// The host is the source of truth: on `view/ready` it replays the whole state, so the view can be
// hidden, moved or reloaded at any time without losing the conversation.
import { MAX_QUERY_CHARS, type SearchHit } from './conversationSearch';
import type { FileChangeView } from './review/turnChanges';
import type { SessionMeta } from './sessionMeta';
import { LIMITS, type RawValue } from './elicitation';
import type { Item, ItemAction, TranscriptOp } from './transcript';
import type { TurnSummary } from './turns';
import type { WelcomeSituation } from './welcome';

export type AgentStatus = 'stopped' | 'starting' | 'ready' | 'error';

export interface ChatStatus {
  readonly agentName: string | undefined;
  readonly status: AgentStatus;
  /** Short human text shown next to the status, e.g. "Starting Claude Code…". */
  readonly detail: string;
}

/** What the agent accepts in prompts (from `promptCapabilities`). */
export interface PromptAbilities {
  readonly image: boolean;
  readonly embeddedContext: boolean;
}

export interface TabInfo {
  readonly id: string;
  readonly title: string;
  readonly agentName: string;
  /** starting = its session is still opening; waiting = a permission request is unanswered; detached = no agent behind it. */
  readonly state: 'idle' | 'starting' | 'busy' | 'waiting' | 'detached';
  /** Waiting for an answer to a child agent (a helper the agent started): its title. */
  readonly waitingIn?: string;
}

export interface MentionCandidate {
  readonly path: string;
  readonly label: string;
  readonly description: string;
}

/** The undecided changes of one turn, as the chat lists them. */
export interface TurnChangesView {
  readonly turnId: string;
  readonly files: readonly FileChangeView[];
}

export type ChangeAction = 'keep' | 'undo' | 'diff';

/** An agent write waiting for the user's Accept / Reject. */
export interface PendingWriteView {
  readonly id: string;
  readonly agentName: string;
  readonly path: string;
  readonly isNewFile: boolean;
  readonly conflicts: number;
}

export type WriteAction = 'accept' | 'reject' | 'acceptAll' | 'diff';

/** A message typed while the agent worked, waiting in the conversation's queue (common/promptQueue.ts). */
export interface QueuedPromptView {
  readonly id: string;
  readonly text: string;
  readonly mentions: readonly string[];
  readonly images: number;
  readonly editing: boolean;
  /** Send now is on its way into the running turn. */
  readonly steering: boolean;
  readonly error?: string;
}

export interface QueueView {
  readonly items: readonly QueuedPromptView[];
  /** Stopped (or failed): nothing is sent by itself until the next turn starts. */
  readonly paused: boolean;
  /** What Send now does: into the running turn (the agent supports steering), as the next prompt (no turn runs), or nothing. */
  readonly sendNow: 'steer' | 'prompt' | 'none';
}

export type QueueAction = 'edit' | 'cancelEdit' | 'remove' | 'sendNow';

/** An agent found on this computer, as the welcome of an empty chat lists it. */
export interface WelcomeAgent {
  readonly name: string;
  /** Known to need an account, and no sign-in was found (common/welcome.ts). */
  readonly needsSignIn: boolean;
  /** The agent running now. */
  readonly running: boolean;
}

/** The welcome of an empty chat (host/welcome.ts). */
export interface WelcomeView {
  readonly situation: WelcomeSituation;
  /** The remote this window is connected to (agents are looked for and run there). */
  readonly remote?: string;
  readonly agents: readonly WelcomeAgent[];
  readonly examples: readonly string[];
}

export type WelcomeAction = 'addAgent' | 'getStarted' | 'trust' | 'openFolder';

/** What a prompt box held, as far as telling whether it changed goes: its text and how many images. */
export interface BoxState { readonly text: string; readonly images: number }

export type HostMessage =
  | {
    readonly type: 'state/reset';
    readonly tabs: readonly TabInfo[];
    readonly activeTab: string | undefined;
    readonly items: readonly Item[];
    /** The turns before `items`, which the host keeps on disk: their summaries (see common/turns). */
    readonly archived?: readonly TurnSummary[];
    readonly meta: SessionMeta | undefined;
    readonly status: ChatStatus;
    readonly abilities: PromptAbilities;
    /** The workspace folders (titles show paths relative to them). */
    readonly roots?: readonly string[];
  }
  | { readonly type: 'transcript/ops'; readonly tab: string; readonly ops: readonly TranscriptOp[] }
  /**
   * A large message as it goes to the page (transcript operations, a conversation's state, a turn's
   * items): its JSON as UTF-8 bytes. VS Code sends the bytes of a message apart from its JSON, and the
   * workbench hands them to the page as they are: no object tree built in the workbench and cloned for
   * the page (megabytes in a burst or a tab switch, on the page's thread). Decision 0032.
   */
  | { readonly type: 'packed'; readonly json: Uint8Array }
  /** The items of one turn, asked for by `turn/load` (empty when the host no longer has them). */
  | { readonly type: 'turn/items'; readonly tab: string; readonly turnId: string; readonly items: readonly Item[] }
  /** `samePlans`: the plans did not change since the last meta or reset of this tab; `meta.plans` is left out. */
  | { readonly type: 'session/meta'; readonly tab: string; readonly meta: SessionMeta; readonly samePlans?: true }
  | { readonly type: 'tabs'; readonly tabs: readonly TabInfo[]; readonly activeTab: string | undefined }
  | { readonly type: 'status'; readonly status: ChatStatus; readonly abilities: PromptAbilities }
  | { readonly type: 'mention/results'; readonly query: string; readonly results: readonly MentionCandidate[] }
  /** What `search/query` found in the conversation, rendered or not, in memory or on disk. */
  | { readonly type: 'search/results'; readonly tab: string; readonly query: string; readonly hits: readonly SearchHit[] }
  | { readonly type: 'composer/insert'; readonly text: string; readonly mentions: readonly string[] }
  /** What was typed for a conversation and not sent (`tab`: its draft, shown when a page shows it), or a prompt that did not reach its agent (no `tab`): into an empty prompt box. */
  /** `over`: a draft another window wrote (a reload's race), over what the box held here (drafts.takenInto). */
  | { readonly type: 'composer/restore'; readonly tab?: string; readonly text: string; readonly mentions: readonly string[]; readonly images: readonly PastedImage[]; readonly over?: BoxState }
  | { readonly type: 'terminal/tail'; readonly terminalId: string; readonly text: string; readonly exited: boolean }
  | { readonly type: 'changes'; readonly turns: readonly TurnChangesView[] }
  | { readonly type: 'writes'; readonly writes: readonly PendingWriteView[] }
  | { readonly type: 'queue'; readonly tab: string; readonly queue: QueueView }
  | { readonly type: 'welcome'; readonly welcome: WelcomeView };

/**
 * What the host writes into a chat page as it makes it (views/pageHtml.ts dataElement), so the page
 * shows its conversation as it loads, without waiting for the answer to `view/ready`: the messages
 * that answer would hold (`state/reset` first), in order.
 */
export interface FirstState {
  /** New for each page made: a page made again from the same HTML (the view hidden, then shown) has shown it already and waits for the host's answer instead. */
  readonly id: string;
  /** The page's own id, for a page that has none in its state yet. */
  readonly key: string;
  readonly messages: readonly HostMessage[];
}

/** An image pasted into the prompt box, as the browser read it. */
export interface PastedImage {
  readonly mimeType: string;
  readonly data: string;
}

/**
 * What a surface's page sends (the side bar's view, an editor tab of the chat, a helper's tab). A
 * message that acts on one conversation (CONVERSATION_MESSAGES) goes out with the tab its surface
 * shows, stamped by webview/main.ts (stampTab); the host refuses one without it (parseViewMessage).
 */
export type ViewMessage =
  /**
   * The page is live; `tab`: the conversation it showed before (its saved state, after a reload);
   * `key`: the page's own id, kept in its state (the host remembers each page's conversation by it);
   * `first`: the id of the FirstState the page showed (the host then sends only what changed since).
   */
  | { readonly type: 'view/ready'; readonly tab?: string; readonly key?: string; readonly first?: string }
  /** The user clicked in the page or typed in it: its surface is the one used last (commands act on its conversation). */
  | { readonly type: 'view/focus' }
  | { readonly type: 'prompt/send'; readonly tab?: string; readonly text: string; readonly mentions: readonly string[]; readonly images: readonly PastedImage[] }
  /** What is in the prompt box, not sent yet, for conversation `tab`: the host keeps it (a new page, a switch of conversation, a window reload). */
  | { readonly type: 'composer/draft'; readonly tab?: string; readonly text: string; readonly mentions: readonly string[]; readonly images: readonly PastedImage[] }
  | { readonly type: 'turn/cancel'; readonly tab?: string }
  /** Stop on a child agent's card (only offered when the child offers `cancel`). */
  | { readonly type: 'child/cancel'; readonly tab?: string; readonly childId: string }
  /** "Open in tab" on a child agent's card: its transcript in an editor tab of its own (views/childTabs.ts). */
  | { readonly type: 'child/open'; readonly tab?: string; readonly childId: string }
  | { readonly type: 'permission/answer'; readonly tab?: string; readonly itemId: string; readonly optionId: string | null }
  | { readonly type: 'question/answer'; readonly tab?: string; readonly itemId: string; readonly action: 'accept' | 'decline' | 'cancel'; readonly values?: Record<string, RawValue> }
  | { readonly type: 'item/action'; readonly tab?: string; readonly itemId: string; readonly action: ItemAction }
  | { readonly type: 'agent/pick' }
  | { readonly type: 'parallel/open' }
  | { readonly type: 'tab/select'; readonly tab: string }
  | { readonly type: 'tab/close'; readonly tab: string }
  | { readonly type: 'tab/new' }
  | { readonly type: 'sessions/browse' }
  | { readonly type: 'mode/set'; readonly tab?: string; readonly modeId: string }
  | { readonly type: 'config/set'; readonly tab?: string; readonly configId: string; readonly value: string | boolean }
  | { readonly type: 'mention/search'; readonly query: string }
  | { readonly type: 'link/open'; readonly href: string }
  | { readonly type: 'location/open'; readonly path: string; readonly line: number | null }
  | { readonly type: 'diff/open'; readonly tab?: string; readonly itemId: string; readonly index: number }
  | { readonly type: 'item/openText'; readonly tab?: string; readonly itemId: string }
  /** "Restore files to before this turn" on a user message (host/checkpoints). */
  | { readonly type: 'checkpoint/restore'; readonly tab?: string; readonly itemId: string }
  /** Ctrl+F in the chat: every turn of the conversation is searched (common/conversationSearch). */
  | { readonly type: 'search/query'; readonly tab?: string; readonly query: string }
  /** The view shows a turn whose items it does not hold (see common/turns). */
  | { readonly type: 'turn/load'; readonly tab?: string; readonly turnId: string }
  | { readonly type: 'terminal/reveal'; readonly terminalId: string }
  | { readonly type: 'write/action'; readonly action: WriteAction; readonly id: string }
  | { readonly type: 'change/action'; readonly action: ChangeAction; readonly turnId: string; readonly path?: string; readonly hunkId?: string }
  | { readonly type: 'queue/action'; readonly tab: string; readonly id: string; readonly action: QueueAction }
  | { readonly type: 'queue/save'; readonly tab: string; readonly id: string; readonly text: string }
  /** The welcome: start an agent found on this computer, by name. */
  | { readonly type: 'welcome/start'; readonly name: string }
  | { readonly type: 'welcome/action'; readonly action: WelcomeAction };

const CONVERSATION_TYPES = [
  'prompt/send', 'turn/cancel', 'child/cancel', 'child/open', 'permission/answer', 'question/answer', 'item/action', 'mode/set',
  'config/set', 'diff/open', 'item/openText', 'checkpoint/restore', 'search/query', 'turn/load', 'queue/action', 'queue/save',
  'composer/draft',
] as const satisfies readonly ViewMessage['type'][];
/** The messages that act on one conversation: each names its tab (the one its surface shows). */
export const CONVERSATION_MESSAGES: ReadonlySet<string> = new Set(CONVERSATION_TYPES);

/** A message as the host takes it: one that acts on a conversation names its tab for sure. */
export type ReceivedViewMessage = ViewMessage extends infer M
  ? M extends { readonly type: (typeof CONVERSATION_TYPES)[number] } ? M & { readonly tab: string } : M
  : never;

/** `m` with the conversation its surface shows (`tab`), when it acts on one and names none yet. */
export function stampTab(m: ViewMessage, tab: string | undefined): ViewMessage {
  return CONVERSATION_MESSAGES.has(m.type) && tab !== undefined && (m as { tab?: string }).tab === undefined ? { ...m, tab } as ViewMessage : m;
}

const ACTIONS: readonly ItemAction[] = ['restart', 'retry', 'openSettings', 'authenticate', 'showLog'];
const QUEUE_ACTIONS: readonly QueueAction[] = ['edit', 'cancelEdit', 'remove', 'sendNow'];
const WELCOME_ACTIONS: readonly WelcomeAction[] = ['addAgent', 'getStarted', 'trust', 'openFolder'];
const MAX_PROMPT_CHARS = 1_000_000;
const MAX_IMAGE_BASE64 = 20_000_000;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const str = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length <= max;
const strList = (v: unknown, maxItems: number, maxLen: number): v is string[] =>
  Array.isArray(v) && v.length <= maxItems && v.every(x => str(x, maxLen));

/**
 * Validates a message from the webview (untrusted input); returns undefined for anything malformed,
 * and for a message that acts on a conversation without naming its tab (the host never guesses).
 */
export function parseViewMessage(raw: unknown): ReceivedViewMessage | undefined {
  const msg = parseFields(raw);
  if (!msg || !CONVERSATION_MESSAGES.has(msg.type)) return msg as ReceivedViewMessage | undefined;
  const tab = (raw as { tab?: unknown }).tab;
  return str(tab) ? { ...msg, tab } as ReceivedViewMessage : undefined;
}

function parseFields(raw: unknown): ViewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'view/ready':
      return { type: 'view/ready', ...(str(m.tab) ? { tab: m.tab } : {}), ...(str(m.key, 100) ? { key: m.key } : {}), ...(str(m.first, 100) ? { first: m.first } : {}) };
    case 'view/focus':
    case 'turn/cancel':
    case 'agent/pick':
    case 'parallel/open':
    case 'tab/new':
    case 'sessions/browse':
      return { type: m.type };
    case 'prompt/send':
    case 'composer/draft': {
      if (!str(m.text, MAX_PROMPT_CHARS)) return undefined;
      const mentions = m.mentions ?? [];
      const images = m.images ?? [];
      if (!strList(mentions, 100, 4096) || !Array.isArray(images) || images.length > 10) return undefined;
      if (!images.every(i => typeof i === 'object' && i !== null && IMAGE_TYPES.includes(i.mimeType) && str(i.data, MAX_IMAGE_BASE64) && /^[A-Za-z0-9+/=]*$/.test(i.data))) return undefined;
      return { type: m.type, text: m.text, mentions, images: images.map(i => ({ mimeType: i.mimeType, data: i.data })) };
    }
    case 'child/cancel':
    case 'child/open':
      if (!str(m.childId) || !(m.tab === undefined || str(m.tab))) return undefined;
      return { type: m.type, tab: m.tab as string | undefined, childId: m.childId };
    case 'permission/answer':
      if (!str(m.itemId) || !(m.optionId === null || str(m.optionId, 500)) || !(m.tab === undefined || str(m.tab))) return undefined;
      return { type: 'permission/answer', tab: m.tab as string | undefined, itemId: m.itemId, optionId: m.optionId };
    case 'question/answer': {
      if (!str(m.itemId) || !['accept', 'decline', 'cancel'].includes(m.action as string) || !(m.tab === undefined || str(m.tab))) return undefined;
      const values = m.values ?? {};
      if (typeof values !== 'object' || values === null || Array.isArray(values)) return undefined;
      const entries = Object.entries(values);
      if (entries.length > LIMITS.fields || !entries.every(([k, v]) => str(k, LIMITS.name) && (typeof v === 'boolean' || str(v, LIMITS.value) || strList(v, LIMITS.options, LIMITS.value)))) return undefined;
      return { type: 'question/answer', tab: m.tab as string | undefined, itemId: m.itemId, action: m.action as 'accept', values: Object.fromEntries(entries) as Record<string, RawValue> };
    }
    case 'item/openText':
    case 'checkpoint/restore':
      if (!str(m.itemId) || !(m.tab === undefined || str(m.tab))) return undefined;
      return m.type === 'checkpoint/restore'
        ? { type: 'checkpoint/restore', tab: m.tab as string | undefined, itemId: m.itemId }
        : { type: 'item/openText', tab: m.tab as string | undefined, itemId: m.itemId };
    case 'search/query':
      if (!str(m.query, MAX_QUERY_CHARS) || !(m.tab === undefined || str(m.tab))) return undefined;
      return { type: 'search/query', tab: m.tab as string | undefined, query: m.query };
    case 'turn/load':
      if (!str(m.turnId) || !(m.tab === undefined || str(m.tab))) return undefined;
      return { type: 'turn/load', tab: m.tab as string | undefined, turnId: m.turnId };
    case 'item/action':
      if (!str(m.itemId) || !ACTIONS.includes(m.action as ItemAction)) return undefined;
      return { type: 'item/action', itemId: m.itemId, action: m.action as ItemAction };
    case 'tab/select':
    case 'tab/close':
      return str(m.tab) ? { type: m.type, tab: m.tab } : undefined;
    case 'mode/set':
      return str(m.modeId, 500) ? { type: 'mode/set', modeId: m.modeId } : undefined;
    case 'config/set':
      if (!str(m.configId, 500) || !(typeof m.value === 'boolean' || str(m.value, 500))) return undefined;
      return { type: 'config/set', configId: m.configId, value: m.value };
    case 'mention/search':
      return str(m.query, 500) ? { type: 'mention/search', query: m.query } : undefined;
    case 'link/open':
      return str(m.href, 8192) ? { type: 'link/open', href: m.href } : undefined;
    case 'location/open':
      if (!str(m.path, 4096) || !(m.line === null || (Number.isInteger(m.line) && (m.line as number) >= 0))) return undefined;
      return { type: 'location/open', path: m.path, line: m.line as number | null };
    case 'diff/open':
      if (!str(m.itemId) || !Number.isInteger(m.index) || (m.index as number) < 0 || !(m.tab === undefined || str(m.tab))) return undefined;
      return { type: 'diff/open', tab: m.tab as string | undefined, itemId: m.itemId, index: m.index as number };
    case 'terminal/reveal':
      return str(m.terminalId, 500) ? { type: 'terminal/reveal', terminalId: m.terminalId } : undefined;
    case 'write/action':
      if (!['accept', 'reject', 'acceptAll', 'diff'].includes(m.action as string) || !str(m.id)) return undefined;
      return { type: 'write/action', action: m.action as WriteAction, id: m.id };
    case 'change/action': {
      if (!['keep', 'undo', 'diff'].includes(m.action as string) || !str(m.turnId)) return undefined;
      if (m.path !== undefined && !str(m.path, 4096)) return undefined;
      if (m.hunkId !== undefined && !str(m.hunkId)) return undefined;
      return { type: 'change/action', action: m.action as ChangeAction, turnId: m.turnId, path: m.path as string | undefined, hunkId: m.hunkId as string | undefined };
    }
    case 'queue/action':
      if (!str(m.tab) || !str(m.id) || !QUEUE_ACTIONS.includes(m.action as QueueAction)) return undefined;
      return { type: 'queue/action', tab: m.tab, id: m.id, action: m.action as QueueAction };
    case 'queue/save':
      if (!str(m.tab) || !str(m.id) || !str(m.text, MAX_PROMPT_CHARS)) return undefined;
      return { type: 'queue/save', tab: m.tab, id: m.id, text: m.text };
    case 'welcome/start':
      return str(m.name, 500) ? { type: 'welcome/start', name: m.name } : undefined;
    case 'welcome/action':
      return WELCOME_ACTIONS.includes(m.action as WelcomeAction) ? { type: 'welcome/action', action: m.action as WelcomeAction } : undefined;
    default:
      return undefined;
  }
}
