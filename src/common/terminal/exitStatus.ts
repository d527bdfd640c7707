// Exit status as ACP reports it (`{exitCode, signal}`), and as the integrated terminal shows it.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import * as l10n from '@vscode/l10n';

export function toExitStatus(code: number | null, signal: string | null): acp.TerminalExitStatus {
  if (signal) return { exitCode: null, signal };
  // Windows reports NTSTATUS codes (0xC0000005…) that Node may give as negative numbers: uint32 on the wire.
  return { exitCode: code === null ? null : code >>> 0, signal: null };
}

/** The line written into the integrated terminal when the command has finished. */
export function describeExit(status: acp.TerminalExitStatus, killed: boolean): string {
  if (status.signal) {
    return killed
      ? l10n.t({ message: 'process killed ({0})', args: [status.signal], comment: ['The last line in the terminal of an agent\'s command, which Switchboard stopped; {0} is a signal name such as SIGKILL.'] })
      : l10n.t({ message: 'process terminated by {0}', args: [status.signal], comment: ['The last line in the terminal of an agent\'s command; {0} is a signal name such as SIGTERM.'] });
  }
  if (status.exitCode === null || status.exitCode === undefined) return l10n.t({ message: 'process exited', comment: ['The last line in the terminal of an agent\'s command.'] });
  return l10n.t({ message: 'process exited with code {0}', args: [String(status.exitCode)], comment: ['The last line in the terminal of an agent\'s command; {0} is its exit code.'] });
}
