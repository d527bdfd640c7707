// What is typed in the prompt boxes and not sent (common/conversation/drafts' DraftBook) survives a
// reload: one file per window in the extension's storage, `<dir>/<uuid>.drafts.json`, its name in the
// workspace state (windows without a folder share one storage folder). A draft changes at each
// keystroke: it is written a little after (DRAFTS_DELAY_MS), and at once on shutdown. It was in the
// workspace state before, whose every update VS Code sends to the window's main thread: every
// keystroke sent every draft, pasted images included (decision 0031). As a window reloads, its old
// extension host may write the drafts after the new one loaded them (its last 300 ms of typing): the
// new one takes them into the prompt boxes not typed in since, keeps both texts in the others, and
// never writes over them (common/conversation/fileRace mergeDrafts).
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { DraftBook } from '../common/conversation/drafts';
import { mergeDrafts, sameStamp, whoseFile, type DraftEntry, type FileStamp } from '../common/conversation/fileRace';
import type { Logger } from '../common/logger';
import type { NewPrompt } from '../common/promptQueue';
import { isEmptyPrompt, isPrompt, MAX_SAVED_IMAGES, STORE_KEY } from '../common/conversation/savedIndex';
import { readStamped, stampOf, statFile, writeAtomically } from './fileVersions';

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
/** The version of a file there is none of (no drafts file when they were loaded): any file found later is another host's. */
const NO_FILE: FileStamp = { ino: -1, size: -1, mtimeMs: -1 };

export class SavedDrafts {
  private timer: NodeJS.Timeout | undefined;
  /** The drafts changed and wait to be written. */
  private waiting = false;
  /** The drafts as they change here (follow; else as last saved). */
  private book: DraftBook | undefined;
  /** The drafts file's version this host read or wrote last, and what it held: another version is another host's. */
  private known: { stamp: FileStamp; drafts: readonly DraftEntry[] } | undefined;
  /** The drafts of the version of the file this host read last (loaded, or another host's taken in). */
  private readDrafts: readonly DraftEntry[] | undefined;
  /** Puts a draft another host wrote into a prompt box (follow). */
  private take: ((tab: string, draft: Draft, surface: string) => void) | undefined;

  /** `dir`: the storage folder (none: the drafts stay in the workspace state, as before). */
  constructor(private readonly state: vscode.Memento, private readonly dir?: string, private readonly log?: Logger) {}

  /** The drafts of the conversations (tab → draft and the surface it was typed in, changed last at the end), and the one draft of an older version. */
  load(): { drafts: [string, Draft, string?][]; legacy?: Draft } {
    const file = this.file(false);
    const drafts = (file && this.read(file)) || parseDrafts(this.state.get<unknown>(DRAFTS_KEY));
    const legacy = this.state.get<unknown>(DRAFT_KEY_V1);
    return { drafts, ...(isPrompt(legacy) && !isEmptyPrompt(legacy) ? { legacy } : {}) };
  }

  /**
   * The drafts in `file`, its version read kept as this host's. None: there is no file (a file
   * found later is another host's), or it cannot be read (logged).
   */
  private read(file: string): [string, Draft, string?][] | undefined {
    let got: { text: string; stamp: FileStamp };
    let raw: unknown;
    try {
      got = readStamped(file);
      raw = JSON.parse(got.text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') this.known = { stamp: NO_FILE, drafts: [] };
      else this.log?.warn(`Could not read the saved drafts (${file}): ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    const drafts = parseDrafts(raw);
    this.known = { stamp: got.stamp, drafts };
    this.readDrafts = drafts;
    return drafts;
  }

  /**
   * The drafts are `book` from now on, as the user types. A newer drafts file another extension
   * host writes (the window's previous one, as it reloads) goes into them through `take`: a prompt
   * box not typed in since it was loaded gets the other's text, one typed in keeps both. Looks now.
   */
  follow(book: DraftBook, take: (tab: string, draft: Draft, surface: string) => void): void {
    this.book = book;
    this.take = take;
    this.check();
  }

  /** A file of the folder changed (`name`; none: look): another host's version of the drafts file is taken in (follow). */
  check(name?: string): void {
    const file = this.file(false);
    if (!file || (name !== undefined && name !== path.basename(file)) || !this.known || !this.take) return;
    const found = statFile(file);
    if (found && !sameStamp(found, this.known.stamp)) this.arrived(file);
  }

  /**
   * Another host wrote drafts file `file`: its drafts go into this host's (mergeDrafts), compared
   * with the last drafts this host read from the file (what the other host started from, or an
   * older version of it), never with this host's own last write: the other host's version, made
   * without it, would otherwise look like a change back of every box typed in here.
   */
  private arrived(file: string): void {
    const base = this.readDrafts ?? [];
    const theirs = this.read(file);
    if (!theirs || !this.book || !this.take) return;
    const changes = mergeDrafts(base, this.book.toSave(MAX_SAVED_IMAGES), theirs);
    for (const [tab, draft, surface] of changes) this.take(tab, draft, surface);
    if (changes.length) this.log?.info(`Took the drafts another window wrote just before this one started (${changes.length} prompt box(es), ${file}).`);
  }

  /**
   * Saves each conversation's draft (pasted images up to MAX_SAVED_IMAGES characters in all) a
   * little later (a burst of keystrokes: one write), or at once (`now`); an older version's drafts
   * in the workspace state are then cleared. Without a storage folder, in the workspace state.
   */
  save(drafts: DraftBook, now = false): void {
    if (!this.dir) {
      const all = drafts.toSave(MAX_SAVED_IMAGES);
      void this.state.update(DRAFTS_KEY, all.length ? all : undefined);
      this.clear(DRAFT_KEY_V1);
      return;
    }
    this.book = drafts;
    this.waiting = true;
    if (now) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), DRAFTS_DELAY_MS);
  }

  /** Writes the drafts now if a save of them waits. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const file = this.waiting && this.book ? this.file(true) : undefined;
    if (!file || !this.book) return;
    // Another host wrote the drafts since this one read or wrote them: theirs are taken in first
    // (what was typed here kept beside them), never written over.
    if (this.known && whoseFile(this.known.stamp, statFile(file), true) === 'keepBoth') this.arrived(file);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = false;
    const drafts = this.book.toSave(MAX_SAVED_IMAGES);
    try { this.known = { stamp: stampOf(writeAtomically(file, JSON.stringify(drafts))), drafts }; } catch (err) {
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

  /** This window's drafts file, if it has one (tests). */
  get path(): string | undefined {
    return this.file(false);
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

/** The drafts as saved: [tab, draft, surface?] triples; anything else is left out. */
function parseDrafts(raw: unknown): [string, Draft, string?][] {
  return Array.isArray(raw) ? raw.filter((e): e is [string, Draft, string?] => Array.isArray(e) && typeof e[0] === 'string' && isPrompt(e[1]) && (e[2] === undefined || typeof e[2] === 'string')) : [];
}
