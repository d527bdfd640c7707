// A file's bytes read as VS Code reads them: in the open document's encoding (`TextDocument.encoding`,
// VS Code ≥ 1.100), else the one its BOM names, else `files.encoding` for that file. Decisions are
// in common/fs/encoding; this gathers what VS Code knows.
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { chooseForm, decodeBytes, EncodingChoice, FileData, formOf, TextForm } from '../../common/fs/encoding';

/** The encoding VS Code uses for an open document (undefined before VS Code 1.100, which does not say). */
export function documentEncoding(doc: vscode.TextDocument | undefined): string | undefined {
  const e = (doc as { readonly encoding?: unknown } | undefined)?.encoding;
  return typeof e === 'string' && e ? e : undefined;
}

/** `files.encoding` for the file (per folder and language, as VS Code resolves it). */
export function configuredEncoding(filePath: string, doc?: vscode.TextDocument): string {
  const scope = doc ?? vscode.Uri.file(filePath);
  return vscode.workspace.getConfiguration('files', scope).get<string>('encoding') || 'utf8';
}

export function openDocumentOf(filePath: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(filePath).fsPath;
  return vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && !d.isClosed && d.uri.fsPath === fsPath);
}

export function choiceFor(filePath: string, doc = openDocumentOf(filePath)): EncodingChoice {
  return { document: documentEncoding(doc), configured: configuredEncoding(filePath, doc) };
}

/** The bytes of `filePath` as VS Code would show them. */
export function decodeFor(filePath: string, bytes: Uint8Array, doc?: vscode.TextDocument): FileData {
  return decodeBytes(bytes, chooseForm(bytes, choiceFor(filePath, doc)));
}

/**
 * The same, and with `files.autoGuessEncoding` on, a file not valid in the configured encoding is
 * decoded in the one VS Code guesses for it: VS Code opens it (its own guess, as when the user opens
 * it) and says which (`TextDocument.encoding`). A file VS Code finds binary stays binary.
 */
export async function decodeGuessing(filePath: string, bytes: Uint8Array, doc = openDocumentOf(filePath)): Promise<FileData> {
  const data = decodeFor(filePath, bytes, doc);
  if (data.kind === 'text' || data.reason !== 'encoding' || doc) return data;
  if (!vscode.workspace.getConfiguration('files', vscode.Uri.file(filePath)).get<boolean>('autoGuessEncoding')) return data;
  const opened = await vscode.workspace.openTextDocument(vscode.Uri.file(filePath)).then(d => d, () => undefined);
  const guessed = documentEncoding(opened);
  if (!guessed) return data;
  const again = decodeBytes(bytes, chooseForm(bytes, { document: guessed }));
  return again.kind === 'text' ? again : data;
}

/**
 * The form an open document's text is saved in: its encoding; before VS Code 1.100, the file's
 * (its BOM on disk, else `files.encoding`).
 */
export function formOfDocument(doc: vscode.TextDocument, diskBytes?: Uint8Array): TextForm {
  const id = documentEncoding(doc);
  if (id) return formOf(id);
  return chooseForm(diskBytes ?? new Uint8Array(), { configured: configuredEncoding(doc.uri.fsPath, doc) });
}

/** The form a new file takes: `files.encoding` for it. */
export function formOfNewFile(filePath: string): TextForm {
  return formOf(configuredEncoding(filePath));
}

/** A regular file's content; undefined when it is missing, not a regular file, or larger than `maxBytes`. */
export async function readFileData(filePath: string, maxBytes: number): Promise<FileData | undefined> {
  try {
    const st = await stat(filePath);
    // Never a FIFO or a device: a read of one can wait forever.
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return await decodeGuessing(filePath, await readFile(filePath));
  } catch {
    return undefined;
  }
}

/** The same, synchronously, with the modification time (the moment a tool call names a file). */
export function readFileDataSync(filePath: string, maxBytes: number): { data: FileData; mtimeMs: number } | undefined {
  try {
    const st = statSync(filePath);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    return { data: decodeFor(filePath, readFileSync(filePath)), mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}
