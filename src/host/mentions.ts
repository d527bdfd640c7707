// "@" completions in the prompt box: workspace files whose path contains what was typed.
import * as vscode from 'vscode';
import type { MentionCandidate } from '../common/protocol';

const MAX_RESULTS = 20;

export async function findMentionCandidates(query: string): Promise<MentionCandidate[]> {
  const safe = query.replace(/[[\]{}*?!\\]/g, '');
  const glob = safe ? `**/*${safe}*` : '**/*';
  const files = await vscode.workspace.findFiles(glob, '**/{node_modules,.git,dist,out}/**', MAX_RESULTS * 3);
  return files
    .map(uri => vscode.workspace.asRelativePath(uri, false))
    .sort((a, b) => score(a, safe) - score(b, safe) || a.length - b.length)
    .slice(0, MAX_RESULTS)
    .map(rel => ({ path: rel, label: rel.split('/').pop()!, description: rel }));
}

/** Basename matches first. */
function score(rel: string, q: string): number {
  const base = rel.split('/').pop()!.toLowerCase();
  return base.startsWith(q.toLowerCase()) ? 0 : base.includes(q.toLowerCase()) ? 1 : 2;
}
