// One running agent: its process, its initialized ACP connection, and the routing of incoming
// session traffic to the session that owns it. Several sessions share one runtime.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { AgentConnection } from '../acp/agentConnection';
import { AgentExit, AgentProcess, AgentSpawnError } from '../acp/agentProcess';
import type { AgentIdentity, ConnectionServices, ConnectionServicesFactory } from '../acp/clientServices';
import type { AgentSpec } from '../common/agentConfig';
import { sdk } from '../common/acpSdk';
import type { Logger } from '../common/logger';
import { missingProgramInStderr } from '../common/missingProgram';
import { redact, redactingLogger } from '../common/signIn';
import { ChildSessions, type SessionSink } from './childSessions';
import { gateServices, unknownSession } from './requestGate';

/** What a session does with the traffic addressed to it (declared with the child sessions that serve it too). */
export type { SessionSink } from './childSessions';

/**
 * The agent's own questions: an elicitation with no session, or tied to a request of the client's
 * that names none (`initialize`, `authenticate`, `session/new`), belongs to no conversation.
 */
export interface AgentQuestions {
  ask(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete`: true when one of the agent's own questions had that id. */
  complete(elicitationId: string): boolean;
}

export class AgentRuntime {
  private readonly sinks = new Map<string, SessionSink>();
  /** Child-agent sessions announced on this connection (session/childSessions.ts). */
  readonly children = new ChildSessions(id => this.sinks.get(id));
  private stopping = false;
  private strayListener: ((line: string) => void) | undefined;
  /** Stray lines before anyone listened (a banner printed while the agent starts). */
  private readonly earlyStray: string[] = [];

  private constructor(
    readonly spec: AgentSpec, readonly cwd: string, readonly process: AgentProcess, readonly connection: AgentConnection,
    /** Who this connection is to its services: what their reviews and writes name (ChatController.tabOfSession). */
    readonly identity: AgentIdentity,
    private readonly served: ConnectionServices,
  ) {}

  /**
   * Spawns the agent and initializes the connection. Throws AgentSpawnError (could not start) or
   * AgentStartError (timeout, protocol); the process is gone when it throws.
   */
  static async start(
    spec: AgentSpec, cwd: string, services: ConnectionServicesFactory, initTimeoutMs: number, log: Logger, secretEnv?: Readonly<Record<string, string>>,
    ownQuestions?: AgentQuestions,
    signal?: AbortSignal,
  ): Promise<AgentRuntime> {
    signal?.throwIfAborted();
    const proc = await AgentProcess.start(spec, cwd, log, secretEnv);
    // Cancelled while it starts (a first download through npx): the process ends, initialize fails.
    const cancel = () => void proc.stop();
    if (signal?.aborted) cancel();
    else signal?.addEventListener('abort', cancel, { once: true });
    // Whatever is logged about this agent (its stderr, the JSON-RPC trace) never shows its keys.
    log = redactingLogger(log, Object.values(secretEnv ?? {}));
    let runtime: AgentRuntime | undefined;
    // Only this agent's live sessions are served (an unknown session id gets -32602).
    const identity: AgentIdentity = { agentName: spec.name, cwd };
    const served = gateServices(services(identity), spec.name, id => runtime?.route(id), cwd);
    const connection: AgentConnection = new AgentConnection(proc, {
      onSessionUpdate: (params, afterAnswer) => {
        const sink = runtime?.route(params.sessionId);
        if (!sink) { connection.refusals.refuse('session/update', vscode.l10n.t('no such session')); return; }
        // A child agent announced (or patched) on this session: its traffic is served from now on.
        if (params.update.sessionUpdate === 'subagent_update') {
          const refused = runtime!.children.announce(params.sessionId, params.update);
          if (refused) connection.refusals.refuse('session/update subagent_update', refused);
          return;
        }
        sink.onUpdate(params.update, afterAnswer);
      },
      requestPermission: async (params, signal) => {
        const sink = runtime?.route(params.sessionId);
        if (!sink) throw unknownSession(params.sessionId);
        const response = await sink.requestPermission(params, signal);
        served.onPermissionAnswered?.(params, response);
        return response;
      },
      createElicitation: (params, signal): Promise<acp.CreateElicitationResponse> => {
        // A session's question goes to its conversation; one tied to a request of ours goes to the
        // conversation that request is about; the rest are the agent's own (never the shown tab's).
        const scoped = params as { sessionId?: unknown; requestId?: unknown };
        if ('sessionId' in scoped) {
          const sink = typeof scoped.sessionId === 'string' ? runtime?.route(scoped.sessionId) : undefined;
          if (!sink) throw unknownSession(scoped.sessionId);
          return sink.elicit(params, signal);
        }
        const sessionId: string | undefined = connection.sessionOfRequest(scoped.requestId);
        const sink: SessionSink | undefined = sessionId === undefined ? undefined : runtime?.route(sessionId);
        if (sink) return sink.elicit(params, signal);
        if (!ownQuestions) throw sdk.RequestError.invalidParams({ requestId: scoped.requestId }, 'No conversation to ask in');
        return ownQuestions.ask(params, signal);
      },
      // Its keys never reach the chat or the log, even if the agent prints them.
      onStrayOutput: line => runtime?.noteStray(redact(line, Object.values(secretEnv ?? {}))),
      completeElicitation: ({ elicitationId }) => {
        for (const sink of runtime?.sinks.values() ?? []) if (sink.completeElicitation(elicitationId)) return;
        ownQuestions?.complete(elicitationId);
      },
    }, served, log);
    runtime = new AgentRuntime(spec, cwd, proc, connection, identity, served);
    // However the agent ends, what its connection served (terminals, pending reviews) is released.
    void proc.exited.then(() => connection.close());
    // A connection that breaks while the agent runs (a message over the size limit, a closed
    // stdout) ends the agent: never a live process behind a dead chat. The exit names the reason.
    void connection.broken.then(reason => proc.fail(reason));
    try {
      await connection.initialize(initTimeoutMs);
    } catch (err) {
      connection.close();
      await proc.stop();
      // A script whose interpreter is missing (`#!/usr/bin/env node` without Node.js) exits at once
      // and says so on stderr: that is a program not found, named like one (host/startFailure.ts).
      await proc.stderrRead();
      const stderr = proc.stderrTail.text();
      const missing = missingProgramInStderr(stderr);
      throw withStderr(missing ? new AgentSpawnError(missing, true, err as Error) : err, stderr);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    return runtime;
  }

  /** Told of each line on the agent's stdout that is not JSON-RPC, those printed before included. */
  set onStrayOutput(listener: (line: string) => void) {
    this.strayListener = listener;
    for (const line of this.earlyStray.splice(0)) listener(line);
  }

  private noteStray(line: string): void {
    if (this.strayListener) this.strayListener(line);
    else if (this.earlyStray.length < 20) this.earlyStray.push(line);
  }

  get info(): acp.InitializeResponse {
    return this.connection.info!;
  }

  get capabilities(): acp.AgentCapabilities {
    return this.info.agentCapabilities ?? {};
  }

  get exited(): Promise<AgentExit> {
    return this.process.exited;
  }

  get isRunning(): boolean {
    return !this.process.hasExited && !this.stopping && !this.process.failure;
  }

  /** Routes traffic of `sessionId` to `sink`; attach before `session/load`, which replays history first. */
  attach(sessionId: string, sink: SessionSink): void {
    this.sinks.set(sessionId, sink);
  }

  detach(sessionId: string): void {
    this.sinks.delete(sessionId);
    this.children.forget(sessionId);
  }

  /**
   * A turn: `session/prompt`. Writes of the session are accepted again after a Stop. The turn ends
   * once what its requests left running is settled (a ranged read's whole text: the user may change
   * the file next).
   */
  async prompt(sessionId: string, blocks: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    this.served.beginTurn?.(sessionId);
    try {
      return await this.connection.prompt(sessionId, blocks);
    } finally {
      await this.served.endTurn?.(sessionId);
    }
  }

  /** Stop: `session/cancel`, after ending what of the session waits on the user (its pending reviews). */
  cancel(sessionId: string): Promise<void> {
    this.served.cancelSession?.(sessionId);
    return this.connection.cancel(sessionId);
  }

  /** The session's conversation was closed: release what it still holds (its terminals, its reviews). */
  releaseSession(sessionId: string): void {
    this.detach(sessionId);
    void this.served.releaseSession?.(sessionId);
  }

  async stop(): Promise<AgentExit> {
    this.stopping = true;
    this.connection.close();
    return this.process.stop();
  }

  /** A session of this agent's, or a child agent a session of this connection announced. */
  private route(sessionId: string): SessionSink | undefined {
    return this.sinks.get(sessionId) ?? this.children.sink(sessionId);
  }
}

const STDERR = Symbol('stderr');

/** The error of a failed start, carrying what the agent printed on stderr before it (for the log). */
function withStderr(err: unknown, stderr: string): unknown {
  if (stderr && typeof err === 'object' && err !== null) Object.defineProperty(err, STDERR, { value: stderr });
  return err;
}

/** What the agent printed on stderr before its start failed (see withStderr), if anything. */
export function startStderr(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as { [STDERR]?: string })[STDERR] : undefined;
}
