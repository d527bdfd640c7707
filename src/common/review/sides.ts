// The two sides of a file's change as the review keeps them (reviewLog.ts): texts when both are
// text in one encoding, else both as bytes in base64; and the file contents they stand for. Pure.
import { bytesOf, FileData, TextForm, UTF8 } from '../fs/encoding';
import type { FileChange } from './reviewLog';

/** A file's content (null: no file). */
export type Content = FileData | null;

export const textData = (text: string, form: TextForm): FileData => ({ kind: 'text', text, form });
export const binaryData = (bytes: Uint8Array): FileData => ({ kind: 'binary', bytes, reason: 'binary', encoding: '' });
export const toBase64 = (d: FileData) => Buffer.from(bytesOf(d)).toString('base64');
export const sameForm = (a: TextForm, b: TextForm) => a.encoding === b.encoding && a.bom === b.bom;

/** The content one side of a change stands for. */
export function sideOf(change: FileChange, side: string | null): Content {
  if (side === null) return null;
  return change.binary ? binaryData(Buffer.from(side, 'base64')) : textData(side, change.form ?? UTF8);
}

/** `content` as a side of `change`; undefined when the change cannot hold it (text in another encoding, bytes in a text change). */
export function sideIn(change: FileChange, content: Content): string | null | undefined {
  if (content === null) return null;
  if (change.binary) return toBase64(content);
  return content.kind === 'text' && sameForm(content.form, change.form ?? UTF8) ? content.text : undefined;
}

/** The sides of a new change: texts when both are text in one encoding, else both as bytes (base64). */
export function asSides(before: Content, after: Content): { before: string | null; after: string | null; how: Pick<FileChange, 'binary' | 'form'> } {
  const present = [before, after].filter((d): d is FileData => d !== null);
  const texts = present.filter((d): d is Extract<FileData, { kind: 'text' }> => d.kind === 'text');
  if (texts.length === present.length && texts.every(t => sameForm(t.form, texts[0].form))) {
    return { before: before?.kind === 'text' ? before.text : null, after: after?.kind === 'text' ? after.text : null, how: { form: texts[0]?.form } };
  }
  return { before: before && toBase64(before), after: after && toBase64(after), how: { binary: true } };
}
