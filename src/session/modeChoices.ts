// The mode the user picked for each agent, remembered across conversations and windows
// (globalState): a new conversation with that agent starts in it (see common/agentModes startMode).
import type * as vscode from 'vscode';

const KEY = 'switchboard.modeChoices';

export class ModeChoices {
  constructor(private readonly state: vscode.Memento) {}

  get(agentName: string): string | undefined {
    const all = this.state.get<Record<string, unknown>>(KEY);
    const value = all && Object.prototype.hasOwnProperty.call(all, agentName) ? all[agentName] : undefined;
    return typeof value === 'string' ? value : undefined;
  }

  async remember(agentName: string, modeId: string): Promise<void> {
    if (!agentName) return;
    const all = { ...(this.state.get<Record<string, unknown>>(KEY) ?? {}), [agentName]: modeId };
    await this.state.update(KEY, all);
  }
}
