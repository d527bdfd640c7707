// The extension's single LogOutputChannel; the Logger interface lets the non-UI layers use it.
import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { describeThrown, isolated, OnceLog } from '../common/onceLog';

/** The log, written to `channel()` (made on first use: see LazyLogChannel). */
export function createLogger(channel: () => vscode.LogOutputChannel): Logger {
  return {
    trace: m => channel().trace(m),
    info: m => channel().info(m),
    warn: m => channel().warn(m),
    error: m => channel().error(m),
    get traceEnabled() { return channel().logLevel === vscode.LogLevel.Trace; },
  };
}

/**
 * The Output channel "Switchboard", made on first use (its first line, `show()`), else once `ready`
 * resolves (the chat's first state shown), so the channel is listed in the Output view from then
 * on. Making a log channel creates the log's folder and file and registers the channel with the
 * window: ~5 ms of the extension host that otherwise fell between activation and the chat's page
 * being sent (bench/activation's profiles).
 */
export class LazyLogChannel implements vscode.Disposable {
  private made: vscode.LogOutputChannel | undefined;
  private disposed = false;
  readonly log: Logger = createLogger(() => this.channel);

  constructor(private readonly name: string, ready: Promise<void>) {
    void ready.then(() => { if (!this.disposed) void this.channel; });
  }

  get channel(): vscode.LogOutputChannel {
    if (!this.made) {
      this.made = vscode.window.createOutputChannel(this.name, { log: true });
      // A line logged while the extension shuts down, before any other: no channel outlives it.
      if (this.disposed) this.made.dispose();
    }
    return this.made;
  }

  show(preserveFocus?: boolean): void {
    this.channel.show(preserveFocus);
  }

  dispose(): void {
    this.disposed = true;
    this.made?.dispose();
  }
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
