// The agent rewrote a file on disk while the user had unsaved edits in its tab: the tab must not keep
// the stale text (the next save would silently revert the agent) nor lose the user's typing. A
// three-way merge (disk before the agent, the user's buffer, disk after the agent) keeps both; where
// both changed the same lines, the region gets git-style conflict markers, which VS Code's built-in
// merge-conflict support decorates with "Accept Current / Incoming / Both" actions. The markers'
// labels are localized (the user reads them in the file).
//
// The merge is only as good as its base. Unknown, or equal to the buffer itself (a baseline taken
// from the unsaved tab instead of the disk), it cannot tell the user's lines from the lines the
// agent replaced: diff3 would return the agent's text alone and the user's would be gone. Then
// nothing is merged: the buffer stays as it is and the user chooses (Keep yours / Take / Keep both).
import * as l10n from '@vscode/l10n';
import { splitLinesKeepEnds } from '../fs/lines';
import { diffLineArrays, merge3, resolveLines } from '../fs/merge';

export type Reconciled =
  /** The buffer should hold `text`: the user's edits and the agent's, overlaps marked as conflicts. */
  | { readonly kind: 'merged'; readonly text: string; readonly conflicts: number }
  /** The user's edits cannot be told from the agent's: the buffer stays as it is, the user decides. */
  | { readonly kind: 'undecidable' };

/**
 * `diskBefore`: the file on disk just before the agent's change (undefined: not known). The buffer
 * has unsaved edits, so a base equal to it is not the disk the tab was loaded from. `theirsLabel`:
 * the conflicts' label of the disk's side, when it is not the agent's change.
 */
export function reconcileBuffer(diskBefore: string | undefined, buffer: string, diskAfter: string, agentName: string, theirsLabel?: string): Reconciled {
  if (diskBefore === undefined || diskBefore === buffer) return { kind: 'undecidable' };
  const merged = merge3(diskBefore, buffer, diskAfter, 'ours');
  if (!merged.conflicts.length) return { kind: 'merged', text: merged.text, conflicts: 0 };
  const eol = diskAfter.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitLinesKeepEnds(merged.text);
  const ours = l10n.t({ message: 'Your unsaved edits', comment: ['The label after <<<<<<< of a conflict written into a file: the user\'s side. One line.'] });
  const theirs = theirsLabel !== undefined ? oneLine(theirsLabel) : l10n.t({ message: '{0}\'s change on disk', args: [oneLine(agentName)], comment: ['The label after >>>>>>> of a conflict written into a file: the agent\'s side; {0} is the agent\'s name. One line.'] });
  const out: string[] = [];
  let pos = 0;
  for (const c of merged.conflicts) {
    out.push(...lines.slice(pos, c.startLine));
    out.push(`<<<<<<< ${ours}${eol}`, withEol(c.ours, eol), `=======${eol}`, withEol(c.theirs, eol), `>>>>>>> ${theirs}${eol}`);
    pos = c.endLine;
  }
  out.push(...lines.slice(pos));
  return { kind: 'merged', text: out.join(''), conflicts: merged.conflicts.length };
}

/**
 * "Keep both" where no base tells the user's edits apart: wherever the user's text and the agent's
 * differ, the user's lines, then the agent's; lines they share, once.
 */
export function keepBoth(ours: string, theirs: string): string {
  const mine = splitLinesKeepEnds(ours);
  const out: string[] = [];
  let pos = 0;
  for (const h of diffLineArrays(mine, splitLinesKeepEnds(theirs))) {
    out.push(...mine.slice(pos, h.start), ...resolveLines({ ours: mine.slice(h.start, h.end), theirs: h.lines }, 'both'));
    pos = h.end;
  }
  out.push(...mine.slice(pos));
  return out.join('');
}

function withEol(text: string, eol: string): string {
  return !text || text.endsWith('\n') ? text : text + eol;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').slice(0, 80);
}
