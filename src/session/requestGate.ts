// Every fs/* and terminal/* request of an agent passes here before it is served: it must name a
// session of this agent (else -32602), malformed input is refused at once (-32602, before any
// question), a request outside its session's turn follows switchboard.requestsOutsideTurn, and with
// switchboard.terminal.confirmCommands (on unless the user turned it off) a command the user did not
// allow in this turn (the same argv, or the same compound shell string) is confirmed first.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import * as vscode from 'vscode';
import { sdk } from '../common/acpSdk';
import type { ConnectionServices, FsHandlers, TerminalHandlers } from '../acp/clientServices';
import { escapeBidi } from '../common/bidi';
import { FsErrors, refusal } from '../common/fs/errors';
import { commandLine } from '../common/terminal';
import { CommandKey, commandPermitted, commandProblem, envProblem, pathProblem, terminalCommandKey } from '../common/requestGuard';
import { TITLE_MAX_CHARS, truncateText } from '../common/truncate';
import { readConfirmCommands, readRequestsOutsideTurn } from '../host/config';

/** What the gate needs of a session: is a turn running, what did the user allow, and a way to ask. */
export interface GatedSession {
  readonly inTurn: boolean;
  /** The commands of the permission requests the user allowed in the current turn. */
  readonly allowedThisTurn: readonly CommandKey[];
  /** Asks the user in the session's conversation (`command`: shown whole under the title); resolves true only for an explicit yes. */
  confirm(question: { title: string; allow: string; deny: string; late: boolean; command?: string }): Promise<boolean>;
}

export function unknownSession(sessionId: unknown): acp.RequestError {
  return sdk.RequestError.invalidParams({ sessionId }, `Unknown session: ${String(sessionId)}`);
}

/**
 * `cwd`: where a command runs when the agent names no directory (the agent's own). A command line
 * in a question is shown whole up to a generous bound (common/truncate), then cut with a count.
 */
export function gateServices(served: ConnectionServices, agentName: string, route: (sessionId: string) => GatedSession | undefined, cwd = ''): ConnectionServices {
  const session = (params: { sessionId: string }): GatedSession => {
    const s = typeof params.sessionId === 'string' ? route(params.sessionId) : undefined;
    if (!s) throw unknownSession(params.sessionId);
    return s;
  };
  /**
   * Outside a turn: the setting decides; `ask` puts the question in the conversation. A request the
   * agent sent after answering the prompt is outside it even while the session still ends the turn.
   */
  const duringTurn = async (s: GatedSession, afterAnswer: boolean | undefined, what: string, subject: string, data: Record<string, unknown>): Promise<boolean> => {
    if (s.inTurn && !afterAnswer) return false;
    const policy = readRequestsOutsideTurn();
    if (policy === 'allow') return false;
    if (policy === 'deny') throw refusal(`Refused: ${agentName} asked to ${what} ${subject} outside a turn (setting switchboard.requestsOutsideTurn is "deny")`, 'outsideTurn', data);
    const title = what === 'read' ? vscode.l10n.t('{0} wants to read {1} after its turn ended', agentName, escapeBidi(subject))
      : what === 'write' ? vscode.l10n.t('{0} wants to write {1} after its turn ended', agentName, escapeBidi(subject))
      : vscode.l10n.t('{0} wants to run {1} after its turn ended', agentName, escapeBidi(subject));
    const yes = await s.confirm({ title, allow: vscode.l10n.t('Allow'), deny: vscode.l10n.t("Don't allow"), late: true });
    if (!yes) throw refusal(`The user refused: ${agentName} asked to ${what} ${subject} outside a turn`, 'userDenied', data);
    return true;
  };
  const pathChecked = (p: string) => {
    const problem = pathProblem(p);
    if (problem) throw FsErrors.invalidPath(String(p), problem);
  };

  const fs: FsHandlers | undefined = served.fs && {
    readTextFile: async (params, signal, afterAnswer) => {
      const s = session(params);
      pathChecked(params.path);
      await duringTurn(s, afterAnswer, 'read', params.path, { path: params.path });
      return served.fs!.readTextFile(params, signal);
    },
    writeTextFile: async (params, signal, afterAnswer) => {
      const s = session(params);
      pathChecked(params.path);
      await duringTurn(s, afterAnswer, 'write', params.path, { path: params.path });
      return served.fs!.writeTextFile(params, signal);
    },
  };

  const t = served.terminal;
  const terminal: TerminalHandlers | undefined = t && {
    create: async (params, signal, _beforeRun, afterAnswer) => {
      const s = session(params);
      const problem = commandProblem(String(params.command), params.args) ?? envProblem(params.env)
        ?? (params.cwd != null ? pathProblem(params.cwd) : undefined);
      if (problem) throw sdk.RequestError.invalidParams({ command: params.command }, problem);
      const line = commandLine(params.command, params.args ?? []);
      const asked = await duringTurn(s, afterAnswer, 'run', line, { command: params.command });
      const key = terminalCommandKey(params.command, params.args ?? [], process.platform !== 'win32');
      // Asked once the request passed the terminal service's own checks (a cwd refused by policy is never asked about).
      const confirmUnasked = async () => {
        // Sent after the answer: what the ending turn allowed does not cover it, and its question is late.
        if (asked || !readConfirmCommands() || (!afterAnswer && commandPermitted(s.allowedThisTurn, key))) return;
        const shown = (text: string) => escapeBidi(truncateText(text, TITLE_MAX_CHARS * 4));
        const yes = await s.confirm({
          title: vscode.l10n.t({
            message: '{0} wants to run {1} without having asked permission for it in this turn. Working directory: {2}',
            args: [agentName, shown(line), shown(params.cwd ?? cwd)],
            comment: ['{0} is the agent, {1} the whole command line (all of it, operators included), {2} the directory it runs in.'],
          }),
          allow: vscode.l10n.t('Run'), deny: vscode.l10n.t("Don't run"), late: afterAnswer === true || !s.inTurn, command: line,
        });
        if (!yes) throw refusal(`The user refused to run ${line}`, 'userDenied', { command: params.command });
      };
      return t.create(params, signal, confirmUnasked);
    },
    output: async params => { session(params); return t.output(params); },
    waitForExit: async (params, signal) => { session(params); return t.waitForExit(params, signal); },
    kill: async params => { session(params); return t.kill(params); },
    release: async params => { session(params); return t.release(params); },
  };

  return { ...served, fs, terminal, dispose: () => served.dispose() };
}
