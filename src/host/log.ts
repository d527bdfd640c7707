// The extension's single LogOutputChannel; the Logger interface lets the non-UI layers use it.
import * as vscode from 'vscode';
import type { Logger } from '../common/logger';

export function createLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: m => channel.trace(m),
    info: m => channel.info(m),
    warn: m => channel.warn(m),
    error: m => channel.error(m),
    get traceEnabled() { return channel.logLevel === vscode.LogLevel.Trace; },
  };
}
