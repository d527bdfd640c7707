// Commands the agent runs in its own process and reports on its tool calls (`_meta.terminal_info`,
// `terminal_output`, `terminal_output_delta`, `terminal_exit`; see common/terminal/agentMeta.ts).
// Each gets a bounded output buffer here, keyed by its tool call ("<tab>/<tool item id>"): the chat
// card shows its tail, and "Show in terminal" opens a read-only integrated terminal fed from it.
// Nothing runs here and nothing typed there reaches the agent.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { escapeBidi } from '../../common/bidi';
import { commandOf, OutputBuffer, parseAgentTerminalMeta, terminalName, toDisplayText, toPlainText } from '../../common/terminal';
import type { Logger } from '../../common/logger';
import { readTerminalSettings } from './settings';
import type { TerminalInfo, TerminalView } from './terminalService';
import { TerminalPty } from './terminalPty';

const CHANGE_THROTTLE_MS = 100;
/** Output kept once the command ended (or when too many run at once). */
const FINISHED_BYTES = 64 * 1024;
/** Commands with a full-size buffer at once; older ones keep FINISHED_BYTES. */
const MAX_RUNNING = 16;
const MAX_ENTRIES = 200;

interface Entry {
  readonly key: string;
  readonly agentName: string;
  readonly terminalId: string;
  command: string | undefined;
  buffer: OutputBuffer;
  exit: acp.TerminalExitStatus | undefined;
  readonly exited: Promise<acp.TerminalExitStatus>;
  readonly finish: (status: acp.TerminalExitStatus) => void;
  readonly data: vscode.EventEmitter<Uint8Array>;
  pty: TerminalPty | undefined;
  terminal: vscode.Terminal | undefined;
}

/** The part of a chat tab this needs. */
export interface AgentTerminalTab {
  readonly id: string;
  readonly agentName: string;
  toolItemId(toolCallId: string): string;
}

class ReadOnlyPty extends TerminalPty {
  override handleInput(): void { /* read-only: the agent owns this command */ }
}

export class AgentTerminals implements TerminalView, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  readonly onDidChangeOutput = this.changeEmitter.event;
  private readonly dirty = new Set<string>();
  private changeTimer: NodeJS.Timeout | undefined;
  private readonly closeListener: vscode.Disposable;

  constructor(private readonly log: Logger, private readonly limit: () => number = () => Math.max(FINISHED_BYTES, readTerminalSettings().defaultOutputByteLimit)) {
    this.closeListener = vscode.window.onDidCloseTerminal(t => {
      for (const e of this.entries.values()) if (e.terminal === t) { e.terminal = undefined; e.pty?.dispose(); e.pty = undefined; }
    });
  }

  /** Every tool call update of every tab goes through here; most carry nothing for it. */
  apply(tab: AgentTerminalTab, update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const key = `${tab.id}/${tab.toolItemId(update.toolCallId)}`;
    const meta = parseAgentTerminalMeta(update._meta);
    let e = this.entries.get(key);
    if (!meta && !e) return;
    if (!e) e = this.add(key, tab.agentName, meta!.terminalId);
    const command = meta?.command ?? commandOf(update.rawInput) ?? (e.command ? undefined : update.title ?? undefined);
    if (command && command !== 'Terminal') e.command = command;
    for (const chunk of meta?.output ?? []) {
      const bytes = Buffer.from(chunk, 'utf8');
      e.buffer.push(bytes);
      e.data.fire(bytes);
    }
    if (meta?.exit && !e.exit) this.end(e, { exitCode: meta.exit.exitCode, signal: meta.exit.signal });
    // Finished without saying how (no terminal_exit): over all the same.
    else if (!e.exit && (update.status === 'completed' || update.status === 'failed')) this.end(e, { exitCode: null, signal: null });
    this.changed(key);
  }

  /** A turn ended: a command still "running" in it will report nothing more. */
  endTab(tabId: string, stopReason: string | undefined): void {
    if (stopReason !== 'cancelled') return;
    for (const e of this.entries.values()) if (e.key.startsWith(`${tabId}/`) && !e.exit) { this.end(e, { exitCode: null, signal: null }); this.changed(e.key); }
  }

  getTail(key: string, maxBytes = 8192, options: { plain?: boolean; colors?: boolean } = {}): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    let text = e.buffer.tail(maxBytes, e.exit !== undefined);
    const cut = e.buffer.truncated || Buffer.byteLength(text) < e.buffer.size - 3;
    if (!options.plain) return text;
    if (cut) {
      const nl = text.indexOf('\n');
      if (nl >= 0 && nl < text.length - 1) text = text.slice(nl + 1);
    }
    return options.colors ? toDisplayText(text) : toPlainText(text);
  }

  getInfo(key: string): (TerminalInfo & { bytes: number; keptBytes: number; capacity: number }) | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    return {
      terminalId: e.key, agentName: e.agentName, sessionId: '', name: this.nameOf(e), commandLine: e.command ?? '',
      running: e.exit === undefined, exitStatus: e.exit, released: false, truncated: e.buffer.truncated,
      hasTerminal: e.terminal !== undefined, bytes: e.buffer.total, keptBytes: e.buffer.size, capacity: e.buffer.capacity,
    };
  }

  /** Every key known, oldest first (tests). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** "Show in terminal": a read-only integrated terminal with the output so far, then live. */
  reveal(key: string, preserveFocus = false): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (!e.terminal) {
      const source = {
        onData: (l: (chunk: Uint8Array) => void) => e.data.event(l),
        exited: e.exited, wasKilled: false, interrupt() {}, write() {}, endInput() {},
      };
      const header = vscode.l10n.t({
        message: '{0} ran this command itself: {1} (read-only)',
        args: [e.agentName, escapeBidi(e.command ?? e.terminalId)],
        comment: 'First line of the read-only terminal of a command the agent ran itself',
      });
      const pty = new ReadOnlyPty(source, header, () => { e.terminal = undefined; e.pty = undefined; });
      e.data.fire(e.buffer.bytes());
      e.pty = pty;
      e.terminal = vscode.window.createTerminal({ name: this.nameOf(e), pty, isTransient: true, iconPath: new vscode.ThemeIcon('hubot') });
      this.log.info(`Showing the output of ${e.agentName}'s command ${e.terminalId} in a read-only terminal`);
    }
    e.terminal.show(preserveFocus);
    return true;
  }

  /** The integrated terminal of `key` and what it was last sent (tests). */
  terminalOf(key: string): { terminal: vscode.Terminal; screen: string } | undefined {
    const e = this.entries.get(key);
    return e?.terminal && e.pty ? { terminal: e.terminal, screen: e.pty.screen } : undefined;
  }

  dispose(): void {
    this.closeListener.dispose();
    clearTimeout(this.changeTimer);
    for (const e of this.entries.values()) { e.pty?.dispose(); e.terminal?.dispose(); e.data.dispose(); }
    this.entries.clear();
    this.changeEmitter.dispose();
  }

  private nameOf(e: Entry): string {
    return escapeBidi(terminalName(e.agentName, e.command ?? e.terminalId));
  }

  private add(key: string, agentName: string, terminalId: string): Entry {
    let finish!: (status: acp.TerminalExitStatus) => void;
    const exited = new Promise<acp.TerminalExitStatus>(resolve => { finish = resolve; });
    const e: Entry = {
      key, agentName, terminalId, command: undefined, buffer: new OutputBuffer(this.limit()), exit: undefined,
      exited, finish, data: new vscode.EventEmitter<Uint8Array>(), pty: undefined, terminal: undefined,
    };
    this.entries.set(key, e);
    // Bounded whatever the agent does: few full buffers at once, and a bounded history.
    const running = [...this.entries.values()].filter(x => !x.exit && x.buffer.limit > FINISHED_BYTES);
    if (running.length > MAX_RUNNING) this.shrink(running[0]);
    if (this.entries.size > MAX_ENTRIES) {
      const old = [...this.entries.values()].find(x => !x.terminal && x !== e);
      if (old) { this.entries.delete(old.key); old.data.dispose(); }
    }
    return e;
  }

  private end(e: Entry, status: acp.TerminalExitStatus): void {
    e.exit = status;
    e.finish(status);
    this.shrink(e);
  }

  /** Keeps only the last FINISHED_BYTES of its output. */
  private shrink(e: Entry): void {
    if (e.buffer.limit > FINISHED_BYTES) e.buffer = e.buffer.keepLast(FINISHED_BYTES);
  }

  private changed(key: string): void {
    this.dirty.add(key);
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      const keys = [...this.dirty];
      this.dirty.clear();
      for (const k of keys) this.changeEmitter.fire(k);
    }, CHANGE_THROTTLE_MS);
  }
}

/** One TerminalView over client terminals and agent-run commands (their keys contain a "/"). */
export function combineTerminalViews(terminals: TerminalView, agent: AgentTerminals): TerminalView {
  const pick = (id: string): TerminalView => (id.includes('/') ? agent : terminals);
  return {
    getTail: (id, maxBytes, options) => pick(id).getTail(id, maxBytes, options),
    getInfo: id => pick(id).getInfo(id),
    reveal: (id, preserveFocus) => pick(id).reveal(id, preserveFocus),
    onDidChangeOutput: (listener, thisArgs, disposables) => {
      const a = terminals.onDidChangeOutput(listener, thisArgs);
      const b = agent.onDidChangeOutput(listener, thisArgs);
      const d = { dispose: () => { a.dispose(); b.dispose(); } };
      disposables?.push(d);
      return d;
    },
  };
}
