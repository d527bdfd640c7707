// Conversations survive a window reload (and a crash): each conversation's kept items (bounded) are
// written to a file of its own in the extension's storage, `<dir>/<uuid>.chat.json` (a temporary
// file, then a rename: a crash never leaves half a file), a little after each change — also while
// its agent streams, the bytes written in the thread pool — and at once at a turn's end and on
// shutdown; an unchanged conversation is not written again. The
// workspace state keeps only a small index (common/conversation/savedIndex): it is the window's,
// and each update of it is sent to the window's main thread. The turns a tab no longer keeps in
// memory (see common/turns) go to a file of their own, `<dir>/<archiveKey>.jsonl`, one JSON line
// per turn, read back when the chat view shows one of them again. The drafts: savedDrafts.ts.
// As a window reloads, its old extension host may still write while the new one loads: the new one
// watches the folder a minute, takes a newer copy of a conversation it has not changed, restores one
// no index lists, and never writes over a file another host wrote (common/conversation/fileRace).
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
import { recentUnlisted, sameStamp, UNLISTED_RECENT_MS, whoseFile, type FileStamp } from '../common/conversation/fileRace';
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
/** A file no index lists is removed at load only once nothing wrote it for this long (before: it is restored). */
const PRUNE_AFTER_MS = UNLISTED_RECENT_MS;

async function untouchedFor(file: string, ms: number): Promise<boolean> {
  const st = await fs.stat(file).catch(() => undefined);
  return !!st && Date.now() - st.mtimeMs > ms;
}

function stampOf(st: fsSync.Stats): FileStamp {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

/** The file's version now; undefined: there is none. */
function statFile(file: string): FileStamp | undefined {
  try { return stampOf(fsSync.statSync(file)); } catch { return undefined; }
}

/** A file's text and the version of it that was read. Throws what failed. */
function readStamped(file: string): { text: string; stamp: FileStamp } {
  const fd = fsSync.openSync(file, 'r');
  try {
    const stamp = stampOf(fsSync.fstatSync(fd));
    return { text: fsSync.readFileSync(fd, 'utf8'), stamp };
  } finally {
    fsSync.closeSync(fd);
  }
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
  /** What load() read, the tab as restored: while the tab is the same, a newer copy of the file another host writes replaces it. */
  readonly loaded?: boolean;
}

/** Whether the tab changed since `w` was written (or loaded). */
function differs(w: Written, s: SavableChat): boolean {
  const queue = s.queue.size ? s.queue.items : NO_QUEUE;
  return w.items.length !== s.items.length || w.items.some((item, i) => item !== s.items[i])
    || w.archived !== s.archived.length || w.lastArchived !== s.archived.at(-1)?.id || w.queue !== queue
    || w.sessionId !== s.sessionId || w.title !== s.meta.title;
}

function snapshot(s: SavableChat, file: string, loaded?: boolean): Written {
  return {
    file, items: [...s.items], archived: s.archived.length, lastArchived: s.archived.at(-1)?.id, queue: s.queue.size ? s.queue.items : NO_QUEUE,
    sessionId: s.sessionId, title: s.meta.title, ...(loaded ? { loaded } : {}),
  };
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
  /** Each conversation file's version this host read or wrote last: another version is another host's. */
  private readonly stamps = new Map<string, FileStamp>();
  /** Files no index lists, written a moment ago (load): restored once the tabs are (loaded()). */
  private unlisted: string[] = [];
  /** Files of tabs closed here: another host's late write of one does not bring it back. */
  private readonly removed = new Set<string>();
  /** The tabs, once restored (loaded()). */
  private sessions: (() => readonly SavableChat[]) | undefined;
  private watcher: fsSync.FSWatcher | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  /** A conversation arrives (onArrival runs): no save meanwhile, the tab is half filled. */
  private arriving = false;

  /**
   * Set by the tabs: a conversation another extension host wrote (the window's previous one, as it
   * reloads). `into`: the tab it replaces (unchanged since it was loaded), in place; none: it becomes
   * a tab of its own (its id, or a new one if a tab has it). Returns the tab that holds it.
   */
  onArrival: ((chat: SavedChat, into: string | undefined) => SavableChat | undefined) | undefined;

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
    this.unlisted = this.listUnlisted(new Set(entries.map(e => e.file)));
    this.pruned = this.prune(new Set(archives), new Set([...entries.map(e => e.file), ...this.unlisted]));
    return chats;
  }

  /**
   * The tabs are restored (with their notices): as they are now, they are what load() read (not
   * written again until they change). Then the conversations no index lists that were written a
   * moment ago are restored, and for a minute the folder is watched: the window's previous
   * extension host may still be writing (common/conversation/fileRace).
   */
  loaded(sessions: () => readonly SavableChat[]): void {
    this.sessions = sessions;
    for (const s of sessions()) {
      const w = this.written.get(s.id);
      if (w) this.written.set(s.id, snapshot(s, w.file, true));
    }
    for (const key of this.unlisted.splice(0)) this.arrived(key);
    this.watch();
  }

  /** Stops watching the folder (the window closes). */
  stopWatching(): void {
    clearTimeout(this.watchTimer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private watch(): void {
    if (!this.dir || this.watcher) return;
    try {
      fsSync.mkdirSync(this.dir, { recursive: true });
      this.watcher = fsSync.watch(this.dir, (_event, name) => { if (name) this.check(String(name)); });
    } catch (err) {
      // No watching (the folder cannot be): a newer file is still never written over (save).
      this.log?.warn(`Could not watch the saved conversations' folder ${this.dir}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.watcher.on('error', () => this.stopWatching());
    this.watcher.unref();
    this.watchTimer = setTimeout(() => this.stopWatching(), UNLISTED_RECENT_MS);
    this.watchTimer.unref();
    // Written between load() and now.
    for (const w of [...this.written.values()]) this.check(chatFileName(w.file));
  }

  /** File `name` of the folder changed: another host's write is taken, kept apart, or restored (whoseFile). */
  private check(name: string): void {
    const key = chatFileKey(name);
    if (!this.dir || !key || name !== chatFileName(key) || this.removed.has(key) || this.arriving) return;
    const found = statFile(path.join(this.dir, name));
    const known = this.stamps.get(key);
    if (!found || (known && sameStamp(known, found))) return;
    const owner = [...this.written].find(([, w]) => w.file === key);
    if (!owner) {
      if (!known && this.ownsDir) this.arrived(key);
      return;
    }
    const [id, w] = owner;
    const tab = this.sessions?.().find(s => s.id === id);
    if (!tab) return;
    const what = whoseFile(known, found, !w.loaded || differs(w, tab));
    if (what === 'adopt') this.arrived(key, tab, true);
    else if (what === 'keepBoth' && this.sessions) {
      // The tab's next save goes to a file of its own and keeps this one as a tab (save).
      this.written.set(id, { ...w, items: [], archived: -1, loaded: false });
      this.schedule(this.sessions);
    }
  }

  /**
   * Conversation file `key`, written by another host, is restored: as the conversation of tab `of`
   * (its id and agent; none: the file's own), into that tab (`replace`) or as a tab of its own.
   * Returns the tab.
   */
  private arrived(key: string, of?: Pick<SavableChat, 'id' | 'agentName'>, replace = false): SavableChat | undefined {
    if (!this.dir || !this.onArrival) return undefined;
    const file = path.join(this.dir, chatFileName(key));
    let read: { text: string; stamp: FileStamp };
    try { read = readStamped(file); } catch { return undefined; }
    const parsed = parseChatFile(of ? { id: of.id, agentName: of.agentName, file: key } : key, read.text);
    if (!('chat' in parsed)) {
      this.log?.warn(`A conversation another window wrote (${file}) could not be read, it is left as it is: ${parsed.problem}`);
      return undefined;
    }
    this.arriving = true;
    let tab: SavableChat | undefined;
    try { tab = this.onArrival(parsed.chat, replace ? of?.id : undefined); } finally { this.arriving = false; }
    if (!tab) return undefined;
    this.stamps.set(key, read.stamp);
    // The tab as it is now holds the file's conversation; under another id, its file is written again (the file names its id).
    this.written.set(tab.id, tab.id === parsed.chat.id ? snapshot(tab, key, true) : { file: key, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE });
    this.log?.info(`Took a conversation another window wrote just before this one started (${parsed.chat.title ?? parsed.chat.id}, ${file}).`);
    return tab;
  }

  /** This folder's conversation files no index lists, written a moment ago (only in a folder of this workspace's own). */
  private listUnlisted(listed: ReadonlySet<string>): string[] {
    if (!this.dir || !this.ownsDir) return [];
    const files: { key: string; mtimeMs: number }[] = [];
    try {
      for (const name of fsSync.readdirSync(this.dir)) {
        const key = chatFileKey(name);
        if (!key || name !== chatFileName(key)) continue;
        const st = statFile(path.join(this.dir, name));
        if (st) files.push({ key, mtimeMs: st.mtimeMs });
      }
    } catch { return []; }
    return recentUnlisted(files, listed, Date.now());
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
    if (!this.dir || this.arriving) return;
    let chars = 0;
    /** Files another host wrote over since this one's last write: each becomes a tab of its own. */
    const keptApart: [string, SavableChat][] = [];
    let failed = false;
    const entries: IndexEntry[] = [];
    const kept = sessions.filter(s => s.items.length > 0).slice(-MAX_TABS);
    for (const s of kept) {
      const before = this.written.get(s.id);
      const queue = s.queue.size ? s.queue.items : NO_QUEUE;
      let after = before;
      if (!before || (now && this.inFlight.has(before.file)) || differs(before, s)) {
        const { items, chars: n } = keptItems(s.items);
        chars += n;
        let file = before?.file ?? randomUUID();
        // Another host wrote the file since this one read or wrote it, and the tab changed: written
        // over, that host's last changes would be lost; the tab goes to a new file instead.
        if (before && whoseFile(this.stamps.get(file), statFile(path.join(this.dir, chatFileName(file))), true) === 'keepBoth') {
          // The other file becomes a tab here while this host is new (watching): the other host is
          // the window's previous one, closing. A host that is closing leaves it to the new one.
          if (this.watcher) keptApart.push([file, s]);
          this.written.delete(s.id);
          file = randomUUID();
        }
        const chat: SavedChat = {
          id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title, items,
          ...(s.archived.length ? { archived: s.archived, archiveKey: s.archiveKey } : {}),
          ...(queue.length ? { queued: queue.map(q => keepable({ text: q.text, mentions: q.mentions, images: q.images })) } : {}),
        };
        const text = JSON.stringify(splitChat(chat, file).content);
        if (now ? this.writeChat(file, text) : this.writeLater(s.id, file, text)) {
          after = snapshot(s, file);
          this.written.set(s.id, after);
        } else {
          failed = true;
          after = this.written.get(s.id);
          if (after) this.unsaved(s.id, after.file);
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
    const apart = keptApart.flatMap(([key, s]) => this.arrived(key, s) ?? []);
    // Listed in the index too.
    if (apart.length) this.save([...sessions, ...apart], now);
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
      this.written.set(chat.id, { file, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE, loaded: true });
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
      let stamp: FileStamp | undefined;
      try {
        const got = file ? readStamped(file) : undefined;
        stamp = got?.stamp;
        read = got ? parseChatFile(entry, got.text) : { problem: 'io', detail: 'no folder' };
      } catch (err) {
        read = { problem: 'io', detail: err instanceof Error ? err.message : String(err) };
      }
      if ('chat' in read) {
        chats.push(read.chat);
        if (!quiet) this.written.set(entry.id, { file: entry.file, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE, loaded: true });
        if (!quiet && stamp) this.stamps.set(entry.file, stamp);
      } else if (!quiet) {
        const why = read.problem === 'notJson' ? `not JSON (${read.detail})` : read.problem === 'noItems' ? 'no items in it'
          : read.problem === 'otherConversation' ? `it holds conversation ${read.detail}` : read.problem === 'unnamed' ? 'no id in it' : read.detail;
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
    const written = this.writeNow(file, text);
    // The version this host wrote (another host's write since shows as another).
    if (written) this.stamps.set(key, stampOf(written));
    return !!written;
  }

  private writeNow(file: string, text: string): fsSync.Stats | undefined {
    try {
      const written = writeAtomically(file, text);
      this.failing = false;
      return written;
    } catch (err) {
      this.writeFailed(file, err);
      return undefined;
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
        // Another host wrote the file meanwhile: not written over, the tab's next save keeps both (save).
        if (!superseded() && whoseFile(this.stamps.get(key), statFile(file), true) === 'keepBoth') {
          this.inFlight.delete(key);
          this.unsaved(tab, key);
          if (this.sessions) this.schedule(this.sessions);
        } else if (!superseded()) {
          const written = statFile(tmp);
          fsSync.renameSync(tmp, file);
          if (written) this.stamps.set(key, written);
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
    if (w?.file === key) this.written.set(tab, { ...w, items: [], archived: -1, loaded: false });
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
    this.stamps.delete(key);
    this.removed.add(key);
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

