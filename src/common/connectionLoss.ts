// What the user is told when an agent's connection breaks while the agent process still runs. The
// SDK closes the connection with the error that broke it (MessageTooLargeError for a message over
// its 32 MiB limit, a stream error) or with a plain "ACP connection closed" when the input ended.

export interface ConnectionLoss {
  /** eof: the agent's stdout ended; limit: a message over the size limit; error: anything else. */
  readonly kind: 'eof' | 'limit' | 'error';
  /** A sentence fragment: "Claude Code lost its connection: <message>". */
  readonly message: string;
}

const MiB = 1024 * 1024;

export function describeConnectionLoss(reason: unknown): ConnectionLoss {
  const err = reason as { name?: unknown; message?: unknown; maxMessageBytes?: unknown } | undefined;
  if (err?.name === 'MessageTooLargeError') {
    const max = typeof err.maxMessageBytes === 'number' ? err.maxMessageBytes : 32 * MiB;
    const size = max % MiB === 0 ? `${max / MiB} MiB` : `${max} byte`;
    return { kind: 'limit', message: `the agent sent a message larger than the ${size} limit of the connection` };
  }
  const message = typeof err?.message === 'string' ? err.message : String(reason ?? '');
  if (reason === undefined || message === 'ACP connection closed') {
    return { kind: 'eof', message: 'the agent closed its output (stdout) but kept running' };
  }
  return { kind: 'error', message: `the connection failed (${message || 'unknown error'})` };
}

/** How an agent's end is told in the chat: "<name> <this>." */
export function describeAgentEnd(exit: { code: number | null; signal: string | null; failure?: string }): string {
  if (exit.failure) return `lost its connection: ${exit.failure}. Switchboard stopped it`;
  return exit.signal ? `was killed by ${exit.signal}` : exit.code === 0 ? 'exited' : `crashed (exit code ${exit.code})`;
}
