// What the user reads when an agent's process could not start: a missing runtime is named with
// where to get it (`npx` → Node.js, `uvx` → uv), a missing agent with how to fix its command.
import * as vscode from 'vscode';
import type { AgentSpawnError } from '../acp/agentProcess';
import type { AgentSpec } from '../common/agentConfig';
import { runtimeOf } from '../common/missingProgram';

export function describeStartFailure(spec: AgentSpec, err: AgentSpawnError): { message: string; url?: string } {
  if (!err.notFound) return { message: vscode.l10n.t('Switchboard could not start "{0}": {1}', spec.name, err.message) };
  const runtime = runtimeOf(err.command);
  if (runtime) {
    return {
      message: vscode.l10n.t({
        message: 'Switchboard could not start "{0}": it needs {1}, and "{2}" was not found. Install {1} ({3}), then restart VS Code so that it sees the new PATH.',
        args: [spec.name, runtime.name, err.command, runtime.url],
        comment: '{1} is a runtime such as Node.js or uv, {2} a command such as npx, {3} the address of its download page',
      }),
      url: runtime.url,
    };
  }
  return { message: vscode.l10n.t('Switchboard could not start "{0}": the command "{1}" was not found. Install it, or change its command in the setting switchboard.agents.', spec.name, err.command) };
}
