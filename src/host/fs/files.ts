// Reading what the user sees: an open buffer with unsaved edits, else the file on disk. Paths are
// resolved (symlinks, `..`) before any policy decision; missing tails of a path (a file about to be
// created) are resolved through their nearest existing ancestor.
import { constants as fsConstants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FsErrors, fromNodeError } from '../../common/fs/errors';
import { chooseForm, decodeUtf8, encodingLabel, TextForm, utf8Body, UTF8 } from '../../common/fs/encoding';
import { LazyText } from '../../common/fs/lazyText';
import { utf8WindowIn } from '../../common/fs/byteLines';
import { CachedText, FileStamp, FileTextCache, settled } from '../../common/fs/readCache';
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
  const doc = findOpenDocument(target);
  if (doc?.isDirty) {
    const b = bufferText(doc);
    return { exists: true, text: b.text, source: 'buffer', form: formOfDocument(doc), memo: b };
  }
  return readDisk(target, doc);
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
    if (st.isFile()) stamp = { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
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
  const kept = stamp && diskTexts.get(key, stamp);
  if (kept) return { exists: true, text: kept.text, source: 'disk', form: formsOf.get(kept) ?? UTF8, memo: kept };
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(target.real);
  } catch (e) {
    if (isMissing(e)) return { exists: false, text: '', source: 'none', form: UTF8 };
    throw fromNodeError(e, target.requested) ?? FsErrors.io(target.requested, `Cannot read the file (${(e as Error).message})`);
  }
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
/** Read-only, and an open that never waits (a FIFO put in the file's place): O_NONBLOCK where there is one. */
const OPEN_NONBLOCKING = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);
/** How much of such a file is read at a time until the window is found. */
const RANGE_CHUNK_BYTES = 128 * 1024;

/** A ranged read answered from the first bytes of a file; the whole text follows (readRange). */
export interface RangeRead {
  readonly content: string;
  readonly form: TextForm;
  /**
   * The whole text the answer was read from, once the rest of the file is read through the same
   * open file (a file renamed over it meanwhile is not read); undefined when it is not text or was
   * changed in place meanwhile.
   */
  readonly whole: Promise<LazyText | undefined>;
}

/**
 * A ranged read (`line`/`limit`) of a large file that no editor has open and whose text is not
 * kept: read from the start only until the window's lines are there (as a bare reader would), those
 * lines decoded once they are UTF-8 text (no NUL byte, valid) and answered; the rest of the file is
 * then read through the same open file, and the whole text (what the agent saw: the base of its next
 * write, the baseline of its later disk changes) is kept as bytes, decoded when first needed
 * (LazyText); a file that stays unchanged is kept decoded for the next reads. Undefined: the
 * whole-text path (readCurrent) serves the read (an open file, a small one, a kept text, a window
 * that is not UTF-8 text, an error).
 */
export async function readRange(target: Target, line?: number | null, limit?: number | null): Promise<RangeRead | undefined> {
  if (limit == null) return undefined;
  if (findOpenDocument(target)) return undefined;
  const choice = choiceFor(target.real, undefined);
  const key = cacheKey(target, choice);
  const statAt = Date.now();
  // Only a regular file is opened (a FIFO's open waits for a writer forever), and never blocking:
  // what is opened must be what the stat saw.
  const seen = await fsp.stat(target.real, { bigint: true }).catch(() => undefined);
  if (!seen?.isFile() || seen.size < RANGE_MIN_BYTES) return undefined;
  let fh: fsp.FileHandle;
  try { fh = await fsp.open(target.real, OPEN_NONBLOCKING); } catch { return undefined; }
  let rest: Promise<LazyText | undefined> | undefined;
  try {
    const st = await fh.stat({ bigint: true });
    if (!st.isFile() || st.dev !== seen.dev || st.ino !== seen.ino || st.size < RANGE_MIN_BYTES) return undefined;
    const stamp: FileStamp = { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
    if (diskTexts.has(key, stamp)) return undefined;
    diskTexts.misses++;
    const size = Number(st.size);
    let prefix = Buffer.allocUnsafe(Math.min(size, RANGE_CHUNK_BYTES));
    let filled = 0;
    let at: ReturnType<typeof utf8WindowIn> = 'more';
    while (at === 'more') {
      if (filled === prefix.length) {
        const grown = Buffer.allocUnsafe(Math.min(size, prefix.length * 2));
        prefix.copy(grown, 0, 0, filled);
        prefix = grown;
      }
      const { bytesRead } = await fh.read(prefix, filled, prefix.length - filled, filled);
      filled += bytesRead;
      const complete = bytesRead === 0 || filled >= size;
      at = utf8WindowIn(bomless(prefix.subarray(0, filled), choice), complete, line, limit);
      if (complete && at === 'more') return undefined;
    }
    const form = chooseForm(prefix.subarray(0, filled), choice);
    const bom = filled - bomless(prefix.subarray(0, filled), choice).length;
    // The bytes up to the window's end are whole characters (it ends at a line break, or at the end).
    const read = utf8Body(prefix.subarray(0, bom + (at ? at[1] : filled - bom)), form);
    if (!read) return undefined;
    const content = at ? decodeUtf8(read.subarray(at[0], at[1])) : '';
    rest = readRest(fh, prefix.subarray(0, filled), size, stamp, form).then(whole => {
      if (whole && settled(stamp, statAt)) setImmediate(() => { if (!diskTexts.has(key, stamp)) formsOf.set(diskTexts.set(key, stamp, statAt, whole.text), form); });
      return whole;
    });
    return { content, form, whole: rest };
  } catch {
    return undefined;
  } finally {
    if (!rest) await fh.close().catch(() => undefined);
  }
}

/** The bytes after a UTF-8 BOM, where the file's form would have one. */
function bomless(bytes: Buffer, choice: ReturnType<typeof choiceFor>): Buffer {
  const form = chooseForm(bytes, choice);
  return form.encoding === 'utf8' && form.bom && bytes.length >= 3 ? bytes.subarray(3) : bytes;
}

/** The rest of a file after `head`, through its open handle (then closed): its whole text, unless it changed meanwhile or is not UTF-8 text. */
async function readRest(fh: fsp.FileHandle, head: Buffer, size: number, stamp: FileStamp, form: TextForm): Promise<LazyText | undefined> {
  try {
    const bytes = Buffer.allocUnsafe(size);
    head.copy(bytes);
    let filled = head.length;
    while (filled < size) {
      const { bytesRead } = await fh.read(bytes, filled, size - filled, filled);
      if (!bytesRead) break;
      filled += bytesRead;
    }
    const st = await fh.stat({ bigint: true });
    // Changed in place since the answer was read (a rename over it leaves this file as it was).
    if (filled !== size || st.size !== stamp.size || st.mtimeNs !== stamp.mtimeNs || st.ctimeNs !== stamp.ctimeNs) return undefined;
    const body = utf8Body(bytes, form);
    return body ? new LazyText(body, decodeUtf8) : undefined;
  } catch {
    return undefined;
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
