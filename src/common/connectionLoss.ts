// What the user is told when an agent's connection breaks while the agent process still runs. The
// SDK closes the connection with the error that broke it (MessageTooLargeError for a message over
// its 32 MiB limit, a failed write to the agent's stdin, a stream error) or with a plain "ACP
// connection closed" when the agent's stdout ended. The words are localized (@vscode/l10n, configured
// by the host at activation: src/host/l10n.ts).
import * as l10n from '@vscode/l10n';

export interface ConnectionLoss {
  /** eof: the agent's stdout ended; stdin: our writes fail (EPIPE); limit: a message over the size limit; error: anything else. */
  readonly kind: 'eof' | 'stdin' | 'limit' | 'error';
  /** A clause, localized: "Claude Code lost its connection: <message>. Switchboard stopped it." */
  readonly message: string;
}

const MiB = 1024 * 1024;

export function describeConnectionLoss(reason: unknown): ConnectionLoss {
  const err = reason as { name?: unknown; message?: unknown; maxMessageBytes?: unknown } | undefined;
  if (err?.name === 'MessageTooLargeError') {
    const max = typeof err.maxMessageBytes === 'number' ? err.maxMessageBytes : 32 * MiB;
    const message = max % MiB === 0
      ? l10n.t({ message: 'the agent sent a message larger than the {0} MiB limit of the connection', args: [max / MiB], comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).'] })
      : l10n.t({ message: 'the agent sent a message larger than the {0} byte limit of the connection', args: [max], comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).'] });
    return { kind: 'limit', message };
  }
  const code = (reason as { code?: unknown } | undefined)?.code;
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET') {
    return { kind: 'stdin', message: l10n.t({ message: 'the agent closed its input (stdin) but kept running', comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).'] }) };
  }
  const message = typeof err?.message === 'string' ? err.message : String(reason ?? '');
  if (reason === undefined || message === 'ACP connection closed') {
    return { kind: 'eof', message: l10n.t({ message: 'the agent closed its output (stdout) but kept running', comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).'] }) };
  }
  return {
    kind: 'error',
    message: message
      ? l10n.t({ message: 'the connection failed ({0})', args: [message], comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).', '{0} is the error, as the system or the agent library wrote it (English).'] })
      : l10n.t({ message: 'the connection failed (unknown error)', comment: ['Why the connection to an agent broke: the {1} of "{0} lost its connection: {1}. Switchboard stopped it." (lower case, no final period).'] }),
  };
}

/** How an agent's end is told in the chat, a whole sentence: "Claude Code crashed (exit code 1)." */
export function describeAgentEnd(name: string, exit: { code: number | null; signal: string | null; failure?: string }): string {
  if (exit.failure) {
    return l10n.t({ message: '{0} lost its connection: {1}. Switchboard stopped it.', args: [name, exit.failure], comment: ['{0} is the agent\'s name (Claude Code…), {1} why the connection broke (e.g. "the agent closed its output (stdout) but kept running").'] });
  }
  if (exit.signal) return l10n.t({ message: '{0} was killed by {1}.', args: [name, exit.signal], comment: ['{0} is the agent\'s name, {1} a signal name such as SIGKILL.'] });
  if (exit.code === 0) return l10n.t({ message: '{0} exited.', args: [name], comment: ['{0} is the agent\'s name: its process ended normally.'] });
  return l10n.t({ message: '{0} crashed (exit code {1}).', args: [name, String(exit.code)], comment: ['{0} is the agent\'s name, {1} its process exit code.'] });
}
