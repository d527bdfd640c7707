// Ties one agent process, its ACP connection and its session to the transcript the chat view shows.
// Every failure ends up in the conversation with what the user can do next (restart, settings,
// authenticate), and nothing is ever allowed on the user's behalf.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { AgentConnection, AgentStartError } from '../acp/agentConnection';
import { AgentProcess, AgentSpawnError } from '../acp/agentProcess';
import type { ConnectionServicesFactory } from '../acp/clientServices';
import type { AgentSpec } from '../common/agentConfig';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { ChatStatus } from '../common/protocol';
import { ItemAction, Transcript, TranscriptOp } from '../common/transcript';
import { openSettings, readInitializeTimeoutMs, Settings } from '../host/config';
import { pickAgent } from '../host/agentPicker';

interface PendingPermission {
  readonly resolve: (r: acp.RequestPermissionResponse) => void;
  readonly options: readonly acp.PermissionOption[];
}

interface Live {
  readonly spec: AgentSpec;
  readonly process: AgentProcess;
  connection?: AgentConnection;
  sessionId?: string;
}

export class ChatController extends Disposable {
  private transcript = new Transcript();
  private live: Live | undefined;
  private starting: Promise<boolean> | undefined;
  private turnActive = false;
  private lastPrompt: string | undefined;
  private readonly permissions = new Map<string, PendingPermission>();
  private statusValue: ChatStatus = { agentName: undefined, status: 'stopped', detail: '' };

  private readonly opsEmitter = this.register(new vscode.EventEmitter<readonly TranscriptOp[]>());
  private readonly statusEmitter = this.register(new vscode.EventEmitter<ChatStatus>());
  private readonly resetEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fired with the transcript changes to render, in order. */
  readonly onOps = this.opsEmitter.event;
  /** Fired when the whole transcript was replaced (new conversation). */
  readonly onReset = this.resetEmitter.event;
  readonly onStatus = this.statusEmitter.event;

  constructor(private readonly log: Logger, private readonly showLog: () => void, private readonly services: ConnectionServicesFactory) {
    super();
  }

  get status(): ChatStatus {
    return this.statusValue;
  }

  get items() {
    return this.transcript.snapshot();
  }

  /** The running agent's process id, if any (shown in the log; used by tests to prove cleanup). */
  get agentPid(): number | undefined {
    return this.live?.process.hasExited ? undefined : this.live?.process.pid;
  }

  get sessionId(): string | undefined {
    return this.live?.sessionId;
  }

  /** Starts an agent and a session. Without `spec`, the default agent (or the user's pick). */
  start(spec?: AgentSpec): Promise<boolean> {
    this.starting ??= this.doStart(spec).finally(() => { this.starting = undefined; });
    return this.starting;
  }

  async sendPrompt(text: string): Promise<void> {
    if (!text.trim()) return;
    if (this.turnActive) {
      this.emit(this.transcript.addNotice('The agent is still working on the previous prompt. Stop it first or wait.'));
      return;
    }
    if (!this.live?.sessionId && !(await this.start())) return;
    const live = this.live;
    const connection = live?.connection;
    if (!live || !connection || !live.sessionId) return;
    this.lastPrompt = text;
    this.turnActive = true;
    this.emit(this.transcript.addUser(text));
    this.setStatus('busy', `${live.spec.name} is working…`);
    try {
      const result = await connection.prompt(live.sessionId, [{ type: 'text', text }]);
      // The SDK resolves a response a few microtasks before it dispatches notifications that came
      // earlier on the wire: let those land first, so the turn's last chunks are not shown after its end.
      await new Promise(resolve => setImmediate(resolve));
      this.emit(this.transcript.endTurn(result.stopReason));
    } catch (err) {
      // A crash is reported by the exit handler, with the agent's last words; don't report it twice.
      // The connection may notice the closed pipe a moment before the exit event arrives.
      await Promise.race([live.process.exited, delay(1000)]);
      if (this.live === live && !live.process.hasExited) {
        this.emit(this.transcript.addError(`The prompt failed: ${describe(err)}`, errorDetails(err), ['retry', 'showLog']));
      }
    } finally {
      this.turnActive = false;
      this.cancelPermissions();
      if (this.live === live && !live.process.hasExited) this.setStatus('ready', '');
    }
  }

  /** Stop: `session/cancel`; the agent then ends the turn with stopReason "cancelled". */
  async cancelTurn(): Promise<void> {
    const live = this.live;
    if (!this.turnActive || !live?.connection || !live.sessionId) return;
    // The protocol requires every pending permission request to be answered `cancelled` after a cancel.
    this.cancelPermissions();
    await live.connection.cancel(live.sessionId).catch(err => this.log.warn(`session/cancel failed: ${describe(err)}`));
  }

  answerPermission(itemId: string, optionId: string | null): void {
    const pending = this.permissions.get(itemId);
    if (!pending) return;
    const option = optionId === null ? undefined : pending.options.find(o => o.optionId === optionId);
    this.permissions.delete(itemId);
    this.emit(this.transcript.resolvePermission(itemId, option ? option.name : 'cancelled'));
    pending.resolve(option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } });
  }

  async runAction(action: ItemAction): Promise<void> {
    switch (action) {
      case 'restart': await this.restart(); break;
      case 'retry': if (this.lastPrompt) await this.sendPrompt(this.lastPrompt); break;
      case 'openSettings': await openSettings(Settings.agents); break;
      case 'authenticate': await this.restart(); break;
      case 'showLog': this.showLog(); break;
    }
  }

  async restart(): Promise<boolean> {
    const spec = this.live?.spec;
    await this.stop();
    return this.start(spec);
  }

  /** Ends the agent process for sure; resolves when it is gone. */
  async stop(): Promise<void> {
    const live = this.live;
    if (!live) return;
    this.live = undefined;
    this.cancelPermissions();
    live.connection?.close();
    await live.process.stop();
    this.setStatus('stopped', '');
  }

  /** Clears the conversation (the agent keeps running; a new session starts with the next prompt). */
  async newConversation(): Promise<void> {
    const live = this.live;
    const connection = live?.connection;
    if (live && connection && !this.turnActive) {
      try {
        live.sessionId = (await connection.newSession(workspaceCwd()!)).sessionId;
      } catch (err) {
        live.sessionId = undefined;
        this.log.warn(`session/new failed: ${describe(err)}`);
      }
    }
    this.transcript = new Transcript();
    this.resetEmitter.fire();
  }

  override dispose(): void {
    void this.stop();
    super.dispose();
  }

  private async doStart(requested?: AgentSpec): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      this.fail('Switchboard does not start agents in an untrusted workspace. Trust this folder to use an agent.', undefined, []);
      return false;
    }
    const cwd = workspaceCwd();
    if (!cwd) {
      this.fail('Open a folder first: the agent works in a workspace folder.', undefined, []);
      return false;
    }
    const spec = requested ?? (await pickAgent({ useDefault: true }));
    if (!spec) return false;
    if (this.live) await this.stop();

    this.setStatus('starting', `Starting ${spec.name}…`, spec.name);
    let proc: AgentProcess;
    try {
      proc = await AgentProcess.start(spec, cwd, this.log);
    } catch (err) {
      this.reportSpawnFailure(spec, err);
      return false;
    }
    const live: Live = { spec, process: proc };
    this.live = live;
    void proc.exited.then(exit => {
      if (this.live !== live || exit.requested) return;
      this.live = undefined;
      this.cancelPermissions();
      live.connection?.close();
      const how = exit.signal ? `was killed by ${exit.signal}` : exit.code === 0 ? 'exited' : `crashed (exit code ${exit.code})`;
      this.fail(`${spec.name} ${how}.`, proc.stderrTail.text() || undefined, ['restart', 'showLog']);
    });

    const connection = new AgentConnection(proc, {
      onSessionUpdate: params => this.onSessionUpdate(live, params),
      requestPermission: (params, signal) => this.requestPermission(live, params, signal),
    }, this.services({ agentName: spec.name, cwd }), this.log);
    live.connection = connection;
    try {
      await connection.initialize(readInitializeTimeoutMs());
      live.sessionId = await this.openSession(live, connection, cwd);
      this.setStatus('ready', '');
      return true;
    } catch (err) {
      if (this.live === live) {
        this.live = undefined;
        connection.close();
        await proc.stop();
        const auth = err instanceof AgentStartError && err.kind === 'auth';
        this.fail(`Could not start ${spec.name}: ${describe(err)}`, proc.stderrTail.text() || undefined,
          auth ? ['authenticate', 'showLog'] : ['restart', 'showLog']);
      }
      return false;
    }
  }

  /** `session/new`, offering the agent's auth methods when it answers auth_required. */
  private async openSession(live: Live, connection: AgentConnection, cwd: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await connection.newSession(cwd)).sessionId;
      } catch (err) {
        if (!(err instanceof AgentStartError) || err.kind !== 'auth' || attempt > 2) throw err;
        const method = await this.chooseAuthMethod(live.spec, err.authMethods);
        if (!method) throw err;
        if ('type' in method && method.type === 'terminal') {
          this.runTerminalLogin(live.spec, method);
          throw new AgentStartError(`Log in in the terminal "${method.name}", then restart the agent.`, 'auth');
        }
        await connection.authenticate(method.id);
      }
    }
  }

  private async chooseAuthMethod(spec: AgentSpec, methods: readonly acp.AuthMethod[]): Promise<acp.AuthMethod | undefined> {
    if (methods.length === 0) return undefined;
    const picked = await vscode.window.showQuickPick(
      methods.map(m => ({ label: m.name, detail: m.description ?? undefined, method: m })),
      { title: `${spec.name} requires authentication`, placeHolder: 'Choose how to sign in', ignoreFocusOut: true },
    );
    return picked?.method;
  }

  private runTerminalLogin(spec: AgentSpec, method: acp.AuthMethodTerminal): void {
    const terminal = vscode.window.createTerminal({
      name: `${spec.name}: ${method.name}`,
      shellPath: spec.command,
      shellArgs: [...spec.args, ...(method.args ?? [])],
      env: { ...spec.env, ...(method.env ?? {}) },
      cwd: workspaceCwd(),
    });
    terminal.show();
  }

  private onSessionUpdate(live: Live, params: acp.SessionNotification): void {
    if (this.live !== live || params.sessionId !== live.sessionId) {
      this.log.trace(`Dropped update for session ${params.sessionId}`);
      return;
    }
    const ops = this.transcript.applyUpdate(params.update);
    if (ops.length) this.emit(ops);
  }

  private requestPermission(live: Live, params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.live !== live || params.sessionId !== live.sessionId) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    const { id, ops } = this.transcript.addPermission({
      requestId: String(params.toolCall.toolCallId),
      title: params.toolCall.title ?? 'The agent asks for permission',
      options: params.options.map(o => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    });
    this.emit(ops);
    return new Promise(resolve => {
      this.permissions.set(id, { resolve, options: params.options });
      signal.addEventListener('abort', () => this.answerPermission(id, null), { once: true });
    });
  }

  private cancelPermissions(): void {
    for (const id of [...this.permissions.keys()]) this.answerPermission(id, null);
  }

  private reportSpawnFailure(spec: AgentSpec, err: unknown): void {
    const notFound = err instanceof AgentSpawnError && err.notFound;
    const message = notFound
      ? `Switchboard could not start "${spec.name}": the command "${spec.command}" was not found. Install it, or change its command in the setting switchboard.agents.`
      : `Switchboard could not start "${spec.name}": ${describe(err)}`;
    this.fail(message, undefined, ['openSettings', 'showLog']);
    void vscode.window.showErrorMessage(message, 'Open Settings').then(choice => {
      if (choice) void openSettings(Settings.agents);
    });
  }

  private fail(message: string, details: string | undefined, actions: readonly ItemAction[]): void {
    this.log.error(details ? `${message}\n${details}` : message);
    this.emit(this.transcript.addError(message, details, actions));
    this.setStatus('error', message);
  }

  private setStatus(status: ChatStatus['status'], detail: string, agentName = this.live?.spec.name ?? this.statusValue.agentName): void {
    this.statusValue = { agentName, status, detail };
    this.statusEmitter.fire(this.statusValue);
  }

  private emit(ops: readonly TranscriptOp[]): void {
    this.opsEmitter.fire(ops);
  }
}

function workspaceCwd(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.find(f => f.uri.scheme === 'file');
  return folder?.uri.fsPath;
}

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function errorDetails(err: unknown): string | undefined {
  const data = (err as { data?: unknown } | undefined)?.data;
  if (data === undefined || data === null) return undefined;
  return typeof data === 'string' ? data : JSON.stringify(data, null, 2);
}
