// The questions of "Run in Parallel…": which agents (one agent may run twice), for an agent run
// twice the model or mode of each run (what a conversation with it offers), and the prompt.
import * as vscode from 'vscode';
import type { AgentSpec } from '../../common/agentConfig';
import { runVariants } from '../../common/parallel/variants';
import type { SessionMeta } from '../../common/sessionMeta';
import { readAgents } from '../../host/config';
import type { RunRequest } from './parallelRuns';

export interface RunsAsked { readonly prompt: string; readonly requests: readonly RunRequest[] }

/** `metaOf`: what a conversation with that agent knows of its models and modes; `draft`: the prompt box's text. */
export async function askRuns(metaOf: (agentName: string) => SessionMeta | undefined, draft = ''): Promise<RunsAsked | undefined> {
  // The user's own agents first, then the presets.
  const agents = [...readAgents().agents].sort((a, b) => Number(a.preset) - Number(b.preset));
  if (!agents.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('No agent is configured: add one (Switchboard: Add Agent) to run in parallel.'));
    return undefined;
  }
  type Entry = vscode.QuickPickItem & { spec: AgentSpec };
  const items: Entry[] = agents.flatMap(spec => [
    { label: spec.name, spec },
    { label: spec.name, description: vscode.l10n.t('a second run (another model or mode)'), spec },
  ]);
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true, title: vscode.l10n.t('Run in Parallel: agents'),
    placeHolder: vscode.l10n.t('Choose two or more runs; each works in its own git worktree'),
  });
  if (!picked) return undefined;
  if (picked.length < 2) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Choose two or more runs (the same agent twice counts as two).'));
    return undefined;
  }
  const requests: RunRequest[] = [];
  for (const [i, entry] of picked.entries()) {
    const twice = picked.filter(p => p.spec.name === entry.spec.name).length > 1;
    const variants = twice ? runVariants(metaOf(entry.spec.name) ?? { configOptions: [] }) : [];
    const label = twice ? `${entry.spec.name} #${i + 1}` : entry.spec.name;
    if (!variants.length) { requests.push({ agent: entry.spec, label }); continue; }
    const variant = await vscode.window.showQuickPick(variants.map(v => ({ ...v, label: v.label, v })), {
      title: vscode.l10n.t('Run in Parallel: model or mode of {0}', label), placeHolder: vscode.l10n.t('Esc: the agent\'s default'),
    });
    requests.push({ agent: entry.spec, label: variant ? `${entry.spec.name} (${variant.label})` : label, option: variant?.v.option, mode: variant?.v.mode });
  }
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Run in Parallel: prompt'), value: draft, prompt: vscode.l10n.t('Sent to each run as it is'), ignoreFocusOut: true,
  });
  return prompt?.trim() ? { prompt, requests } : undefined;
}
