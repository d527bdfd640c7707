// Conversations survive a window reload (and a crash): each conversation's kept items (bounded) are
// written to a file of its own in the extension's storage, `<dir>/<uuid>.chat.json` (a temporary
// file, then a rename: a crash never leaves half a file), a little after each change — also while
// its agent streams, the bytes written in the thread pool — and at once at a turn's end and on
// shutdown; an unchanged conversation is not written again. The
// workspace state keeps only a small index (common/conversation/savedIndex): it is the window's,
// and each update of it is sent to the window's main thread. The turns a tab no longer keeps in
// memory (see common/turns) go to a file of their own, `<dir>/<archiveKey>.jsonl`, one JSON line
// per turn, read back when the chat view shows one of them again. The drafts: savedDrafts.ts.
import { randomUUID } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { SavedDrafts, writeAtomically } from './savedDrafts';
import type { NewPrompt } from '../common/promptQueue';
import type { Item } from '../common/transcript';
import type { TurnSummary } from '../common/turns';
import {
  chatFileKey, chatFileName, historyItem, isEmptyPrompt, isPrompt, keepable, keptItems, legacyChats, MAX_TABS, parseChatFile,
  parseIndex, splitChat, STORE_KEY, type IndexEntry, type SavedChat,
} from '../common/conversation/savedIndex';

export { isEmptyPrompt, isPrompt, type SavedChat };

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

/** The conversations: the index of their files (common/conversation/savedIndex). */
const INDEX_KEY = 'switchboard.chats.v3';
/** Before issue 23: the conversations whole, as one JSON string. Moved to files at the first load, then cleared. */
const KEY_V2 = 'switchboard.chats.v2';
/** Before 0.3.x's issue 23: the conversations as an array of objects. Moved to files, then cleared. */
const KEY_V1 = 'switchboard.chats.v1';
/** A file no index lists is removed at load only once nothing wrote it for this long. */
const PRUNE_AFTER_MS = 60_000;

async function untouchedFor(file: string, ms: number): Promise<boolean> {
  const st = await fs.stat(file).catch(() => undefined);
  return !!st && Date.now() - st.mtimeMs > ms;
}
const DELAY_MS = 1000;
/** The longest wait before a change is saved (a large conversation while it streams). */
const MAX_DELAY_MS = 5000;
/**
 * After a save of `chars` characters, the next one waits 1 s per 500,000 (at least DELAY_MS, at
 * most MAX_DELAY_MS): a 5,000-tool-call turn (2–4 MB) is written every few seconds while it
 * streams, not every second; a conversation of usual size is saved within a second.
 */
export function saveDelay(chars: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(DELAY_MS, Math.round(chars / 500)));
}

const NO_QUEUE: readonly NewPrompt[] = [];

/** A conversation as last written: its file, and what it held then (the same items, summaries, queue, session and title: not written again). */
interface Written {
  readonly file: string;
  readonly items: readonly Item[];
  readonly archived: number;
  readonly lastArchived: string | undefined;
  readonly queue: readonly NewPrompt[];
  readonly sessionId?: string;
  readonly title?: string;
}

export class SavedChats implements TurnArchive {
  private timer: NodeJS.Timeout | undefined;
  private delay = DELAY_MS;
  /** Writes per archive file, in order: a read waits for the writes before it. */
  private readonly writing = new Map<string, Promise<void>>();
  /** Each saved tab's file and what was written to it last. */
  private readonly written = new Map<string, Written>();
  /** The index as last written (JSON): an unchanged index is not sent to the window again. */
  private indexText: string | undefined;
  /** A write failed and was logged (logged once until one succeeds). */
  private failing = false;
  /** Files being written in the thread pool (writeLater): the number of the latest write of each. */
  private readonly inFlight = new Map<string, number>();
  private generation = 0;
  private readonly pending = new Set<Promise<void>>();

  /**
   * `dir`: the folder of the conversations' files and of old turns (none: nothing is saved).
   * `ownsDir`: the folder is this workspace's own, so files no index lists are removed at load;
   * a folder shared by windows (VS Code's global storage for windows without a folder) keeps them,
   * they may be another window's.
   */
  constructor(readonly state: vscode.Memento, readonly dir?: string, private readonly log?: Logger, private readonly ownsDir = true) {
    this.drafts = new SavedDrafts(state, dir, log);
  }

  /** What is typed and not sent, kept in a file of the same folder (savedDrafts.ts). */
  readonly drafts: SavedDrafts;

  /**
   * The conversations of the last window, read from their files (synchronously: the tabs are
   * there when the chat first shows). A file that cannot be read is skipped and logged, the others
   * load. An older version's conversations (in the workspace state) are moved to files first.
   */
  load(): SavedChat[] {
    const legacy = this.state.get(INDEX_KEY) === undefined ? legacyChats(this.state.get(KEY_V2), this.state.get(KEY_V1)) : undefined;
    const entries = legacy ? this.migrate(legacy) : parseIndex(this.state.get(INDEX_KEY));
    const chats = legacy ?? this.readChats(entries);
    const archives = [...entries, ...chats].flatMap(c => (c.archiveKey ? [c.archiveKey] : []));
    this.pruned = this.prune(new Set(archives), new Set(entries.map(e => e.file)));
    return chats;
  }

  /** Done when the files load() found stale are removed. */
  pruned: Promise<void> = Promise.resolve();

  /** What a new window would load now, changing nothing (tests). */
  peek(): SavedChat[] {
    return this.readChats(parseIndex(this.state.get(INDEX_KEY)), true);
  }

  /** Saves within a second (more for a large conversation: saveDelay); a burst of changes (a streamed answer) costs one write per delay. */
  schedule(sessions: () => readonly SavableChat[]): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.save(sessions(), false), this.delay);
  }

  /**
   * Saves now, synchronously (it also runs as the window closes): the files of the conversations
   * that changed since their last save (or whose write is still under way), the index if it
   * changed; the files of tabs no longer saved are removed.
   */
  flush(sessions: readonly SavableChat[]): void {
    this.save(sessions, true);
    this.drafts.flush();
  }

  /** `now`: the files are written before it returns; else their writing (not their content) is left to the thread pool. */
  private save(sessions: readonly SavableChat[], now: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dir) return;
    let chars = 0;
    let failed = false;
    const entries: IndexEntry[] = [];
    const kept = sessions.filter(s => s.items.length > 0).slice(-MAX_TABS);
    for (const s of kept) {
      const before = this.written.get(s.id);
      const queue = s.queue.size ? s.queue.items : NO_QUEUE;
      let after = before;
      if (!before || (now && this.inFlight.has(before.file)) || before.items.length !== s.items.length || before.items.some((item, i) => item !== s.items[i])
        || before.archived !== s.archived.length || before.lastArchived !== s.archived.at(-1)?.id || before.queue !== queue
        || before.sessionId !== s.sessionId || before.title !== s.meta.title) {
        const { items, chars: n } = keptItems(s.items);
        chars += n;
        const file = before?.file ?? randomUUID();
        const chat: SavedChat = {
          id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title, items,
          ...(s.archived.length ? { archived: s.archived, archiveKey: s.archiveKey } : {}),
          ...(queue.length ? { queued: queue.map(q => keepable({ text: q.text, mentions: q.mentions, images: q.images })) } : {}),
        };
        const text = JSON.stringify(splitChat(chat, file).content);
        if (now ? this.writeChat(file, text) : this.writeLater(s.id, file, text)) {
          after = { file, items: [...s.items], archived: s.archived.length, lastArchived: s.archived.at(-1)?.id, queue, sessionId: s.sessionId, title: s.meta.title };
          this.written.set(s.id, after);
        } else {
          failed = true;
          if (before) this.unsaved(s.id, before.file);
        }
      }
      // Never written (its write failed): not listed, the index names no file that is not there.
      if (after) entries.push(splitChat({ id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title, items: [], ...(s.archived.length ? { archiveKey: s.archiveKey } : {}) }, after.file).entry);
    }
    this.delay = saveDelay(chars);
    // An older version's conversations are cleared only once their files are surely written.
    this.writeIndex(entries, failed || !now);
    for (const [id, w] of this.written) {
      if (entries.some(e => e.id === id)) continue;
      this.written.delete(id);
      this.removeChat(w.file);
    }
  }

  /**
   * Moves an older version's conversations to files, then lists them in the index and clears the
   * older form; if a file cannot be written, the older form stays (read again at the next load).
   */
  private migrate(chats: readonly SavedChat[]): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (const chat of chats.slice(-MAX_TABS)) {
      const file = randomUUID();
      const { entry, content } = splitChat(chat, file);
      if (!this.writeChat(file, JSON.stringify(content))) return [];
      this.written.set(chat.id, { file, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE });
      entries.push(entry);
    }
    this.writeIndex(entries, false);
    this.log?.info(`Moved ${entries.length} saved conversation(s) from the workspace state to files in ${this.dir}.`);
    return entries;
  }

  /** Writes the index if it changed; the older versions' forms are cleared once nothing failed. */
  private writeIndex(entries: readonly IndexEntry[], failed: boolean): void {
    // An older version's conversations not all in files yet: the next load reads them from there again.
    if (failed && (this.state.get(KEY_V2) !== undefined || this.state.get(KEY_V1) !== undefined)) return;
    const text = JSON.stringify(entries);
    if (text !== this.indexText) {
      this.indexText = text;
      void this.state.update(INDEX_KEY, entries);
    }
    if (failed) return;
    if (this.state.get(KEY_V2) !== undefined) void this.state.update(KEY_V2, undefined);
    if (this.state.get(KEY_V1) !== undefined) void this.state.update(KEY_V1, undefined);
  }

  /** Each entry's conversation from its file; one that cannot be read is skipped (and logged, unless `quiet`). */
  private readChats(entries: readonly IndexEntry[], quiet = false): SavedChat[] {
    const chats: SavedChat[] = [];
    for (const entry of entries) {
      const file = this.dir && path.join(this.dir, chatFileName(entry.file));
      let read: ReturnType<typeof parseChatFile> | { problem: 'io'; detail: string };
      try {
        read = file ? parseChatFile(entry, fsSync.readFileSync(file, 'utf8')) : { problem: 'io', detail: 'no folder' };
      } catch (err) {
        read = { problem: 'io', detail: err instanceof Error ? err.message : String(err) };
      }
      if ('chat' in read) {
        chats.push(read.chat);
        if (!quiet) this.written.set(entry.id, { file: entry.file, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE });
      } else if (!quiet) {
        const why = read.problem === 'notJson' ? `not JSON (${read.detail})` : read.problem === 'noItems' ? 'no items in it'
          : read.problem === 'otherConversation' ? `it holds conversation ${read.detail}` : read.detail;
        this.log?.warn(`A saved conversation (${entry.title ?? entry.id}, ${file}) could not be read, it is skipped: ${why}`);
      }
    }
    if (!quiet) this.indexText = JSON.stringify(entries);
    return chats;
  }

  /** Writes a conversation's file now: a temporary file, then a rename (a crash leaves the old file or the new, never half of one). */
  private writeChat(key: string, text: string): boolean {
    if (!this.dir || !STORE_KEY.test(key)) return false;
    // A write still under way for this file is older: it will not replace this one (writeLater).
    this.inFlight.delete(key);
    const file = path.join(this.dir, chatFileName(key));
    return this.writeNow(file, text);
  }

  private writeNow(file: string, text: string): boolean {
    try {
      writeAtomically(file, text);
      this.failing = false;
      return true;
    } catch (err) {
      this.writeFailed(file, err);
      return false;
    }
  }

  /**
   * Writes a conversation's file in the thread pool (the extension host goes on with the agent's
   * updates meanwhile), to a temporary file of its own, renamed on this thread only if no later
   * write of the file started (a later one, or the synchronous one at shutdown, always wins). A
   * failed write makes the next save write the conversation again.
   */
  private writeLater(tab: string, key: string, text: string): boolean {
    if (!this.dir || !STORE_KEY.test(key)) return false;
    const dir = this.dir;
    const generation = ++this.generation;
    this.inFlight.set(key, generation);
    const file = path.join(dir, chatFileName(key));
    const tmp = `${file}.${generation}.tmp`;
    const superseded = () => this.inFlight.get(key) !== generation;
    const job = (async () => {
      try {
        await fs.mkdir(dir, { recursive: true });
        await fs.writeFile(tmp, text, 'utf8');
        if (!superseded()) {
          fsSync.renameSync(tmp, file);
          this.inFlight.delete(key);
          this.failing = false;
          return;
        }
      } catch (err) {
        if (!superseded()) {
          this.inFlight.delete(key);
          this.writeFailed(file, err);
          this.unsaved(tab, key);
        }
      }
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    })();
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
    return true;
  }

  /** Tab `tab`'s last write to `key` failed: its next save writes it again. */
  private unsaved(tab: string, key: string): void {
    const w = this.written.get(tab);
    if (w?.file === key) this.written.set(tab, { ...w, items: [], archived: -1 });
  }

  /** Done when the writes under way are (tests). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private writeFailed(file: string, err: unknown): void {
    if (!this.failing) this.log?.warn(`Could not save a conversation to ${file}: ${err instanceof Error ? err.message : String(err)}`);
    this.failing = true;
  }

  private removeChat(key: string): void {
    if (!this.dir || !STORE_KEY.test(key)) return;
    this.inFlight.delete(key);
    try { fsSync.rmSync(path.join(this.dir, chatFileName(key)), { force: true }); } catch (err) {
      this.log?.warn(`Could not remove a closed conversation's file: ${err instanceof Error ? err.message : String(err)}`);
    }
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

  /**
   * Removes the files of conversations that are no longer saved (old turns not in `archives`, kept
   * items not in `chats` nor written since, a temporary file a crash left) — in a folder of this
   * workspace's own only (`ownsDir`).
   */
  private async prune(archives: ReadonlySet<string>, chats: ReadonlySet<string>): Promise<void> {
    if (!this.dir || !this.ownsDir) return;
    let names: string[];
    try { names = await fs.readdir(this.dir); } catch { return; }
    const written = () => new Set([...this.written.values()].map(w => w.file));
    for (const name of names) {
      const archive = name.replace(/\.jsonl$/, '');
      const chat = chatFileKey(name);
      const drafts = this.drafts.isDraftsFile(name);
      const stale = drafts !== undefined ? !drafts
        : STORE_KEY.test(archive) ? !archives.has(archive) && !this.writing.has(archive)
        : chat !== undefined && !this.inFlight.has(chat) && (name.endsWith('.tmp') || (!chats.has(chat) && !written().has(chat)));
      // Only a file left alone for a while: as a window reloads, its old extension host may still be
      // writing (a temporary file about to be renamed, a new conversation its index does not list yet).
      if (stale && (await untouchedFor(path.join(this.dir, name), PRUNE_AFTER_MS))) await fs.rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
    }
  }

  private file(key: string): string | undefined {
    return this.dir && STORE_KEY.test(key) ? path.join(this.dir, `${key}.jsonl`) : undefined;
  }

  private queue(key: string, job: () => Promise<unknown>): void {
    const next = (this.writing.get(key) ?? Promise.resolve()).then(job).then(() => undefined, err => {
      this.log?.warn(`Could not keep the old turns of a conversation on disk: ${err instanceof Error ? err.message : String(err)}`);
    });
    this.writing.set(key, next);
    void next.then(() => { if (this.writing.get(key) === next) this.writing.delete(key); });
  }
}

