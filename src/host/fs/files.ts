// Reading what the user sees: an open buffer with unsaved edits, else the file on disk. Paths are
// resolved (symlinks, `..`) before any policy decision; missing tails of a path (a file about to be
// created) are resolved through their nearest existing ancestor.
import { BigIntStats, constants as fsConstants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FsErrors, fromNodeError } from '../../common/fs/errors';
import { chooseForm, decodeUtf8, encodingLabel, TextForm, utf8Body, UTF8 } from '../../common/fs/encoding';
import { PendingWork } from './pendingSaves';
import { mergeQueued, mergesDone } from './tabMerges';
import { LazyText, textOf } from '../../common/fs/lazyText';
import { sliceUtf8Lines } from '../../common/fs/byteLines';
import { type Earlier, readRest, readWindow, stampOf } from './rangeRead';
import { CachedText, FileStamp, FileTextCache, sameStamp, settled } from '../../common/fs/readCache';
import { choiceFor, decodeGuessing, formOfDocument } from './fileData';

export interface Target {
  /** The path as the agent gave it, normalized; used in every message to the agent. */
  readonly requested: string;
  /** Symlinks and `..` resolved; where the bytes really are. */
  readonly real: string;
}

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';
/** A comparison key for file paths on this platform. */
export const pathKey = (p: string) => (caseInsensitive ? p.toLowerCase() : p);

/** realpath of `p`, or of its nearest existing ancestor joined with the rest. */
export async function realPathOf(p: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch (e) {
    const parent = path.dirname(p);
    if (parent === p || !isMissing(e)) return path.resolve(p);
    return path.join(await realPathOf(parent), path.basename(p));
  }
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export async function resolveTarget(requested: string): Promise<Target> {
  return { requested, real: await realPathOf(requested) };
}

let roots: Promise<string[]> | undefined;
let rootsWatch: vscode.Disposable | undefined;
/**
 * The workspace folders (local ones), resolved like targets are: once, and again when the folders
 * change (not on every request). A folder that is a symlink retargeted later keeps the place the
 * user opened, which only narrows what is served.
 */
export function workspaceRoots(): Promise<string[]> {
  rootsWatch ??= vscode.workspace.onDidChangeWorkspaceFolders(() => { roots = undefined; });
  if (!roots) {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file');
    const resolving = Promise.all(folders.map(f => realPathOf(f.uri.fsPath)));
    roots = resolving;
    resolving.catch(() => { if (roots === resolving) roots = undefined; });
  }
  return roots;
}

/** An open text document for the target, by either its requested or its real path. */
export function findOpenDocument(target: Target): vscode.TextDocument | undefined {
  const keys = new Set([pathKey(path.resolve(target.requested)), pathKey(target.real)]);
  return vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && !d.isClosed && keys.has(pathKey(d.uri.fsPath)));
}

export interface CurrentText {
  /** False when there is neither an open buffer nor a file on disk. */
  readonly exists: boolean;
  readonly text: string;
  readonly source: 'buffer' | 'disk' | 'none';
  /** How the text is stored on disk: VS Code's encoding for the file, and its BOM. */
  readonly form: TextForm;
  /** The file is binary, or not valid in its encoding (then `text` is empty): its exact bytes. */
  readonly binary?: Uint8Array;
  /** Memo of facts about `text` shared by every request that gets this same text (its JSON size). */
  readonly memo?: { jsonBytes?: number };
}

/** Decoded texts of files on disk, kept while their stamp is unchanged (see common/fs/readCache). */
const DISK_CACHE_MAX_CHARS = 48 * 1024 * 1024;
export const diskTexts = new FileTextCache(DISK_CACHE_MAX_CHARS);

/**
 * What the user sees for this file now. A dirty buffer wins (unsaved edits included); a clean one
 * may lag behind the disk (a command rewrote the file a moment ago), so the disk is read then.
 */
export async function readCurrent(target: Target): Promise<CurrentText> {
  const current = await readCurrentData(target);
  if (current.binary) throw current.binaryReason === 'binary' ? FsErrors.binary(target.requested) : FsErrors.encoding(target.requested, encodingLabel(current.binaryEncoding ?? 'utf8'));
  return current;
}

/** The same, but a binary file (or one not valid in its encoding) is returned with its bytes instead of refused. */
export async function readCurrentData(target: Target): Promise<CurrentText & { binaryReason?: 'binary' | 'encoding'; binaryEncoding?: string }> {
  const open = findOpenDocument(target);
  const doc = open && mergeQueued(open.uri.fsPath) ? await openDocumentAfterMerges(target) : open;
  if (doc?.isDirty) {
    const b = bufferText(doc);
    return { exists: true, text: b.text, source: 'buffer', form: formOfDocument(doc), memo: b };
  }
  return readDisk(target, doc);
}

/**
 * The file's open document, once the merges of its tab with a disk change are done (see
 * tabMerges.ts): one made meanwhile has the tab reverted to the disk for a moment, its unsaved
 * edits only in the merge, and a read then would miss them.
 */
export async function openDocumentAfterMerges(target: Target): Promise<vscode.TextDocument | undefined> {
  const doc = findOpenDocument(target);
  if (!doc || !mergeQueued(doc.uri.fsPath)) return doc;
  await mergesDone(doc.uri.fsPath);
  return findOpenDocument(target);
}

/** The file's text on disk: one stat when it is unchanged since it was last read, else read and decoded. */
async function readDisk(target: Target, doc: vscode.TextDocument | undefined): Promise<CurrentText & { binaryReason?: 'binary' | 'encoding'; binaryEncoding?: string }> {
  // Kept per encoding: another files.encoding (or document encoding) reads the same bytes anew.
  const choice = choiceFor(target.real, doc);
  const key = cacheKey(target, choice);
  const statAt = Date.now();
  let stamp: FileStamp | undefined;
  let special = false;
  try {
    const st = await fsp.stat(target.real, { bigint: true });
    if (st.isFile()) stamp = stampOf(st);
    // A read of a FIFO waits for a writer forever (holding one of libuv's four pool threads); a
    // device may never end. Only regular files (and directories, refused below as such) are read.
    else if (!st.isDirectory()) special = true;
  } catch (e) {
    if (isMissing(e)) {
      diskTexts.delete(key);
      return { exists: false, text: '', source: 'none', form: UTF8 };
    }
    // Anything else is reported by the read below, as before.
  }
  if (special) throw FsErrors.notRegular(target.requested);
  // The file was read by range a moment ago and is unchanged: its whole text is that read's.
  const ranged = stamp && restsByKey.get(key);
  if (ranged && sameStamp(ranged.stamp, stamp!)) {
    startRangeRests();
    const whole = await ranged.whole;
    if (whole && !diskTexts.peek(key, stamp!)) return { exists: true, text: whole.text, source: 'disk', form: ranged.form, memo: {} };
  }
  const kept = stamp && diskTexts.get(key, stamp);
  if (kept) return { exists: true, text: textOf(kept.text), source: 'disk', form: formsOf.get(kept) ?? UTF8, memo: kept };
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readRegularFile(target.real);
  } catch (e) {
    if (isMissing(e)) return { exists: false, text: '', source: 'none', form: UTF8 };
    throw fromNodeError(e, target.requested) ?? FsErrors.io(target.requested, `Cannot read the file (${(e as Error).message})`);
  }
  if (!bytes) throw FsErrors.notRegular(target.requested);
  const decoded = await decodeGuessing(target.real, bytes, doc);
  if (decoded.kind === 'binary') {
    return { exists: true, text: '', source: 'disk', form: chooseForm(bytes, choice), binary: bytes, binaryReason: decoded.reason, binaryEncoding: decoded.encoding };
  }
  const memo: CachedText | { jsonBytes?: number } = stamp ? diskTexts.set(key, stamp, statAt, decoded.text) : {};
  if (stamp) formsOf.set(memo as CachedText, decoded.form);
  return { exists: true, text: decoded.text, source: 'disk', form: decoded.form, memo };
}

function cacheKey(target: Target, choice: ReturnType<typeof choiceFor>): string {
  return `${pathKey(target.real)}\0${choice.document ?? ''}\0${choice.configured ?? ''}`;
}

/** Files from this size on are read by range from their bytes (readRange). */
const RANGE_MIN_BYTES = 1024 * 1024;
/** Larger files take the whole-text path: their text could not be kept as the agent's last read anyway. */
const RANGE_MAX_BYTES = 64 * 1024 * 1024;
/** Read-only, and an open that never waits (a FIFO put in the file's place): O_NONBLOCK where there is one. */
const OPEN_NONBLOCKING = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

/**
 * The rest of a file read by range is read once no ranged read came for RANGE_REST_IDLE_MS (an
 * agent reading several large files at once is answered first, its model then thinks for far
 * longer), at most MAX_DEFERRED_RESTS waiting, and at once when anything could change the file or
 * needs what the agent saw: the agent's write of it, a command it starts, the end of its turn
 * (settleRangeReads). Copying a large file into fresh memory costs a page fault per 4 KiB: ~1 ms of
 * CPU per MiB here, which back-to-back reads would otherwise wait for.
 */
const RANGE_REST_IDLE_MS = 20;
const MAX_DEFERRED_RESTS = 16;
const deferredRests: Array<() => void> = [];
let restTimer: NodeJS.Timeout | undefined;
/** Rests being read (or waiting to be): what a turn's end and a command wait for. */
const pendingReads = new PendingWork();
/** The same, by cache key: a read of the same file (same stamp) meanwhile shares the rest. */
const restsByKey = new Map<string, { readonly stamp: FileStamp; readonly form: TextForm; readonly whole: Promise<LazyText | undefined> }>();

function deferRest(): Promise<void> {
  return new Promise<void>(start => {
    deferredRests.push(start);
    if (deferredRests.length > MAX_DEFERRED_RESTS) deferredRests.shift()!();
    clearTimeout(restTimer);
    if (!idleStartsHeld) restTimer = setTimeout(startRangeRests, RANGE_REST_IDLE_MS);
  });
}

let idleStartsHeld = false;
/**
 * @internal Tests: until the returned function is called, the rests of ranged reads wait for what
 * starts them at once (the agent's write of the file, a command, its turn's end), never for the
 * idle time (a loaded machine's agent may take longer than that to end its turn).
 */
export function holdIdleRangeRests(): () => void {
  idleStartsHeld = true;
  return () => {
    idleStartsHeld = false;
    if (deferredRests.length) restTimer = setTimeout(startRangeRests, RANGE_REST_IDLE_MS);
  };
}

/** Starts now the reads of the rests still waiting (their readers wait for them). */
export function startRangeRests(): void {
  clearTimeout(restTimer);
  restTimer = undefined;
  for (const start of deferredRests.splice(0)) start();
}

/** Reads now the rest of every file read by range, and resolves once all are read (or after `timeoutMs`). */
export function settleRangeReads(timeoutMs: number): Promise<void> {
  startRangeRests();
  return pendingReads.settled(timeoutMs);
}

let restsHeld: Promise<void> | undefined;
/**
 * @internal Tests: the rest of the ranged reads answered from now on is read only once the returned
 * function is called (a change to the file can then come in between, as it may on a loaded machine).
 */
export function holdRangeRests(): () => void {
  let release!: () => void;
  restsHeld = new Promise(r => { release = r; });
  return () => { restsHeld = undefined; release(); };
}

/**
 * The last whole text of each file read by range (by cache key; at most MAX_EARLIER, held weakly):
 * a later rest with the same bytes is that text (readRest), a file touched without a change costs
 * no new copy.
 */
const MAX_EARLIER = 32;
const earlierWholes = new Map<string, { readonly text: WeakRef<LazyText>; readonly form: TextForm }>();

function keepEarlier(key: string, text: LazyText, form: TextForm): void {
  earlierWholes.delete(key);
  earlierWholes.set(key, { text: new WeakRef(text), form });
  if (earlierWholes.size > MAX_EARLIER) earlierWholes.delete(earlierWholes.keys().next().value!);
}

function earlierOf(key: string): Earlier | undefined {
  const kept = earlierWholes.get(key);
  const text = kept?.text.deref();
  if (!text) earlierWholes.delete(key);
  return text && kept && { text, form: kept.form };
}

/** A ranged read's answer, and what the agent saw of the file. */
export interface RangeRead {
  readonly content: string;
  readonly form: TextForm;
  /**
   * The whole text the window was read from: at once (kept, or the window needed all of it), or
   * once the rest of the file is read after the answer; then undefined when the file changed
   * meanwhile or is not UTF-8 text as a whole (what the agent saw of it is not known).
   */
  readonly whole: LazyText | Promise<LazyText | undefined>;
}

/**
 * A ranged read (`line`/`limit`) of a large UTF-8 file that no editor has open. As a bare reader
 * would, it is read from the start only until the window's lines are there, and answered once
 * those bytes are text (no NUL byte, valid UTF-8). The rest of the file is read later through the
 * same open file (see RANGE_REST_IDLE_MS), and the whole text (what the agent saw of the file: the
 * base of its next write, the baseline of its later disk changes) is kept as those bytes, decoded
 * when first needed (LazyText), unless the file changed meanwhile (its stamp, checked after the
 * read: the agent's next write of it is then reviewed, never merged unseen) or is not text after
 * the window. A file that stays unchanged is kept so (diskTexts) and its next ranged reads are
 * served from the same bytes. Undefined: the whole-text path (readCurrent) serves the read (an
 * open file, a small or huge one, a text kept decoded, not UTF-8 text, an error).
 */
export async function readRange(target: Target, line?: number | null, limit?: number | null, early?: Promise<BigIntStats | undefined>): Promise<RangeRead | undefined> {
  if (!isRanged(line, limit)) return undefined;
  if (findOpenDocument(target)) return undefined;
  // VS Code's guess of an encoding goes through the whole-text path (decodeGuessing).
  if (vscode.workspace.getConfiguration('files', vscode.Uri.file(target.real)).get<boolean>('autoGuessEncoding')) return undefined;
  const choice = choiceFor(target.real, undefined);
  const key = cacheKey(target, choice);
  const statAt = Date.now();
  // Only a regular file is opened (a FIFO's open waits for a writer forever), never blocking, and
  // it must be the file the stat saw. The caller may have started that stat (of the path as the
  // agent gave it) beside the path's resolution: the file opened is checked to be the same one.
  const seen = await (early ?? statOf(target.real));
  if (!seen?.isFile() || seen.size < RANGE_MIN_BYTES || seen.size > RANGE_MAX_BYTES) return undefined;
  const kept = diskTexts.peek(key, stampOf(seen));
  if (kept) {
    const bytes = kept.text instanceof LazyText ? kept.text.undecoded : undefined;
    const form = formsOf.get(kept);
    // Kept decoded: the whole-text path serves it from the string.
    if (!bytes || !form) return undefined;
    diskTexts.hits++;
    return { content: sliceUtf8Lines(bytes, line, limit), whole: kept.text as LazyText, form };
  }
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(target.real, OPEN_NONBLOCKING);
  } catch {
    return undefined;
  }
  let rest: Promise<LazyText | undefined> | undefined;
  try {
    // The first bytes are read beside the open file's stat (a FIFO opened without blocking gives
    // none); they are used only if it is the file the stat saw, unchanged since.
    const size = Number(seen.size);
    const stamp = stampOf(seen);
    const [st, head] = await Promise.all([fh.stat({ bigint: true }), readWindow(fh, size, choice, line, limit).catch(() => undefined)]);
    if (!st.isFile() || !sameStamp(stampOf(st), stamp)) return undefined;
    diskTexts.misses++;
    if (!head || head === 'not text') return undefined;
    if ('content' in head) {
      const { form } = head;
      // A file written moments ago may be written again without its stamp changing (readCache
      // `settled`): its rest is read at once, and not shared with other reads of it.
      const settledStamp = settled(stamp, statAt);
      // Another read of the same file meanwhile shares its rest (this open file is closed).
      const shared = settledStamp ? restsByKey.get(key) : undefined;
      if (shared && sameStamp(shared.stamp, stamp)) return { content: head.content, form, whole: shared.whole };
      const opened = fh;
      const held = restsHeld;
      const start = settledStamp ? deferRest() : Promise.resolve();
      const whole = pendingReads.track(start.then(() => held).then(() => readRest(opened, size, stamp, head, earlierOf(key)))).then(text => {
        if (restsByKey.get(key)?.whole === whole) restsByKey.delete(key);
        if (text) keepEarlier(key, text, form);
        if (text && settledStamp) formsOf.set(diskTexts.set(key, stamp, statAt, text), form);
        return text;
      });
      rest = whole;
      if (settledStamp) restsByKey.set(key, { stamp, form, whole });
      return { content: head.content, form, whole };
    }
    const bytes = head.bytes;
    const form = chooseForm(bytes, choice);
    const body = utf8Body(bytes, form);
    if (!body) return undefined;
    const whole = new LazyText(body, decodeUtf8);
    keepEarlier(key, whole, form);
    if (settled(stamp, statAt)) formsOf.set(diskTexts.set(key, stamp, statAt, whole), form);
    return { content: sliceUtf8Lines(body, line, limit), whole, form };
  } catch {
    return undefined;
  } finally {
    // Not waited for: the answer needs the bytes, not the closed handle. The rest's read closes it.
    if (!rest) fh.close().catch(() => undefined);
  }
}

/** Whether a read asks for a window of the file (`line` past the first, or a `limit`). */
export function isRanged(line?: number | null, limit?: number | null): boolean {
  return (line ?? 1) > 1 || limit != null;
}

/** The file's stat (following symlinks), undefined when there is none. */
export function statOf(file: string): Promise<BigIntStats | undefined> {
  return fsp.stat(file, { bigint: true }).then(st => st, () => undefined);
}

/**
 * A regular file's bytes; undefined when what the path names is not one (then never read: a FIFO
 * put in the file's place after its stat would wait for a writer forever).
 */
async function readRegularFile(file: string): Promise<Uint8Array | undefined> {
  const fh = await fsp.open(file, OPEN_NONBLOCKING);
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!st.isFile()) return undefined;
    return await fh.readFile();
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The form each kept text was decoded from. */
const formsOf = new WeakMap<CachedText, TextForm>();

/** The buffer's text, materialized once per document version (a 5 MB buffer read twice costs one copy). */
const texts = new WeakMap<vscode.TextDocument, { version: number; text: string; jsonBytes?: number }>();
function bufferText(doc: vscode.TextDocument): { text: string; jsonBytes?: number } {
  const cached = texts.get(doc);
  if (cached && cached.version === doc.version) return cached;
  const entry = { version: doc.version, text: doc.getText() };
  texts.set(doc, entry);
  return entry;
}
