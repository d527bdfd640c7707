// The logging surface the non-UI layers use; the host backs it with a LogOutputChannel.
export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** True when trace messages are kept: callers skip building expensive trace strings otherwise. */
  readonly traceEnabled: boolean;
}
