// The conversations (chat tabs): which exist, which one each chat surface shows and which one is
// current (common/conversation/surfaces: the rules; here they are applied and told), their ids, the tabs an agent's
// own questions open, what each tab's events mean for the chat (one event stream for all tabs) and
// their saving (savedChats.ts: a finished turn and a queued message at once, the rest a little
// later). Which agent a tab talks to, prompts and sessions are the ChatController's
// (docs/decisions/0028).
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { TabInfo } from '../common/protocol';
import type { SessionMeta } from '../common/sessionMeta';
import type { TranscriptOp } from '../common/transcript';
import { SurfaceSelections } from '../common/conversation/surfaces';
import { listenerGuard } from '../host/log';
import type { ToolDiffs } from '../host/toolDiffs';
import { completeWalkthroughStep } from '../host/walkthrough';
import type { AgentQuestions } from './agentRuntime';
import { ChatSession } from './chatSession';
import { isPrompt, type SavedChat, type SavedChats } from './savedChats';

/** What the tabs ask of the chat around them. */
export interface TabHooks {
  /** Runs before each turn's prompt is sent (the checkpoint of the files). */
  beforeTurn(tab: ChatSession, itemId: string): Promise<void>;
  /** A turn started or ended in a tab of agent `agentName` (its idle time begins when none holds it). */
  turned(agentName: string): void;
}

export class ConversationTabs extends Disposable {
  private readonly tabs = new Map<string, ChatSession>();
  /** Which conversation each surface shows, and the current one (what commands act on). */
  private readonly selection = new SurfaceSelections();
  private nextTab = 1;
  /** Tabs opened for an agent's own questions (tab id → agent), while no conversation started in them. */
  private readonly questionTabs = new Map<string, string>();

  private readonly opsEmitter = this.register(new vscode.EventEmitter<{ tab: string; ops: readonly TranscriptOp[] }>());
  private readonly metaEmitter = this.register(new vscode.EventEmitter<{ tab: string; meta: SessionMeta }>());
  private readonly tabsEmitter = this.register(new vscode.EventEmitter<void>());
  private readonly resetEmitter = this.register(new vscode.EventEmitter<string>());
  private readonly shownEmitter = this.register(new vscode.EventEmitter<readonly string[]>());
  private readonly turnEmitter = this.register(new vscode.EventEmitter<{ tab: ChatSession; phase: 'start' | 'end' }>());
  /** `by`: the child agent whose update it is (its title). */
  private readonly updateEmitter = this.register(new vscode.EventEmitter<{ tab: ChatSession; update: acp.SessionUpdate; by?: string }>());
  private readonly queueEmitter = this.register(new vscode.EventEmitter<string>());
  /** The queued messages of a tab changed (its id). */
  readonly onQueue = this.queueEmitter.event;
  /** Turns starting and ending in any tab. */
  readonly onTurn = this.turnEmitter.event;
  /** Every session/update of any tab, before the transcript applies it. */
  readonly onUpdate = this.updateEmitter.event;
  /** Transcript changes of any tab, in order. */
  readonly onOps = this.opsEmitter.event;
  readonly onMeta = this.metaEmitter.event;
  /** Tabs added, removed, renamed, or their busy/waiting state changed. */
  readonly onTabs = this.tabsEmitter.event;
  /** A tab's transcript was replaced (its id): the surfaces showing it re-render from scratch. */
  readonly onReset = this.resetEmitter.event;
  /** Surfaces now show another conversation (their ids): they re-render from scratch. */
  readonly onShown = this.shownEmitter.event;

  private guardValue: ReturnType<typeof listenerGuard> | undefined;
  /** Runs a listener of the agent's updates on its own (host/log.ts). */
  private get guard(): ReturnType<typeof listenerGuard> { return (this.guardValue ??= listenerGuard(this.log)); }

  constructor(
    private readonly log: Logger,
    private readonly saved: SavedChats,
    private readonly diffs: ToolDiffs,
    private readonly hooks: TabHooks,
  ) {
    super();
    saved.onArrival = (chat, into) => this.arrive(chat, into);
  }

  /**
   * The conversations of the last window, each with its agent, session and queued messages (held,
   * not sent), and a notice that says so; the last one is shown. None saved: one empty tab.
   */
  restore(): void {
    for (const chat of this.saved.load()) this.restored(this.add(new ChatSession(chat.id, chat.agentName, this.log, chat.sessionId, chat)), chat);
    this.selection.restore(this.tabs.size ? [...this.tabs.keys()].pop()! : this.add(this.newTab('')).id);
    this.saved.loaded(() => this.all);
  }

  /** A restored conversation's notices and queued messages (held, not sent). */
  private restored(tab: ChatSession, chat: SavedChat): void {
    tab.addNotice(vscode.l10n.t('Restored from the previous window. Send a prompt to continue with the agent.'));
    const queued = (chat.queued ?? []).filter(isPrompt);
    if (queued.length) {
      tab.queue.update(q => { for (const p of queued) q.add(p); q.pause(); });
      tab.addNotice(queued.length === 1
        ? vscode.l10n.t('The message you queued before the reload was not sent: it stays queued and follows your next prompt, or use Send now.')
        : vscode.l10n.t('The {0} messages you queued before the reload were not sent: they stay queued and follow your next prompt, or use Send now.', queued.length));
    }
    this.nextTab = Math.max(this.nextTab, Number(tab.id.replace(/\D/g, '')) + 1 || 1);
  }

  /**
   * A conversation the window's previous extension host wrote as this one started (savedChats.ts):
   * the newer copy of tab `into` (not changed here since it was restored), shown in its place; or a
   * tab of its own (one created just before the reload, or the other copy of a conversation both
   * hosts changed).
   */
  private arrive(chat: SavedChat, into: string | undefined): ChatSession | undefined {
    const same = into === undefined ? undefined : this.tabs.get(into);
    if (same) {
      same.replaceRestored(chat);
      this.restored(same, chat);
      return same;
    }
    const tab = this.add(new ChatSession(this.tabs.has(chat.id) ? this.newId() : chat.id, chat.agentName, this.log, chat.sessionId, chat));
    this.restored(tab, chat);
    this.changed();
    return tab;
  }

  /** The current conversation: the one shown in the surface used last (what commands act on). */
  get active(): ChatSession { return this.tabs.get(this.selection.current)!; }
  get shownId(): string { return this.selection.current; }

  /** The chat's surfaces (the side bar's view, editor tabs) and which conversation each shows. */
  readonly surfaces = {
    /** Surface `id` appeared, with the conversation it saved (after a reload): what it shows. */
    attach: (id: string, saved: string | undefined): string => this.selection.attach(id, saved, [...this.tabs.keys()]),
    detach: (id: string): void => this.selection.detach(id),
    /** Surface `id` was used: its conversation is current. */
    use: (id: string): void => this.selection.use(id),
    shownIn: (id: string): string | undefined => this.selection.shown(id),
    /** The surfaces showing conversation `tab`. */
    showing: (tab: string): readonly string[] => this.selection.showing(tab),
    /** Where conversation `tab` is best shown (common/conversation/surfaces placeFor); undefined: no surface. */
    placeFor: (tab: string, visible: (id: string) => boolean): string | undefined => this.selection.placeFor(tab, visible),
  };
  get all(): ChatSession[] { return [...this.tabs.values()]; }
  get infos(): TabInfo[] { return [...this.tabs.values()].map(t => t.info); }
  get(id: string): ChatSession | undefined { return this.tabs.get(id); }

  /** A new, empty conversation of `agentName` ('' : none yet), not added. */
  newTab(agentName: string): ChatSession {
    return new ChatSession(this.newId(), agentName, this.log);
  }

  newId(): string {
    return `tab${this.nextTab++}`;
  }

  /** Adds `tab` and shows it (in the surface used last); it is current. */
  open(tab: ChatSession): ChatSession {
    this.add(tab);
    this.shown(this.selection.select(tab.id));
    return tab;
  }

  /** Shows tab `id` (if it exists) in surface `from`, else in the surface used last; it is current. */
  select(id: string, from?: string): void {
    if (!this.tabs.has(id)) return;
    const before = this.selection.current;
    const surfaces = this.selection.select(id, from);
    if (surfaces.length || before !== id) this.shown(surfaces);
  }

  /** Surfaces show other conversations: the tab strips and the views hear it, the tabs are saved soon. */
  private shown(surfaces: readonly string[]): void {
    this.changed();
    if (surfaces.length) this.shownEmitter.fire(surfaces);
  }

  /** Removes `tab` (its session was released) and forgets its saved turns; the last tab is never removed without a new empty one. */
  remove(tab: ChatSession): void {
    const id = tab.id;
    this.tabs.delete(id);
    this.questionTabs.delete(id);
    if (tab.archiveKey) this.saved.archive.forget(tab.archiveKey);
    tab.dispose();
    if (this.tabs.size === 0) this.add(this.newTab(tab.agentName));
    this.shown(this.selection.closed(id, [...this.tabs.keys()]));
  }

  /** Tabs were added, removed or changed: the view hears it, the tabs are saved soon. */
  changed(): void {
    this.tabsEmitter.fire();
    this.save();
  }

  /** The surfaces showing the current tab re-render it from scratch. */
  resetView(): void {
    this.resetEmitter.fire(this.selection.current);
  }

  /** Saves the tabs soon (a burst of changes is saved once). */
  save(): void {
    this.saved.schedule(() => this.all);
  }

  /** Saves the tabs now. */
  flush(): void {
    this.saved.flush(this.all);
  }

  /**
   * The agent's own questions (tied to no conversation): asked in a tab of their own, named for the
   * agent, never in a conversation they did not come from. The tab is not brought to front (its
   * waiting state shows in the tab strip and the status bar).
   */
  ownQuestions(agentName: string): AgentQuestions {
    const tab = () => this.all.find(t => this.questionTabs.get(t.id) === agentName && !t.sessionId);
    return {
      ask: (params, signal) => {
        let t = tab();
        if (!t) {
          t = this.add(new ChatSession(this.newId(), agentName, this.log, undefined, {
            items: [], title: vscode.l10n.t({ message: 'Questions from {0}', args: [agentName], comment: ['Title of the tab where an agent asks questions of its own (not from a conversation); {0} is the agent.'] }),
          }));
          this.questionTabs.set(t.id, agentName);
          t.addNotice(vscode.l10n.t('{0} asks this itself, not in a conversation: the question names no session (as when an agent asks while it starts or signs you in).', agentName));
          this.changed();
        }
        return t.elicit(params, signal, true);
      },
      complete: id => tab()?.completeElicitation(id) ?? false,
    };
  }

  /** The agent went away: its own open questions are answered `cancel`, like a conversation's. */
  endOwnQuestions(agentName: string): void {
    for (const t of this.all) if (this.questionTabs.get(t.id) === agentName && !t.sessionId) t.unbind();
  }

  /** Adds `tab` (not shown): its events reach the chat's, its changes are saved. */
  add(tab: ChatSession): ChatSession {
    this.tabs.set(tab.id, tab);
    tab.archive = this.saved.archive;
    tab.prepareToolCall = (toolCall, asPermission) => this.diffs.prepare(tab.id, toolCall, asPermission);
    tab.beforeTurn = itemId => this.hooks.beforeTurn(tab, itemId);
    const recordDiffs = this.guard('tool diffs', (update: acp.SessionUpdate) => this.diffs.record(tab.id, update, id => tab.toolItemId(id)));
    tab.onRawUpdate(({ update, by }) => { recordDiffs(update); this.updateEmitter.fire(by === undefined ? { tab, update } : { tab, update, by }); });
    tab.onTurn(phase => {
      if (phase === 'start') completeWalkthroughStep('promptSent');
      // A finished turn is saved at once (and its old turns are on disk): a reload right after keeps it.
      if (phase === 'end') this.flush();
      this.turnEmitter.fire({ tab, phase });
      // A turn holds its agent; the last one ended, the agent's idle time begins.
      if (tab.agentName) this.hooks.turned(tab.agentName);
    });
    // An edit asked for through a permission request is reviewed in the diff editor before the answer.
    tab.onPermissionRequest(({ itemId, params }) => {
      const content = params.toolCall.content;
      // The files it names are snapshotted now, before the agent's change lands (host/review).
      this.updateEmitter.fire({ tab, update: { ...params.toolCall, sessionUpdate: 'tool_call_update', status: undefined } });
      this.diffs.recordContent(tab.id, itemId, content);
      const first = content?.findIndex(c => c.type === 'diff') ?? -1;
      if (first >= 0 && (tab.id === this.selection.current || this.selection.showing(tab.id).length)) void this.diffs.open(tab.id, itemId, first, { preserveFocus: true });
    });
    tab.onOps(ops => { this.opsEmitter.fire({ tab: tab.id, ops }); this.save(); });
    tab.onMeta(meta => this.metaEmitter.fire({ tab: tab.id, meta }));
    tab.onState(() => { this.tabsEmitter.fire(); this.save(); });
    tab.onReset(() => this.resetEmitter.fire(tab.id));
    // A queued message is saved at once (a user action, rare): a reload right after must not lose it,
    // and in a browser window the save at shutdown may never reach the storage.
    tab.queue.onChange(() => { this.queueEmitter.fire(tab.id); this.flush(); });
    return tab;
  }

  /** Disposes every tab, then the events. */
  override dispose(): void {
    this.saved.stopWatching();
    for (const tab of this.tabs.values()) tab.dispose();
    super.dispose();
  }
}
