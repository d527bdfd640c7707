// Reading what the user sees: an open buffer with unsaved edits, else the file on disk. Paths are
// resolved (symlinks, `..`) before any policy decision; missing tails of a path (a file about to be
// created) are resolved through their nearest existing ancestor.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FsErrors, fromNodeError } from '../../common/fs/errors';
import { decodeText } from '../../common/fs/text';

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

/** The workspace folders (local ones), resolved like targets are. */
export async function workspaceRoots(): Promise<string[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file');
  return Promise.all(folders.map(f => realPathOf(f.uri.fsPath)));
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
}

/**
 * What the user sees for this file now. A dirty buffer wins (unsaved edits included); a clean one
 * may lag behind the disk (a command rewrote the file a moment ago), so the disk is read then.
 */
export async function readCurrent(target: Target): Promise<CurrentText> {
  const doc = findOpenDocument(target);
  if (doc?.isDirty) return { exists: true, text: bufferText(doc), source: 'buffer' };
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(target.real);
  } catch (e) {
    if (isMissing(e)) return { exists: false, text: '', source: 'none' };
    throw fromNodeError(e, target.requested) ?? FsErrors.io(target.requested, `Cannot read the file (${(e as Error).message})`);
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) throw decoded.reason === 'binary' ? FsErrors.binary(target.requested) : FsErrors.encoding(target.requested);
  return { exists: true, text: decoded.text, source: 'disk' };
}

/** The buffer's text, materialized once per document version (a 5 MB buffer read twice costs one copy). */
const texts = new WeakMap<vscode.TextDocument, { version: number; text: string }>();
function bufferText(doc: vscode.TextDocument): string {
  const cached = texts.get(doc);
  if (cached && cached.version === doc.version) return cached.text;
  const text = doc.getText();
  texts.set(doc, { version: doc.version, text });
  return text;
}
