// How a file's bytes become text and back, the way VS Code does it for that file. The encoding is
// VS Code's: the open document's, else a byte order mark, else `files.encoding` for the file (the
// host gathers these; this decides). A file is text only when its bytes decode and encode back to
// exactly the same bytes: anything else (NUL bytes outside UTF-16, bytes invalid in the encoding)
// is binary, kept and restored as bytes, never decoded. UTF-8 is decoded here with Node's Buffer;
// other encodings with iconv-lite (the library VS Code itself uses), loaded on first need.
import { isUtf8 } from 'node:buffer';
import type * as Iconv from 'iconv-lite';
import type { TextForm } from './textForm';

export type { TextForm } from './textForm';

export type FileData =
  | { readonly kind: 'text'; readonly text: string; readonly form: TextForm }
  /** Binary, or not valid in the encoding VS Code uses for it (`encoding`): only its bytes are known. */
  | { readonly kind: 'binary'; readonly bytes: Uint8Array; readonly reason: 'binary' | 'encoding'; readonly encoding: string };

export const UTF8: TextForm = { encoding: 'utf8', bom: false };

const BOMS: readonly { readonly encoding: string; readonly bytes: readonly number[] }[] = [
  { encoding: 'utf8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf16be', bytes: [0xfe, 0xff] },
];
export const UTF8_BOM_LENGTH = 3;

/** The encoding a byte order mark at the start of `bytes` names, if any. */
export function bomEncoding(bytes: Uint8Array): string | undefined {
  return BOMS.find(b => b.bytes.every((x, i) => bytes[i] === x))?.encoding;
}

/** A VS Code encoding id as a form: `utf8bom` is UTF-8 with a BOM; VS Code writes UTF-16 always with one. */
export function formOf(id: string): TextForm {
  const encoding = normalizeId(id);
  if (encoding === 'utf8bom') return { encoding: 'utf8', bom: true };
  return { encoding, bom: encoding === 'utf16le' || encoding === 'utf16be' };
}

/** The VS Code id of a form (`utf8` with a BOM is `utf8bom`). */
export function idOf(form: TextForm): string {
  return form.encoding === 'utf8' && form.bom ? 'utf8bom' : form.encoding;
}

export interface EncodingChoice {
  /** The encoding of the file's open document (`TextDocument.encoding`, VS Code ≥ 1.100). */
  readonly document?: string;
  /** `files.encoding` for the file. */
  readonly configured?: string;
}

/**
 * The encoding VS Code uses for these bytes: the open document's; else the one a BOM names; else
 * the configured one (UTF-8 by default; a configured `utf8bom` reads a file without BOM as UTF-8).
 */
export function chooseForm(bytes: Uint8Array, choice: EncodingChoice): TextForm {
  const bom = bomEncoding(bytes);
  if (choice.document) {
    const form = formOf(choice.document);
    // The document's encoding decides; whether the bytes start with its BOM is what they show.
    return { encoding: form.encoding, bom: bom === form.encoding };
  }
  if (bom) return { encoding: bom, bom: true };
  return { encoding: formOf(choice.configured || 'utf8').encoding, bom: false };
}

/** NUL bytes are the mark of a binary file, except in UTF-16 (where every ASCII character has one). */
export function looksBinary(bytes: Uint8Array, encoding: string): boolean {
  return !encoding.startsWith('utf16') && bytes.indexOf(0) !== -1;
}

/**
 * The bytes of the text (after its BOM) when `bytes` are a text in UTF-8 `form` (what decodeBytes
 * decodes); undefined otherwise (another encoding, binary, not valid UTF-8).
 */
export function utf8Body(bytes: Uint8Array, form: TextForm): Uint8Array | undefined {
  if (form.encoding !== 'utf8' || looksBinary(bytes, form.encoding)) return undefined;
  if (form.bom && bomEncoding(bytes) !== 'utf8') return undefined;
  const body = bytes.subarray(form.bom ? UTF8_BOM_LENGTH : 0);
  return isUtf8(body) ? body : undefined;
}

/** A UTF-8 text's bytes (utf8Body) as a string. */
export function decodeUtf8(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** The file's text in `form`, or binary when it is not valid there (decoding and encoding back must give the same bytes). */
export function decodeBytes(bytes: Uint8Array, form: TextForm): FileData {
  const id = idOf(form);
  if (looksBinary(bytes, form.encoding)) return { kind: 'binary', bytes, reason: 'binary', encoding: id };
  if (form.encoding === 'utf8') {
    const text = utf8Body(bytes, form);
    return text ? { kind: 'text', text: decodeUtf8(text), form } : { kind: 'binary', bytes, reason: 'encoding', encoding: id };
  }
  const bomLength = form.bom ? BOMS.find(b => b.encoding === form.encoding)!.bytes.length : 0;
  if (form.bom && bomEncoding(bytes) !== form.encoding) return { kind: 'binary', bytes, reason: 'encoding', encoding: id };
  const body = bytes.subarray(bomLength);
  const iconv = loadIconv();
  if (!iconv.encodingExists(iconvName(form.encoding))) return { kind: 'binary', bytes, reason: 'encoding', encoding: id };
  const text = iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), iconvName(form.encoding), { stripBOM: false });
  const data: FileData = { kind: 'text', text, form };
  return sameBytes(encodeText(data), bytes) ? data : { kind: 'binary', bytes, reason: 'encoding', encoding: id };
}

/** The bytes of a text in its form (BOM included). */
export function encodeText(data: { readonly text: string; readonly form: TextForm }): Uint8Array {
  const { text, form } = data;
  const bom = form.bom ? Uint8Array.from(BOMS.find(b => b.encoding === form.encoding)?.bytes ?? []) : new Uint8Array();
  const body = form.encoding === 'utf8' ? Buffer.from(text, 'utf8') : loadIconv().encode(text, iconvName(form.encoding), { addBOM: false });
  if (!bom.length) return body;
  const out = new Uint8Array(bom.length + body.length);
  out.set(bom);
  out.set(body, bom.length);
  return out;
}

/** The bytes of any file data. */
export function bytesOf(data: FileData): Uint8Array {
  return data.kind === 'binary' ? data.bytes : encodeText(data);
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** Whether two file contents are the same bytes on disk (null: no file). */
export function sameData(a: FileData | null, b: FileData | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === 'text' && b.kind === 'text' && a.form.encoding === b.form.encoding && a.form.bom === b.form.bom) return a.text === b.text;
  return sameBytes(bytesOf(a), bytesOf(b));
}

/** The encoding's name in messages to the agent: "utf8" and "utf8bom" → "UTF-8", "utf16le" → "UTF-16LE", others as VS Code names them. */
export function encodingLabel(id: string): string {
  const n = normalizeId(id);
  return n === 'utf8' || n === 'utf8bom' ? 'UTF-8' : n === 'utf16le' ? 'UTF-16LE' : n === 'utf16be' ? 'UTF-16BE' : n;
}

function normalizeId(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** iconv-lite's name for a VS Code encoding id: VS Code's ids are iconv-lite's names (VS Code decodes with it too). */
function iconvName(encoding: string): string {
  return encoding;
}

let iconv: typeof Iconv | undefined;
/** iconv-lite (its code tables are large) loads on the first file that is not UTF-8. */
function loadIconv(): typeof Iconv {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  iconv ??= require('iconv-lite') as typeof Iconv;
  return iconv;
}
