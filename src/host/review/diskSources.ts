// Where the review reads a file's text from besides the editor: the disk (what an agent that edits
// in its own process sees and writes, whatever the tab shows) and, when nothing else knows what a
// file held before the turn, git's index (`git show :<path>`, so a tracked file the agent replaced
// is never taken for a new one).
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findCommandAsync, isRunnableFile } from '../../common/commandLookup';
import type { FileData } from '../../common/fs/encoding';
import { decodeFor, readFileData, readFileDataSync } from '../fs/fileData';

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
