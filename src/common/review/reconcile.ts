// The agent rewrote a file on disk while the user had unsaved edits in its tab: the tab must not keep
// the stale text (the next save would silently revert the agent) nor lose the user's typing. A
// three-way merge (disk before the agent, the user's buffer, disk after the agent) keeps both; where
// both changed the same lines, the region gets git-style conflict markers, which VS Code's built-in
// merge-conflict support decorates with "Accept Current / Incoming / Both" actions. The markers'
// labels are localized (the user reads them in the file).
import * as l10n from '@vscode/l10n';
import { splitLinesKeepEnds } from '../fs/lines';
import { merge3 } from '../fs/merge';

export interface Reconciled {
  /** The text the buffer should hold. */
  readonly text: string;
  readonly conflicts: number;
}

export function reconcileBuffer(diskBefore: string, buffer: string, diskAfter: string, agentName: string): Reconciled {
  const merged = merge3(diskBefore, buffer, diskAfter, 'ours');
  if (!merged.conflicts.length) return { text: merged.text, conflicts: 0 };
  const eol = diskAfter.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitLinesKeepEnds(merged.text);
  const ours = l10n.t({ message: 'Your unsaved edits', comment: ['The label after <<<<<<< of a conflict written into a file: the user\'s side. One line.'] });
  const theirs = l10n.t({ message: '{0}\'s change on disk', args: [oneLine(agentName)], comment: ['The label after >>>>>>> of a conflict written into a file: the agent\'s side; {0} is the agent\'s name. One line.'] });
  const out: string[] = [];
  let pos = 0;
  for (const c of merged.conflicts) {
    out.push(...lines.slice(pos, c.startLine));
    out.push(`<<<<<<< ${ours}${eol}`, withEol(c.ours, eol), `=======${eol}`, withEol(c.theirs, eol), `>>>>>>> ${theirs}${eol}`);
    pos = c.endLine;
  }
  out.push(...lines.slice(pos));
  return { text: out.join(''), conflicts: merged.conflicts.length };
}

function withEol(text: string, eol: string): string {
  return !text || text.endsWith('\n') ? text : text + eol;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').slice(0, 80);
}
