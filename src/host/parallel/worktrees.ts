// Git worktrees for parallel runs (docs/decisions/0026). Everything is done by git itself, the
// program the review already uses (host/review/diskSources: VS Code's Git extension's git, else an
// absolute PATH entry, never one the workspace chooses): a commit of the current state, the user's
// uncommitted and untracked (not ignored) files included, made with a temporary index so that the
// user's index, refs and stash stay untouched; then `git worktree add --detach` of that commit into
// the extension's storage, outside the user's tree. Hooks and fsmonitor are off for these commands,
// and no GIT_* variable of the window's environment applies (common/gitEnv).
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isWithin } from '../../common/fs/pathPolicy';
import { gitEnv } from '../../common/gitEnv';
import { runFiles } from '../../common/parallel/diffStats';
import type { RunFile } from '../../common/parallel/runSet';
import { realPathOf } from '../fs/files';
import { gitProgram } from '../review/diskSources';

const MAX_OUTPUT = 64 * 1024 * 1024;
/** Who the snapshot commit says made it (a repository without user.name must still work). */
const IDENTITY = { GIT_AUTHOR_NAME: 'Switchboard', GIT_AUTHOR_EMAIL: 'switchboard@localhost', GIT_COMMITTER_NAME: 'Switchboard', GIT_COMMITTER_EMAIL: 'switchboard@localhost' };

export class GitProblem extends Error {}

/** The git program, and an empty folder of the extension's storage given to it as its hooks folder (no hook runs). */
export interface Git {
  readonly git: string;
  readonly hooks: string;
}

/** The state a set of runs starts from. */
export interface Snapshot extends Git {
  /** The repository's top folder (the user's working tree). */
  readonly repoRoot: string;
  /** The snapshot commit (HEAD plus the uncommitted changes). */
  readonly base: string;
  /** The workspace folder, relative to the repository's top (an agent works in the same place in its worktree). */
  readonly folderInRepo: string;
}

/** Runs git; rejects with a GitProblem carrying git's own words. */
export function runGit(g: Git, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(g.git, safe(g, args), { cwd, env: gitEnv(process.env, { ...env, GIT_TERMINAL_PROMPT: '0' }), encoding: 'utf8', maxBuffer: MAX_OUTPUT, windowsHide: true, timeout: 120_000 },
      (err, stdout, stderr) => (err ? reject(new GitProblem((stderr || err.message).trim())) : resolve(stdout)));
  });
}

/** No hooks (post-checkout of `worktree add`) and no fsmonitor program run for our commands. */
function safe(g: Git, args: readonly string[]): string[] {
  mkdirSync(g.hooks, { recursive: true });
  return ['-c', `core.hooksPath=${g.hooks}`, '-c', 'core.fsmonitor=false', ...args];
}

/** The folder of `root` given to git as its (empty) hooks folder; an absolute path. */
export function hooksFolder(root: string): string {
  return path.resolve(root, NO_HOOKS);
}

const NO_HOOKS = 'no-hooks';

/**
 * A commit of `folder`'s repository as it is now, or why there can be none (not a repository, no
 * commit, no git). `hooks`: an empty folder (hooksFolder).
 */
export async function snapshot(folder: string, scratch: string, hooks: string): Promise<Snapshot | { problem: string }> {
  const program = vscode.workspace.isTrusted ? await gitProgram() : undefined;
  if (!program) return { problem: vscode.l10n.t('Run in Parallel needs git, and git was not found (or the workspace is not trusted).') };
  const git: Git = { git: program, hooks };
  let repoRoot: string;
  try {
    repoRoot = (await runGit(git, ['rev-parse', '--show-toplevel'], folder)).trim();
  } catch {
    return { problem: vscode.l10n.t('Run in Parallel works in a git repository, and {0} is not in one. Each run gets its own git worktree: run `git init` and make a first commit to use it.', folder) };
  }
  try {
    await runGit(git, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], repoRoot);
  } catch {
    return { problem: vscode.l10n.t('Run in Parallel needs a first commit in the repository ({0}): each run starts from it, plus your uncommitted changes.', repoRoot) };
  }
  // A temporary index, seeded with the user's (its file stats make `add -A` fast); the user's stays as it is.
  mkdirSync(scratch, { recursive: true });
  const index = path.join(scratch, 'index');
  const own = path.resolve(repoRoot, (await runGit(git, ['rev-parse', '--git-path', 'index'], repoRoot)).trim());
  if (existsSync(own)) copyFileSync(own, index);
  const env = { GIT_INDEX_FILE: index, ...IDENTITY };
  try {
    if (!existsSync(own)) await runGit(git, ['read-tree', 'HEAD'], repoRoot, env);
    await runGit(git, ['add', '-A', '--', '.'], repoRoot, env);
    const tree = (await runGit(git, ['write-tree'], repoRoot, env)).trim();
    const base = (await runGit(git, ['commit-tree', tree, '-p', 'HEAD', '-m', 'Switchboard: state for parallel runs'], repoRoot, env)).trim();
    return { ...git, repoRoot, base, folderInRepo: path.relative(repoRoot, await realFolder(git, folder)) };
  } finally {
    rmSync(index, { force: true });
  }
}

/** The folder as git names it (symbolic links resolved the way `--show-toplevel` resolves them). */
async function realFolder(git: Git, folder: string): Promise<string> {
  const prefix = (await runGit(git, ['rev-parse', '--show-prefix'], folder)).trim();
  const top = (await runGit(git, ['rev-parse', '--show-toplevel'], folder)).trim();
  return path.join(top, prefix);
}

/** A detached worktree of the snapshot in `dir` (which must not exist yet). */
export async function addWorktree(snap: Snapshot, dir: string): Promise<void> {
  mkdirSync(path.dirname(dir), { recursive: true });
  await runGit(snap, ['worktree', 'add', '--detach', '--force', dir, snap.base], snap.repoRoot);
}

/** What the run in `dir` changed against the snapshot (new files included, ignored ones not). */
export async function changesIn(snap: Snapshot, dir: string): Promise<RunFile[]> {
  // The worktree's own index (never the user's) takes every file, so new files are compared too.
  await runGit(snap, ['add', '-A', '--', '.'], dir);
  const names = await runGit(snap, ['diff', '--cached', '--name-status', '-z', '--no-renames', snap.base], dir);
  const counts = await runGit(snap, ['diff', '--cached', '--numstat', '-z', '--no-renames', snap.base], dir);
  return runFiles(names, counts);
}

/** A file's bytes in the snapshot (path relative to the repository's top); undefined: not in it. */
export function baseBytes(snap: Snapshot, rel: string): Promise<Buffer | undefined> {
  return new Promise(resolve => {
    execFile(snap.git, safe(snap, ['show', `${snap.base}:${rel.split(path.sep).join('/')}`]), { cwd: snap.repoRoot, env: gitEnv(process.env), encoding: 'buffer', maxBuffer: MAX_OUTPUT, windowsHide: true },
      (err, stdout) => resolve(err ? undefined : stdout));
  });
}

/**
 * Whether `file` may be read or written by Apply without following a link: it is a regular file or
 * missing, and its folder (its nearest existing one) is really inside `realRoot` (a resolved path).
 * A symbolic link, a FIFO or a folder, or a path through a link out of `realRoot`, is not.
 */
export async function plainFileIn(file: string, realRoot: string): Promise<boolean> {
  const st = await lstat(file).catch(() => undefined);
  if (st && !st.isFile()) return false;
  return isWithin(await realPathOf(path.dirname(file)), realRoot);
}

/** Removes the worktrees (their folders too), then prunes what git still lists of them. */
export async function removeWorktrees(snap: Pick<Snapshot, 'git' | 'hooks' | 'repoRoot'>, dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    await runGit(snap, ['worktree', 'remove', '--force', '--force', dir], snap.repoRoot).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  await runGit(snap, ['worktree', 'prune'], snap.repoRoot).catch(() => undefined);
}

/** The same, at once (the window closes: no promise is awaited any more). */
export function removeWorktreesSync(snap: Pick<Snapshot, 'git' | 'hooks' | 'repoRoot'>, dirs: readonly string[]): void {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync(snap.git, safe(snap, ['worktree', 'prune']), { cwd: snap.repoRoot, env: gitEnv(process.env), stdio: 'ignore', timeout: 10_000, windowsHide: true });
  } catch {
    // The next start prunes again (sweepStale).
  }
}

const OWNER = 'owner.json';

/** Marks a set's folder as this extension host's, with the repository its worktrees belong to. */
export function claim(setDir: string, snap: Pick<Snapshot, 'git' | 'repoRoot'>): void {
  mkdirSync(setDir, { recursive: true });
  writeFileSync(path.join(setDir, OWNER), JSON.stringify({ pid: process.pid, git: snap.git, repoRoot: snap.repoRoot }));
}

/**
 * At start: the folders of sets whose extension host is gone (a window closed mid-run, a crash) are
 * removed, and their repositories pruned. Sets of a window still open are left alone.
 */
export async function sweepStale(root: string): Promise<number> {
  let removed = 0;
  let entries: string[];
  try { entries = readdirSync(root); } catch { return 0; }
  for (const name of entries) {
    if (name === NO_HOOKS) continue;
    const setDir = path.join(root, name);
    let owner: { pid?: unknown; git?: unknown; repoRoot?: unknown } = {};
    try { owner = JSON.parse(readFileSync(path.join(setDir, OWNER), 'utf8')) as typeof owner; } catch { /* no owner: an unfinished set */ }
    if (typeof owner.pid === 'number' && owner.pid !== process.pid && alive(owner.pid)) continue;
    if (owner.pid === process.pid) continue;
    rmSync(setDir, { recursive: true, force: true });
    if (typeof owner.git === 'string' && typeof owner.repoRoot === 'string' && existsSync(owner.repoRoot)) {
      await runGit({ git: owner.git, hooks: hooksFolder(root) }, ['worktree', 'prune'], owner.repoRoot).catch(() => undefined);
    }
    removed++;
  }
  return removed;
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
}
