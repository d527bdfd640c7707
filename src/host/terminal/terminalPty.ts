// Mirrors a TerminalProcess into a VS Code integrated terminal (a Pseudoterminal): output decoded
// as UTF-8 across chunk boundaries, `\n` → `\r\n`, escape sequences untouched (colours intact),
// written in batches at most every FLUSH_MS, with a bounded backlog (a flood is shown as a skip
// marker, never queued without limit). The mirror is off the agent's path: the process hands it
// each chunk by reference (no copy, no decoding) and it does its work on its own timer. While the
// command floods (output was skipped at the last batch), it shows only a glimpse, the last
// FLOOD_SHOWN_BYTES every FLOOD_FLUSH_MS with the skip marker, so rendering a flood (in the
// workbench, another process) does not take the CPU the command and the agent's reader need. Input is cooked like a terminal's line discipline: typed
// text is echoed and sent to the command's stdin on Enter, Ctrl+C interrupts the process group,
// Ctrl+D ends input. Closing the terminal kills the command. After the command ends, a dim
// "[process exited with code N]" line is written and the terminal stays open.
import { StringDecoder } from 'node:string_decoder';
import * as vscode from 'vscode';
import { CrlfNormalizer, describeExit, formatBytes, MirrorQueue } from '../../common/terminal';
import type { TerminalProcess } from './terminalProcess';

/** What the Pseudoterminal mirrors: a command Switchboard runs, or the output an agent reports. */
export type PtySource = Pick<TerminalProcess, 'onData' | 'exited' | 'wasKilled' | 'interrupt' | 'write' | 'endInput'>;

const FLUSH_MS = 25;
/** Bytes waiting for the renderer at most. */
const BACKLOG_BYTES = 32 * 1024;
/** During a flood: what the terminal shows, how often (~16 KB/s instead of the ~1.3 MB/s it could take). */
const FLOOD_FLUSH_MS = 250;
const FLOOD_SHOWN_BYTES = 4 * 1024;
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

export class TerminalPty implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  private readonly queue = new MirrorQueue(BACKLOG_BYTES);
  private decoder = new StringDecoder('utf8');
  private readonly crlf = new CrlfNormalizer();
  private opened = false;
  private closed = false;
  private finished = false;
  private timer: NodeJS.Timeout | undefined;
  /** The last batch skipped output: the command floods, the next batches are glimpses. */
  private flooding = false;
  private atLineStart = true;
  private line = '';
  /** What was written after open, last 16 KB: lets tests see what the user sees. */
  private screenTail = '';
  /** Output bytes written to the terminal, bytes announced as skipped, and skip markers written. */
  private readonly counts = { shown: 0, skipped: 0, markers: 0 };
  private exitLine = '';
  /** Header and echo written before open(), replayed then (the output itself waits in the queue). */
  private readonly pendingEarly: string[] = [];
  private proc: PtySource | undefined;
  private readonly subscription: { dispose(): void };

  constructor(proc: PtySource, header: string, private readonly onUserClose: () => void) {
    this.proc = proc;
    this.write(`${DIM}${header}${RESET}\r\n`);
    this.subscription = proc.onData(chunk => {
      this.queue.push(chunk);
      // Not open yet (no integrated terminal made, or VS Code has not opened it): open() flushes.
      if (this.opened) this.timer ??= setTimeout(() => this.flush(), this.flooding ? FLOOD_FLUSH_MS : FLUSH_MS);
    });
    void proc.exited.then(status => {
      this.subscription.dispose();
      this.finished = true;
      this.proc = undefined; // its output buffer can go once the agent released it
      this.exitLine = `[${describeExit(status, proc.wasKilled)}]`;
      if (this.opened) this.writeEnd();
    });
  }

  /** The last characters written to the terminal (escape sequences included). */
  get screen(): string {
    return this.screenTail;
  }

  /** How the command's output reached the terminal: every byte is either shown or counted in a skip marker. */
  get mirrored(): { readonly shown: number; readonly skipped: number; readonly markers: number } {
    return { ...this.counts };
  }


  open(): void {
    if (this.opened) return;
    this.opened = true;
    // Events before open() are dropped by VS Code: what was written so far is replayed now.
    const early = this.pendingEarly.splice(0).join('');
    if (early) this.fire(early);
    if (this.finished) this.writeEnd();
    else this.flush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription.dispose();
    clearTimeout(this.timer);
    this.onUserClose();
  }

  handleInput(data: string): void {
    const proc = this.proc;
    if (!proc) return;
    for (const ch of data) {
      switch (ch) {
        case '\x03':
          this.line = '';
          this.write('^C\r\n');
          proc.interrupt();
          break;
        case '\x04':
          if (this.line) { proc.write(this.line); this.line = ''; }
          proc.endInput();
          break;
        case '\r':
          this.write('\r\n');
          proc.write(this.line + '\n');
          this.line = '';
          break;
        case '\x7f':
        case '\b':
          if (this.line) { this.line = [...this.line].slice(0, -1).join(''); this.write('\b \b'); }
          break;
        default:
          if (ch >= ' ' || ch === '\t') { this.line += ch; this.write(ch); }
      }
    }
  }

  /** No longer needed (the terminal is being closed by us). */
  dispose(): void {
    this.subscription.dispose();
    clearTimeout(this.timer);
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.opened || this.closed) {
      // Not shown yet: the queue keeps only the last BACKLOG_BYTES meanwhile.
      return;
    }
    const batch = this.queue.take(this.flooding ? FLOOD_SHOWN_BYTES : Infinity);
    if (!batch) { this.flooding = false; return; }
    this.flooding = batch.skipped > 0;
    let text = '';
    this.counts.shown += batch.data.length;
    this.counts.skipped += batch.skipped;
    if (batch.skipped > 0) {
      this.counts.markers++;
      this.decoder = new StringDecoder('utf8');
      this.crlf.reset();
      text += `${RESET}${this.atLineStart ? '' : '\r\n'}${DIM}[${vscode.l10n.t('… {0} of output not shown …', formatBytes(batch.skipped))}]${RESET}\r\n`;
    }
    text += this.crlf.convert(this.decoder.write(batch.data));
    this.write(text);
  }

  /** The rest of the output, then the dim exit line. */
  private writeEnd(): void {
    this.flush();
    const rest = this.decoder.end();
    if (rest) this.write(this.crlf.convert(rest));
    this.write(`${this.atLineStart ? '' : '\r\n'}${DIM}${this.exitLine}${RESET}\r\n`);
  }

  private write(text: string): void {
    if (!text || this.closed) return;
    if (!this.opened) { this.pendingEarly.push(text); return; }
    this.fire(text);
  }

  private fire(text: string): void {
    this.atLineStart = text.endsWith('\n');
    this.screenTail = (this.screenTail + text).slice(-16384);
    this.writeEmitter.fire(text);
  }
}
