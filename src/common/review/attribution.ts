// Whose turn a disk change is when several turns run at once (agents side by side): the file
// watcher reports a change, never who made it. A change goes to the one running turn whose tool
// calls named the file; otherwise nobody can tell, and it is listed as changed while those agents
// were working (never dropped, never given to one of them).
import * as l10n from '@vscode/l10n';
import { modifiedDuring } from './mtime';

export interface RunningTurn {
  readonly turnId: string;
  /** When it began and, if it is ending, ended (ms, Date.now()). */
  readonly started: number;
  readonly ended?: number;
  /** Its tool calls named the file (a diff, a location, the path in their input). */
  readonly named: boolean;
}

/**
 * The turn a change of a file modified at `mtimeMs` (undefined: gone, or not dated) belongs to,
 * among several running turns: its id, 'shared' when it cannot be attributed, undefined when it was
 * modified before any of them began (the user's).
 */
export function attributeAmong(running: readonly RunningTurn[], mtimeMs: number | undefined): string | 'shared' | undefined {
  const working = workingWhen(running, mtimeMs);
  if (!working.length) return undefined;
  const naming = working.filter(t => t.named);
  return naming.length === 1 ? naming[0].turnId : 'shared';
}

/**
 * The turns that were running when the file was modified at `mtimeMs` (undefined: not dated, all of
 * them): the agents a shared change names. A turn that ran alongside another and had ended by
 * then is not one of them.
 */
export function workingWhen<T extends Pick<RunningTurn, 'started' | 'ended'>>(running: readonly T[], mtimeMs: number | undefined): T[] {
  return running.filter(t => mtimeMs === undefined || modifiedDuring(mtimeMs, t.started, t.ended));
}

/** "A", "A and B", "A, B and C". */
export function agentList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return l10n.t({ message: '{0} and {1}', args: [names.slice(0, -1).join(', '), names[names.length - 1]], comment: ['A list of agent names: {0} all but the last (comma separated), {1} the last'] });
}

/** The title of the changes nobody could attribute, made while these agents were working. */
export function changedWhileTitle(agents: readonly string[]): string {
  return l10n.t({ message: 'Changed while {0} were working', args: [agentList(agents)], comment: ['Changes on disk no agent reported; {0} lists the agents whose turns were running'] });
}
