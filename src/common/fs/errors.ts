// The errors an agent gets from fs/read_text_file and fs/write_text_file. The agent's model reads
// the message, so each one names the path and says exactly what is wrong.
import { pathToFileURL } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { sdk } from '../acpSdk';

/** JSON-RPC codes used here: the standard ones plus ACP's "resource not found". */
export const FsErrorCode = {
  invalidParams: -32602,
  notFound: -32002,
  /**
   * Refused by the user or by policy (documented in the README's security table): an agent tells
   * it from a crash (-32603) by the code, and the cause by `data.reason`.
   */
  refused: -32001,
  internal: -32603,
} as const;

/** `data.reason` of every refusal (code -32001): who or what said no. */
export type RefusalReason = 'outsideWorkspace' | 'userDenied' | 'userRejected' | 'outsideTurn';

export type FsErrorReason =
  | 'relative' | 'invalidPath' | 'notFound' | 'directory' | 'notRegular' | 'binary' | 'encoding' | RefusalReason | 'io' | 'tooLarge';

const err = (code: number, message: string, path: string, reason: FsErrorReason) =>
  new sdk.RequestError(code, message, { path, reason });

export const FsErrors = {
  relative: (path: string) => err(FsErrorCode.invalidParams, `Path must be absolute: ${path}`, path, 'relative'),
  invalidPath: (path: string, problem: string) => err(FsErrorCode.invalidParams, `Invalid path (${problem}): ${JSON.stringify(path)}`, path, 'invalidPath'),
  notFound: (path: string) => new sdk.RequestError(FsErrorCode.notFound, `File not found: ${path}`, { uri: fileUri(path), path, reason: 'notFound' }),
  directory: (path: string) => err(FsErrorCode.invalidParams, `Path is a directory, not a file: ${path}`, path, 'directory'),
  /** A FIFO, socket or device: reading one can block forever or never end. */
  notRegular: (path: string) => err(FsErrorCode.invalidParams, `Path is not a regular file (a pipe, socket or device): ${path}`, path, 'notRegular'),
  binary: (path: string) => err(FsErrorCode.invalidParams, `File is binary (it contains NUL bytes), not text: ${path}`, path, 'binary'),
  /** Not valid in the encoding VS Code uses for the file (`files.encoding`, its BOM, or the open document's). */
  encoding: (path: string, encoding = 'UTF-8') => new sdk.RequestError(FsErrorCode.invalidParams,
    `File is not valid ${encoding} text: ${path}`, { path, reason: 'encoding', encoding }),
  outsideWorkspace: (path: string) => err(FsErrorCode.refused,
    `Access denied: ${path} is outside the workspace (setting switchboard.fs.outsideWorkspace is "deny")`, path, 'outsideWorkspace'),
  userDenied: (path: string) => err(FsErrorCode.refused, `The user denied access to ${path} (outside the workspace)`, path, 'userDenied'),
  userRejected: (path: string) => err(FsErrorCode.refused, `User rejected the edit to ${path}`, path, 'userRejected'),
  outsideTurn: (path: string) => err(FsErrorCode.refused,
    `Refused: the request for ${path} arrived outside a turn (setting switchboard.requestsOutsideTurn is "deny")`, path, 'outsideTurn'),
  io: (path: string, what: string) => err(FsErrorCode.internal, `${what}: ${path}`, path, 'io'),
  /** The reply would be over `maxBytes` as JSON: the agent must read a window of lines. */
  tooLarge: (path: string, replyBytes: number, maxBytes: number, lines: number) => new sdk.RequestError(FsErrorCode.invalidParams,
    `File is too large to read at once: ${path} (${lines} lines, a ${mib(replyBytes)} reply; the limit is ${mib(maxBytes)}). ` +
    `Read it in parts with "line" and "limit", e.g. line 1, limit 2000.`,
    { path, reason: 'tooLarge', lines, maxBytes }),
};

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** A refusal of something that is not a file (a terminal, a request outside a turn), same code and reasons. */
export function refusal(message: string, reason: RefusalReason, data: Record<string, unknown> = {}): acp.RequestError {
  return new sdk.RequestError(FsErrorCode.refused, message, { ...data, reason });
}

function fileUri(path: string): string {
  try { return pathToFileURL(path).href; } catch { return path; }
}

/** Maps a Node file-system error to the agent-facing error, or undefined when it is not one we name. */
export function fromNodeError(e: unknown, path: string): acp.RequestError | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': case 'ENOTDIR': return FsErrors.notFound(path);
    case 'EISDIR': return FsErrors.directory(path);
    case 'EACCES': case 'EPERM': return FsErrors.io(path, 'Permission denied');
    default: return undefined;
  }
}
