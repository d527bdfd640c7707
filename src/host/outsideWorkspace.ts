// The question "may the agent use this path outside the workspace?" for files (read, write) and
// terminals (a command's working folder). The safe answer is the default: VS Code's modal focuses
// its first button, so "Don't Allow" comes first and Enter never grants anything; Escape and
// closing the dialog deny too. Names are shown with bidirectional controls escaped.
import * as vscode from 'vscode';
import { escapeBidi } from '../common/bidi';
import type { Logger } from '../common/logger';

export type OutsideUse = 'read' | 'write' | 'run commands in';

const DENY = "Don't Allow";
const ALLOW = 'Allow';

/** Asks once; resolves true only when the user chose Allow. */
export async function askOutsideWorkspace(agentName: string, use: OutsideUse, requested: string, real: string, log: Logger): Promise<boolean> {
  const what = use === 'run commands in' ? 'run commands in a folder' : `${use} a file`;
  const resolved = real !== requested ? `(resolves to ${escapeBidi(real)})\n\n` : '';
  const doing = use === 'read' ? 'reading this file' : use === 'write' ? 'writing this file' : 'running commands in this folder';
  let choice: string | undefined;
  try {
    choice = (await vscode.window.showWarningMessage(
      `${agentName} wants to ${what} outside the workspace:\n${escapeBidi(requested)}`,
      {
        modal: true,
        detail: `${resolved}Allow ${doing} for the rest of this agent session? ` +
          'The setting switchboard.fs.outsideWorkspace changes what happens by default.',
      },
      // The first button is the default (focused, taken by Enter): the safe one.
      { title: DENY }, { title: ALLOW },
    ))?.title;
  } catch (err) {
    log.warn(`Could not ask about ${requested} outside the workspace: ${(err as Error).message}`);
  }
  log.info(`Outside-workspace ${use} of ${requested} by ${agentName}: ${choice === ALLOW ? 'allowed' : 'denied'}`);
  return choice === ALLOW;
}
