// What is typed in the prompt boxes and not sent (common/conversation/drafts' DraftBook) survives a
// reload: one file per window in the extension's storage, `<dir>/<uuid>.drafts.json`, its name in the
// workspace state (windows without a folder share one storage folder). A draft changes at each
// keystroke: it is written a little after (DRAFTS_DELAY_MS), and at once on shutdown. It was in the
// workspace state before, whose every update VS Code sends to the window's main thread: every
// keystroke sent every draft, pasted images included (decision 0031).
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { DraftBook } from '../common/conversation/drafts';
import type { Logger } from '../common/logger';
import type { NewPrompt } from '../common/promptQueue';
import { isEmptyPrompt, isPrompt, MAX_SAVED_IMAGES, STORE_KEY } from '../common/conversation/savedIndex';

type Draft = NewPrompt;

/** Before issue 19's drafts per conversation: the one draft of the window. Read, then cleared. */
const DRAFT_KEY_V1 = 'switchboard.draft.v1';
/** Before issue 23's drafts in a file: each conversation's draft in the workspace state. Read, then cleared. */
const DRAFTS_KEY = 'switchboard.drafts.v2';
/** Each conversation's draft ([tab, draft, surface?] triples, changed last at the end). */
const DRAFTS_FILE = '.drafts.json';
/** The name of this window's drafts file. */
const DRAFTS_FILE_KEY = 'switchboard.draftsFile';
const DRAFTS_DELAY_MS = 300;

/**
 * Writes `file` whole or not at all: a temporary file beside it, then a rename. Returns the file's
 * status as written (the rename keeps it: another write since shows as another inode). Throws what failed.
 */
export function writeAtomically(file: string, text: string): fs.Stats {
  const tmp = `${file}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, text, 'utf8');
    const written = fs.statSync(tmp);
    fs.renameSync(tmp, file);
    return written;
  } catch (err) {
    try { fs.rmSync(tmp, { force: true }); } catch { /* the folder is gone: nothing to remove */ }
    throw err;
  }
}

export class SavedDrafts {
  private timer: NodeJS.Timeout | undefined;
  private text: string | undefined;

  /** `dir`: the storage folder (none: the drafts stay in the workspace state, as before). */
  constructor(private readonly state: vscode.Memento, private readonly dir?: string, private readonly log?: Logger) {}

  /** The drafts of the conversations (tab → draft and the surface it was typed in, changed last at the end), and the one draft of an older version. */
  load(): { drafts: [string, Draft, string?][]; legacy?: Draft } {
    let raw: unknown = this.state.get<unknown>(DRAFTS_KEY);
    const file = this.file(false);
    if (file && fs.existsSync(file)) {
      try { raw = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (err) {
        this.log?.warn(`Could not read the saved drafts (${file}): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const drafts = Array.isArray(raw) ? raw.filter((e): e is [string, Draft, string?] => Array.isArray(e) && typeof e[0] === 'string' && isPrompt(e[1]) && (e[2] === undefined || typeof e[2] === 'string')) : [];
    const legacy = this.state.get<unknown>(DRAFT_KEY_V1);
    return { drafts, ...(isPrompt(legacy) && !isEmptyPrompt(legacy) ? { legacy } : {}) };
  }

  /**
   * Saves each conversation's draft (pasted images up to MAX_SAVED_IMAGES characters in all) a
   * little later (a burst of keystrokes: one write), or at once (`now`); an older version's drafts
   * in the workspace state are then cleared. Without a storage folder, in the workspace state.
   */
  save(drafts: DraftBook, now = false): void {
    const all = drafts.toSave(MAX_SAVED_IMAGES);
    if (!this.dir) {
      void this.state.update(DRAFTS_KEY, all.length ? all : undefined);
      this.clear(DRAFT_KEY_V1);
      return;
    }
    this.text = JSON.stringify(all);
    if (now) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), DRAFTS_DELAY_MS);
  }

  /** Writes the drafts now if a save of them waits. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.text;
    this.text = undefined;
    const file = text === undefined ? undefined : this.file(true);
    if (!file || text === undefined) return;
    try { writeAtomically(file, text); } catch (err) {
      this.log?.warn(`Could not save the drafts to ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.clear(DRAFTS_KEY);
    this.clear(DRAFT_KEY_V1);
  }

  /**
   * Whether `name` (in the storage folder) is a drafts file: true for this window's own, false for
   * another's (an earlier window of this workspace); undefined: not a drafts file.
   */
  isDraftsFile(name: string): boolean | undefined {
    if (!name.endsWith(DRAFTS_FILE)) return undefined;
    const key = name.slice(0, -DRAFTS_FILE.length);
    return STORE_KEY.test(key) ? key === this.state.get(DRAFTS_FILE_KEY) : undefined;
  }

  private clear(key: string): void {
    if (this.state.get(key) !== undefined) void this.state.update(key, undefined);
  }

  /** This window's drafts file; `create`: named now if it has no name yet. */
  private file(create: boolean): string | undefined {
    if (!this.dir) return undefined;
    let key = this.state.get<unknown>(DRAFTS_FILE_KEY);
    if (typeof key !== 'string' || !STORE_KEY.test(key)) {
      if (!create) return undefined;
      key = randomUUID();
      void this.state.update(DRAFTS_FILE_KEY, key);
    }
    return path.join(this.dir, `${key as string}${DRAFTS_FILE}`);
  }
}
