// Where the review reads a file's text from besides the editor: the disk (what an agent that edits
// in its own process sees and writes, whatever the tab shows) and, when nothing else knows what a
// file held before the turn, git's index (`git show :<path>`, so a tracked file the agent replaced
// is never taken for a new one).
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findCommandAsync, isRunnableFile } from '../../common/commandLookup';

const MAX_BYTES = 8 * 1024 * 1024;

/** The file's text on disk; undefined when it is missing, too large, binary or not UTF-8. */
export async function readDisk(filePath: string): Promise<string | undefined> {
  try {
    if (!await isRegularFile(filePath)) return undefined;
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(filePath));
    return bytes.byteLength > MAX_BYTES ? undefined : decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A regular file (through a link too), not a FIFO, socket or device: a read of a FIFO waits for a
 * writer forever and holds one of the four threads every file operation of the extension host shares.
 */
export async function isRegularFile(filePath: string): Promise<boolean> {
  try {
    return (await stat(filePath)).isFile();
  } catch {
    return false;
  }
}

/** The same, synchronously, with its modification time: for the moment a tool call names a file. */
export function readDiskSync(filePath: string): { text: string; mtimeMs: number } | undefined {
  try {
    const st = statSync(filePath);
    // Never a FIFO or a device: a synchronous read of one would block the extension host.
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const text = decode(readFileSync(filePath));
    return text === undefined ? undefined : { text, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

function decode(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(bytes);
  return text.includes('\0') || text.includes('\uFFFD') ? undefined : text;
}

/**
 * The text git's index holds for the file (its staged version); undefined when it is not tracked, git
 * is unavailable or the workspace is not trusted. Run with the git VS Code's Git extension uses, else
 * the one on PATH's absolute folders: never a program the workspace chooses.
 */
export async function gitIndexText(filePath: string): Promise<string | undefined> {
  const git = vscode.workspace.isTrusted ? await gitProgram() : undefined;
  if (!git) return undefined;
  return new Promise(resolve => {
    execFile(git, ['show', `:./${path.basename(filePath)}`], { cwd: path.dirname(filePath), encoding: 'buffer', timeout: 3000, maxBuffer: MAX_BYTES, windowsHide: true },
      (err, stdout) => resolve(err ? undefined : decode(stdout)));
  });
}

interface GitExtension { getAPI(version: 1): { readonly git: { readonly path: string } } }

async function gitProgram(): Promise<string | undefined> {
  try {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    const found = ext && (ext.isActive ? ext.exports : await ext.activate()).getAPI(1).git.path;
    if (found && path.isAbsolute(found)) return found;
  } catch {
    // The Git extension is disabled (git.enabled: false) or found no git.
  }
  return findCommandAsync('git', { platform: process.platform, env: process.env }, f => isRunnableFile(f));
}
