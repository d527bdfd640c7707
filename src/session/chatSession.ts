// One conversation (a chat tab): its transcript, its session state, its turn and its pending
// permission requests. Bound to an agent runtime while the agent runs; a restored or orphaned tab
// keeps its transcript and can be reattached.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { escapeBidi } from '../common/bidi';
import { errorMessage } from '../common/errorText';
import { Disposable } from '../common/disposable';
import { describeChoice, isAllow, isMisleading, orderOptions } from '../common/permissionOptions';
import { CommandKey, permittedCommands } from '../common/requestGuard';
import type { Logger } from '../common/logger';
import { isAuthRequired } from '../common/signIn';
import type { TabInfo } from '../common/protocol';
import { modeControl, type ModeControl } from '../common/agentModes';
import { applyMetaUpdate, EMPTY_META, metaFromResponse, SessionMeta, type Usage } from '../common/sessionMeta';
import { commandView, contentViews, Item, ItemAction, shownTitle, Transcript, TranscriptOp } from '../common/transcript';
import { commandLine } from '../common/terminal';
import { splitTurns, summarizeTurn, type TurnSummary } from '../common/turns';
import type { TurnArchive } from './savedChats';
import type { AgentRuntime, SessionSink } from './agentRuntime';
import { QuestionAction, Questions } from './questions';
import { QueuedPrompts } from './queuedPrompts';
import type { RawValue } from '../common/elicitation';
import { rollUpUsage, type ChildUsage, type ChildView } from '../common/childSessions';
import { ChildHost, childUpdateOps, sessionName } from './childSessions';

interface PendingPermission {
  readonly resolve: (r: acp.RequestPermissionResponse) => void;
  readonly options: readonly acp.PermissionOption[];
  /** The commands an allowed answer permits (the tool call's command and title), for the command check. */
  readonly permits?: readonly CommandKey[];
  /** Asked by this child agent (the status says "waiting for you (in <child>)"). */
  readonly from?: string;
  /** That child's session id: its request stays open past the parent's turn, until it ends. */
  readonly child?: string;
  /** About a request the agent sent outside its turn: the end of a turn does not answer it. */
  readonly late?: boolean;
}

/** Summaries of old turns kept at most (older turns are no longer listed). */
const MAX_ARCHIVED_TURNS = 500;

export class ChatSession extends Disposable implements SessionSink, ChildHost {
  private transcriptValue = new Transcript();
  /** The turns before the transcript's, on disk (see common/turns): their summaries, oldest first. */
  private archivedValue: TurnSummary[] = [];
  private archivedBeforeReplay: TurnSummary[] = [];
  /** Where old turns go; none: they are forgotten (their summaries stay). */
  archive: TurnArchive | undefined;
  private archiveKeyValue: string | undefined;
  private metaValue: SessionMeta = EMPTY_META;
  private runtimeValue: AgentRuntime | undefined;
  private turn: { cancelled: boolean; allowed: CommandKey[] } | undefined;
  /** `session/load` is replaying the history: its updates are the past, not late ones. */
  private replaying = false;
  /** Updates the agent sent after answering the running prompt, shown once the turn has ended. */
  private readonly afterAnswer: acp.SessionUpdate[] = [];
  private readonly afterTurnNotices: string[] = [];
  private readonly permissions = new Map<string, PendingPermission>();
  /** Open elicitations (forms, URLs); they count as waiting, like permissions. */
  private readonly questions = new Questions(() => this.transcriptValue, ops => this.emit(ops), () => this.stateEmitter.fire(),
    href => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(href, true))));
  lastPrompt: acp.ContentBlock[] | undefined;
  /** Messages typed while the agent works, sent when its turn ends (see queuedPrompts.ts). */
  readonly queue = this.register(new QueuedPrompts());
  /** Runs before a turn's prompt goes to the agent, given its user message's item id (a checkpoint of the files). */
  beforeTurn: (itemId: string) => Promise<void> = () => Promise.resolve();
  /** Rewrites a tool call before anything sees it (snippet diffs become whole-file diffs). */
  prepareToolCall: <T extends acp.ToolCallUpdate>(toolCall: T, asPermission: boolean) => T = t => t;

  private readonly opsEmitter = this.register(new vscode.EventEmitter<readonly TranscriptOp[]>());
  private readonly metaEmitter = this.register(new vscode.EventEmitter<SessionMeta>());
  private readonly stateEmitter = this.register(new vscode.EventEmitter<void>());
  private readonly resetEmitter = this.register(new vscode.EventEmitter<void>());
  /** Every update of the session and of its children (`by`: the child's title). */
  private readonly updateEmitter = this.register(new vscode.EventEmitter<{ update: acp.SessionUpdate; by?: string }>());
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
    restored?: { items: readonly Item[]; title?: string; archived?: readonly TurnSummary[]; archiveKey?: string },
  ) {
    super();
    if (restored) {
      this.transcriptValue = Transcript.from(restored.items);
      this.metaValue = { ...EMPTY_META, title: restored.title };
      this.archivedValue = [...restored.archived ?? []];
      this.archiveKeyValue = restored.archiveKey;
    }
  }

  get items(): readonly Item[] { return this.transcriptValue.snapshot(); }
  get archived(): readonly TurnSummary[] { return this.archivedValue; }
  get archiveKey(): string | undefined { return this.archiveKeyValue; }

  /** Moves the oldest turns out of memory when the transcript holds more than its bound (common/turns). */
  private archiveOldTurns(): void {
    const old = this.transcriptValue.takeOldTurns();
    if (!old.length) return;
    this.archiveKeyValue ??= this.archive?.newKey();
    if (this.archiveKeyValue) this.archive?.write(this.archiveKeyValue, old);
    this.archivedValue.push(...old.map(summarizeTurn));
    this.archivedValue.splice(0, this.archivedValue.length - MAX_ARCHIVED_TURNS);
  }

  /** Every turn, from disk (those that left memory) then from memory, oldest first. */
  async allTurns(): Promise<{ id: string; items: readonly Item[] }[]> {
    const onDisk = this.archiveKeyValue ? await this.archive?.readAll(this.archiveKeyValue) ?? [] : [];
    return [...onDisk, ...splitTurns(this.items).map(items => ({ id: items[0].id, items }))];
  }

  /** An item of any turn, from memory or from disk. */
  async findItem(itemId: string): Promise<Item | undefined> {
    const inMemory = this.items.find(i => i.id === itemId);
    if (inMemory) return inMemory;
    for (const turn of this.archiveKeyValue ? await this.archive?.readAll(this.archiveKeyValue) ?? [] : []) {
      const item = turn.items.find(i => i.id === itemId);
      if (item) return item;
    }
    return undefined;
  }

  /** The items of one turn, from memory or from disk; empty when they are gone. */
  async turnItems(turnId: string): Promise<readonly Item[]> {
    const inMemory = splitTurns(this.items).find(t => t[0].id === turnId);
    if (inMemory) return inMemory;
    if (!this.archiveKeyValue || !this.archivedValue.some(t => t.id === turnId)) return [];
    return await this.archive?.read(this.archiveKeyValue, turnId) ?? [];
  }
  get meta(): SessionMeta { return this.metaValue; }
  get runtime(): AgentRuntime | undefined { return this.runtimeValue; }
  get busy(): boolean { return this.turn !== undefined || this.reserved; }
  /** A turn is running: the agent's requests belong to it (else they are late; see RequestGate). */
  get inTurn(): boolean { return this.turn !== undefined; }
  get allowedThisTurn(): readonly CommandKey[] { return this.turn?.allowed ?? []; }
  /** The transcript item id of a tool call in the current session. */
  toolItemId(toolCallId: string): string { return this.transcriptValue.toolItemId(toolCallId); }

  /** Held from the moment a prompt is sent until its turn starts (the session may still be opening). */
  private reserved = false;

  /** Claims the tab for one prompt; false when it is busy. */
  reserve(): boolean {
    if (this.busy) return false;
    this.reserved = true;
    this.stateEmitter.fire();
    return true;
  }

  /** Its session is being opened (`session/new`, load or resume): shown as "starting", the prompt waits. */
  private startingSession = false;

  setStarting(starting: boolean): void {
    if (this.startingSession === starting) return;
    this.startingSession = starting;
    this.stateEmitter.fire();
  }

  release(): void {
    if (!this.reserved) return;
    this.reserved = false;
    this.stateEmitter.fire();
  }
  get waiting(): boolean { return this.permissions.size > 0 || this.questions.ids.length > 0; }
  /** The child agent the oldest unanswered permission request (else question) comes from, if it comes from one. */
  private get waitingIn(): string | undefined {
    return this.permissions.size ? this.permissions.values().next().value?.from : this.questions.waitingIn;
  }

  get info(): TabInfo {
    return {
      id: this.id,
      title: this.metaValue.title || this.firstPromptTitle() || vscode.l10n.t({ message: '{0} chat', args: [this.agentName], comment: 'Title of a conversation tab; {0} is the agent' }),
      agentName: this.agentName,
      ...(this.waitingIn ? { waitingIn: this.waitingIn } : {}),
      // A prompt held for a session that is not open yet (the agent or its session is starting) is "starting".
      state: this.waiting ? 'waiting' : this.startingSession || (this.reserved && !this.runtimeValue?.isRunning) ? 'starting'
        : this.busy ? 'busy' : this.runtimeValue?.isRunning ? 'idle' : 'detached',
    };
  }

  /** Binds the session to a running agent with the ACP session id and its initial state. */
  bind(runtime: AgentRuntime, sessionId: string, response?: { modes?: acp.SessionModeState | null; configOptions?: acp.SessionConfigOption[] | null } | null): void {
    if (this.runtimeValue && this.sessionId) this.runtimeValue.detach(this.sessionId);
    // Another session: the helpers of the one before are not this one's.
    if (this.sessionId !== sessionId) this.childUsage.clear();
    this.runtimeValue = runtime;
    this.sessionId = sessionId;
    // Scoped per session *and* agent process: a restarted agent may hand out the same ids again.
    this.transcriptValue.enterSession(`${runtimeSerial(runtime)}/${sessionId}`);
    if (response !== undefined) { this.replaying = false; this.archiveOldTurns(); }
    this.agentName = runtime.spec.name;
    runtime.attach(sessionId, this);
    this.setMeta(metaFromResponse(this.metaValue, response));
    this.stateEmitter.fire();
  }

  /**
   * The agent went away: pending questions are answered `cancelled`, the tab stays readable. `ended`:
   * what a running turn (or a prompt waiting for its session) says where it stopped.
   */
  unbind(ended?: string): void {
    if (this.runtimeValue && this.sessionId) this.runtimeValue.detach(this.sessionId);
    this.runtimeValue = undefined;
    this.cancelPermissions();
    if (this.turn || this.reserved || this.startingSession) {
      this.turn = undefined;
      if (ended) this.addNotice(ended);
    }
    this.stateEmitter.fire();
  }

  /** Replaces the transcript before `session/load` replays the history into it; returns the old one. */
  clearForReplay(): Transcript {
    const old = this.transcriptValue;
    this.transcriptValue = new Transcript();
    // The agent replays the whole history: the old turns come back with it.
    this.archivedBeforeReplay = this.archivedValue;
    this.archivedValue = [];
    this.replaying = true;
    this.resetEmitter.fire();
    return old;
  }

  /** `session/load` failed: the conversation as it was, and no session (the next prompt opens one). */
  restoreAfterFailedLoad(old: Transcript): void {
    this.unbind();
    this.sessionId = undefined;
    this.replaying = false;
    this.transcriptValue = old;
    this.archivedValue = this.archivedBeforeReplay;
    this.resetEmitter.fire();
  }

  /**
   * A newer copy of this restored conversation (the window's previous extension host wrote it as
   * this one started; savedChats.ts): it replaces the transcript, the surfaces re-render it.
   */
  replaceRestored(chat: { items: readonly Item[]; title?: string; archived?: readonly TurnSummary[]; archiveKey?: string; sessionId?: string }): void {
    this.transcriptValue = Transcript.from(chat.items);
    this.archivedValue = [...chat.archived ?? []];
    this.archiveKeyValue = chat.archiveKey;
    this.sessionId = chat.sessionId;
    this.queue.update(q => { for (const p of [...q.items]) q.remove(p.id); });
    this.setMeta({ ...this.metaValue, title: chat.title });
    this.resetEmitter.fire();
    this.stateEmitter.fire();
  }

  onUpdate(update: acp.SessionUpdate, afterAnswer = false): void {
    // Sent after the agent answered the prompt, though the turn has not closed here yet: shown
    // after the turn's end, as late.
    if (afterAnswer && this.turn && !this.replaying) { this.afterAnswer.push(update); return; }
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') update = this.prepareToolCall(update, false);
    this.updateEmitter.fire({ update });
    const meta = applyMetaUpdate(this.metaValue, update);
    if (meta) {
      this.setMeta(update.sessionUpdate === 'usage_update' ? this.withChildUsage(meta, meta.usage) : meta);
      return;
    }
    const between = childUpdateOps(this.transcriptValue, undefined, update, id => this.sessionName(id));
    if (between) { this.emit(between); return; }
    // After the turn ended (and outside a history replay) it is late: shown apart from the answer.
    const ops = this.transcriptValue.applyUpdate(update, (afterAnswer || !this.turn) && !this.replaying);
    if (ops.length) this.emit(ops);
  }

  /**
   * Runs one turn. Resolves when it ended (any stop reason) or failed; failures are shown in the
   * transcript, except auth_required: resolves `authRequired`, for the caller to sign in and send it
   * `again` (the user's message is then not shown twice).
   */
  async prompt(blocks: acp.ContentBlock[], displayText: string, again = false): Promise<'authRequired' | undefined> {
    const runtime = this.runtimeValue;
    const sessionId = this.sessionId;
    if (!runtime || !sessionId) return undefined;
    if (this.turn) {
      this.emit(this.transcriptValue.addNotice(vscode.l10n.t('The agent is still working on the previous prompt. Stop it first or wait.')));
      return undefined;
    }
    const turn = { cancelled: false, allowed: [] as CommandKey[] };
    this.turn = turn;
    this.reserved = false;
    this.lastPrompt = blocks;
    const user = again ? undefined : this.transcriptValue.addUser(displayText);
    if (user) this.emit(user);
    this.stateEmitter.fire();
    this.turnEmitter.fire('start');
    this.queue.turnStarted();
    let how: 'ended' | 'stopped' | 'failed' | undefined = 'failed';
    try {
      if (user?.[0].op === 'add') await this.beforeTurn(user[0].item.id);
      // Stopped while the checkpoint was taken: the prompt is never sent.
      const result = turn.cancelled ? { stopReason: 'cancelled' as const } : await runtime.prompt(sessionId, blocks);
      // The SDK resolves a response a few microtasks before it dispatches notifications that came
      // earlier on the wire: let those land first, so the turn's last chunks are not shown after its end.
      await new Promise(resolve => setImmediate(resolve));
      this.emit(this.transcriptValue.endTurn(result.stopReason, this.workingChildren()));
      how = turn.cancelled ? 'stopped' : 'ended';
    } catch (err) {
      if (isAuthRequired(err)) { how = undefined; return 'authRequired'; }
      // A crash is reported by the controller with the agent's last words; don't report it twice.
      // The connection may notice the closed pipe a moment before the exit event arrives.
      await Promise.race([runtime.exited, delay(1000)]);
      if (runtime.isRunning) {
        this.emit(this.transcriptValue.addError(vscode.l10n.t('The prompt failed: {0}', describe(err)), errorDetails(err), ['retry', 'showLog']));
      } else if (turn.cancelled) {
        this.emit(this.transcriptValue.endTurn('cancelled'));
        how = 'stopped';
      }
    } finally {
      if (this.turn === turn) this.turn = undefined;
      for (const update of this.afterAnswer.splice(0)) this.onUpdate(update, true);
      // A child still at work keeps its requests open: the parent's turn end is not its end.
      const working = this.workingChildren();
      // A question about a request sent after the answer (asked while the turn was ending) stays.
      this.cancelPermissions((child, late) => !late && (child === undefined || !working.has(child)));
      for (const notice of this.afterTurnNotices.splice(0)) this.addNotice(notice);
      const held = how && this.queue.turnEnded(how);
      if (held) this.addNotice(held);
      this.archiveOldTurns();
      this.stateEmitter.fire();
      this.turnEmitter.fire('end');
    }
    return undefined;
  }

  /** Stop: `session/cancel`; the agent then ends the turn with stopReason "cancelled". */
  async cancel(): Promise<void> {
    const runtime = this.runtimeValue;
    if (!this.turn || !runtime || !this.sessionId) return;
    this.turn.cancelled = true;
    // The protocol requires every pending permission request to be answered `cancelled` after a cancel.
    this.cancelPermissions();
    // Every child still at work that offers `cancel` is stopped with it (the agent may stop the others itself).
    const children = runtime.children.registry.workingChildrenOf(this.sessionId).filter(c => c.canCancel);
    await Promise.all([this.sessionId, ...children.map(c => c.sessionId)].map(id => runtime.cancel(id).catch(err => this.log.warn(`session/cancel failed: ${describe(err)}`))));
  }

  /** Stop on a child's card: `session/cancel` for that child only (when it offered `cancel`). */
  async cancelChild(childId: string): Promise<void> {
    const runtime = this.runtimeValue;
    const child = runtime?.children.registry.get(childId);
    if (!runtime || !this.sessionId || !child?.canCancel || runtime.children.registry.rootOf(childId) !== this.sessionId) return;
    // As after any cancel, its pending requests are answered `cancelled`.
    this.cancelPermissions(c => c === childId);
    await runtime.cancel(childId).catch(err => this.log.warn(`session/cancel failed: ${describe(err)}`));
  }

  /** True when `sessionId` is a child agent of this conversation's session (its writes are this conversation's). */
  hasChild(sessionId: string): boolean {
    return !!this.sessionId && this.runtimeValue?.children.registry.rootOf(sessionId) === this.sessionId;
  }

  /** The title of child agent `sessionId` of this conversation; undefined for anything else. */
  childTitle(sessionId: string): string | undefined {
    return this.hasChild(sessionId) ? this.runtimeValue?.children.registry.get(sessionId)?.title : undefined;
  }

  private workingChildren(): Set<string> {
    const runtime = this.runtimeValue;
    return new Set(runtime && this.sessionId ? runtime.children.registry.workingChildrenOf(this.sessionId).map(c => c.sessionId) : []);
  }

  private sessionName(id: string | null | undefined): string {
    return sessionName(id, this.sessionId, this.agentName, this.runtimeValue?.children.registry);
  }

  onChild(child: ChildView): void {
    this.emit(this.transcriptValue.upsertChild(child));
    // A child that stopped working asks nothing more: what it left open is answered `cancelled`.
    if (child.state !== 'running' && child.state !== 'needsYou') this.cancelPermissions(c => c === child.sessionId);
  }

  onChildUpdate(childId: string, update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
      update = this.prepareToolCall(update, false);
      if (update.sessionUpdate === 'tool_call') this.runtimeValue?.children.noteToolCall(childId, update.toolCallId);
    }
    // Named by its child: the review lists what the child's tool calls change as the child's.
    const by = this.childTitle(childId);
    this.updateEmitter.fire(by === undefined ? { update } : { update, by });
    if (update.sessionUpdate === 'usage_update') {
      // A helper's cost adds to the conversation's, its tokens are shown beside the conversation's own.
      this.childUsage.set(childId, { used: update.used, ...(update.cost ? { cost: update.cost } : {}) });
      this.setMeta(this.withChildUsage(this.metaValue, this.ownUsage));
    }
    const ops = childUpdateOps(this.transcriptValue, childId, update, id => this.sessionName(id));
    if (ops?.length) this.emit(ops);
  }

  /** Each child's last reported usage, and the conversation's own (meta.usage shows them rolled up). */
  private readonly childUsage = new Map<string, ChildUsage>();
  private ownUsage: Usage | undefined;

  private withChildUsage(meta: SessionMeta, own: Usage | undefined): SessionMeta {
    this.ownUsage = own;
    if (!this.childUsage.size) return meta;
    const usage = rollUpUsage(own, this.childUsage.values());
    return usage ? { ...meta, usage } : meta;
  }

  elicitForChild(params: acp.CreateElicitationRequest, signal: AbortSignal, child: ChildView | undefined): Promise<acp.CreateElicitationResponse> {
    const named = child ? { ...params, message: vscode.l10n.t({ message: '{0} asks: {1}', args: [child.task ? `${child.title} (${child.task})` : child.title, String(params.message ?? '')], comment: ['A question of a helper agent: {0} names the helper and its task, {1} is its question'] }) } : params;
    if (this.turn?.cancelled) return Promise.resolve({ action: 'cancel' });
    return this.questions.ask(named, signal, false, child);
  }

  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal, from?: ChildView): Promise<acp.RequestPermissionResponse> {
    if (this.turn?.cancelled) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    params = { ...params, toolCall: this.prepareToolCall(params.toolCall, true) };
    const { id, promise } = this.ask({
      requestId: String(params.toolCall.toolCallId),
      title: shownTitle(params.toolCall.title ?? vscode.l10n.t('The agent asks for permission')),
      options: params.options,
      content: withCommand(params.toolCall, params.toolCall.content ? contentViews(params.toolCall.content) : undefined),
      late: !this.turn && !from,
      ...(from ? { from: { title: from.title, ...(from.task ? { task: from.task } : {}) } } : {}),
    }, permittedCommands(params.toolCall, process.platform !== 'win32'), from?.sessionId);
    this.permissionEmitter.fire({ itemId: id, params });
    signal.addEventListener('abort', () => this.answerPermission(id, null), { once: true });
    return promise;
  }

  /** A question of Switchboard's own in this conversation (a late request, an unasked command shown whole). */
  async confirm(question: { title: string; allow: string; deny: string; late: boolean; command?: string }): Promise<boolean> {
    const options = [{ optionId: 'allow', name: question.allow, kind: 'allow_once' as const }, { optionId: 'deny', name: question.deny, kind: 'reject_once' as const }];
    const content = question.command === undefined ? undefined : [commandView(question.command)];
    const answer = (await this.ask({ requestId: '', title: question.title, late: question.late, options, content }).promise).outcome;
    return answer.outcome === 'selected' && answer.optionId === 'allow';
  }

  /** Asks in the conversation; resolves with the chosen option id, or undefined (no answer, cancelled). */
  async choose(title: string, options: readonly acp.PermissionOption[], late = false): Promise<string | undefined> {
    const answer = (await this.ask({ requestId: '', title, late, options }).promise).outcome;
    return answer.outcome === 'selected' ? answer.optionId : undefined;
  }

  private ask(
    q: { requestId: string; title: string; options: readonly acp.PermissionOption[]; content?: ReturnType<typeof contentViews>; late: boolean; from?: { title: string; task?: string } },
    permits?: readonly CommandKey[],
    child?: string,
  ): { id: string; promise: Promise<acp.RequestPermissionResponse> } {
    // Shown for what they do: ordered by kind, names that contradict their kind flagged.
    const options = orderOptions(q.options).map(o => ({ optionId: o.optionId, name: shownTitle(o.name), kind: o.kind, ...(isMisleading(o) ? { misleading: true } : {}) }));
    const { id, ops } = this.transcriptValue.addPermission({
      requestId: q.requestId, title: q.title, options, content: q.content, ...(q.late ? { late: true } : {}), ...(q.from ? { from: q.from } : {}),
    });
    this.emit(ops);
    const promise = new Promise<acp.RequestPermissionResponse>(resolve => {
      this.permissions.set(id, { resolve, options: q.options, permits, ...(q.from ? { from: q.from.title } : {}), ...(child ? { child } : {}), ...(q.late ? { late: true } : {}) });
      this.stateEmitter.fire();
    });
    return { id, promise };
  }

  answerPermission(itemId: string, optionId: string | null): void {
    const pending = this.permissions.get(itemId);
    if (!pending) return;
    const option = optionId === null ? undefined : pending.options.find(o => o.optionId === optionId);
    if (optionId !== null && !option) return; // not one of this request's options: ignore, never cancel
    this.permissions.delete(itemId);
    // Recorded by what the option did (its kind), whatever it was called.
    this.emit(this.transcriptValue.resolvePermission(itemId, option ? escapeBidi(describeChoice(option)) : 'cancelled', option?.kind));
    if (option && isAllow(option.kind) && pending.permits) this.turn?.allowed.push(...pending.permits);
    pending.resolve(option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } });
    this.stateEmitter.fire();
  }

  /** `ownQuestion`: the agent's own question, tied to no turn (never shown as late). */
  elicit(params: acp.CreateElicitationRequest, signal: AbortSignal, ownQuestion = false): Promise<acp.CreateElicitationResponse> {
    if (this.turn?.cancelled) return Promise.resolve({ action: 'cancel' });
    return this.questions.ask(params, signal, !ownQuestion && !this.turn);
  }

  answerQuestion(itemId: string, action: QuestionAction, values?: Readonly<Record<string, RawValue>>): Promise<void> {
    return this.questions.answer(itemId, action, values);
  }

  completeElicitation(elicitationId: string): boolean {
    return this.questions.complete(elicitationId);
  }

  /** The open elicitations, oldest first (for the status bar). */
  get pendingQuestionIds(): string[] {
    return this.questions.ids;
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

  /** The session's one mode picker (a `mode` config option supersedes the legacy modes). */
  get modeControl(): ModeControl | undefined {
    return modeControl(this.metaValue);
  }

  /** Switches the mode through that picker: session/set_config_option, else session/set_mode. */
  async switchMode(modeId: string): Promise<void> {
    const control = this.modeControl;
    if (control?.via === 'config' && control.configId !== undefined) await this.setConfigOption(control.configId, modeId);
    else if (control) await this.setMode(modeId);
  }

  addError(message: string, details: string | undefined, actions: readonly ItemAction[]): void {
    this.emit(this.transcriptValue.addError(message, details, actions));
  }

  addNotice(text: string): void {
    this.emit(this.transcriptValue.addNotice(text));
  }

  /** A notice that must not cut the agent's answer in two: shown now, or when the running turn ends. */
  addNoticeAfterTurn(text: string): void {
    if (this.turn) this.afterTurnNotices.push(text);
    else this.addNotice(text);
  }

  /** A message the user sent into the running turn (steering): shown where it was delivered. */
  addSteered(text: string): void {
    this.emit(this.transcriptValue.addUser(text));
  }

  override dispose(): void {
    // Read before unbind, which forgets the turn: a turn still running ends here for everyone
    // listening (the review stops attributing to it); its prompt's own end comes after the
    // listeners are gone.
    const running = this.turn !== undefined;
    this.unbind();
    if (running) this.turnEmitter.fire('end');
    super.dispose();
  }

  /** Answers the pending requests `cancelled`: all, or those whose asker (a child's session id, undefined: the conversation's agent) `which` picks. */
  private cancelPermissions(which: (child: string | undefined, late: boolean) => boolean = () => true): void {
    for (const [id, p] of [...this.permissions]) if (which(p.child, p.late === true)) this.answerPermission(id, null);
    this.questions.cancelAll(child => which(child, false));
  }

  private setMeta(meta: SessionMeta): void {
    const titleChanged = meta.title !== this.metaValue.title;
    this.metaValue = meta;
    this.metaEmitter.fire(meta);
    if (titleChanged) this.stateEmitter.fire();
  }

  private firstPromptTitle(): string | undefined {
    // The first prompt, though its turn went out of memory (its summary stays).
    const archived = this.archivedValue.find(t => t.prompt);
    const first = this.items.find(i => i.kind === 'user');
    if (!archived && (!first || first.kind !== 'user')) return undefined;
    const line = archived ? archived.prompt : (first as Extract<Item, { kind: 'user' }>).text.split('\n')[0].trim();
    return line.length > 40 ? line.slice(0, 40) + '…' : line;
  }

  private emit(ops: readonly TranscriptOp[]): void {
    if (ops.length) this.opsEmitter.fire(ops);
  }
}

/**
 * The command a permission request asks to run (its raw input's `command`), shown whole on the card
 * unless its title already is exactly that line: a title may say less than the command does.
 */
function withCommand(toolCall: { title?: string | null; rawInput?: unknown }, content: ReturnType<typeof contentViews> | undefined): ReturnType<typeof contentViews> | undefined {
  const raw = toolCall.rawInput as { command?: unknown; cmd?: unknown } | null | undefined;
  const command = raw && typeof raw === 'object' ? raw.command ?? raw.cmd : undefined;
  const line = typeof command === 'string' ? command
    : Array.isArray(command) && command.length && command.every(a => typeof a === 'string') ? commandLine(command[0], command.slice(1)) : undefined;
  if (!line?.trim()) return content;
  const title = (toolCall.title ?? '').trim();
  if (!/[\r\n]/.test(line) && (title === line.trim() || title === `\`${line.trim()}\``)) return content;
  return [commandView(line), ...content ?? []];
}

const serials = new WeakMap<AgentRuntime, number>();
let nextSerial = 1;
function runtimeSerial(runtime: AgentRuntime): number {
  let n = serials.get(runtime);
  if (n === undefined) serials.set(runtime, (n = nextSerial++));
  return n;
}

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** The message of a thrown value (common/errorText.ts). */
export const describe = errorMessage;

function errorDetails(err: unknown): string | undefined {
  const data = (err as { data?: unknown } | undefined)?.data;
  if (data === undefined || data === null) return undefined;
  return typeof data === 'string' ? data : JSON.stringify(data, null, 2);
}
