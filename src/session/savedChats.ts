// Conversations survive a window reload: the tabs and their transcripts are kept in the
// workspace state (bounded), written shortly after each change and on shutdown. The turns a tab no
// longer keeps in memory (see common/turns) are written to a file of their own in the extension's
// storage, one JSON line per turn, and read back when the chat view shows one of them again.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import type { NewPrompt } from '../common/promptQueue';
import type { DraftBook } from '../common/conversation/drafts';
import type { PastedImage } from '../common/protocol';
import type { Item } from '../common/transcript';
import { turnChars, type TurnSummary } from '../common/turns';

/**
 * What is saved of a conversation. ChatSession is one; declared here so that saving does not import
 * the session (no import circle).
 */
export interface SavableChat {
  readonly id: string;
  readonly agentName: string;
  readonly sessionId?: string;
  readonly meta: { readonly title?: string };
  readonly items: readonly Item[];
  readonly archived: readonly TurnSummary[];
  readonly archiveKey: string | undefined;
  readonly queue: { readonly size: number; readonly items: readonly NewPrompt[] };
  /** Whether its agent is answering a prompt now (the save then waits for the turn's end: STREAMING_WAIT_MS). */
  readonly inTurn?: boolean;
}

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

/** What is in the prompt box and not sent: one per conversation (common/conversation/drafts). */
export type Draft = NewPrompt;

/** Where a conversation's old turns go, and come back from. */
export interface TurnArchive {
  /** A new name for one conversation's file. */
  newKey(): string;
  write(key: string, turns: readonly (readonly Item[])[]): void;
  read(key: string, turnId: string): Promise<Item[] | undefined>;
  /** Every turn in the file, oldest first (search, and an item asked for by id). */
  readAll(key: string): Promise<{ id: string; items: Item[] }[]>;
  forget(key: string): void;
}

/** Before 0.3.x's issue 23: the conversations as an array of objects. Read, then cleared. */
const KEY_V1 = 'switchboard.chats.v1';
/**
 * The conversations as one JSON string: the window takes the workspace state's values on its main
 * thread (the chat view's too), and one string of 4 MB is copied and stored there in a fraction of
 * the time the same data as thousands of small objects took (decoded, then encoded again).
 */
const KEY = 'switchboard.chats.v2';
/** Before issue 19's drafts per conversation: the one draft of the window. Read, then cleared. */
const DRAFT_KEY_V1 = 'switchboard.draft.v1';
/** Each conversation's draft: [tab, draft] pairs, changed last at the end. */
const DRAFTS_KEY = 'switchboard.drafts.v2';
/** Pasted images kept with a draft or a queued message, in base64 characters (more: the text is kept, not the images). */
const MAX_SAVED_IMAGES = 4_000_000;
const MAX_TABS = 10;
/**
 * The items kept of one conversation, in characters from its end (not a count: a long live turn of
 * thousands of small items, not yet on disk, comes back whole after a reload).
 */
const MAX_SAVED_CHARS = 4_000_000;
const MAX_TEXT = 50_000;
const DELAY_MS = 1000;
/** The longest wait before a change is saved (a large conversation while it streams). */
const MAX_DELAY_MS = 5000;
/**
 * A save sends the whole state to the window (VS Code's workspace state): after a save of `chars`
 * characters, the next one waits 1 s per 500,000 (at least DELAY_MS, at most MAX_DELAY_MS). A
 * 5,000-tool-call turn saved once a second sent the window 2 MB a second, twice what the chat
 * itself was sent; a conversation of usual size is still saved within a second.
 */
export function saveDelay(chars: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(DELAY_MS, Math.round(chars / 500)));
}
/**
 * While an agent answers, a save waits for the turn's end, up to this long: the window takes the
 * whole state on its main thread (the chat view's too) — a 5,000-tool-call turn's 2–4 MB held a
 * frame of the streaming chat for 150–250 ms (profile of bench/long-turn). A reload saves first.
 */
export const STREAMING_WAIT_MS = 60_000;
const ARCHIVE_KEY = /^[0-9a-f-]{36}$/;

export class SavedChats implements TurnArchive {
  private timer: NodeJS.Timeout | undefined;
  /** Writes per file, in order: a read waits for the writes before it. */
  private readonly writing = new Map<string, Promise<void>>();

  /** `archiveDir`: the folder for old turns (none: old turns are forgotten, their summaries stay). */
  constructor(private readonly state: vscode.Memento, private readonly archiveDir?: string, private readonly log?: Logger) {}

  load(): SavedChat[] {
    const text = this.state.get<unknown>(KEY);
    let raw: unknown = this.state.get<unknown>(KEY_V1);
    if (typeof text === 'string') {
      try { raw = JSON.parse(text); } catch { raw = undefined; }
    }
    const chats = Array.isArray(raw) ? raw.filter(isSavedChat) : [];
    void this.prune(new Set(chats.map(c => c.archiveKey).filter((k): k is string => !!k)));
    return chats;
  }

  private delay = DELAY_MS;

  /** Saves within a second (more for a large conversation: saveDelay); a burst of changes (a streamed answer) costs one write per delay. */
  schedule(sessions: () => readonly SavableChat[]): void {
    if (this.timer) return;
    const since = Date.now();
    const due = () => {
      const all = sessions();
      if (all.some(s => s.inTurn) && Date.now() - since < STREAMING_WAIT_MS) this.timer = setTimeout(due, DELAY_MS);
      else this.flush(all);
    };
    this.timer = setTimeout(due, this.delay);
  }

  flush(sessions: readonly SavableChat[]): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    let chars = 0;
    const chats = sessions.filter(s => s.items.length > 0).slice(-MAX_TABS).map((s): SavedChat => ({
      id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title,
      items: lastItems(s.items, n => { chars += n; }),
      ...(s.archived.length ? { archived: s.archived, archiveKey: s.archiveKey } : {}),
      ...(s.queue.size ? { queued: s.queue.items.map(q => keepable({ text: q.text, mentions: q.mentions, images: q.images })) } : {}),
    }));
    this.delay = saveDelay(chars);
    void this.state.update(KEY, JSON.stringify(chats));
    if (this.state.get(KEY_V1) !== undefined) void this.state.update(KEY_V1, undefined);
  }

  /** The drafts of the conversations (tab → draft and the surface it was typed in, changed last at the end), and the one draft of an older version. */
  loadDrafts(): { drafts: [string, Draft, string?][]; legacy?: Draft } {
    const raw = this.state.get<unknown>(DRAFTS_KEY);
    const drafts = Array.isArray(raw) ? raw.filter((e): e is [string, Draft, string?] => Array.isArray(e) && typeof e[0] === 'string' && isPrompt(e[1]) && (e[2] === undefined || typeof e[2] === 'string')) : [];
    const legacy = this.state.get<unknown>(DRAFT_KEY_V1);
    return { drafts, ...(isPrompt(legacy) && !isEmptyPrompt(legacy) ? { legacy } : {}) };
  }

  /** Saves each conversation's draft (pasted images up to MAX_SAVED_IMAGES characters in all); the older version's one draft is then cleared. */
  saveDrafts(drafts: DraftBook): void {
    const all = drafts.toSave(MAX_SAVED_IMAGES);
    void this.state.update(DRAFTS_KEY, all.length ? all : undefined);
    if (this.state.get(DRAFT_KEY_V1) !== undefined) void this.state.update(DRAFT_KEY_V1, undefined);
  }

  newKey(): string {
    return randomUUID();
  }

  write(key: string, turns: readonly (readonly Item[])[]): void {
    const file = this.file(key);
    if (!file || !turns.length) return;
    // In full (not cut as in the workspace state): any message or tool output opens in full later.
    const lines = turns.map(t => JSON.stringify({ id: t[0]?.id, items: t.map(historyItem) }) + '\n').join('');
    this.queue(key, async () => {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, lines, 'utf8');
    });
  }

  async read(key: string, turnId: string): Promise<Item[] | undefined> {
    const file = this.file(key);
    if (!file) return undefined;
    await this.writing.get(key);
    let text: string;
    try { text = await fs.readFile(file, 'utf8'); } catch { return undefined; }
    const prefix = JSON.stringify({ id: turnId }).slice(0, -1) + ',';
    const line = text.split('\n').find(l => l.startsWith(prefix));
    if (!line) return undefined;
    try {
      const items = (JSON.parse(line) as { items?: unknown }).items;
      return Array.isArray(items) ? items as Item[] : undefined;
    } catch { return undefined; }
  }

  async readAll(key: string): Promise<{ id: string; items: Item[] }[]> {
    const file = this.file(key);
    if (!file) return [];
    await this.writing.get(key);
    let text: string;
    try { text = await fs.readFile(file, 'utf8'); } catch { return []; }
    const turns: { id: string; items: Item[] }[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const t = JSON.parse(line) as { id?: unknown; items?: unknown };
        if (typeof t.id === 'string' && Array.isArray(t.items)) turns.push({ id: t.id, items: t.items as Item[] });
      } catch { /* a line cut by a crash: the others stay readable */ }
    }
    return turns;
  }

  forget(key: string): void {
    const file = this.file(key);
    if (file) this.queue(key, () => fs.rm(file, { force: true }));
  }

  /** Removes the files of conversations that are no longer saved. */
  private async prune(keep: ReadonlySet<string>): Promise<void> {
    if (!this.archiveDir) return;
    let names: string[];
    try { names = await fs.readdir(this.archiveDir); } catch { return; }
    for (const name of names) {
      const key = name.replace(/\.jsonl$/, '');
      if (ARCHIVE_KEY.test(key) && !keep.has(key) && !this.writing.has(key)) await fs.rm(path.join(this.archiveDir, name), { force: true }).catch(() => undefined);
    }
  }

  private file(key: string): string | undefined {
    return this.archiveDir && ARCHIVE_KEY.test(key) ? path.join(this.archiveDir, `${key}.jsonl`) : undefined;
  }

  private queue(key: string, job: () => Promise<unknown>): void {
    const next = (this.writing.get(key) ?? Promise.resolve()).then(job).then(() => undefined, err => {
      this.log?.warn(`Could not keep the old turns of a conversation on disk: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.writing.set(key, next);
    void next.then(() => { if (this.writing.get(key) === next) this.writing.delete(key); });
  }
}

/** The last items whose size is within MAX_SAVED_CHARS (always the last one), each trimmed. */
function lastItems(items: readonly Item[], counted: (chars: number) => void): Item[] {
  const kept: Item[] = [];
  let chars = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = trimItem(items[i]);
    const n = turnChars([item]);
    if (kept.length && chars + n > MAX_SAVED_CHARS) break;
    chars += n;
    kept.push(item);
  }
  counted(chars);
  return kept.reverse();
}

function trimItem(item: Item): Item {
  if ('text' in item && item.text.length > MAX_TEXT) return historyItem({ ...item, text: item.text.slice(0, MAX_TEXT) + '\n…' });
  return historyItem(item);
}

function historyItem(item: Item): Item {
  // A permission cannot be answered after a reload: keep it as history only.
  if (item.kind === 'permission' && item.permission.outcome === undefined) return { ...item, permission: { ...item.permission, outcome: 'cancelled' } };
  if (item.kind === 'question' && item.question.outcome === undefined) return { ...item, question: { ...item.question, outcome: 'cancelled' } };
  // A helper agent seen working before the reload is no longer observed: its last state is unknown.
  if (item.kind === 'child' && (item.child.state === 'running' || item.child.state === 'needsYou')) return { ...item, child: { ...item.child, state: 'unknown' } };
  return item;
}

/** A prompt as saved: its images only when they are small enough for the workspace state. */
function keepable(p: NewPrompt): NewPrompt {
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

function isSavedChat(v: unknown): v is SavedChat {
  const c = v as SavedChat;
  return typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.agentName === 'string' && Array.isArray(c.items)
    && (c.archived === undefined || Array.isArray(c.archived)) && (c.archiveKey === undefined || (typeof c.archiveKey === 'string' && ARCHIVE_KEY.test(c.archiveKey)));
}
