// Exit status as ACP reports it (`{exitCode, signal}`), and as the integrated terminal shows it.
import type * as acp from '@agentclientprotocol/sdk';

export function toExitStatus(code: number | null, signal: string | null): acp.TerminalExitStatus {
  if (signal) return { exitCode: null, signal };
  // Windows reports NTSTATUS codes (0xC0000005…) that Node may give as negative numbers: uint32 on the wire.
  return { exitCode: code === null ? null : code >>> 0, signal: null };
}

/** The line written into the integrated terminal when the command has finished. */
export function describeExit(status: acp.TerminalExitStatus, killed: boolean): string {
  if (status.signal) return killed ? `process killed (${status.signal})` : `process terminated by ${status.signal}`;
  if (status.exitCode === null || status.exitCode === undefined) return 'process exited';
  return `process exited with code ${status.exitCode}`;
}
