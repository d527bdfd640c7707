// Where the review reads a file's text from besides the editor: the disk (what an agent that edits
// in its own process sees and writes, whatever the tab shows) and, when nothing else knows what a
// file held before the turn, git's index (`git show :<path>`, so a tracked file the agent replaced
// is never taken for a new one). And how the review reads a file as the user sees it (readText) and
// sets it on Undo (writeFile).
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findCommandAsync, isRunnableFile } from '../../common/commandLookup';
import { bytesOf, FileData, sameBytes } from '../../common/fs/encoding';
import { Content, textData } from '../../common/review/sides';
import { decodeFor, formOfDocument, openDocumentOf, readFileData, readFileDataSync } from '../fs/fileData';

const MAX_BYTES = 8 * 1024 * 1024;

/**
 * The file on disk, as VS Code reads it (its encoding; binary or not valid in it: its bytes);
 * undefined when it is missing, not a regular file, or too large.
 */
export function readDisk(filePath: string): Promise<FileData | undefined> {
  return readFileData(filePath, MAX_BYTES);
}

/** The same, synchronously, with its modification time: for the moment a tool call names a file. */
export function readDiskSync(filePath: string): { data: FileData; mtimeMs: number } | undefined {
  return readFileDataSync(filePath, MAX_BYTES);
}

/**
 * What git's index holds for the file (its staged version, decoded as the file is); undefined when it is not tracked, git
 * is unavailable or the workspace is not trusted. Run with the git VS Code's Git extension uses, else
 * the one on PATH's absolute folders: never a program the workspace chooses.
 */
export async function gitIndexText(filePath: string): Promise<FileData | undefined> {
  const git = vscode.workspace.isTrusted ? await gitProgram() : undefined;
  if (!git) return undefined;
  return new Promise(resolve => {
    execFile(git, ['show', `:./${path.basename(filePath)}`], { cwd: path.dirname(filePath), encoding: 'buffer', timeout: 3000, maxBuffer: MAX_BYTES, windowsHide: true },
      (err, stdout) => resolve(err ? undefined : decodeFor(filePath, stdout)));
  });
}

interface GitExtension { getAPI(version: 1): { readonly git: { readonly path: string } } }

/** The git program: the Git extension's when absolute, else the first on PATH's absolute folders. */
export async function gitProgram(): Promise<string | undefined> {
  try {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    const found = ext && (ext.isActive ? ext.exports : await ext.activate()).getAPI(1).git.path;
    if (found && path.isAbsolute(found)) return found;
  } catch {
    // The Git extension is disabled (git.enabled: false) or found no git.
  }
  return findCommandAsync('git', { platform: process.platform, env: process.env }, f => isRunnableFile(f));
}

/**
 * The file's content: the buffer when it has unsaved edits, else the disk (a clean buffer may not
 * have reloaded yet); undefined when the file is gone.
 */
export async function readText(filePath: string): Promise<FileData | undefined> {
  const open = openDocumentOf(filePath);
  if (open?.isDirty) return textData(open.getText(), formOfDocument(open));
  return readFileData(filePath, Number.MAX_SAFE_INTEGER);
}

/**
 * Sets a file's content (null: delete it); the disk then holds exactly its bytes. Text goes through
 * one WorkspaceEdit and a save (Ctrl+Z in the editor undoes it); bytes (a binary file, or a file
 * that is binary on disk now) are written as they are, never through a text buffer.
 */
export async function writeFile(filePath: string, data: Content): Promise<void> {
  const uri = vscode.Uri.file(filePath);
  const edit = new vscode.WorkspaceEdit();
  if (data === null) {
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    if (!await vscode.workspace.applyEdit(edit)) throw new Error(vscode.l10n.t('VS Code did not delete the file'));
    return;
  }
  const bytes = bytesOf(data);
  const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
  if (!exists) {
    edit.createFile(uri, { ignoreIfExists: true, contents: bytes });
    if (!await vscode.workspace.applyEdit(edit)) throw new Error(vscode.l10n.t('VS Code did not create the file'));
    return;
  }
  const doc = data.kind === 'text' ? await vscode.workspace.openTextDocument(uri).then(d => d, () => undefined) : undefined;
  // A clean document that has not caught up with the disk yet would save over it ("file modified
  // since"): the bytes are then written directly, and VS Code reloads the document.
  const stale = doc && !doc.isDirty && await readFileData(filePath, Number.MAX_SAFE_INTEGER).then(d => d?.kind !== 'text' || d.text !== doc.getText());
  /** The tab's text before this edit, when the edit was applied to it. */
  let edited: string | undefined;
  if (doc && !stale && data.kind === 'text') {
    const before = doc.getText();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(before.length)), data.text);
    if (await vscode.workspace.applyEdit(edit)) {
      edited = before;
      await Promise.resolve(doc.save()).catch(() => false);
    }
  }
  try {
    // A document has one line ending (mixed CRLF / LF were saved as one), its own encoding, and a save
    // may change the text further (save participants): the disk gets the exact bytes the undo restores.
    const saved = await vscode.workspace.fs.readFile(uri);
    if (!sameBytes(saved, bytes)) await vscode.workspace.fs.writeFile(uri, bytes);
  } catch (err) {
    // Not written (its save failed too): the tab shows what the disk still holds again, not an undo
    // made nowhere that a later save would write while the change is still listed.
    if (edited !== undefined && !doc!.isClosed && doc!.getText() !== edited) {
      const back = new vscode.WorkspaceEdit();
      back.replace(uri, new vscode.Range(doc!.positionAt(0), doc!.positionAt(doc!.getText().length)), edited);
      await vscode.workspace.applyEdit(back);
    }
    throw err;
  }
}
