// The merges of one file's tab run one after another (host/review/bufferReconcile.ts makes them): each
// reads the tab, reverts it to the disk and sets the merged text, and two interleaved (a change
// tracker's merge of an agent's write reported late, a checkpoint's restore) would set a merge made
// for a tab the other had already replaced. Between the revert and the set the tab is clean: whoever
// judges a tab's unsaved edits (a read of what the user sees, an agent's write into the buffer, an
// Undo) first waits for its merges (mergesDone).
import type * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { settledWithin } from './pendingSaves';

const queues = new Map<string, Promise<unknown>>();

/**
 * How long a merge waits at most for the one before it, which waits on VS Code (showing the tab,
 * the revert, the edit): a call that never returns must not stop the file's merges for good.
 */
const QUEUE_WAIT_MS = 30_000;

/** Test seams (host/review/bufferReconcile.ts runs the first two in each merge). */
export const tabMergeHooks: {
  /** Right before a tab is reverted to the disk, its merge's checks passed (a test drives the disk changing then). */
  beforeRevert?: (doc: vscode.TextDocument) => Promise<void>;
  /** Right before the merged text is set into a tab reverted to the disk (clean for that moment). */
  beforeSet?: (doc: vscode.TextDocument) => Promise<void>;
  /** Someone waits for the merges queued for a file's tab (mergesDone). */
  waiting?: (filePath: string) => void;
} = {};

/** Runs `work` once the merges queued before it for the file's tab are done (or after QUEUE_WAIT_MS). */
export function oneMergeAtATime<T>(filePath: string, work: () => Promise<T>, log?: Logger): Promise<T> {
  const previous = queues.get(filePath);
  let waited = false;
  const turn = previous ? settledWithin([previous.finally(() => { waited = true; })], QUEUE_WAIT_MS) : Promise.resolve();
  const mine = turn.then(() => {
    if (previous && !waited) log?.warn(`The merge before this one into ${filePath}'s tab is still running after ${QUEUE_WAIT_MS / 1000} s: this one goes on`);
    return work();
  });
  const tail = mine.catch(() => undefined);
  queues.set(filePath, tail);
  void tail.then(() => { if (queues.get(filePath) === tail) queues.delete(filePath); });
  return mine;
}

/**
 * Resolves once the merges queued for the file's tab are done (or after QUEUE_WAIT_MS). A merge
 * reverts the tab to the disk, then sets the merged text: in between the tab is clean, and one who
 * judged its unsaved edits then would see none.
 */
export async function mergesDone(filePath: string): Promise<void> {
  const queued = queues.get(filePath);
  if (!queued) return;
  tabMergeHooks.waiting?.(filePath);
  await settledWithin([queued], QUEUE_WAIT_MS);
}

/** Whether a merge of the file's tab is running or waiting (tests). */
export function mergeQueued(filePath: string): boolean {
  return queues.has(filePath);
}
