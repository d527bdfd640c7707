// The extension's single LogOutputChannel; the Logger interface lets the non-UI layers use it.
import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { describeThrown, isolated, OnceLog } from '../common/onceLog';

export function createLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: m => channel.trace(m),
    info: m => channel.info(m),
    warn: m => channel.warn(m),
    error: m => channel.error(m),
    get traceEnabled() { return channel.logLevel === vscode.LogLevel.Trace; },
  };
}

/**
 * Wraps the listeners of agent input (session updates): an exception is logged, once per listener
 * and error kind, and never stops the next listener nor the next update.
 */
export function listenerGuard(log: Logger): <A extends unknown[]>(name: string, fn: (...args: A) => void) => (...args: A) => void {
  const seen = new OnceLog();
  return (name, fn) => isolated(fn, err => {
    const entry = seen.note(`${name}: ${describeThrown(err)}`);
    if (entry && entry !== 'full') log.error(vscode.l10n.t('Switchboard could not handle a message from the agent ({0}); it was skipped and the next ones are handled.', entry.kind));
  });
}
