// One live ACP connection to a spawned agent, through the SDK's app API over the child's stdio.
// No UI here: what the client serves (permissions, fs, terminals) comes in as handlers.
import { Readable, Writable } from 'node:stream';
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { sdk } from '../common/acpSdk';
import { describeConnectionLoss } from '../common/connectionLoss';
import { STEERING_METHOD, steeringRequest, SteeringRequest } from '../common/steering';
import { TurnBoundaries } from '../common/turnBoundary';
import { PendingRequests } from '../common/pendingRequests';
import type { Logger } from '../common/logger';
import type { AgentProcess } from './agentProcess';
import type { ConnectionServices } from './clientServices';
import { StrayLines } from '../common/strayOutput';
import { Refusals } from './refusals';
import { ConnectionTap, protocolTraffic } from './protocolTap';
import { secretEnvValues } from '../common/inspector/redact';

export interface ClientHandlers {
  /** `afterAnswer`: the agent sent it after it answered the session's last prompt (a late update). */
  onSessionUpdate(params: acp.SessionNotification, afterAnswer: boolean): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** `elicitation/create` (form and url modes) and `elicitation/complete`. */
  createElicitation(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  completeElicitation(params: acp.CompleteElicitationNotification): void;
  /** A line on the agent's stdout that is not a JSON-RPC message (the SDK answered it -32700 and went on). */
  onStrayOutput?(line: string): void;
}

/** A failure the user must see, with what they can do about it. */
export class AgentStartError extends Error {
  constructor(message: string, readonly kind: 'timeout' | 'protocol' | 'auth' | 'closed' | 'failed', readonly authMethods: readonly acp.AuthMethod[] = []) {
    super(message);
  }
}

export const CLIENT_INFO: acp.Implementation = { name: 'switchboard', title: 'Switchboard', version: '0.3.0' };

/**
 * The ACP version Switchboard asks for and accepts: always 1, whatever the SDK's default becomes.
 * Some adapters answer a draft v2 (no fs/* or terminal/* methods) when asked for it.
 */
export const ACP_VERSION = 1;

/** After a pipe to the agent closed, how long it has to exit before that counts as a broken connection. */
const EXIT_AFTER_EOF_MS = 300;

export class AgentConnection {
  private readonly connection: acp.ClientConnection;
  /** This connection's number in the protocol inspector's record (TrafficFilter.conn). */
  readonly trafficConn: number;
  private initResult: acp.InitializeResponse | undefined;
  private closing = false;
  /** Tells late updates and requests by wire order (see TurnBoundaries). */
  private readonly boundaries = new TurnBoundaries();
  /** The client's requests not answered yet, and the session each names (a question may be tied to one). */
  private readonly pending = new PendingRequests();
  /**
   * Resolves with what went wrong when the connection ends while the agent process still runs and
   * nobody closed it: a message over the SDK's size limit, a stream error, or the agent closing its
   * stdout. (An agent that exits is reported by its exit instead.) Never rejects.
   */
  readonly broken: Promise<string>;

  constructor(readonly process: AgentProcess, handlers: ClientHandlers, private readonly services: ConnectionServices, private readonly log: Logger) {
    const child = process.child;
    this.refusals = new Refusals(log);
    const raw = sdk.ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    );
    const app = sdk.client({ name: 'switchboard' });
    this.refusals.watch(app);
    app
      .onNotification(sdk.methods.client.session.update, ({ params }) => handlers.onSessionUpdate(params, this.boundaries.dispatch(params.sessionId)))
      .onRequest(sdk.methods.client.session.requestPermission, ({ params, signal }) => handlers.requestPermission(params, signal))
      .onRequest(sdk.methods.client.elicitation.create, ({ params, signal }) => handlers.createElicitation(params, signal))
      .onNotification(sdk.methods.client.elicitation.complete, ({ params }) => handlers.completeElicitation(params))
      // Unknown notifications (extensions, newer protocol versions) are ignored, as the spec says.
      .onNotification('*', ({ method }) => log.trace(`Ignored notification ${method}`))
      .onRequest('*', ({ method }) => {
        this.refusals.refuse(l10n.t('unknown method'), JSON.stringify(String(method).slice(0, 80)));
        throw sdk.RequestError.methodNotFound(String(method));
      });
    const { fs, terminal } = services;
    if (fs) {
      app.onRequest(sdk.methods.client.fs.readTextFile, ({ params, signal, requestId }) => fs.readTextFile(params, signal, this.boundaries.requestAfterAnswer(requestId)))
        .onRequest(sdk.methods.client.fs.writeTextFile, ({ params, signal, requestId }) => fs.writeTextFile(params, signal, this.boundaries.requestAfterAnswer(requestId)));
    }
    if (terminal) {
      app.onRequest(sdk.methods.client.terminal.create, ({ params, signal, requestId }) => terminal.create(params, signal, undefined, this.boundaries.requestAfterAnswer(requestId)))
        .onRequest(sdk.methods.client.terminal.output, ({ params }) => terminal.output(params))
        .onRequest(sdk.methods.client.terminal.waitForExit, ({ params, signal }) => terminal.waitForExit(params, signal))
        .onRequest(sdk.methods.client.terminal.kill, ({ params }) => terminal.kill(params))
        .onRequest(sdk.methods.client.terminal.release, ({ params }) => terminal.release(params));
    }
    const stray = new StrayLines();
    child.stdout.on('data', (chunk: Buffer) => { for (const line of stray.push(chunk)) handlers.onStrayOutput?.(line); });
    // The protocol inspector's tap (protocolTap.ts): the keys it started with never reach the record.
    const tap = protocolTraffic.connection(process.spec.name, [...process.secrets, ...secretEnvValues(process.spec.env)]);
    this.trafficConn = tap.conn;
    this.connection = app.connect(traced(raw, child.stdout, log, this.boundaries, this.pending, this.refusals, tap));
    // A write to a closed stdin (EPIPE) fails on the Node stream, but on Node 24 the web stream's
    // write never settles: close the connection with that error, so nothing waits forever.
    child.stdin.on('error', err => { if (!this.closing) this.connection.close(err); });
    this.broken = this.connection.closed.then(async () => {
      if (this.closing) return new Promise<string>(() => {});
      // A request on a closed connection rejects at once with the reason it closed.
      const reason = await this.connection.agent.request('$/switchboard/closed', {}).then(() => undefined, (err: unknown) => err);
      const loss = describeConnectionLoss(reason);
      // A dying agent closes its pipes too: then its exit (with its stderr) is the news, not the pipe.
      if (loss.kind !== 'limit') {
        const exited = await Promise.race([this.process.exited.then(() => true), delay(EXIT_AFTER_EOF_MS).then(() => false)]);
        if (exited || this.closing) return new Promise<string>(() => {});
      }
      return loss.message;
    });
  }

  /** Messages refused or that a handler failed on, logged once per kind (see refusals.ts). */
  readonly refusals: Refusals;

  /** The session of a request of ours the agent has not answered yet (see common/pendingRequests). */
  sessionOfRequest(requestId: unknown): string | undefined {
    return this.pending.sessionOf(requestId);
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  get closed(): Promise<void> {
    return this.connection.closed;
  }

  get info(): acp.InitializeResponse | undefined {
    return this.initResult;
  }

  /** `initialize`, bounded by a timeout; an agent that speaks another protocol version is refused. */
  async initialize(timeoutMs: number): Promise<acp.InitializeResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort('timeout'), timeoutMs);
    try {
      const result = await Promise.race([
        this.agent.request(sdk.methods.agent.initialize, {
          protocolVersion: ACP_VERSION,
          clientCapabilities: this.capabilities(),
          clientInfo: CLIENT_INFO,
        }, { cancellationSignal: controller.signal, stopWaitingOnCancel: true }),
        this.process.exited.then(exit => {
          throw new AgentStartError(exit.signal
            ? l10n.t('The agent exited during initialization (signal {0}).', exit.signal)
            : l10n.t('The agent exited during initialization (exit code {0}).', String(exit.code)), 'closed');
        }),
      ]);
      if (result.protocolVersion !== ACP_VERSION) throw new AgentStartError(versionRefusal(result.protocolVersion), 'protocol');
      this.initResult = result;
      const who = result.agentInfo ? `${result.agentInfo.title ?? result.agentInfo.name} ${result.agentInfo.version}` : 'agent';
      this.log.info(`Initialized ${who} (protocol ${result.protocolVersion})`);
      return result;
    } catch (err) {
      if (controller.signal.aborted) {
        throw new AgentStartError(l10n.t({ message: 'The agent did not answer "initialize" within {0} s.', args: [Math.round(timeoutMs / 1000)], comment: '"initialize" is the name of an ACP request; {0} is a number of seconds' }), 'timeout');
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Exactly what this client serves; terminal login reruns the agent's command in a VS Code terminal.
   * The chat always shows `notice` and `compaction_*` updates, and the output of commands the agent
   * runs itself (`_meta.terminal_info` / `terminal_output` / `terminal_output_delta` / `terminal_exit`
   * on its tool calls, the convention of the Claude and Codex adapters). Plans kept by id are shown
   * (`plan`); an agent that ignores it sends the legacy `plan` checklist, shown as before.
   */
  private capabilities(): acp.ClientCapabilities {
    const { fs, terminal } = this.services;
    return {
      fs: { readTextFile: !!fs, writeTextFile: !!fs },
      terminal: !!terminal,
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
      session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
      // Plan operations (`plan_update` / `plan_removed`, common/plans.ts).
      plan: {},
      // Child-agent sessions (session/childSessions.ts): an announced child's traffic is served in its parent's conversation.
      subagents: {},
      _meta: { terminal_output: true, terminal_output_delta: true },
    };
  }

  /** `session/new`; an auth_required answer (-32000) is the session layer's to handle (session/signIn.ts). */
  newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    return this.agent.request(sdk.methods.agent.session.new, { cwd, mcpServers });
  }

  loadSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.LoadSessionResponse> {
    return this.agent.request(sdk.methods.agent.session.load, { sessionId, cwd, mcpServers });
  }

  resumeSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.ResumeSessionResponse> {
    return this.agent.request(sdk.methods.agent.session.resume, { sessionId, cwd, mcpServers });
  }

  listSessions(cwd: string, cursor?: string): Promise<acp.ListSessionsResponse> {
    return this.agent.request(sdk.methods.agent.session.list, { cwd, cursor: cursor ?? null });
  }

  /**
   * `session/fork` (unstable in ACP 2.4; only when the agent advertised `sessionCapabilities.fork`):
   * a new session that continues this one's history. Its answer is checked here (no schema does).
   */
  async forkSession(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    const response = await this.agent.request<unknown, { sessionId: string; cwd: string; mcpServers: acp.McpServer[] }>('session/fork', { sessionId, cwd, mcpServers });
    const r = response as Partial<acp.NewSessionResponse> | null;
    if (!r || typeof r.sessionId !== 'string' || !r.sessionId) throw new Error(l10n.t('The agent answered session/fork without a session id.'));
    return { sessionId: r.sessionId, modes: r.modes ?? null, configOptions: Array.isArray(r.configOptions) ? r.configOptions : null };
  }

  closeSession(sessionId: string): Promise<acp.CloseSessionResponse> {
    return this.agent.request(sdk.methods.agent.session.close, { sessionId });
  }

  deleteSession(sessionId: string): Promise<acp.DeleteSessionResponse> {
    return this.agent.request(sdk.methods.agent.session.delete, { sessionId });
  }

  setMode(sessionId: string, modeId: string): Promise<acp.SetSessionModeResponse> {
    return this.agent.request(sdk.methods.agent.session.setMode, { sessionId, modeId });
  }

  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<acp.SetSessionConfigOptionResponse> {
    const params: acp.SetSessionConfigOptionRequest = typeof value === 'boolean'
      ? { sessionId, configId, type: 'boolean', value }
      : { sessionId, configId, value };
    return this.agent.request(sdk.methods.agent.session.setConfigOption, params);
  }

  authenticate(methodId: string): Promise<acp.AuthenticateResponse> {
    return this.agent.request(sdk.methods.agent.authenticate, { methodId });
  }

  /** `logout`; only when the agent advertised `auth.logout`. */
  logout(): Promise<acp.LogoutResponse> {
    return this.agent.request(sdk.methods.agent.logout, {});
  }

  prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.agent.request(sdk.methods.agent.session.prompt, { sessionId, prompt });
  }

  cancel(sessionId: string): Promise<void> {
    return this.agent.notify(sdk.methods.agent.session.cancel, { sessionId });
  }

  /** `_session/steering`: `prompt` into the running turn (only when the agent announced it); see common/steering.ts. */
  steer(sessionId: string, prompt: acp.ContentBlock[]): Promise<unknown> {
    return this.agent.request<unknown, SteeringRequest>(STEERING_METHOD, steeringRequest(sessionId, prompt));
  }

  /** Closes the connection and releases what it served (terminals, pending reviews). */
  close(): void {
    this.closing = true;
    this.connection.close();
    this.services.dispose();
  }
}

/**
 * Logs every JSON-RPC message at trace level. Incoming lines are read off the agent's stdout as they
 * pass (no extra stream stage: a streamed answer is thousands of messages); outgoing ones, few, go
 * through a small transform. Both cost a branch when trace is off.
 */
function traced(stream: acp.Stream, stdout: NodeJS.ReadableStream, log: Logger, boundaries: TurnBoundaries, pending: PendingRequests, refusals: Refusals, tap: ConnectionTap): acp.Stream {
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    if (!log.traceEnabled) { partial = ''; return; }
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!.slice(-1_000_000);
    for (const line of lines) if (line.trim()) log.trace(`← ${line}`);
  });
  const outgoing = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(message, controller) {
      if (log.traceEnabled) log.trace(`→ ${JSON.stringify(message)}`);
      tap.outgoing(message);
      boundaries.outgoing(message as Parameters<TurnBoundaries['outgoing']>[0]);
      pending.outgoing(message as Parameters<PendingRequests['outgoing']>[0]);
      controller.enqueue(message);
    },
  });
  void outgoing.readable.pipeTo(stream.writable).catch(() => { /* the agent went away; reported by exit */ });
  // Incoming messages in wire order, before the SDK dispatches them; an invalid session/update is refused here.
  const incoming = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(message, controller) {
      tap.incoming(message);
      // Screened first: a response is passed on only while its request is pending.
      const screened = refusals.screen(message, id => pending.isPending(id));
      if (!screened) return;
      boundaries.incoming(screened as Parameters<TurnBoundaries['incoming']>[0]);
      pending.incoming(screened as Parameters<PendingRequests['incoming']>[0]);
      controller.enqueue(screened);
    },
  });
  return { readable: stream.readable.pipeThrough(incoming), writable: outgoing.writable };
}

/** Why an agent answering another protocol version is refused, in words the user can act on. */
export function versionRefusal(answered: unknown): string {
  const v = typeof answered === 'number' ? answered : JSON.stringify(answered);
  return answered === 2
    ? l10n.t('The agent answered with ACP protocol version 2, a draft that has no file or terminal methods; Switchboard asked for version 1 and speaks only ACP v1. Use a version of the agent that speaks ACP v1.')
    : l10n.t('The agent speaks ACP protocol version {0}; Switchboard asked for version 1 and speaks only ACP v1.', v);
}

const delay = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
