// What the client serves to an agent beyond the chat: file system and terminals. Each is created
// per agent connection (it knows the agent's name and the session's cwd), and its presence is what
// the client advertises in `initialize` — never a capability without a handler behind it.
import type * as acp from '@agentclientprotocol/sdk/unstable';

/** Who is asking: shown to the user in prompts and titles ("Claude Code wants to write …"). */
export interface AgentIdentity {
  readonly agentName: string;
  /** The session's working directory (absolute), the default cwd for terminals. */
  readonly cwd: string;
}

/**
 * `afterAnswer` (given by the connection): the agent sent this request after it answered its
 * session's last prompt, by wire order (common/turnBoundary), however soon it is handled.
 */
export interface FsHandlers {
  readTextFile(params: acp.ReadTextFileRequest, signal: AbortSignal, afterAnswer?: boolean): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal, afterAnswer?: boolean): Promise<acp.WriteTextFileResponse | void>;
}

export interface TerminalHandlers {
  /**
   * `beforeRun`: called once the request passed the service's own checks (its cwd), just before the
   * command starts; throws to refuse. `afterAnswer`: as for FsHandlers.
   */
  create(params: acp.CreateTerminalRequest, signal: AbortSignal, beforeRun?: () => Promise<void>, afterAnswer?: boolean): Promise<acp.CreateTerminalResponse>;
  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse | void>;
  release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse | void>;
}

/** Per-connection services; `dispose` runs when the agent stops or exits (release everything). */
export interface ConnectionServices {
  readonly fs?: FsHandlers;
  readonly terminal?: TerminalHandlers;
  /** Every answered permission request (an allowed edit with `diff` content pre-approves that write). */
  onPermissionAnswered?(params: acp.RequestPermissionRequest, response: acp.RequestPermissionResponse): void;
  /** The user stopped the session's turn: end what waits on the user for it (pending reviews). */
  cancelSession?(sessionId: string): void;
  /** The session's next turn starts: a Stop no longer applies to what it asks. */
  beginTurn?(sessionId: string): void;
  /** The agent answered the session's prompt: resolves once what the turn's requests left running is settled. */
  endTurn?(sessionId: string): Promise<void>;
  /** A session ended (its conversation closed): release what belongs to it. */
  releaseSession?(sessionId: string): Promise<void>;
  dispose(): void;
}

/** Creates the services of one agent connection. Registered once in extension.ts. */
export type ConnectionServicesFactory = (agent: AgentIdentity) => ConnectionServices;
