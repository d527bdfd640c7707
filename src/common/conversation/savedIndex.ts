// What a window keeps of its conversations across a reload (issue 23): a small index in the
// workspace state (tab order, ids, agents, titles, session ids, archive keys) and each
// conversation's kept items in a file of its own in the extension's storage, so that no large value
// goes to the window (the workspace state is the window's: each update is sent to its main thread).
// Here: their shapes, what is kept of a conversation, the checks on what is read back (a file
// may be torn or edited; the agent wrote much of it), and the older versions' forms. Pure: no
// `vscode`, no file system.
import type { NewPrompt } from '../promptQueue';
import type { PastedImage } from '../protocol';
import type { Item } from '../transcript';
import { turnChars, type TurnSummary } from '../turns';

/** A conversation as it comes back after a reload. */
export interface SavedChat {
  readonly id: string;
  readonly agentName: string;
  readonly sessionId?: string;
  readonly title?: string;
  readonly items: readonly Item[];
  /** The turns before `items`, on disk under `archiveKey`: their summaries. */
  readonly archived?: readonly TurnSummary[];
  readonly archiveKey?: string;
  /** Messages typed while the agent worked, not sent yet. */
  readonly queued?: readonly NewPrompt[];
}

/** One conversation in the index (the workspace state): small, whatever its transcript's size. */
export interface IndexEntry {
  readonly id: string;
  readonly agentName: string;
  readonly sessionId?: string;
  readonly title?: string;
  /** The name of its file (STORE_KEY): `<file>.chat.json`. */
  readonly file: string;
  /** Its old turns' file (`<archiveKey>.jsonl`), kept while it is listed here. */
  readonly archiveKey?: string;
}

/**
 * A conversation's file: its transcript, and again what changes over its life (its session, title
 * and old turns' file). The file and the index are written apart (the index's update goes to the
 * window, which may close before it lands): what the file says wins, it is the newer.
 */
export interface ChatFile {
  /** The conversation's id, checked against the index's. */
  readonly id: string;
  /** Its agent, for a file no index lists (a conversation created just before a reload). */
  readonly agentName?: string;
  readonly items: readonly Item[];
  readonly archived?: readonly TurnSummary[];
  readonly queued?: readonly NewPrompt[];
  readonly sessionId?: string;
  readonly title?: string;
  readonly archiveKey?: string;
}

/** The names of our files in the storage: random UUIDs we made, never a name read unchecked. */
export const STORE_KEY = /^[0-9a-f-]{36}$/;
const CHAT_FILE = /^([0-9a-f-]{36})\.chat\.json(?:(?:\.[0-9]+)?\.tmp)?$/;

export function chatFileName(key: string): string {
  return `${key}.chat.json`;
}

/** The key of a conversation's file name (or of one of its temporary files), else undefined. */
export function chatFileKey(name: string): string | undefined {
  return CHAT_FILE.exec(name)?.[1];
}

/** Conversations kept at most: the last ones. */
export const MAX_TABS = 10;
/**
 * The items kept of one conversation, in characters from its end (not a count: a long live turn of
 * thousands of small items, not yet on disk, comes back whole after a reload).
 */
export const MAX_SAVED_CHARS = 4_000_000;
/** A message's text kept at most (the turn's file on disk has it whole). */
const MAX_TEXT = 50_000;
/** Pasted images kept with a queued message, in base64 characters (more: the text is kept, not the images). */
export const MAX_SAVED_IMAGES = 4_000_000;

/** The last items whose size is within MAX_SAVED_CHARS (always the last one), each trimmed; `chars`: their size. */
export function keptItems(items: readonly Item[]): { items: Item[]; chars: number } {
  const kept: Item[] = [];
  let chars = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = trimItem(items[i]);
    const n = turnChars([item]);
    if (kept.length && chars + n > MAX_SAVED_CHARS) break;
    chars += n;
    kept.push(item);
  }
  return { items: kept.reverse(), chars };
}

function trimItem(item: Item): Item {
  if ('text' in item && item.text.length > MAX_TEXT) return historyItem({ ...item, text: item.text.slice(0, MAX_TEXT) + '\n…' });
  return historyItem(item);
}

/** An item as history: what was live before the reload (a permission, a question, a helper at work) is no longer. */
export function historyItem(item: Item): Item {
  // A permission cannot be answered after a reload: keep it as history only.
  if (item.kind === 'permission' && item.permission.outcome === undefined) return { ...item, permission: { ...item.permission, outcome: 'cancelled' } };
  if (item.kind === 'question' && item.question.outcome === undefined) return { ...item, question: { ...item.question, outcome: 'cancelled' } };
  // A helper agent seen working before the reload is no longer observed: its last state is unknown.
  if (item.kind === 'child' && (item.child.state === 'running' || item.child.state === 'needsYou')) return { ...item, child: { ...item.child, state: 'unknown' } };
  return item;
}

/** A prompt as saved: its images only when they are small enough. */
export function keepable(p: NewPrompt): NewPrompt {
  const size = p.images.reduce((n, i) => n + i.data.length, 0);
  return { text: p.text, mentions: [...p.mentions], images: size <= MAX_SAVED_IMAGES ? [...p.images] : [] };
}

/** Nothing typed, mentioned or pasted. */
export function isEmptyPrompt(p: NewPrompt): boolean {
  return !p.text && !p.mentions.length && !p.images.length;
}

export function isPrompt(v: unknown): v is NewPrompt {
  const p = v as NewPrompt;
  return typeof p === 'object' && p !== null && typeof p.text === 'string' && Array.isArray(p.mentions) && p.mentions.every(m => typeof m === 'string')
    && Array.isArray(p.images) && p.images.every((i: PastedImage) => typeof i?.mimeType === 'string' && typeof i?.data === 'string');
}

/** A conversation split in what goes to the index and what goes to its file `file`. */
export function splitChat(chat: SavedChat, file: string): { entry: IndexEntry; content: ChatFile } {
  return {
    entry: {
      id: chat.id, agentName: chat.agentName, file,
      ...(chat.sessionId !== undefined ? { sessionId: chat.sessionId } : {}),
      ...(chat.title !== undefined ? { title: chat.title } : {}),
      ...(chat.archiveKey !== undefined ? { archiveKey: chat.archiveKey } : {}),
    },
    content: {
      id: chat.id, agentName: chat.agentName, items: chat.items,
      ...(chat.archived?.length ? { archived: chat.archived } : {}),
      ...(chat.queued?.length ? { queued: chat.queued } : {}),
      ...(chat.sessionId !== undefined ? { sessionId: chat.sessionId } : {}),
      ...(chat.title !== undefined ? { title: chat.title } : {}),
      ...(chat.archiveKey !== undefined ? { archiveKey: chat.archiveKey } : {}),
    },
  };
}

/** The index as read from the workspace state: its valid entries, each id and file once. */
export function parseIndex(raw: unknown): IndexEntry[] {
  if (!Array.isArray(raw)) return [];
  const ids = new Set<string>();
  const files = new Set<string>();
  const entries: IndexEntry[] = [];
  for (const e of raw) {
    if (!isEntry(e) || ids.has(e.id) || files.has(e.file)) continue;
    ids.add(e.id);
    files.add(e.file);
    entries.push(e);
  }
  return entries;
}

function isEntry(v: unknown): v is IndexEntry {
  const e = v as IndexEntry;
  return typeof e === 'object' && e !== null && typeof e.id === 'string' && typeof e.agentName === 'string'
    && typeof e.file === 'string' && STORE_KEY.test(e.file)
    && (e.sessionId === undefined || typeof e.sessionId === 'string') && (e.title === undefined || typeof e.title === 'string')
    && (e.archiveKey === undefined || (typeof e.archiveKey === 'string' && STORE_KEY.test(e.archiveKey)));
}

/** Why a conversation's file was not read: not JSON (torn, edited), not a conversation, another conversation's. */
export type ChatFileProblem = { problem: 'notJson'; detail: string } | { problem: 'noItems' } | { problem: 'otherConversation'; detail: string }
  | { problem: 'unnamed' };

/**
 * The conversation of index entry `entry` from its file's text, or why it cannot be read: the
 * caller skips it and says so. `entry` a file's key: a file no index lists, whose conversation's id
 * and agent are the file's own (`unnamed`: it has none, an older version wrote it).
 */
export function parseChatFile(entry: IndexEntry | string, text: string): { chat: SavedChat } | ChatFileProblem {
  let raw: unknown;
  try { raw = JSON.parse(text); } catch (err) { return { problem: 'notJson', detail: err instanceof Error ? err.message : String(err) }; }
  const f = raw as ChatFile;
  if (typeof f !== 'object' || f === null || !Array.isArray(f.items)) return { problem: 'noItems' };
  if (typeof entry === 'string') {
    if (typeof f.id !== 'string' || !f.id || typeof f.agentName !== 'string') return { problem: 'unnamed' };
    entry = { id: f.id, agentName: f.agentName, file: entry };
  }
  if (f.id !== entry.id) return { problem: 'otherConversation', detail: JSON.stringify(f.id) };
  const archived = Array.isArray(f.archived) ? f.archived.filter(isSummary) : [];
  const queued = Array.isArray(f.queued) ? f.queued.filter(isPrompt) : [];
  // The file's own, where valid (it is the newer); else the index's.
  const sessionId = typeof f.sessionId === 'string' ? f.sessionId : entry.sessionId;
  const title = typeof f.title === 'string' ? f.title : entry.title;
  const archiveKey = typeof f.archiveKey === 'string' && STORE_KEY.test(f.archiveKey) ? f.archiveKey : entry.archiveKey;
  return { chat: {
    id: entry.id, agentName: entry.agentName,
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(title !== undefined ? { title } : {}),
    items: f.items.filter(isItem),
    ...(archived.length ? { archived } : {}),
    ...(archiveKey !== undefined ? { archiveKey } : {}),
    ...(queued.length ? { queued } : {}),
  } };
}

function isItem(v: unknown): v is Item {
  const i = v as Item;
  return typeof i === 'object' && i !== null && typeof i.kind === 'string' && typeof i.id === 'string';
}

function isSummary(v: unknown): v is TurnSummary {
  const s = v as TurnSummary;
  return typeof s === 'object' && s !== null && typeof s.id === 'string' && typeof s.prompt === 'string' && typeof s.answer === 'string';
}

/**
 * The conversations an older version kept in the workspace state: `v2` one JSON string (0.3.x),
 * `v1` an array of objects (before). Undefined: there are none to move.
 */
export function legacyChats(v2: unknown, v1: unknown): SavedChat[] | undefined {
  if (v2 === undefined && v1 === undefined) return undefined;
  let raw = v1;
  if (typeof v2 === 'string') {
    try { raw = JSON.parse(v2); } catch { raw = undefined; }
  }
  const chats: SavedChat[] = [];
  for (const c of Array.isArray(raw) ? raw as Partial<Record<keyof SavedChat, unknown>>[] : []) {
    if (typeof c !== 'object' || c === null || typeof c.id !== 'string' || typeof c.agentName !== 'string' || !Array.isArray(c.items)) continue;
    if (chats.some(k => k.id === c.id)) continue;
    const archived = Array.isArray(c.archived) ? c.archived.filter(isSummary) : [];
    const queued = Array.isArray(c.queued) ? c.queued.filter(isPrompt) : [];
    chats.push({
      id: c.id, agentName: c.agentName,
      ...(typeof c.sessionId === 'string' ? { sessionId: c.sessionId } : {}),
      ...(typeof c.title === 'string' ? { title: c.title } : {}),
      items: c.items.filter(isItem),
      ...(archived.length ? { archived } : {}),
      ...(typeof c.archiveKey === 'string' && STORE_KEY.test(c.archiveKey) ? { archiveKey: c.archiveKey } : {}),
      ...(queued.length ? { queued } : {}),
    });
  }
  return chats;
}
