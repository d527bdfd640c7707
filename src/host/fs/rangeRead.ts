// The bytes of a ranged read (files.ts readRange) through an open file, in Node alone: the window's
// lines from the file's first bytes, then the whole file read again and kept only if its stamp did
// not change meanwhile.
import type { BigIntStats, promises as fsp } from 'node:fs';
import { utf8WindowIn } from '../../common/fs/byteLines';
import { bomEncoding, chooseForm, decodeUtf8, EncodingChoice, TextForm, utf8Body, UTF8, UTF8_BOM_LENGTH } from '../../common/fs/encoding';
import { LazyText } from '../../common/fs/lazyText';
import { FileStamp, sameStamp } from '../../common/fs/readCache';

/** How much of a file is read at first while looking for a window's lines (doubled while they are not all there). */
const RANGE_CHUNK_BYTES = 128 * 1024;
/** Buffers of RANGE_CHUNK_BYTES for the first read, reused (fresh memory costs a page fault per 4 KiB). */
const firstChunks: Buffer[] = [];

/** A window's lines as the agent is given them. */
export interface Window {
  readonly content: string;
  readonly form: TextForm;
  /** Where the window's bytes are in the file. */
  readonly start: number;
  readonly end: number;
}

/**
 * The window's lines from the first bytes of a file of `size` bytes (read in growing pieces until
 * they are all there), decoded once the bytes up to the window's end are UTF-8 text; the whole
 * file's bytes when the window needs all of them; 'not text' when those bytes are not UTF-8 text;
 * undefined when the file is no longer `size` bytes.
 */
export async function readWindow(fh: fsp.FileHandle, size: number, choice: EncodingChoice, line?: number | null, limit?: number | null): Promise<Window | { bytes: Uint8Array } | 'not text' | undefined> {
  const first = size > RANGE_CHUNK_BYTES ? firstChunks.pop() ?? Buffer.allocUnsafe(RANGE_CHUNK_BYTES) : undefined;
  let buf = first ?? Buffer.allocUnsafe(size);
  try {
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(size, buf.length * 2));
        buf.copy(grown, 0, 0, filled);
        buf = grown;
      }
      const { bytesRead } = await fh.read(buf, filled, buf.length - filled, filled);
      if (!bytesRead) return undefined;
      filled += bytesRead;
      if (filled === size) return { bytes: buf };
      const form = chooseForm(buf.subarray(0, filled), choice);
      if (form.encoding !== 'utf8') return 'not text';
      const bom = form.bom ? UTF8_BOM_LENGTH : 0;
      const at = utf8WindowIn(buf.subarray(bom, filled), false, line, limit);
      if (at === 'more' || !at) continue;
      // The bytes up to the window's end are whole characters: it ends at a line break.
      const checked = utf8Body(buf.subarray(0, bom + at[1]), form);
      if (!checked) return 'not text';
      return { content: decodeUtf8(checked.subarray(at[0], at[1])), form, start: bom + at[0], end: bom + at[1] };
    }
  } finally {
    // Nothing kept refers to the first buffer once it has grown (or answered: the window is a string).
    if (first && firstChunks.length < 4) firstChunks.push(first);
  }
}

/** A whole text kept earlier of the same file, which a rest may turn out to equal byte for byte. */
export interface Earlier {
  readonly text: LazyText;
  readonly form: TextForm;
}

/**
 * The whole text of a file whose window was answered from its first bytes: all of it read again
 * through the same open file (then closed; a file renamed over it is not read), undefined when it
 * changed meanwhile (its stamp, after the read; a file whose stamp was `settled` shows any write;
 * the window's bytes, which the agent was given) or is not UTF-8 text as a whole. When its bytes
 * are those of `earlier` (a file touched, or written again as it was), that text: the rest is then
 * read into memory already touched (restPool) and compared, never copied nor checked again.
 */
export async function readRest(fh: fsp.FileHandle, size: number, stamp: FileStamp, window: Window, earlier?: Earlier): Promise<LazyText | undefined> {
  const bom = window.form.bom ? UTF8_BOM_LENGTH : 0;
  const prior = earlier && earlier.form.encoding === window.form.encoding && earlier.form.bom === window.form.bom ? earlier.text.undecoded : undefined;
  const pooled = prior?.length === size - bom ? takeRestPool(size + 1) : undefined;
  try {
    const bytes = await readAll(fh, size, pooled);
    if (!bytes || !sameStamp(stampOf(await fh.stat({ bigint: true })), stamp)) return undefined;
    if (decodeUtf8(bytes.subarray(window.start, window.end)) !== window.content) return undefined;
    if (pooled && (!bom || bomEncoding(bytes) === 'utf8') && Buffer.compare(bytes.subarray(bom), prior!) === 0) return earlier!.text;
    const body = await utf8BodyInSlices(pooled ? Buffer.from(bytes) : bytes, window.form);
    return body && new LazyText(body, decodeUtf8);
  } catch {
    return undefined;
  } finally {
    if (pooled) giveRestPool(pooled);
    fh.close().catch(() => undefined);
  }
}

/**
 * The buffer a rest that may equal an earlier text is read into: one, reused (fresh memory costs a
 * page fault per 4 KiB, ~1 ms of CPU per MiB here), taken by one rest at a time (another meanwhile
 * gets a buffer of its own), up to REST_POOL_MAX_BYTES, let go after REST_POOL_IDLE_MS unused.
 */
const REST_POOL_MAX_BYTES = 16 * 1024 * 1024;
const REST_POOL_IDLE_MS = 5_000;
let restPool: Buffer | undefined;
let restPoolTimer: NodeJS.Timeout | undefined;

function takeRestPool(bytes: number): Buffer | undefined {
  if (bytes > REST_POOL_MAX_BYTES) return undefined;
  const taken = restPool && restPool.length >= bytes ? restPool : Buffer.allocUnsafe(bytes);
  if (taken === restPool) restPool = undefined;
  return taken;
}

function giveRestPool(buffer: Buffer): void {
  if (!restPool || buffer.length > restPool.length) restPool = buffer;
  clearTimeout(restPoolTimer);
  restPoolTimer = setTimeout(() => { restPool = undefined; }, REST_POOL_IDLE_MS);
  restPoolTimer.unref?.();
}

/** Checked per this many bytes, the event loop served in between. */
const CHECK_SLICE_BYTES = 512 * 1024;

/**
 * utf8Body, checked a slice at a time with the event loop served between slices: the next requests
 * do not wait for the check of a large file that was already answered.
 */
export async function utf8BodyInSlices(bytes: Uint8Array, form: TextForm, sliceBytes = CHECK_SLICE_BYTES): Promise<Uint8Array | undefined> {
  if (form.encoding !== 'utf8' || bytes.length <= sliceBytes) return utf8Body(bytes, form);
  // The BOM, as utf8Body checks it; then the text after it.
  const start = form.bom ? UTF8_BOM_LENGTH : 0;
  if (form.bom && !utf8Body(bytes.subarray(0, UTF8_BOM_LENGTH), form)) return undefined;
  for (let at = start; at < bytes.length;) {
    let end = Math.min(bytes.length, at + sliceBytes);
    // A slice ends after a character's last byte, never inside one (more than 3 continuation bytes
    // are not UTF-8: the next slice then starts with one and fails, as the whole would).
    for (let more = 0; end < bytes.length && more < 3 && (bytes[end] & 0xc0) === 0x80; more++) end++;
    if (!utf8Body(bytes.subarray(at, end), UTF8)) return undefined;
    at = end;
    if (at < bytes.length) await new Promise(resolve => setImmediate(resolve));
  }
  return bytes.subarray(start);
}

export function stampOf(st: BigIntStats): FileStamp {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

/**
 * A file's bytes through its open handle, the `size` its stat gave asked for in one read (fewer
 * trips through the thread pool than readFile's 512 KiB pieces), into `into` when given (at least
 * `size` + 1 bytes); undefined when it is no longer that size (written meanwhile: the caller reads
 * it another way).
 */
export async function readAll(fh: fsp.FileHandle, size: number, into?: Buffer): Promise<Buffer | undefined> {
  // One byte more than the stat's size is asked for: a read of a regular file stops short only at
  // its end, so getting exactly `size` bytes in one read also tells that the file ends there.
  const bytes = into ?? Buffer.allocUnsafe(size + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await fh.read(bytes, filled, size + 1 - filled, filled);
    if (!bytesRead) return undefined;
    filled += bytesRead;
    if (filled > size) return undefined;
    if (filled === size) return bytes.subarray(0, size);
  }
}
