// Conversations survive a window reload (and a crash): each conversation's kept items (bounded) are
// written to a file of its own in the extension's storage, `<dir>/<uuid>.chat.json` (a temporary
// file, then a rename: a crash never leaves half a file), a little after each change — also while
// its agent streams, the bytes written in the thread pool — and at once at a turn's end and on
// shutdown; an unchanged conversation is not written again. The
// workspace state keeps only a small index (common/conversation/savedIndex): it is the window's,
// and each update of it is sent to the window's main thread. The old turns: turnFiles.ts; the
// drafts: savedDrafts.ts. As a window reloads, its old extension host may still write while the new
// one loads: a file another host wrote is never written over, and the new host takes that host's
// last changes (ownWrites.ts, common/conversation/fileRace); which files of the folder are the
// window's, to restore or remove when no index lists them: windowFiles.ts.
import { randomUUID } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { SavedDrafts } from './savedDrafts';
import type { NewPrompt } from '../common/promptQueue';
import type { FileStamp } from '../common/conversation/fileRace';
import { differs, NO_QUEUE, snapshot, unknownContent, type SavableChat } from '../common/conversation/lastWritten';
import {
  chatFileName, isEmptyPrompt, isPrompt, keepable, keptItems, legacyChats, MAX_TABS, parseChatFile,
  parseIndex, splitChat, STORE_KEY, type IndexEntry, type SavedChat,
} from '../common/conversation/savedIndex';
import { ChatFileWrites } from './chatFileWrites';
import { readStamped } from './fileVersions';
import { OwnWrites } from './ownWrites';
import { TurnFiles } from './turnFiles';
import { WindowFiles } from './windowFiles';

export { isEmptyPrompt, isPrompt, type SavableChat, type SavedChat };
export type { TurnArchive } from './turnFiles';

/** What is in the prompt box and not sent: one per conversation (common/conversation/drafts). */
export type Draft = NewPrompt;

/** The conversations: the index of their files (common/conversation/savedIndex). */
const INDEX_KEY = 'switchboard.chats.v3';
/** Before issue 23: the conversations whole, as one JSON string. Moved to files at the first load, then cleared. */
const KEY_V2 = 'switchboard.chats.v2';
/** Before 0.3.x's issue 23: the conversations as an array of objects. Moved to files, then cleared. */
const KEY_V1 = 'switchboard.chats.v1';

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

export class SavedChats {
  private timer: NodeJS.Timeout | undefined;
  private delay = DELAY_MS;
  /** The index as last written (JSON): an unchanged index is not sent to the window again. */
  private indexText: string | undefined;
  /** Files no index lists, written a moment ago (load): restored once the tabs are (loaded()). */
  private unlisted: string[] = [];
  /** What this host wrote, the versions of the files it knows, and the folder's watch. */
  private readonly own: OwnWrites;
  /** The conversations' files written (chatFileWrites.ts). */
  private readonly writes: ChatFileWrites;
  /** Which files of the folder are this window's (windowFiles.ts). */
  private readonly folder: WindowFiles;

  /**
   * Set by the tabs: a conversation another extension host wrote (the window's previous one, as it
   * reloads). `into`: the tab it replaces (unchanged since it was loaded), in place; none: it becomes
   * a tab of its own (its id, or a new one if a tab has it). Returns the tab that holds it.
   */
  onArrival: ((chat: SavedChat, into: string | undefined) => SavableChat | undefined) | undefined;

  /**
   * `dir`: the folder of the conversations' files and of old turns (none: nothing is saved).
   * `ownsDir`: the folder is this workspace's own, so its files no index lists are the window's; in
   * a folder shared by windows (VS Code's global storage for windows without a folder), only those
   * that begin with this window's key (fileRace.fileWindow), the others may be another window's.
   */
  constructor(readonly state: vscode.Memento, readonly dir?: string, private readonly log?: Logger, ownsDir = true) {
    this.drafts = new SavedDrafts(state, dir, log);
    this.archive = new TurnFiles(dir, log);
    this.own = new OwnWrites(dir, log, {
      arrive: (key, into) => this.arrived(key, into, true),
      saveSoon: () => this.saveSoon(),
      otherFile: name => this.drafts.check(name),
      windows: key => this.folder.mine(chatFileName(key)),
    });
    this.writes = new ChatFileWrites(dir, this.own, () => this.saveSoon(), log);
    this.folder = new WindowFiles(state, dir, ownsDir, {
      isDraftsFile: name => this.drafts.isDraftsFile(name), turnsBusy: key => this.archive.busy(key), chatBusy: key => this.writes.busy(key), written: () => this.own.files(),
    });
  }

  /** What is typed and not sent, kept in a file of the same folder (savedDrafts.ts). */
  readonly drafts: SavedDrafts;
  /** The turns the tabs no longer keep in memory, in files of the same folder (turnFiles.ts). */
  readonly archive: TurnFiles;

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
    this.unlisted = this.folder.unlisted(new Set(entries.map(e => e.file)));
    this.pruned = this.folder.prune(new Set(archives), new Set([...entries.map(e => e.file), ...this.unlisted]));
    return chats;
  }

  /**
   * The tabs are restored (with their notices): as they are now, they are what load() read (not
   * written again until they change). Then the conversations no index lists that were written a
   * moment ago are restored, and for a minute the folder is watched: the window's previous
   * extension host may still be writing (common/conversation/fileRace).
   */
  loaded(sessions: () => readonly SavableChat[]): void {
    this.own.loaded(sessions);
    for (const key of this.unlisted.splice(0)) this.arrived(key);
    this.own.watch();
  }

  /** Stops watching the folder (the window closes). */
  stopWatching(): void {
    this.own.stopWatching();
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
    this.own.arriving = true;
    let tab: SavableChat | undefined;
    try { tab = this.onArrival(parsed.chat, replace ? of?.id : undefined); } finally { this.own.arriving = false; }
    if (!tab) return undefined;
    this.own.knew(key, read.stamp);
    // The tab as it is now holds the file's conversation; under another id, its file is written again (the file names its id).
    this.own.written.set(tab.id, tab.id === parsed.chat.id ? snapshot(tab, key, true) : unknownContent(key));
    this.log?.info(`Took a conversation another window wrote just before this one started (${parsed.chat.title ?? parsed.chat.id}, ${file}).`);
    return tab;
  }

  /** Done when the files load() found stale are removed. */
  pruned: Promise<void> = Promise.resolve();

  /** What a new window would load now, changing nothing (tests). */
  peek(): SavedChat[] {
    return this.readChats(parseIndex(this.state.get(INDEX_KEY)), true);
  }

  /** Saves within a second (more for a large conversation: saveDelay); a burst of changes (a streamed answer) costs one write per delay. */
  private saveSoon(): void {
    if (this.own.sessions) this.schedule(this.own.sessions);
  }

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
    if (!this.dir || this.own.arriving) return;
    let chars = 0;
    /** Files another host wrote over since this one's last write: each becomes a tab of its own. */
    const keptApart: [string, SavableChat][] = [];
    let failed = false;
    const entries: IndexEntry[] = [];
    const kept = sessions.filter(s => s.items.length > 0).slice(-MAX_TABS);
    for (const s of kept) {
      const before = this.own.written.get(s.id);
      const queue = s.queue.size ? s.queue.items : NO_QUEUE;
      let after = before;
      if (!before || (now && this.writes.busy(before.file)) || differs(before, s)) {
        const { items, chars: n } = keptItems(s.items);
        chars += n;
        let file = before?.file ?? randomUUID();
        // Another host wrote the file since this one read or wrote it, and the tab changed: written
        // over, that host's last changes would be lost; the tab goes to a new file instead.
        if (before && this.own.whose(file, true) === 'keepBoth') {
          // The other file becomes a tab here while this host is new (watching): the other host is
          // the window's previous one, closing. A host that is closing leaves it to the new one.
          if (this.own.watching) keptApart.push([file, s]);
          this.own.written.delete(s.id);
          file = randomUUID();
        }
        const chat: SavedChat = {
          id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title, items,
          ...(s.archived.length ? { archived: s.archived, archiveKey: s.archiveKey } : {}),
          ...(queue.length ? { queued: queue.map(q => keepable({ text: q.text, mentions: q.mentions, images: q.images })) } : {}),
        };
        const text = this.folder.text(chat, file);
        if (now ? this.writes.now(file, text) : this.writes.later(s.id, file, text)) {
          after = snapshot(s, file);
          this.own.written.set(s.id, after);
        } else {
          failed = true;
          after = this.own.written.get(s.id);
          if (after) this.own.unsaved(s.id, after.file);
        }
      }
      // Never written (its write failed): not listed, the index names no file that is not there.
      if (after) entries.push(splitChat({ id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title, items: [], ...(s.archived.length ? { archiveKey: s.archiveKey } : {}) }, after.file).entry);
    }
    this.delay = saveDelay(chars);
    // An older version's conversations are cleared only once their files are surely written.
    this.writeIndex(entries, failed || !now);
    for (const [id, w] of this.own.written) {
      if (entries.some(e => e.id === id)) continue;
      this.own.written.delete(id);
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
      if (!this.writes.now(file, this.folder.text(chat, file))) return [];
      const { entry } = splitChat(chat, file);
      this.own.written.set(chat.id, unknownContent(file, true));
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
        if (!quiet) this.own.written.set(entry.id, unknownContent(entry.file, true));
        if (!quiet && stamp) this.own.knew(entry.file, stamp);
      } else if (!quiet) {
        const why = read.problem === 'notJson' ? `not JSON (${read.detail})` : read.problem === 'noItems' ? 'no items in it'
          : read.problem === 'otherConversation' ? `it holds conversation ${read.detail}` : read.problem === 'unnamed' ? 'no id in it' : read.detail;
        this.log?.warn(`A saved conversation (${entry.title ?? entry.id}, ${file}) could not be read, it is skipped: ${why}`);
      }
    }
    if (!quiet) this.indexText = JSON.stringify(entries);
    return chats;
  }

  /** Done when the writes under way are (tests). */
  settled(): Promise<void> {
    return this.writes.settled();
  }

  private removeChat(key: string): void {
    if (!this.dir || !STORE_KEY.test(key)) return;
    this.writes.drop(key);
    this.own.removedFile(key);
    try { fsSync.rmSync(path.join(this.dir, chatFileName(key)), { force: true }); } catch (err) {
      this.log?.warn(`Could not remove a closed conversation's file: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
