// Terminals for agents: serves ACP `terminal/*` per agent connection, shows each command in a VS
// Code integrated terminal, and lets the chat card show a command's live output.
//
// The integrated terminal is made when it is worth its cost: at once with
// `switchboard.terminal.reveal`, for a command still running after MIRROR_AFTER_MS (something to
// watch, type into or Ctrl+C), or when the user asks (Show terminal). Making one costs the
// workbench ~40–60 ms of CPU (an xterm.js instance, even hidden), as much as reading 30 MB of the
// command's output, and most agent commands (ls, grep, git status) end well before: their output is
// on the chat card, and the mirror (TerminalPty) keeps their last 32 KB, so Show terminal opens one
// with it, and the exit line, later.
//
// One TerminalService per extension host owns every terminal, so ids are unique across connections
// (the chat card looks a terminal up by id alone). Each connection gets its own handlers through
// `connect()`; disposing them (agent stopped or exited) releases that connection's terminals.
//
// For the chat card (ToolCallContent `{type:"terminal", terminalId}`):
//   getTail(id, maxBytes?, {plain?})  last output as text; still answers after release
//   getInfo(id)                        name, command, running / exit status, released
//   onDidChangeOutput                  fires a terminal id when its output or state changed (throttled)
//   reveal(id)                         shows the integrated terminal
import fs from 'node:fs';
import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { sdk } from '../../common/acpSdk';
import * as vscode from 'vscode';
import type { AgentIdentity, TerminalHandlers } from '../../acp/clientServices';
import { escapeBidi } from '../../common/bidi';
import { refusal } from '../../common/fs/errors';
import { decideAccess } from '../../common/fs/pathPolicy';
import type { Logger } from '../../common/logger';
import { commandProblem, envProblem, pathProblem } from '../../common/requestGuard';
import { charStart, commandLine, terminalName, toDisplayText, toPlainText } from '../../common/terminal';
import { fitJsonTail } from '../../common/jsonSize';
import { pathKey, realPathOf, settleRangeReads, workspaceRoots } from '../fs/files';
import { pendingSaves } from '../fs/pendingSaves';
import { readOutsideWorkspacePolicy } from '../fs/settings';
import { askOutsideWorkspace } from '../outsideWorkspace';
import { MAX_OUTPUT_BYTE_LIMIT, MAX_OUTPUT_REPLY_BYTES, readTerminalSettings, TerminalSettings } from './settings';
import { CommandStartError, TerminalProcess } from './terminalProcess';
import { TerminalPty } from './terminalPty';

/** The state of one agent terminal, for the chat card. */
export interface TerminalInfo {
  readonly terminalId: string;
  readonly agentName: string;
  readonly sessionId: string;
  /** The integrated terminal's name. */
  readonly name: string;
  /** The command as typed ("npm test", "echo hi && ls"). */
  readonly commandLine: string;
  readonly running: boolean;
  readonly exitStatus: acp.TerminalExitStatus | undefined;
  /** The agent released it; its id no longer works for the agent, the card keeps showing it. */
  readonly released: boolean;
  /** Output was dropped at the front to stay within the byte limit. */
  readonly truncated: boolean;
  /** The integrated terminal is open, or can be made with the command's output (reveal() shows it). */
  readonly hasTerminal: boolean;
}

/** What the chat card renders. */
export interface TerminalView {
  getTail(terminalId: string, maxBytes?: number, options?: { plain?: boolean; colors?: boolean }): string | undefined;
  getInfo(terminalId: string): TerminalInfo | undefined;
  readonly onDidChangeOutput: vscode.Event<string>;
  reveal(terminalId: string, preserveFocus?: boolean): boolean;
}

/** The handlers of one agent connection. */
export interface ConnectionTerminals extends TerminalHandlers, vscode.Disposable {
  /** The agent's session ended: release its terminals. */
  releaseSession(sessionId: string): Promise<void>;
}

const CHANGE_THROTTLE_MS = 100;
/** A command still running after this long gets its integrated terminal, shown or not (see the top). */
export const MIRROR_AFTER_MS = 1000;
/** Output of a released terminal kept for its chat card (the 1 MB buffer itself is freed). */
const RELEASED_TAIL_BYTES = 16 * 1024;
const RELEASED_HISTORY = 200;
/** How long a command waits at most for saves of the agent's edits still running (see pendingSaves): a slow formatter on save, a loaded machine. */
const SAVES_WAIT_MS = 10_000;

interface Entry {
  readonly id: string;
  readonly owner: object;
  readonly agentName: string;
  readonly sessionId: string;
  readonly name: string;
  readonly commandLine: string;
  proc: TerminalProcess | undefined;
  pty: TerminalPty;
  /** The integrated terminal, once made (see openTerminal). */
  terminal: vscode.Terminal | undefined;
  /** The mirror is gone (the user closed its terminal, or it was trimmed): no terminal is open or can be made any more. */
  ptyGone: boolean;
  /** Makes the integrated terminal if the command still runs after MIRROR_AFTER_MS. */
  mirrorTimer: NodeJS.Timeout | undefined;
  released: boolean;
  exitStatus: acp.TerminalExitStatus | undefined;
  truncated: boolean;
  /** After release and exit: the last output, kept for the card. */
  snapshot: string | undefined;
}

let nextId = 1;

export class TerminalService implements TerminalView, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  /** Released and finished, oldest first: their integrated terminals and snapshots are trimmed. */
  private readonly finished: string[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  private readonly dirty = new Set<string>();
  private changeTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  readonly onDidChangeOutput = this.changeEmitter.event;

  private readonly closeListener: vscode.Disposable;

  constructor(private readonly log: Logger, private readonly settings: () => TerminalSettings = readTerminalSettings) {
    // A terminal the user never opened gets no Pseudoterminal.close() when closed: watch them all.
    this.closeListener = vscode.window.onDidCloseTerminal(t => {
      for (const e of this.entries.values()) if (e.terminal === t) this.onUserClose(e.id);
    });
  }

  /** The `terminal/*` handlers of one agent connection. */
  connect(agent: AgentIdentity): ConnectionTerminals {
    const owner = {};
    const service = this;
    const mine = (sessionId?: string) => [...this.entries.values()].filter(e => e.owner === owner && !e.released && (sessionId === undefined || e.sessionId === sessionId));
    const lookup = (params: { sessionId: string; terminalId: string }): Entry & { proc: TerminalProcess } => {
      const e = this.entries.get(params.terminalId);
      if (!e || e.owner !== owner || e.sessionId !== params.sessionId) {
        throw new sdk.RequestError(-32002, `Unknown terminal: ${params.terminalId}`, { terminalId: params.terminalId });
      }
      if (e.released || !e.proc) throw new sdk.RequestError(-32002, `Terminal already released: ${params.terminalId}`, { terminalId: params.terminalId });
      return e as Entry & { proc: TerminalProcess };
    };
    let closed = false;
    /** Folders outside the workspace the user allowed for this connection (asked once each). */
    const allowedOutside = new Map<string, Promise<boolean>>();
    return {
      async create(params, _signal, beforeRun) {
        if (closed || service.disposed) throw new sdk.RequestError(-32603, 'The agent connection is closing');
        await service.checkCwd(agent, params, allowedOutside);
        // The user's confirmation of a command nobody asked about (session/requestGate): after a refusal by policy, never before.
        await beforeRun?.();
        if (closed || service.disposed) throw new sdk.RequestError(-32603, 'The agent connection is closing');
        const created = await service.create(owner, agent, params);
        // The connection closed while the command was starting: its release sweep missed it.
        const entry = service.entries.get(created.terminalId);
        if ((closed || service.disposed) && entry) {
          await service.release(entry);
          throw new sdk.RequestError(-32603, 'The agent connection is closing');
        }
        return created;
      },
      async output(params) {
        const e = lookup(params);
        const status = e.proc.exitStatus;
        // Within the byte limit can still be too large a reply once escaped as JSON: cut from the front.
        const { text, cut } = fitJsonTail(e.proc.output.text(status !== undefined), MAX_OUTPUT_REPLY_BYTES);
        return {
          output: text,
          truncated: e.proc.output.truncated || cut,
          ...(status ? { exitStatus: status } : {}),
        };
      },
      async waitForExit(params, signal) {
        const e = lookup(params);
        if (signal.aborted) throw sdk.RequestError.requestCancelled();
        let onAbort: () => void = () => {};
        const aborted = new Promise<never>((_, reject) => {
          onAbort = () => reject(sdk.RequestError.requestCancelled());
          signal.addEventListener('abort', onAbort, { once: true });
        });
        try {
          return await Promise.race([e.proc.exited, aborted]);
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
      async kill(params) {
        const e = lookup(params);
        await service.track(e.proc.kill());
        return {};
      },
      async release(params) {
        const e = lookup(params);
        await service.release(e);
        return {};
      },
      releaseSession: async sessionId => {
        await Promise.all(mine(sessionId).map(e => this.release(e)));
      },
      dispose: () => {
        if (closed) return;
        closed = true;
        const open = mine();
        if (open.length) this.log.info(`Releasing ${open.length} terminal(s) of ${agent.agentName}`);
        for (const e of open) void this.release(e);
      },
    };
  }

  /**
   * The last (at most) `maxBytes` bytes of output, escape sequences kept. `plain`: escape sequences
   * removed (but colours with `colors`), carriage-return overwrites applied, and a line cut by `maxBytes` left out.
   */
  getTail(terminalId: string, maxBytes = 8192, options: { plain?: boolean; colors?: boolean } = {}): string | undefined {
    const e = this.entries.get(terminalId);
    if (!e) return undefined;
    let text: string;
    let cut: boolean;
    if (e.proc) {
      text = e.proc.output.tail(maxBytes, e.proc.exitStatus !== undefined);
      cut = e.proc.output.truncated || Buffer.byteLength(text) < e.proc.output.size - 3;
    } else {
      text = e.snapshot ?? '';
      const bytes = Buffer.from(text);
      cut = e.truncated || bytes.length > maxBytes;
      if (bytes.length > maxBytes) text = new TextDecoder().decode(bytes.subarray(charStart(bytes.subarray(bytes.length - maxBytes)) + bytes.length - maxBytes));
    }
    if (!options.plain) return text;
    if (cut) {
      const nl = text.indexOf('\n');
      if (nl >= 0 && nl < text.length - 1) text = text.slice(nl + 1);
    }
    return options.colors ? toDisplayText(text) : toPlainText(text);
  }

  getInfo(terminalId: string): TerminalInfo | undefined {
    const e = this.entries.get(terminalId);
    if (!e) return undefined;
    return {
      terminalId: e.id, agentName: e.agentName, sessionId: e.sessionId, name: e.name, commandLine: e.commandLine,
      running: e.exitStatus === undefined, exitStatus: e.exitStatus, released: e.released,
      truncated: e.proc ? e.proc.output.truncated : e.truncated, hasTerminal: !e.ptyGone,
    };
  }

  /** Every agent terminal still known, oldest first. */
  list(): TerminalInfo[] {
    return [...this.entries.keys()].map(id => this.getInfo(id)!);
  }

  /** Shows the integrated terminal, made now if the command had none yet; false when it was closed. */
  reveal(terminalId: string, preserveFocus = false): boolean {
    const e = this.entries.get(terminalId);
    const t = e && this.openTerminal(e);
    if (!t) return false;
    t.show(preserveFocus);
    return true;
  }

  /** The integrated terminal of an agent terminal, if made yet (tests, commands). */
  terminalOf(terminalId: string): vscode.Terminal | undefined {
    return this.entries.get(terminalId)?.terminal;
  }

  /** What the integrated terminal was last sent (escape sequences included). */
  screenOf(terminalId: string): string | undefined {
    return this.entries.get(terminalId)?.pty.screen;
  }

  /** How much of the command's output the integrated terminal showed and how much it announced as skipped. */
  mirrorOf(terminalId: string): TerminalPty['mirrored'] | undefined {
    return this.entries.get(terminalId)?.pty.mirrored;
  }

  /** Process id of the command (tests prove cleanup with it). */
  pidOf(terminalId: string): number | undefined {
    return this.entries.get(terminalId)?.proc?.pid;
  }

  /** Releases every terminal of every connection; resolves when all are gone (deactivation). */
  async releaseAll(): Promise<void> {
    for (const e of this.entries.values()) if (!e.released) void this.release(e);
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closeListener.dispose();
    for (const e of this.entries.values()) clearTimeout(e.mirrorTimer);
    void this.releaseAll();
    clearTimeout(this.changeTimer);
    this.changeEmitter.dispose();
  }

  /**
   * Malformed input gets -32602 at once; a cwd outside the workspace follows
   * switchboard.fs.outsideWorkspace, like files (deny: refused; ask: the same modal, safe default).
   */
  private async checkCwd(agent: AgentIdentity, params: acp.CreateTerminalRequest, allowed: Map<string, Promise<boolean>>): Promise<void> {
    const cwd = params.cwd ?? agent.cwd;
    const problem = commandProblem(String(params.command), params.args) ?? envProblem(params.env) ?? pathProblem(cwd);
    if (problem) throw sdk.RequestError.invalidParams({ command: params.command, cwd }, problem);
    if (!path.isAbsolute(cwd)) throw sdk.RequestError.invalidParams({ cwd }, `cwd must be an absolute path: ${cwd}`);
    const real = await realPathOf(cwd);
    const decision = decideAccess(real, await workspaceRoots(), readOutsideWorkspacePolicy());
    if (decision === 'allow') return;
    if (decision === 'deny') {
      throw refusal(`Access denied: the working folder ${cwd} is outside the workspace (setting switchboard.fs.outsideWorkspace is "deny")`, 'outsideWorkspace', { cwd });
    }
    const key = pathKey(real);
    let answer = allowed.get(key);
    if (!answer) { answer = askOutsideWorkspace(agent.agentName, 'run commands in', cwd, real, this.log); allowed.set(key, answer); }
    if (!(await answer)) {
      allowed.delete(key);
      throw refusal(`The user denied running commands in ${cwd} (outside the workspace)`, 'userDenied', { cwd });
    }
  }

  private async create(owner: object, agent: AgentIdentity, params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const cwd = params.cwd ?? agent.cwd;
    if (!path.isAbsolute(cwd)) {
      throw sdk.RequestError.invalidParams({ cwd }, `cwd must be an absolute path: ${cwd}`);
    }
    if (!isDirectory(cwd)) throw sdk.RequestError.invalidParams({ cwd }, `cwd is not a directory: ${cwd}`);
    if (!params.command.trim()) throw sdk.RequestError.invalidParams({ command: params.command }, 'command is empty');
    const settings = this.settings();
    const limit = params.outputByteLimit === undefined || params.outputByteLimit === null
      ? settings.defaultOutputByteLimit
      : Math.min(Math.max(0, Math.floor(params.outputByteLimit)), MAX_OUTPUT_BYTE_LIMIT);
    const args = params.args ?? [];
    const line = commandLine(params.command, args);

    // An edit the agent had accepted a moment ago may still be saving: the command sees it on disk;
    // a file it read by range a moment ago may still be read whole: the command does not change it meanwhile.
    await Promise.all([pendingSaves.settled(SAVES_WAIT_MS), settleRangeReads(SAVES_WAIT_MS)]);
    let proc: TerminalProcess;
    try {
      proc = await TerminalProcess.start({ command: params.command, args, env: params.env ?? [], cwd, outputByteLimit: limit });
    } catch (err) {
      const message = err instanceof CommandStartError ? err.message : `Could not start ${params.command}: ${(err as Error).message}`;
      this.log.warn(`terminal/create from ${agent.agentName} failed: ${message}`);
      throw new sdk.RequestError(-32603, message, { command: params.command });
    }
    const id = `terminal-${nextId++}`;
    const name = escapeBidi(terminalName(agent.agentName, line));
    this.log.info(`Terminal ${id} (pid ${proc.pid}) for ${agent.agentName}: ${line} (cwd ${cwd}${proc.shell ? `, via ${proc.shell}` : ''})`);
    const pty = new TerminalPty(proc, vscode.l10n.t({ message: '{0} runs: {1}', args: [agent.agentName, escapeBidi(line)], comment: 'First line of an agent terminal: {0} is the agent, {1} its command line' }), () => this.onUserClose(id));
    const entry: Entry = {
      id, owner, agentName: agent.agentName, sessionId: params.sessionId, name, commandLine: line,
      proc, pty, terminal: undefined, ptyGone: false, mirrorTimer: undefined, released: false, exitStatus: undefined, truncated: false, snapshot: undefined,
    };
    this.entries.set(id, entry);
    if (settings.reveal) this.openTerminal(entry)?.show(true);
    else {
      entry.mirrorTimer = setTimeout(() => {
        entry.mirrorTimer = undefined;
        // Released (the agent stopped, the connection closing): being killed, nothing to watch.
        if (entry.exitStatus === undefined && !entry.released) this.openTerminal(entry);
      }, MIRROR_AFTER_MS);
    }

    const sub = proc.onData(() => this.changed(id));
    void proc.exited.then(status => {
      sub.dispose();
      clearTimeout(entry.mirrorTimer);
      entry.mirrorTimer = undefined;
      entry.exitStatus = status;
      this.log.info(`Terminal ${id} ended: ${status.signal ?? `exit code ${status.exitCode}`}`);
      this.changed(id);
      if (entry.released) this.retire(entry);
    });
    return { terminalId: id };
  }

  private async release(e: Entry): Promise<void> {
    if (!e.released) {
      e.released = true;
      clearTimeout(e.mirrorTimer);
      e.mirrorTimer = undefined;
      this.changed(e.id);
    }
    const proc = e.proc;
    if (!proc) return;
    await this.track(proc.kill());
    if (e.exitStatus !== undefined) this.retire(e);
  }

  /** Released and exited: keep a tail for the card, free the buffer, trim old terminals. */
  private retire(e: Entry): void {
    if (!e.proc) return;
    e.snapshot = e.proc.output.tail(RELEASED_TAIL_BYTES, true);
    e.truncated = e.proc.output.truncated;
    e.proc = undefined;
    this.finished.push(e.id);
    // A finished command's terminal counts whether it was made or can still be (its mirror keeps 32 KB).
    const keep = this.settings().keepFinished;
    const openable = (x: Entry | undefined) => x !== undefined && !x.ptyGone;
    let openFinished = this.finished.filter(id => openable(this.entries.get(id))).length;
    for (const id of this.finished) {
      if (openFinished <= keep) break;
      const old = this.entries.get(id);
      if (!old || !openable(old)) continue;
      const t = old.terminal;
      old.terminal = undefined;
      old.ptyGone = true;
      old.pty.dispose();
      t?.dispose();
      openFinished--;
    }
    while (this.finished.length > RELEASED_HISTORY) {
      const old = this.entries.get(this.finished.shift()!);
      if (old && !old.terminal) { old.pty.dispose(); this.entries.delete(old.id); }
    }
  }

  /** The integrated terminal of `e`, made now (not shown) if it had none; undefined once its mirror is gone. */
  private openTerminal(e: Entry): vscode.Terminal | undefined {
    if (!e.terminal && !e.ptyGone && !this.disposed) {
      clearTimeout(e.mirrorTimer);
      e.mirrorTimer = undefined;
      e.terminal = vscode.window.createTerminal({ name: e.name, pty: e.pty, isTransient: true, iconPath: new vscode.ThemeIcon('hubot') });
    }
    return e.terminal;
  }

  private onUserClose(id: string): void {
    const e = this.entries.get(id);
    if (!e?.terminal) return;
    e.terminal = undefined;
    e.ptyGone = true;
    e.pty.dispose();
    if (e.proc && e.exitStatus === undefined) {
      this.log.info(`Terminal ${id} closed by the user: killing its command`);
      void this.track(e.proc.kill());
    }
    this.changed(id);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => { /* reported by the caller */ });
    return p;
  }

  private changed(id: string): void {
    if (this.disposed) return;
    this.dirty.add(id);
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      const ids = [...this.dirty];
      this.dirty.clear();
      for (const i of ids) this.changeEmitter.fire(i);
    }, CHANGE_THROTTLE_MS);
  }
}

function isDirectory(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}
