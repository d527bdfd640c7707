// The question "may the agent use this path outside the workspace?" for files (read, write) and
// terminals (a command's working folder). The safe answer is the default: VS Code's modal focuses
// its first button, so "Don't Allow" comes first and Enter never grants anything; Escape and
// closing the dialog deny too. Names are shown with bidirectional controls escaped.
import * as vscode from 'vscode';
import { escapeBidi } from '../common/bidi';
import type { Logger } from '../common/logger';

export type OutsideUse = 'read' | 'write' | 'run commands in';

/** Asks once; resolves true only when the user chose Allow. */
export async function askOutsideWorkspace(agentName: string, use: OutsideUse, requested: string, real: string, log: Logger): Promise<boolean> {
  const message = use === 'read' ? vscode.l10n.t('{0} wants to read a file outside the workspace:\n{1}', agentName, escapeBidi(requested))
    : use === 'write' ? vscode.l10n.t('{0} wants to write a file outside the workspace:\n{1}', agentName, escapeBidi(requested))
    : vscode.l10n.t('{0} wants to run commands in a folder outside the workspace:\n{1}', agentName, escapeBidi(requested));
  const resolved = real !== requested ? `${vscode.l10n.t('(resolves to {0})', escapeBidi(real))}\n\n` : '';
  const doing = use === 'read' ? vscode.l10n.t('Allow reading this file for the rest of this agent session?')
    : use === 'write' ? vscode.l10n.t('Allow writing this file for the rest of this agent session?')
    : vscode.l10n.t('Allow running commands in this folder for the rest of this agent session?');
  const deny = vscode.l10n.t("Don't Allow"), allow = vscode.l10n.t('Allow');
  let choice: string | undefined;
  try {
    choice = (await vscode.window.showWarningMessage(
      message,
      {
        modal: true,
        detail: `${resolved}${doing} ` +
          vscode.l10n.t('The setting switchboard.fs.outsideWorkspace changes what happens by default.'),
      },
      // The first button is the default (focused, taken by Enter): the safe one.
      { title: deny }, { title: allow },
    ))?.title;
  } catch (err) {
    log.warn(`Could not ask about ${requested} outside the workspace: ${(err as Error).message}`);
  }
  log.info(`Outside-workspace ${use} of ${requested} by ${agentName}: ${choice === allow ? 'allowed' : 'denied'}`);
  return choice === allow;
}
