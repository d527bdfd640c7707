// What this extension host wrote of the conversations' files, and the version (inode, size, time)
// of each file it read or wrote last: another version is another host's write. As a window reloads,
// its old extension host may still write while the new one loads: for a minute after its load the
// new one watches the folder, takes a newer copy of a conversation into a tab it has not changed,
// keeps both copies of one it has, and restores one no index lists (common/conversation/fileRace,
// decision 0031). What it then writes or restores is SavedChats' (savedChats.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../common/logger';
import { fileChanged, UNLISTED_RECENT_MS, whoseFile, type FileStamp } from '../common/conversation/fileRace';
import { differs, snapshot, type SavableChat, type Written } from '../common/conversation/lastWritten';
import { chatFileKey, chatFileName } from '../common/conversation/savedIndex';
import { statFile } from './fileVersions';

/** What the watch asks of the saving (savedChats.ts). */
export interface OtherHostWrites {
  /** Conversation file `key`, another host's, is restored: into tab `into` (it has not changed since it was loaded), or as a tab of its own. */
  arrive(key: string, into?: SavableChat): void;
  /** The tabs are saved soon (one keeps another host's file apart: its next save goes to a file of its own). */
  saveSoon(): void;
  /** Another file of the folder changed (not a conversation's). */
  otherFile?(name: string): void;
  /** Conversation file `key` is this window's (the folder is the workspace's own, or the file says so). */
  windows(key: string): boolean;
}

export class OwnWrites {
  /** Each saved tab's file and what was written to it last. */
  readonly written = new Map<string, Written>();
  /** Each conversation file's version this host read or wrote last: another version is another host's. */
  private readonly stamps = new Map<string, FileStamp>();
  /** Files of tabs closed here: another host's late write of one does not bring it back. */
  private readonly removed = new Set<string>();
  /** The tabs, once restored (loaded()). */
  sessions: (() => readonly SavableChat[]) | undefined;
  /** A conversation arrives (the tabs take it): no check meanwhile, the tab is half filled. */
  arriving = false;
  private watcher: fs.FSWatcher | undefined;
  private watchTimer: NodeJS.Timeout | undefined;

  constructor(private readonly dir: string | undefined, private readonly log: Logger | undefined, private readonly on: OtherHostWrites) {}

  /** The folder is watched: this host is new (another host writing now is the window's previous one, closing). */
  get watching(): boolean { return !!this.watcher; }

  /** The files of the saved tabs. */
  files(): Set<string> {
    return new Set([...this.written.values()].map(w => w.file));
  }

  /** What to do with conversation file `key` as it is now, for a tab that changed since it was loaded (`changed`) or not (whoseFile). */
  whose(key: string, changed: boolean): 'ours' | 'adopt' | 'keepBoth' {
    return this.dir ? whoseFile(this.stamps.get(key), statFile(path.join(this.dir, chatFileName(key))), changed) : 'ours';
  }

  /** Version `stamp` of file `key` is one this host read or wrote. */
  knew(key: string, stamp: FileStamp): void {
    this.stamps.set(key, stamp);
  }

  /** File `key` was removed here (its tab closed): no version of it is this host's, and another host's late write of it is not restored. */
  removedFile(key: string): void {
    this.stamps.delete(key);
    this.removed.add(key);
  }

  /** Tab `tab`'s last write to `key` failed (or would have written over another host's): its next save writes it again. */
  unsaved(tab: string, key: string): void {
    const w = this.written.get(tab);
    if (w?.file === key) this.written.set(tab, { ...w, items: [], archived: -1, loaded: false });
  }

  /**
   * The tabs are restored: as they are now, they are what load() read (not written again until they
   * change; a newer copy another host writes replaces one of them while it is the same). Then the
   * folder is watched for a minute.
   */
  loaded(sessions: () => readonly SavableChat[]): void {
    this.sessions = sessions;
    for (const s of sessions()) {
      const w = this.written.get(s.id);
      if (w) this.written.set(s.id, snapshot(s, w.file, true));
    }
  }

  watch(): void {
    if (!this.dir || this.watcher) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      this.watcher = fs.watch(this.dir, (_event, name) => { if (name) this.check(String(name)); });
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

  /** Stops watching the folder (a minute passed, the window closes). */
  stopWatching(): void {
    clearTimeout(this.watchTimer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** File `name` of the folder changed: another host's write is taken, kept apart, or restored (fileChanged). */
  private check(name: string): void {
    const key = chatFileKey(name);
    if (!key || name !== chatFileName(key)) { this.on.otherFile?.(name); return; }
    if (!this.dir || this.arriving || this.removed.has(key)) return;
    const owner = [...this.written].find(([, w]) => w.file === key);
    const tab = owner && this.sessions?.().find(s => s.id === owner[0]);
    const what = fileChanged(this.stamps.get(key), statFile(path.join(this.dir, name)), !owner ? undefined : tab ? !owner[1].loaded || differs(owner[1], tab) : 'noTab', () => this.on.windows(key));
    if (what === 'restore') this.on.arrive(key);
    else if (what === 'adopt') this.on.arrive(key, tab);
    else if (what === 'keepBoth' && owner) {
      // The tab's next save goes to a file of its own and keeps this one as a tab (save).
      this.unsaved(owner[0], key);
      this.on.saveSoon();
    }
  }
}
