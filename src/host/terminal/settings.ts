// The terminal settings (package.json `switchboard.terminal.*`).
import * as vscode from 'vscode';

/** Agent-given output limits are capped here: the JSON reply must stay well under the 32 MiB message limit of the ACP SDK. */
export const MAX_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;
/**
 * The output text of a `terminal/output` reply, as JSON, is cut from the front to this size: the
 * byte limit counts raw bytes, and binary output escapes to about 2.4 times its size as JSON.
 */
export const MAX_OUTPUT_REPLY_BYTES = 16 * 1024 * 1024;
const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export interface TerminalSettings {
  /** Show each new agent terminal in the panel (never taking focus). */
  readonly reveal: boolean;
  /** Output kept for the agent when it sets no `outputByteLimit`. */
  readonly defaultOutputByteLimit: number;
  /** Finished agent terminals left open in the panel; older ones are closed. */
  readonly keepFinished: number;
}

export function readTerminalSettings(): TerminalSettings {
  const c = vscode.workspace.getConfiguration('switchboard.terminal');
  const num = (key: string, def: number, min: number, max: number) => {
    const v = c.get<number>(key, def);
    return Number.isFinite(v) ? Math.min(max, Math.max(min, Math.floor(v))) : def;
  };
  return {
    reveal: c.get<boolean>('reveal', false) === true,
    defaultOutputByteLimit: num('defaultOutputByteLimit', DEFAULT_OUTPUT_BYTE_LIMIT, 0, MAX_OUTPUT_BYTE_LIMIT),
    keepFinished: num('keepFinished', 20, 0, 1000),
  };
}
