// Which files of the conversations' folder are this window's: every one in a folder of the
// workspace's own; in the global storage that windows without a folder share, those that begin with
// this window's key (common/conversation/fileRace fileWindow). Of those no index lists, the ones
// written a moment ago are restored (the window's previous extension host created them just before a
// reload, its index update lost), and the ones nothing wrote for a minute are removed (decision 0031).
import { randomUUID } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { fileWindow, recentUnlisted, UNLISTED_RECENT_MS, WINDOW_HEAD_BYTES } from '../common/conversation/fileRace';
import { chatFileKey, chatFileName, splitChat, STORE_KEY, type SavedChat } from '../common/conversation/savedIndex';
import { readHead, statFile } from './fileVersions';
import { turnFileKey } from './turnFiles';

/** This window's key, at the beginning of its files in a folder windows share. */
const WINDOW_KEY = 'switchboard.windowKey';
/** A file no index lists is removed at load only once nothing wrote it for this long (before: it is restored). */
const PRUNE_AFTER_MS = UNLISTED_RECENT_MS;

async function untouchedFor(file: string, ms: number): Promise<boolean> {
  const st = await fs.stat(file).catch(() => undefined);
  return !!st && Date.now() - st.mtimeMs > ms;
}

/** What else is in the folder, and what is being written there (not to be removed). */
export interface FolderUse {
  /** A drafts file's name: true for this window's, false for another's; undefined: not one (savedDrafts). */
  isDraftsFile(name: string): boolean | undefined;
  /** Old turns' file `key` is being written (turnFiles). */
  turnsBusy(key: string): boolean;
  /** Conversation file `key` is being written (chatFileWrites). */
  chatBusy(key: string): boolean;
  /** The files of the tabs saved since the load. */
  written(): ReadonlySet<string>;
}

export class WindowFiles {
  /** `ownsDir`: the folder is this workspace's own (else shared by windows without a folder). */
  constructor(private readonly state: vscode.Memento, private readonly dir: string | undefined, private readonly ownsDir: boolean, private readonly use: FolderUse) {}

  /** Conversation file (or temporary file) `name` is this window's. */
  mine(name: string): boolean {
    const key = this.state.get<unknown>(WINDOW_KEY);
    return this.ownsDir || (!!this.dir && typeof key === 'string' && fileWindow(readHead(path.join(this.dir, name), WINDOW_HEAD_BYTES) ?? '') === key);
  }

  /** Conversation `chat`'s file `file` as written: in a folder windows share, beginning with this window's key. */
  text(chat: SavedChat, file: string): string {
    const content = splitChat(chat, file).content;
    if (this.ownsDir) return JSON.stringify(content);
    let key = this.state.get<unknown>(WINDOW_KEY);
    if (typeof key !== 'string' || !STORE_KEY.test(key)) void this.state.update(WINDOW_KEY, key = randomUUID());
    return JSON.stringify({ window: key, ...content });
  }

  /** This window's conversation files no index lists (not in `listed`), written a moment ago: restored (recentUnlisted). */
  unlisted(listed: ReadonlySet<string>): string[] {
    if (!this.dir) return [];
    const files: { key: string; mtimeMs: number }[] = [];
    try {
      for (const name of fsSync.readdirSync(this.dir)) {
        const key = chatFileKey(name);
        if (!key || name !== chatFileName(key)) continue;
        const st = statFile(path.join(this.dir, name));
        if (st) files.push({ key, mtimeMs: st.mtimeMs });
      }
    } catch { return []; }
    return recentUnlisted(files, listed, Date.now()).filter(key => this.mine(chatFileName(key)));
  }

  /**
   * Removes the files of conversations that are no longer saved (old turns not in `archives`, kept
   * items not in `chats` nor written since, a temporary file a crash left). In a folder windows
   * share, only this window's conversation files (the others may be another window's).
   */
  async prune(archives: ReadonlySet<string>, chats: ReadonlySet<string>): Promise<void> {
    if (!this.dir) return;
    let names: string[];
    try { names = await fs.readdir(this.dir); } catch { return; }
    for (const name of names) {
      const archive = turnFileKey(name);
      const chat = chatFileKey(name);
      const drafts = this.use.isDraftsFile(name);
      const stale = drafts !== undefined ? !drafts
        : archive !== undefined ? !archives.has(archive) && !this.use.turnsBusy(archive)
        : chat !== undefined && !this.use.chatBusy(chat) && (name.endsWith('.tmp') || (!chats.has(chat) && !this.use.written().has(chat)));
      // Only a file left alone for a while: as a window reloads, its old extension host may still be
      // writing (a temporary file about to be renamed, a new conversation its index does not list yet).
      if (stale && (this.ownsDir || (chat !== undefined && this.mine(name))) && (await untouchedFor(path.join(this.dir, name), PRUNE_AFTER_MS))) await fs.rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
    }
  }
}
