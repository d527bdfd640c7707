// One conversation (a chat tab): its transcript, its session state, its turn and its pending
// permission requests. Bound to an agent runtime while the agent runs; a restored or orphaned tab
// keeps its transcript and can be reattached.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { TabInfo } from '../common/protocol';
import { applyMetaUpdate, EMPTY_META, metaFromResponse, SessionMeta } from '../common/sessionMeta';
import { contentViews, Item, ItemAction, Transcript, TranscriptOp } from '../common/transcript';
import type { AgentRuntime, SessionSink } from './agentRuntime';

interface PendingPermission {
  readonly resolve: (r: acp.RequestPermissionResponse) => void;
  readonly options: readonly acp.PermissionOption[];
}

export class ChatSession extends Disposable implements SessionSink {
  private transcriptValue = new Transcript();
  private metaValue: SessionMeta = EMPTY_META;
  private runtimeValue: AgentRuntime | undefined;
  private turn: { cancelled: boolean } | undefined;
  private readonly permissions = new Map<string, PendingPermission>();
  lastPrompt: acp.ContentBlock[] | undefined;

  private readonly opsEmitter = this.register(new vscode.EventEmitter<readonly TranscriptOp[]>());
  private readonly metaEmitter = this.register(new vscode.EventEmitter<SessionMeta>());
  private readonly stateEmitter = this.register(new vscode.EventEmitter<void>());
  private readonly resetEmitter = this.register(new vscode.EventEmitter<void>());
  private readonly updateEmitter = this.register(new vscode.EventEmitter<acp.SessionUpdate>());
  private readonly turnEmitter = this.register(new vscode.EventEmitter<'start' | 'end'>());
  /** A turn started or ended (the review of the agent's changes follows turns). */
  readonly onTurn = this.turnEmitter.event;
  private readonly permissionEmitter = this.register(new vscode.EventEmitter<{ itemId: string; params: acp.RequestPermissionRequest }>());
  /** A permission request was shown (its diff opens for review before the user answers). */
  readonly onPermissionRequest = this.permissionEmitter.event;
  /** Every raw update of this session, before it is applied (diff texts, terminal ids). */
  readonly onRawUpdate = this.updateEmitter.event;
  readonly onOps = this.opsEmitter.event;
  readonly onMeta = this.metaEmitter.event;
  /** Busy / waiting / title changed: the tab strip needs redrawing. */
  readonly onState = this.stateEmitter.event;
  /** The transcript was replaced (history reloaded). */
  readonly onReset = this.resetEmitter.event;

  constructor(
    readonly id: string,
    public agentName: string,
    private readonly log: Logger,
    public sessionId?: string,
    restored?: { items: readonly Item[]; title?: string },
  ) {
    super();
    if (restored) {
      this.transcriptValue = Transcript.from(restored.items);
      this.metaValue = { ...EMPTY_META, title: restored.title };
    }
  }

  get items(): readonly Item[] { return this.transcriptValue.snapshot(); }
  get meta(): SessionMeta { return this.metaValue; }
  get runtime(): AgentRuntime | undefined { return this.runtimeValue; }
  get busy(): boolean { return this.turn !== undefined || this.reserved; }

  /** Held from the moment a prompt is sent until its turn starts (the session may still be opening). */
  private reserved = false;

  /** Claims the tab for one prompt; false when it is busy. */
  reserve(): boolean {
    if (this.busy) return false;
    this.reserved = true;
    this.stateEmitter.fire();
    return true;
  }

  release(): void {
    if (!this.reserved) return;
    this.reserved = false;
    this.stateEmitter.fire();
  }
  get waiting(): boolean { return this.permissions.size > 0; }

  get info(): TabInfo {
    return {
      id: this.id,
      title: this.metaValue.title || this.firstPromptTitle() || `${this.agentName} chat`,
      agentName: this.agentName,
      state: this.waiting ? 'waiting' : this.busy ? 'busy' : this.runtimeValue?.isRunning ? 'idle' : 'detached',
    };
  }

  /** Binds the session to a running agent with the ACP session id and its initial state. */
  bind(runtime: AgentRuntime, sessionId: string, response?: { modes?: acp.SessionModeState | null; configOptions?: acp.SessionConfigOption[] | null } | null): void {
    if (this.runtimeValue && this.sessionId) this.runtimeValue.detach(this.sessionId);
    this.runtimeValue = runtime;
    this.sessionId = sessionId;
    this.agentName = runtime.spec.name;
    runtime.attach(sessionId, this);
    this.setMeta(metaFromResponse(this.metaValue, response));
    this.stateEmitter.fire();
  }

  /** The agent went away: pending questions are answered `cancelled`, the tab stays readable. */
  unbind(): void {
    if (this.runtimeValue && this.sessionId) this.runtimeValue.detach(this.sessionId);
    this.runtimeValue = undefined;
    this.cancelPermissions();
    if (this.turn) {
      this.turn = undefined;
    }
    this.stateEmitter.fire();
  }

  /** Replaces the transcript before `session/load` replays the history into it; returns the old one. */
  clearForReplay(): Transcript {
    const old = this.transcriptValue;
    this.transcriptValue = new Transcript();
    this.resetEmitter.fire();
    return old;
  }

  /** `session/load` failed: the conversation as it was, and no session (the next prompt opens one). */
  restoreAfterFailedLoad(old: Transcript): void {
    this.unbind();
    this.sessionId = undefined;
    this.transcriptValue = old;
    this.resetEmitter.fire();
  }

  onUpdate(update: acp.SessionUpdate): void {
    this.updateEmitter.fire(update);
    const meta = applyMetaUpdate(this.metaValue, update);
    if (meta) {
      this.setMeta(meta);
      return;
    }
    const ops = this.transcriptValue.applyUpdate(update);
    if (ops.length) this.emit(ops);
  }

  /** Runs one turn. Resolves when it ended (any stop reason) or failed; failures are shown in the transcript. */
  async prompt(blocks: acp.ContentBlock[], displayText: string): Promise<void> {
    const runtime = this.runtimeValue;
    const sessionId = this.sessionId;
    if (!runtime || !sessionId) return;
    if (this.turn) {
      this.emit(this.transcriptValue.addNotice('The agent is still working on the previous prompt. Stop it first or wait.'));
      return;
    }
    const turn = { cancelled: false };
    this.turn = turn;
    this.reserved = false;
    this.lastPrompt = blocks;
    this.emit(this.transcriptValue.addUser(displayText));
    this.stateEmitter.fire();
    this.turnEmitter.fire('start');
    try {
      const result = await runtime.prompt(sessionId, blocks);
      // The SDK resolves a response a few microtasks before it dispatches notifications that came
      // earlier on the wire: let those land first, so the turn's last chunks are not shown after its end.
      await new Promise(resolve => setImmediate(resolve));
      this.emit(this.transcriptValue.endTurn(result.stopReason));
    } catch (err) {
      // A crash is reported by the controller with the agent's last words; don't report it twice.
      // The connection may notice the closed pipe a moment before the exit event arrives.
      await Promise.race([runtime.exited, delay(1000)]);
      if (runtime.isRunning) {
        this.emit(this.transcriptValue.addError(`The prompt failed: ${describe(err)}`, errorDetails(err), ['retry', 'showLog']));
      } else if (turn.cancelled) {
        this.emit(this.transcriptValue.endTurn('cancelled'));
      }
    } finally {
      if (this.turn === turn) this.turn = undefined;
      this.cancelPermissions();
      this.stateEmitter.fire();
      this.turnEmitter.fire('end');
    }
  }

  /** Stop: `session/cancel`; the agent then ends the turn with stopReason "cancelled". */
  async cancel(): Promise<void> {
    const runtime = this.runtimeValue;
    if (!this.turn || !runtime || !this.sessionId) return;
    this.turn.cancelled = true;
    // The protocol requires every pending permission request to be answered `cancelled` after a cancel.
    this.cancelPermissions();
    await runtime.cancel(this.sessionId).catch(err => this.log.warn(`session/cancel failed: ${describe(err)}`));
  }

  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    if (this.turn?.cancelled) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    const { id, ops } = this.transcriptValue.addPermission({
      requestId: String(params.toolCall.toolCallId),
      title: params.toolCall.title ?? 'The agent asks for permission',
      options: params.options.map(o => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
      content: params.toolCall.content ? contentViews(params.toolCall.content) : undefined,
    });
    this.permissionEmitter.fire({ itemId: id, params });
    this.emit(ops);
    return new Promise(resolve => {
      this.permissions.set(id, { resolve, options: params.options });
      this.stateEmitter.fire();
      signal.addEventListener('abort', () => this.answerPermission(id, null), { once: true });
    });
  }

  answerPermission(itemId: string, optionId: string | null): void {
    const pending = this.permissions.get(itemId);
    if (!pending) return;
    const option = optionId === null ? undefined : pending.options.find(o => o.optionId === optionId);
    if (optionId !== null && !option) return; // not one of this request's options: ignore, never cancel
    this.permissions.delete(itemId);
    this.emit(this.transcriptValue.resolvePermission(itemId, option ? option.name : 'cancelled'));
    pending.resolve(option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } });
    this.stateEmitter.fire();
  }

  /** The unanswered permission requests, oldest first (for the status bar). */
  get pendingPermissionIds(): string[] {
    return [...this.permissions.keys()];
  }

  async setMode(modeId: string): Promise<void> {
    const runtime = this.runtimeValue;
    if (!runtime || !this.sessionId || !this.metaValue.modes) return;
    await runtime.connection.setMode(this.sessionId, modeId);
    this.setMeta({ ...this.metaValue, modes: { ...this.metaValue.modes, currentModeId: modeId } });
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const runtime = this.runtimeValue;
    if (!runtime || !this.sessionId) return;
    const result = await runtime.connection.setConfigOption(this.sessionId, configId, value);
    this.setMeta({ ...this.metaValue, configOptions: result.configOptions });
  }

  addError(message: string, details: string | undefined, actions: readonly ItemAction[]): void {
    this.emit(this.transcriptValue.addError(message, details, actions));
  }

  addNotice(text: string): void {
    this.emit(this.transcriptValue.addNotice(text));
  }

  override dispose(): void {
    this.unbind();
    // A turn still running ends here for everyone listening (the review stops attributing to it).
    if (this.turn) { this.turn = undefined; this.turnEmitter.fire('end'); }
    super.dispose();
  }

  private cancelPermissions(): void {
    for (const id of [...this.permissions.keys()]) this.answerPermission(id, null);
  }

  private setMeta(meta: SessionMeta): void {
    const titleChanged = meta.title !== this.metaValue.title;
    this.metaValue = meta;
    this.metaEmitter.fire(meta);
    if (titleChanged) this.stateEmitter.fire();
  }

  private firstPromptTitle(): string | undefined {
    const first = this.items.find(i => i.kind === 'user');
    if (!first || first.kind !== 'user') return undefined;
    const line = first.text.split('\n')[0].trim();
    return line.length > 40 ? line.slice(0, 40) + '…' : line;
  }

  private emit(ops: readonly TranscriptOp[]): void {
    if (ops.length) this.opsEmitter.fire(ops);
  }
}

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function errorDetails(err: unknown): string | undefined {
  const data = (err as { data?: unknown } | undefined)?.data;
  if (data === undefined || data === null) return undefined;
  return typeof data === 'string' ? data : JSON.stringify(data, null, 2);
}
