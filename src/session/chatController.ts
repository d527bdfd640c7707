// The chat's brain: which conversations (tabs) exist, which one is shown, and which agent each one
// talks to. Each conversation is bound to one agent; each agent has one process (an AgentRuntime),
// shared by the conversations bound to it, kept by the AgentPool (session/agentPool: start, stop,
// idle stop, crash, status; docs/decisions/0024, 0028). What a change means
// for the other conversations (ask before stopping, which turns end and say so, ask before another
// agent takes a conversation) is decided by the pure lifecycle model (common/conversation/lifecycle).
// Every failure ends up in the conversation with what the user can do next (restart, settings,
// sign in), and nothing is ever allowed on the user's behalf.
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { AgentIdentity, ConnectionServicesFactory } from '../acp/clientServices';
import type { AgentSpec } from '../common/agentConfig';
import { Disposable } from '../common/disposable';
import { isAuthRequired, MAX_SIGN_INS } from '../common/signIn';
import type { Logger } from '../common/logger';
import type { ChatStatus, PastedImage, PromptAbilities, QueueAction, QueueView, TabInfo } from '../common/protocol';
import type { SessionMeta } from '../common/sessionMeta';
import { LifecycleEvent, LifecycleState, transition, type Transition } from '../common/conversation/lifecycle';
import { runtimeOfConversation, turnOf } from '../common/conversation/binding';
import type { Item, ItemAction, TranscriptOp } from '../common/transcript';
import { pickAgent } from '../host/agentPicker';
import { completeWalkthroughStep } from '../host/walkthrough';
import { openSettings, readAgents, readStartInAskingMode, Settings } from '../host/config';
import { startMode } from '../common/agentModes';
import { mcpForSession } from '../host/mcp';
import { buildPrompt } from '../host/promptBuilder';
import type { ToolDiffs } from '../host/toolDiffs';
import { agentForPrompt } from './agentGuard';
import { finishFork, forkTitle, requestFork } from './fork';
import { forkSummary } from '../common/conversation/forkSummary';
import { restoreDrafts, type DraftBook } from '../common/conversation/drafts';
import type { BoxState } from '../common/protocol';
import type { AgentRuntime } from './agentRuntime';
import { AgentPool } from './agentPool';
import { ConversationTabs } from './conversationTabs';
import { ChatSession, describe } from './chatSession';
import { Draft, SavedChats } from './savedChats';
import { QueueRunner } from './queuedPrompts';
import type { QuestionAction } from './questions';
import type { RawValue } from '../common/elicitation';
import type { SignIn } from './signIn';
import type { ModeChoices } from './modeChoices';

/** What the controller asks the user in a modal dialog; tests replace `confirm` (like the agent picker's `pick`). */
export interface ChatUi {
  confirm(message: string, detail: string | undefined, action: string): Promise<boolean>;
}

export class ChatController extends Disposable {
  /** The agent processes: one per agent, shared by the conversations bound to it (session/agentPool). */
  private readonly pool: AgentPool;
  /** The conversations (tabs), the shown one, their events and their saving (session/conversationTabs). */
  private readonly tabs: ConversationTabs;

  private readonly statusEmitter = this.register(new vscode.EventEmitter<ChatStatus>());
  /** Each conversation's draft (common/conversation/drafts); a prompt sent that has not reached its agent yet is held as one. */
  private drafts!: DraftBook;
  /** Modal questions (stop an agent other conversations use, another agent for a conversation). */
  readonly ui: ChatUi = {
    confirm: async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
  };
  private readonly queue: QueueRunner<ChatSession>;
  readonly onStatus = this.statusEmitter.event;
  private readonly draftsEmitter = this.register(new vscode.EventEmitter<void>());
  /** A draft changed (typed, held, given back, forgotten). */
  readonly onDrafts = this.draftsEmitter.event;
  private readonly draftTakenEmitter = this.register(new vscode.EventEmitter<{ tab: string; surface: string; draft: Draft; over: BoxState }>());
  /** A draft the window's previous extension host wrote after this one loaded was taken into prompt box `surface` of `tab` (`over`: what it held here). */
  readonly onDraftTaken = this.draftTakenEmitter.event;
  /** The queued messages of a tab changed (its id). */
  get onQueue(): vscode.Event<string> { return this.tabs.onQueue; }
  /** Turns starting and ending in any tab. */
  get onTurn(): vscode.Event<{ tab: ChatSession; phase: 'start' | 'end' }> { return this.tabs.onTurn; }
  /** Every session/update of any tab, before the transcript applies it (`by`: the child agent whose update it is). */
  get onUpdate(): vscode.Event<{ tab: ChatSession; update: acp.SessionUpdate; by?: string }> { return this.tabs.onUpdate; }
  /** Transcript changes of any tab, in order. */
  get onOps(): vscode.Event<{ tab: string; ops: readonly TranscriptOp[] }> { return this.tabs.onOps; }
  get onMeta(): vscode.Event<{ tab: string; meta: SessionMeta }> { return this.tabs.onMeta; }
  /** Tabs added, removed, renamed, or their busy/waiting state changed. */
  get onTabs(): vscode.Event<void> { return this.tabs.onTabs; }
  /** A tab's transcript was replaced (its id): the surfaces showing it re-render from scratch. */
  get onReset(): vscode.Event<string> { return this.tabs.onReset; }
  /** Surfaces now show another conversation (their ids). */
  get onShown(): vscode.Event<readonly string[]> { return this.tabs.onShown; }
  /** Which conversation each chat surface shows; the current one is the used-last surface's (session/conversationTabs). */
  get surfaces(): ConversationTabs['surfaces'] { return this.tabs.surfaces; }

  /** Runs before each turn's prompt is sent (the checkpoint of the files, host/checkpoints). */
  beforeTurn: (tab: ChatSession, itemId: string) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly log: Logger,
    private readonly showLog: () => void,
    services: ConnectionServicesFactory,
    /** Where the conversations are kept across a reload (tests read it as a new window would). */
    readonly saved: SavedChats,
    diffs: ToolDiffs,
    private readonly signIn: SignIn,
    private readonly modeChoices?: ModeChoices,
    /** Machine-wide memory (globalState): the package-runner launches that started once (their next start downloads nothing). */
    machine?: vscode.Memento,
  ) {
    super();
    this.pool = new AgentPool(log, services, signIn, {
      lifecycle: () => this.lifecycle(),
      holding: agent => this.sessions.some(t => t.agentName === agent && (t.busy || t.waiting)),
      of: runtime => ({ bound: this.sessions.filter(t => t.runtime === runtime), ofAgent: this.sessions.filter(t => t.agentName === runtime.spec.name) }),
      shown: () => this.active,
      detach: (t, runtime) => { this.endTurns(t, runtime); this.tabs.endOwnQuestions(runtime.spec.name); },
      ownQuestions: agentName => this.tabs.ownQuestions(agentName),
    }, machine);
    this.pool.onStatus(() => this.statusEmitter.fire(this.status));
    this.tabs = new ConversationTabs(log, saved, diffs, {
      beforeTurn: (tab, itemId) => this.beforeTurn(tab, itemId),
      turned: agentName => this.pool.watchIdle(agentName),
    });
    this.queue = new QueueRunner(async (tab, p) => ((await this.sendIn(tab, p.text, p.mentions, p.images)) === 'sent' ? 'sent' : 'notSent'), log);
    this.tabs.restore();
    const { drafts, legacy } = saved.drafts.load();
    this.drafts = restoreDrafts(drafts, legacy, this.sessions.map(t => t.id), this.activeTab);
    // The window's previous extension host may still write its last keystrokes (savedDrafts.ts).
    saved.drafts.follow(this.drafts, (tab, draft, surface) => {
      const was = this.draftOf(tab, surface);
      this.setDraft(draft, tab, surface);
      this.draftTakenEmitter.fire({ tab, surface, draft, over: { text: was?.text ?? '', images: was?.images.length ?? 0 } });
    });
    this.register(this.onTabs(() => { if (this.drafts.keepOnly(this.sessions.map(t => t.id))) this.draftsChanged(); }));
  }

  // ---- what the view and the tests read -------------------------------------------------------

  /** What is in the prompt box of the current conversation, not sent yet. */
  get draft(): Draft | undefined { return this.drafts.get(this.activeTab); }
  /** What is in the prompt box for conversation `tab`, not sent yet (kept for a new page, a switch of conversation, a reload); `surface`: the page's key (each keeps its own). */
  draftOf(tab: string, surface?: string): Draft | undefined { return this.drafts.get(tab, surface); }
  setDraft(draft: Draft, tab = this.activeTab, surface?: string): void {
    // A page's last text for a conversation closed meanwhile is not kept.
    if (!this.tabs.get(tab)) return;
    this.drafts.set(tab, draft, surface);
    this.draftsChanged();
  }

  /** A prompt sent from the prompt box waits for its agent (a choice, a start): a reload or a window close brings it back. */
  private holdUnsent(tab: string, prompt: Draft): Draft {
    this.drafts.hold(tab, prompt);
    this.draftsChanged();
    return prompt;
  }

  /** The held prompt reached its agent (`sent`), or goes back into the prompt box (the view restores it, the draft keeps it). */
  private releaseUnsent(tab: string, prompt: Draft, sent: boolean): void {
    if (this.drafts.release(tab, prompt, sent)) this.draftsChanged();
  }

  private draftsChanged(): void {
    this.saved.drafts.save(this.drafts);
    this.draftsEmitter.fire();
  }

  /** The agent picker; while it is open the status says it waits for the user's choice. */
  async pickAgent(useDefault: boolean): Promise<AgentSpec | undefined> {
    const before = this.status;
    const waiting = vscode.l10n.t('Waiting for you to choose an agent…');
    const show = (value: ChatStatus) => { this.pool.lastStatus = value; this.statusEmitter.fire(this.status); };
    const picking = this.picking;
    this.picking = true;
    try {
      return await pickAgent({ useDefault, onShow: () => show({ ...before, detail: waiting }) });
    } finally {
      this.picking = picking;
      // Nothing else changed the status meanwhile: it says again what it said.
      if (this.pool.lastStatus.detail === waiting) show(before);
    }
  }

  /** The picker is open: the status says the chat waits for the user's choice, whatever the shown tab's agent. */
  private picking = false;

  /** The status of the current conversation's agent (while the picker is open, or for a conversation with no agent yet: the last one set). */
  get status(): ChatStatus { return this.statusOf(this.tabs.shownId); }
  /** The status of conversation `tabId`'s agent (a surface shows its own conversation's). */
  statusOf(tabId: string): ChatStatus {
    const name = this.tabs.get(tabId)?.agentName;
    return (!this.picking && name && this.pool.statusOf(name)) || this.pool.lastStatus;
  }
  /** True when Switchboard keeps keys for `agentName` (a sign-in done here). */
  hasSignInKeys(agentName: string): Promise<boolean> { return this.signIn.hasKeys(agentName); }
  get active(): ChatSession { return this.tabs.active; }
  get activeTab(): string { return this.tabs.shownId; }
  /** The shown conversation. */
  get items(): readonly Item[] { return this.active.items; }
  get tabInfos(): TabInfo[] { return this.tabs.infos; }
  get sessions(): readonly ChatSession[] { return this.tabs.all; }
  /** The shown conversation's agent's process id, else the one started last (shown in the log; used by tests to prove cleanup). */
  get agentPid(): number | undefined { return this.runtime?.process.pid; }
  /** The process id of the agent named `name`, while it runs. */
  agentPidOf(name: string): number | undefined {
    return this.pool.running(name)?.process.pid;
  }
  /** The shown conversation's agent if it runs, else the one started last, if it runs. */
  get runningAgent(): AgentSpec | undefined { return this.runtime?.spec; }
  /** Every agent running now (what Update / Remove Agent must stop before replacing its files). */
  get runningAgents(): AgentSpec[] { return this.pool.allRunning.map(r => r.spec); }

  /** The runtime of the shown conversation's agent, else the one started last; running only. */
  private get runtime(): AgentRuntime | undefined {
    return runtimeOfConversation(this.active.agentName, this.pool.get(this.active.agentName), this.pool.last);
  }
  get sessionId(): string | undefined { return this.active.sessionId; }

  get abilities(): PromptAbilities { return this.abilitiesOf(this.tabs.shownId); }
  /** What conversation `tabId`'s agent accepts in prompts. */
  abilitiesOf(tabId: string): PromptAbilities {
    const name = this.tabs.get(tabId)?.agentName ?? '';
    const runtime = runtimeOfConversation(name, this.pool.get(name), this.pool.last);
    const caps = runtime?.isRunning ? runtime.capabilities.promptCapabilities : undefined;
    return { image: !!caps?.image, embeddedContext: !!caps?.embeddedContext };
  }

  /**
   * Conversation `tabId`, else (none named: a command) the current one. A conversation named but
   * closed meanwhile (the page still showed it) is none: what was meant for it acts on no other.
   */
  private tabOr(tabId: string | undefined, what: string): ChatSession | undefined {
    if (tabId === undefined) return this.active;
    const tab = this.tabs.get(tabId);
    if (!tab) this.log.info(`Ignored ${what}: conversation ${tabId} is closed.`);
    return tab;
  }

  /**
   * The conversation of session `sessionId` on the agent connection `agent` (session ids are the
   * agent's own: another agent, or an earlier process of this one, may use the same).
   */
  tabOfSession(agent: AgentIdentity, sessionId: string): ChatSession | undefined {
    const mine = this.sessions.filter(s => s.runtime?.identity === agent);
    // A child agent's session (subagents) is served in the conversation of its top-level session.
    return mine.find(s => s.sessionId === sessionId) ?? mine.find(s => s.hasChild(sessionId));
  }

  /** Tabs with an unanswered permission request (for the status bar when the view is hidden). */
  get waitingTabs(): ChatSession[] { return this.sessions.filter(s => s.waiting); }

  // ---- agent lifecycle ---------------------------------------------------------------------------

  /**
   * Starts an agent (`spec`, else the shown conversation's, else the default or the user's pick) and
   * a session in the shown tab. Another agent for a conversation with history asks first, then gets
   * a new conversation; other agents are never stopped for it.
   */
  async start(spec?: AgentSpec): Promise<boolean> {
    let tab = this.active;
    if (spec && tab.agentName !== spec.name) {
      const t = this.decide({ type: 'agentChosen', conversation: tab.id, agent: spec.name });
      const ask = t.effects.find(e => e.type === 'confirmSwitch');
      if (ask) {
        const go = vscode.l10n.t('Start a New Conversation');
        const ok = await this.ui.confirm(
          vscode.l10n.t('This conversation is with {0}. Continue with {1} in a new conversation?', tab.agentName, spec.name),
          vscode.l10n.t('{0} does not see this conversation; it stays with {1}, which keeps running.', spec.name, tab.agentName), go);
        if (!ok) return false;
        tab = this.tabs.open(this.tabs.newTab(spec.name));
      } else {
        // A fresh conversation takes the agent chosen last, even while another one starts for it.
        this.rebind(tab, spec.name);
      }
    }
    const runtime = await this.ensureRuntime(spec, tab);
    return !!runtime && (await this.ensureSession(tab, runtime));
  }

  /** Restarts the shown conversation's agent (asks first when its turns run in other conversations). */
  async restart(): Promise<boolean> {
    const spec = this.runtime?.spec ?? this.specForActiveTab() ?? this.pool.lastSpec;
    if (spec && !(await this.stopAgent(spec.name))) return false;
    return this.start(spec);
  }

  /** Ends every agent process for sure; resolves when they are gone. Tabs stay, detached. */
  async stop(): Promise<void> {
    await this.pool.stopAll();
  }

  /**
   * Stop Agent: the shown conversation's agent (else `name`). When its turns run in other
   * conversations the user is asked first. False: the user kept it running.
   */
  async stopAgent(name = this.active.agentName || this.pool.last?.spec.name): Promise<boolean> {
    if (!name) return true;
    const asked = this.decide({ type: 'stopAsked', agent: name, from: this.tabs.shownId });
    const confirm = asked.effects.find(e => e.type === 'confirmStop');
    if (confirm?.type === 'confirmStop') {
      const titles = confirm.conversations.map(id => `“${this.tabs.get(id)?.info.title ?? id}”`).join(', ');
      const ok = await this.ui.confirm(
        vscode.l10n.t('Stop {0}? It is working in other conversations.', name),
        vscode.l10n.t('Their turns end where they are: {0}.', titles), vscode.l10n.t('Stop {0}', name));
      if (!ok) return false;
    }
    await this.pool.stopWhenStarted(name);
    return true;
  }

  /** Ends the agent `name` without asking (Update / Remove Agent asked already); resolves when it is gone. */
  stopAgentProcess(name: string): Promise<void> {
    return this.pool.stopWhenStarted(name);
  }

  /**
   * The agent's process went away (`t`: the model's transition for it): its conversations are
   * detached, and each turn that ends this way says so where it stopped, never a silent freeze.
   */
  private endTurns(t: Transition, runtime: AgentRuntime): void {
    const name = runtime.spec.name;
    const ended = new Set(t.effects.flatMap(e => (e.type === 'turnEndedBy' ? [e.conversation] : [])));
    for (const tab of this.sessions) {
      if (tab.runtime !== runtime) continue;
      tab.unbind(ended.has(tab.id) && t.effects.some(e => e.type === 'kill')
        ? vscode.l10n.t('{0} was stopped: this turn ended here, unfinished.', name) : undefined);
    }
  }

  /** The model's view of every conversation and agent now, and what `event` would change (pure; nothing is run). */
  private decide(event: LifecycleEvent): Transition {
    return transition(this.lifecycle(), event);
  }

  /** The conversations and agents as the lifecycle model sees them (common/conversation/lifecycle). */
  lifecycle(): LifecycleState {
    return {
      agents: this.pool.agentStates(),
      conversations: this.sessions.map(t => ({
        id: t.id, agent: t.agentName, ...(t.sessionId ? { sessionId: t.sessionId } : {}),
        attached: !!t.runtime?.isRunning && !!t.sessionId,
        hasHistory: t.items.some(i => i.kind === 'user') || t.archived.length > 0,
        ...turnOf({ waiting: t.waiting, inTurn: t.inTurn, busy: t.busy, permissions: t.pendingPermissionIds.length, questions: t.pendingQuestionIds.length }),
      })),
    };
  }

  /** A conversation without history takes another agent: its session on the old one is released. */
  private rebind(tab: ChatSession, agentName: string): void {
    if (tab.agentName === agentName) return;
    if (tab.runtime && tab.sessionId) tab.runtime.releaseSession(tab.sessionId);
    tab.unbind();
    tab.sessionId = undefined;
    tab.agentName = agentName;
    this.tabs.changed();
    // The status line of each surface showing it follows its agent.
    this.statusEmitter.fire(this.status);
  }

  // ---- conversation ------------------------------------------------------------------------------

  /**
   * Sends a prompt in tab `tabId` (else the current one) and resolves when its turn ended. Resolves
   * with `'notSent'` when the prompt never reached the agent (busy, agent not started, content
   * refused), so the view can give the text back to the user; `'closed'` when conversation `tabId`
   * was closed meanwhile (the prompt goes to no other).
   */
  async sendPrompt(text: string, mentions: readonly string[] = [], images: readonly PastedImage[] = [], tabId?: string): Promise<'sent' | 'notSent' | 'queued' | 'closed'> {
    if (!text.trim() && !images.length) return 'notSent';
    const tab = this.tabOr(tabId, 'a prompt');
    if (!tab) return 'closed';
    // Typed while the agent works (or its session still opens): queued, sent when the turn ends.
    if (tab.busy) {
      this.queue.add(tab, { text, mentions, images });
      return 'queued';
    }
    return this.sendIn(tab, text, mentions, images, true);
  }

  /** A prompt in `tab`; resolves when its turn ended. Afterwards the tab's queue goes on. `typed`: from the prompt box (kept until it reaches the agent). */
  private async sendIn(tab: ChatSession, text: string, mentions: readonly string[], images: readonly PastedImage[], typed = false): Promise<'sent' | 'notSent' | 'closed'> {
    // Claimed at once: a second Enter while the session is still opening must not open another.
    if (!tab.reserve()) return 'notSent';
    let sent = false;
    let onItsWay = false;
    const held = typed ? this.holdUnsent(tab.id, { text, mentions, images }) : undefined;
    try {
      // The conversation stays with its agent: another one takes over only when the user says so.
      const agent = this.pool.running(tab.agentName)?.spec ?? (await agentForPrompt(tab));
      if (!agent) return 'notSent';
      const runtime = await this.ensureRuntime(agent === 'pick' ? undefined : agent, tab);
      if (!runtime || !(await this.ensureSession(tab, runtime))) return 'notSent';
      const built = await buildPrompt(text, mentions, images, runtime.capabilities.promptCapabilities ?? {});
      if ('refused' in built) {
        tab.addNotice(built.refused);
        return 'notSent';
      }
      // Closed while its agent started or its session opened: the prompt goes to no one (the view gives it back).
      if (!this.tabs.get(tab.id)) {
        if (held) this.releaseUnsent(tab.id, held, true);
        // The session opened for no one: closed where the agent offers it, then released.
        if (tab.sessionId) await this.endSession(runtime, tab.sessionId, true);
        return 'closed';
      }
      // On its way to the agent: from here on the conversation holds it.
      if (held) this.releaseUnsent(tab.id, held, true);
      onItsWay = true;
      sent = await this.runPrompt(tab, built.blocks, text);
      return sent ? 'sent' : 'notSent';
    } catch (err) {
      // Any failure before the agent has it (not only the foreseen ones): given back like every
      // prompt not sent (into the prompt box, or to the queue), never dropped.
      if (onItsWay) throw err;
      this.log.error(`A prompt could not be sent: ${describe(err)}`);
      tab.addError(vscode.l10n.t('The prompt could not be sent: {0}', describe(err)), undefined, ['showLog']);
      return 'notSent';
    } finally {
      if (held) this.releaseUnsent(tab.id, held, false);
      tab.release();
      // Sent: the queue goes on. Not sent: what was queued meanwhile waits for the next prompt.
      if (sent) this.queue.drain(tab);
      else this.queue.hold(tab);
    }
  }

  /** What the chat shows of a tab's queued messages. */
  queueView(tabId = this.tabs.shownId): QueueView | undefined {
    const tab = this.tabs.get(tabId);
    return tab && this.queue.view(tab);
  }

  /** Edit, Remove or Send now on a queued message of a tab. */
  async queueAction(tabId: string, id: string, action: QueueAction): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (tab) await this.queue.act(tab, id, action);
  }

  /** The edited text of a queued message. */
  saveQueued(tabId: string, id: string, text: string): void {
    const tab = this.tabs.get(tabId);
    if (tab) this.queue.save(tab, id, text);
  }

  /** Sign out of the running (else the shown conversation's) agent: `logout`, and its stored keys deleted. */
  async signOut(): Promise<void> {
    const runtime = this.runtime;
    const name = runtime?.spec.name ?? (this.active.agentName || this.pool.lastSpec?.name);
    // The running agent got the deleted keys in its environment: it ends; the next prompt starts it without.
    if (name && (await this.signIn.signOut(name, runtime)) && runtime) await this.pool.stop(runtime.spec.name);
  }

  /** Stop (Esc): conversation `tabId`'s (else the current one's) turn, or its agent's start under way (its process ends). */
  cancelTurn(tabId?: string): Promise<void> {
    const tab = this.tabOr(tabId, 'a Stop');
    if (!tab) return Promise.resolve();
    const abort = this.pool.startUnderWay(tab.agentName);
    if (abort && !tab.inTurn) {
      abort.abort();
      return Promise.resolve();
    }
    return tab.cancel();
  }

  /** True while the shown conversation's agent is starting (its start can be cancelled). */
  get startingAgent(): boolean { return !!this.pool.startUnderWay(this.active.agentName); }

  /** Answers a permission request of a tab (item ids are per tab; default: the shown one). */
  answerPermission(itemId: string, optionId: string | null, tabId?: string): void {
    this.tabOr(tabId, 'a permission answer')?.answerPermission(itemId, optionId);
  }

  /** Answers an elicitation card of a tab (default: the shown one). */
  answerQuestion(itemId: string, action: QuestionAction, values?: Readonly<Record<string, RawValue>>, tabId?: string): Promise<void> {
    return this.tabOr(tabId, 'an answer')?.answerQuestion(itemId, action, values) ?? Promise.resolve();
  }

  /** A button on a card of conversation `tabId` (else the current one). */
  async runAction(action: ItemAction, tabId?: string): Promise<void> {
    switch (action) {
      case 'restart': await this.restart(); break;
      case 'retry': {
        const tab = this.tabOr(tabId, 'a Retry');
        if (!tab) break;
        const blocks = tab.lastPrompt;
        const runtime = await this.ensureRuntime(undefined, tab);
        if (blocks && runtime && (await this.ensureSession(tab, runtime)) && (await this.runPrompt(tab, blocks, promptText(blocks)))) this.queue.drain(tab);
        break;
      }
      case 'openSettings': await openSettings(Settings.agents); break;
      case 'authenticate': await this.restart(); break;
      case 'showLog': this.showLog(); break;
    }
  }

  // ---- tabs and sessions -------------------------------------------------------------------------

  /** A new conversation in a new tab (an empty shown tab is reused). */
  async newConversation(): Promise<void> {
    // A tab whose prompt is on its way (its agent still starting, nothing shown yet) is not empty either.
    if (this.active.items.length > 0 || this.active.sessionId || this.active.busy) {
      // With the shown conversation's agent if it runs (else the one started last); none: the next prompt chooses.
      this.tabs.open(this.tabs.newTab(this.runtime?.spec.name ?? ''));
    }
    const runtime = this.runtime;
    if (runtime) await this.ensureSession(this.active, runtime);
  }

  /** Shows conversation `id` in surface `from` (else the surface used last); it is current. */
  selectTab(id: string, from?: string): void {
    this.tabs.select(id, from);
  }

  async closeTab(id: string): Promise<void> {
    const tab = this.tabs.get(id);
    if (!tab) return;
    // A permission still open is answered `cancelled` (never an allow), the turn cancelled, the session released.
    const effects = this.decide({ type: 'closed', conversation: id }).effects;
    if (effects.some(e => e.type === 'cancelTurn' || e.type === 'cancelRequests')) await tab.cancel();
    const runtime = tab.runtime;
    if (runtime && tab.sessionId) await this.endSession(runtime, tab.sessionId, effects.some(e => e.type === 'closeSession'));
    this.tabs.remove(tab);
  }

  /** A conversation's session ends: `session/close` (`close`, where the agent offers it), then released. */
  private async endSession(runtime: AgentRuntime, sessionId: string, close: boolean): Promise<void> {
    if (close && runtime.capabilities.sessionCapabilities?.close) {
      await runtime.connection.closeSession(sessionId).catch(err => this.log.warn(`session/close failed: ${describe(err)}`));
    }
    runtime.releaseSession(sessionId);
  }

  /**
   * Deletes a conversation: its tab closes (its session ends, `session/close` where offered) and the
   * agent deletes its copy (`session/delete`, started for it if it does not run). False: the user
   * kept it. Where the agent offers no `session/delete`, the user is told its copy stays there.
   */
  async deleteConversation(id: string): Promise<boolean> {
    const tab = this.tabs.get(id);
    if (!tab) return false;
    const { title, agentName } = tab.info;
    const ok = await this.ui.confirm(vscode.l10n.t('Delete the conversation “{0}”?', title),
      tab.sessionId ? vscode.l10n.t('It is deleted here and by {0}.', agentName) : undefined, vscode.l10n.t('Delete'));
    if (!ok) return false;
    const sessionId = tab.sessionId;
    const spec = tab.runtime?.isRunning ? tab.runtime.spec : this.specFor(tab);
    await this.closeTab(id);
    if (!sessionId || !spec) return true;
    const runtime = await this.runtimeOf(spec);
    if (!runtime) return true;
    if (!runtime.capabilities.sessionCapabilities?.delete) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} cannot delete its sessions: its copy of “{1}” stays with it.', spec.name, title));
      return true;
    }
    await runtime.connection.deleteSession(sessionId).catch(err => this.log.warn(`session/delete failed: ${describe(err)}`));
    return true;
  }

  /** Fork conversation (session/fork.ts): the shown one continues in a new tab; `summary`: primes the prompt box. Undefined: nothing to fork. */
  async forkConversation(): Promise<{ summary?: string } | undefined> {
    const from = this.active;
    const summary = forkSummary(from.items, from.info.title);
    if (!summary) return undefined;
    const forked = await requestFork(from);
    const tab = this.tabs.open(new ChatSession(this.tabs.newId(), from.agentName, this.log, undefined, { items: typeof forked === 'object' ? from.items : [], title: forkTitle(from) }));
    return finishFork(from, tab, forked) ? {} : { summary };
  }

  /** The agent's own session list (`session/list`, paged), to reopen one with load or resume. */
  async browseSessions(): Promise<void> {
    const runtime = await this.ensureRuntime(undefined);
    if (!runtime) return;
    const caps = runtime.capabilities;
    if (!caps.sessionCapabilities?.list) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} cannot list its sessions.', runtime.spec.name));
      return;
    }
    const canDelete = !!caps.sessionCapabilities.delete;
    const deleteButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete this session') };
    type Entry = vscode.QuickPickItem & { info?: acp.SessionInfo; more?: string };
    const pick = vscode.window.createQuickPick<Entry>();
    pick.title = vscode.l10n.t({ message: '{0}: sessions', args: [runtime.spec.name], comment: '{0} is the name of an agent' });
    pick.placeholder = vscode.l10n.t('Open a session of the agent');
    const entries: Entry[] = [];
    const loadPage = async (cursor?: string) => {
      pick.busy = true;
      try {
        const page = await runtime.connection.listSessions(runtime.cwd, cursor);
        const more = entries.findIndex(e => e.more !== undefined);
        if (more >= 0) entries.splice(more, 1);
        for (const info of page.sessions) {
          entries.push({
            label: info.title || info.sessionId, description: info.updatedAt ? new Date(info.updatedAt).toLocaleString() : undefined,
            detail: info.cwd, info, buttons: canDelete ? [deleteButton] : [],
          });
        }
        if (page.nextCursor) entries.push({ label: `$(ellipsis) ${vscode.l10n.t('Load more…')}`, more: page.nextCursor, alwaysShow: true });
        pick.items = entries;
      } catch (err) {
        pick.hide();
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not list the sessions of {0}: {1}', runtime.spec.name, describe(err)));
      } finally {
        pick.busy = false;
      }
    };
    pick.onDidTriggerItemButton(async e => {
      const info = e.item.info;
      if (!info) return;
      await runtime.connection.deleteSession(info.sessionId).catch(err => this.log.warn(`session/delete failed: ${describe(err)}`));
      entries.splice(entries.indexOf(e.item), 1);
      pick.items = entries;
    });
    const chosen = new Promise<acp.SessionInfo | undefined>(resolve => {
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.more) { void loadPage(item.more); return; }
        resolve(item?.info);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
    });
    pick.show();
    await loadPage();
    const info = await chosen;
    pick.dispose();
    if (info) await this.openAgentSession(runtime, info);
  }

  /** The user picked a mode (legacy modes) in conversation `tabId`: switched, and remembered for this agent. */
  async setMode(modeId: string, tabId?: string): Promise<void> {
    const tab = this.tabOr(tabId, 'a mode');
    if (!tab) return;
    try {
      await tab.setMode(modeId);
      await this.modeChoices?.remember(tab.agentName, modeId);
    } catch (err) {
      tab.addError(vscode.l10n.t('Could not switch mode: {0}', describe(err)), undefined, []);
    }
  }

  /** The user changed a config option; a pick in the `mode` option is remembered for this agent. */
  async setConfigOption(configId: string, value: string | boolean, tabId?: string): Promise<void> {
    const tab = this.tabOr(tabId, 'an option');
    if (!tab) return;
    const isMode = tab.modeControl?.via === 'config' && tab.modeControl.configId === configId && typeof value === 'string';
    try {
      await tab.setConfigOption(configId, value);
      if (isMode) await this.modeChoices?.remember(tab.agentName, value);
    } catch (err) {
      tab.addError(vscode.l10n.t('Could not change the option: {0}', describe(err)), undefined, []);
    }
  }

  /**
   * A new session starts in the mode the user picked last for this agent, else (switchboard.
   * startInAskingMode) in the agent's mode that asks before editing when it started in one that
   * writes without asking. If the agent refuses, the conversation says so.
   */
  private async startInChosenMode(tab: ChatSession): Promise<void> {
    const control = tab.modeControl;
    const target = control && startMode(control, this.modeChoices?.get(tab.agentName), readStartInAskingMode());
    if (!control || target === undefined) return;
    try {
      await tab.switchMode(target);
    } catch (err) {
      this.log.warn(`${tab.agentName}: could not switch to mode ${target}: ${describe(err)}`);
      const name = control.modes.find(m => m.id === target)?.name ?? target;
      tab.addNotice(vscode.l10n.t('{0} could not be switched to its mode “{1}” ({2}).', tab.agentName, name, describe(err)));
    }
  }

  override dispose(): void {
    this.tabs.flush();
    this.pool.dispose();
    this.tabs.dispose();
    super.dispose();
  }

  // ---- internals ---------------------------------------------------------------------------------

  /**
   * The runtime of `spec` (else of `tab`'s agent, else the default agent or the user's pick), started
   * if it does not run: one process per agent, never stopping another. A conversation with no agent
   * yet is bound to the one chosen here.
   */
  private async ensureRuntime(spec: AgentSpec | undefined, tab: ChatSession = this.active): Promise<AgentRuntime | undefined> {
    const running = this.pool.running(spec?.name ?? tab.agentName);
    if (running) return running;
    const pending = this.pool.pending(spec?.name ?? tab.agentName);
    if (pending) return pending;
    if (!this.pool.mayStart(tab)) return undefined;
    const chosen = spec ?? this.specFor(tab) ?? (await this.pickAgent(true));
    if (!chosen) return undefined;
    // Picked for a conversation that had none (or, with no history, another one): it is this conversation's agent now.
    if (tab.agentName !== chosen.name && !this.lifecycle().conversations.find(c => c.id === tab.id)?.hasHistory) this.rebind(tab, chosen.name);
    return this.pool.running(chosen.name) ?? this.pool.startOnce(chosen, tab);
  }

  /**
   * Agent `spec`'s process for work that belongs to no open conversation (delete a closed one,
   * restart an agent that has none), started if it does not run: no tab is opened, bound or
   * rebound, nothing is asked. A failed start is logged and in its status, like any start's.
   */
  private async runtimeOf(spec: AgentSpec): Promise<AgentRuntime | undefined> {
    const running = this.pool.running(spec.name);
    if (running) return running;
    const pending = this.pool.pending(spec.name);
    if (pending) return pending;
    // Where a failed start would be told: a conversation of its own that is never shown.
    const unseen = new ChatSession('', spec.name, this.log);
    try {
      return this.pool.mayStart(unseen) ? await this.pool.startOnce(spec, unseen) : undefined;
    } finally {
      unseen.dispose();
    }
  }

  /**
   * Restart from the Agents view for an agent with no conversation (crashed, or running for none):
   * it is stopped and started again, no conversation is opened for it.
   */
  async restartAgent(name: string): Promise<boolean> {
    const spec = this.pool.get(name)?.spec ?? readAgents().agents.find(a => a.name === name);
    if (!spec || !(await this.stopAgent(name))) return false;
    return !!(await this.runtimeOf(spec));
  }

  private readonly ensuring = new Map<string, { runtime: AgentRuntime; done: Promise<boolean> }>();

  /** Makes sure `tab` has a live session on `runtime` (one attempt at a time per tab). */
  private ensureSession(tab: ChatSession, runtime: AgentRuntime): Promise<boolean> {
    if (tab.runtime === runtime && tab.sessionId) return Promise.resolve(true);
    const pending = this.ensuring.get(tab.id);
    if (pending && pending.runtime !== runtime) {
      // Another agent was chosen while the session with the one before was opening (a conversation
      // without history takes the agent chosen last): once that opening ended, its session is
      // released and the conversation opens one with the chosen agent.
      return pending.done.then(() => {
        if (tab.agentName !== runtime.spec.name) this.rebind(tab, runtime.spec.name);
        return this.ensureSession(tab, runtime);
      });
    }
    if (pending) return pending.done;
    tab.setStarting(true);
    const done = this.openSessionFor(tab, runtime).finally(() => { this.ensuring.delete(tab.id); tab.setStarting(false); });
    this.ensuring.set(tab.id, { runtime, done });
    return done;
  }

  /** Opens the tab's session; when the agent answers auth_required, the user signs in and it is tried again. */
  private async openSessionFor(tab: ChatSession, runtime: AgentRuntime): Promise<boolean> {
    for (let signIns = 0; ; signIns++) {
      try {
        await this.openSession(tab, runtime);
        completeWalkthroughStep('sessionStarted');
        return true;
      } catch (err) {
        const next = isAuthRequired(err) && signIns < MAX_SIGN_INS ? await this.signInFor(tab, runtime) : undefined;
        if (next) { runtime = next; continue; }
        const auth = isAuthRequired(err);
        tab.addError(vscode.l10n.t('Could not start a session with {0}: {1}', runtime.spec.name, describe(err)), runtime.process.stderrTail.text() || undefined,
          auth ? ['authenticate', 'showLog'] : ['restart', 'showLog']);
        this.pool.setStatus('error', describe(err), runtime.spec.name);
        if (auth) await this.pool.stop(runtime.spec.name);
        return false;
      }
    }
  }

  /** Reopens the tab's old session if the agent can, else opens a new one. */
  private async openSession(tab: ChatSession, runtime: AgentRuntime): Promise<void> {
    const caps = runtime.capabilities;
    // The user's MCP servers, in session/new, load and resume alike; the conversation says which.
    const mcp = await mcpForSession(runtime.spec.name, caps.mcpCapabilities);
    const showMcp = () => { if (mcp.notice) tab.addNotice(mcp.notice); };
    if (tab.sessionId && tab.agentName === runtime.spec.name) {
      if (caps.sessionCapabilities?.resume) {
        const response = await runtime.connection.resumeSession(tab.sessionId, runtime.cwd, mcp.servers);
        tab.bind(runtime, tab.sessionId, response);
        showMcp();
        return;
      }
      if (caps.loadSession) {
        const before = tab.clearForReplay();
        tab.bind(runtime, tab.sessionId);
        try {
          const response = await runtime.connection.loadSession(tab.sessionId, runtime.cwd, mcp.servers);
          tab.bind(runtime, tab.sessionId, response);
          showMcp();
          return;
        } catch (err) {
          const id = tab.sessionId;
          tab.restoreAfterFailedLoad(before);
          // Signed in, the same session is loaded again.
          if (isAuthRequired(err)) { tab.sessionId = id; throw err; }
          tab.addNotice(vscode.l10n.t('{0} could not reopen its earlier session ({1}); a new session was started.', runtime.spec.name, describe(err)));
        }
      } else {
        tab.addNotice(vscode.l10n.t('{0} cannot reopen its earlier session; a new session was started.', runtime.spec.name));
      }
    }
    const response = await runtime.connection.newSession(runtime.cwd, mcp.servers);
    tab.bind(runtime, response.sessionId, response);
    await this.startInChosenMode(tab);
    showMcp();
    this.tabs.changed();
  }

  /** One prompt; when the agent answers auth_required, the user signs in and it is sent again. False: not answered. */
  private async runPrompt(tab: ChatSession, blocks: acp.ContentBlock[], text: string): Promise<boolean> {
    for (let signIns = 0; (await tab.prompt(blocks, text, signIns > 0)) === 'authRequired'; signIns++) {
      const runtime = tab.runtime && signIns < MAX_SIGN_INS ? await this.signInFor(tab, tab.runtime) : undefined;
      if (!runtime || !(await this.ensureSession(tab, runtime))) {
        tab.addError(vscode.l10n.t('{0} needs you to sign in: the prompt was not answered.', tab.agentName), undefined, ['retry', 'showLog']);
        return false;
      }
    }
    return true;
  }

  /** auth_required: the user signs in from the conversation. The runtime to try again on (restarted if the sign-in needs it), or undefined. */
  private async signInFor(tab: ChatSession, runtime: AgentRuntime): Promise<AgentRuntime | undefined> {
    const next = await this.signIn.offer(tab, runtime);
    if (next !== 'restart') return next === 'retry' ? runtime : undefined;
    if (this.pool.get(runtime.spec.name) === runtime) await this.pool.stop(runtime.spec.name);
    return this.ensureRuntime(runtime.spec, tab);
  }

  private async openAgentSession(runtime: AgentRuntime, info: acp.SessionInfo): Promise<void> {
    const existing = this.sessions.find(t => t.sessionId === info.sessionId && t.agentName === runtime.spec.name);
    if (existing) { this.selectTab(existing.id); return; }
    const tab = this.tabs.open(new ChatSession(this.tabs.newId(), runtime.spec.name, this.log, info.sessionId, { items: [], title: info.title ?? undefined }));
    await this.ensureSession(tab, runtime);
    this.tabs.resetView();
  }

  private specForActiveTab(): AgentSpec | undefined {
    return this.specFor(this.active);
  }

  private specFor(tab: ChatSession): AgentSpec | undefined {
    // A conversation continues with its own agent; a fresh one uses the default (or asks).
    const name = tab.agentName;
    return name ? readAgents().agents.find(a => a.name === name) : undefined;
  }
}

function promptText(blocks: readonly acp.ContentBlock[]): string {
  return blocks.map(b => (b.type === 'text' ? b.text : '')).join('');
}
