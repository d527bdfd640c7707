// The disk as the change tracker reads it: one spelling per file, which files are build output or
// temporary files, whether a file is still being written or was written since a moment, the files
// of a new folder, the form a text seen without one is stored in.
import { promises as fsPromises, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formOf, TextForm } from '../../common/fs/encoding';
import { diffMetaOf } from '../../common/review/snippet';
import { configuredEncoding, formOfDocument, openDocumentOf } from '../fs/fileData';

/** Build output and caches: created by the commands an agent runs, not edits to review. */
const GENERATED = /[\\/](node_modules|\.git|dist|out|build|target|coverage|__pycache__|\.next|\.nuxt|\.cache|\.turbo|\.venv|venv|\.gradle|bin|obj)[\\/]|\.(pyc|o|class|log|lock|map|tsbuildinfo)$/;
/** Temporary files of atomic saves (Claude writes `.name.tmp.<pid>.<random>`, then renames it over `name`). */
const TEMPORARY = /\.tmp(\.[\w-]+)*$|~$|\.sw[po]$/;

export async function filesUnder(dir: vscode.Uri, max: number): Promise<vscode.Uri[]> {
  const out: vscode.Uri[] = [];
  const walk = async (d: vscode.Uri): Promise<void> => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(d).then(e => e, () => [] as [string, vscode.FileType][])) {
      if (out.length >= max) return;
      const child = vscode.Uri.joinPath(d, name);
      if (type === vscode.FileType.Directory) await walk(child);
      else if (type === vscode.FileType.File) out.push(child);
    }
  };
  await walk(dir);
  return out;
}

export function looksGenerated(filePath: string): boolean {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(filePath));
  const rel = folder ? filePath.slice(folder.uri.fsPath.length) : filePath;
  return GENERATED.test(rel) || TEMPORARY.test(path.basename(filePath));
}

/** A file modified less than this long ago may still be being written (in place: truncated first, then filled). */
const WRITE_SETTLE_MS = 500;

/**
 * Resolves once the file was last modified WRITE_SETTLE_MS ago (or is gone): a watcher's report read
 * while the file is half written (empty after the truncation of an in-place write) would be taken
 * for the agent's change, and a tab with unsaved edits merged with it. A file written without pause
 * for seconds is read after about ten.
 */
export async function untilWritten(filePath: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const mtime = await fsPromises.stat(filePath).then(st => st.mtimeMs, () => undefined);
    const wait = mtime === undefined ? 0 : Math.min(WRITE_SETTLE_MS, mtime + WRITE_SETTLE_MS - Date.now());
    if (wait <= 0) return;
    await new Promise(resolve => setTimeout(resolve, wait));
  }
}

/** Slack for file systems that keep modification times in whole (or even two) seconds. */
const MTIME_SLACK_MS = 2000;


/**
 * Whether the file was modified at or after `since` (ms): what an agent's claim about it needs to be
 * believed. Synchronous (a stat of a file just read): an await here would let the other checks of
 * the same tool call run first.
 */
export function writtenSince(filePath: string, since: number): boolean {
  try {
    return statSync(filePath).mtimeMs >= since - MTIME_SLACK_MS;
  } catch {
    return false;
  }
}

export function isUnlocated(c: { _meta?: { [key: string]: unknown } | null }): boolean {
  return diffMetaOf(c)?.unlocated !== undefined;
}

/** One spelling per file (drive letter case, separators), whoever names it: agent or VS Code. */
export function normalize(filePath: string): string {
  // `..` segments and a trailing separator resolved too: `/w/a.txt/` and `/w/src/../a.txt` are `/w/a.txt`.
  return vscode.Uri.file(path.isAbsolute(filePath) ? path.resolve(filePath) : filePath).fsPath;
}

export function isInWorkspace(filePath: string): boolean {
  return !!vscode.workspace.getWorkspaceFolder(vscode.Uri.file(filePath));
}

/** The form a text seen without one (an open document's, a read's) is stored in. */
export function defaultForm(filePath: string): TextForm {
  const doc = openDocumentOf(filePath);
  return doc ? formOfDocument(doc) : formOf(configuredEncoding(filePath));
}
