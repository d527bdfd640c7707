// The chat webview: strict CSP with a per-load nonce, validated messages, and transcript changes
// coalesced into one postMessage per frame (a 10,000-chunk answer must not cost 10,000 IPC hops),
// one operation per item (common/opQueue.ts); a permission request or a question is posted at once.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentIdentity } from '../acp/clientServices';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { HostMessage, parseViewMessage, type FirstState, type ReceivedViewMessage } from '../common/protocol';
import type { StartupGate } from '../common/startupGate';
import { searchableText, searchTurns } from '../common/conversationSearch';
import { OpQueue } from '../common/opQueue';
import type { Item, TranscriptOp } from '../common/transcript';
import type { SessionMeta } from '../common/sessionMeta';
import { findMentionCandidates } from '../host/mentions';
import { openLink, openLocation } from '../host/links';
import { chooseFromWelcome, onWelcomeInputs, readWelcome } from '../host/welcome';
import type { ChangeTracker } from '../host/review/changeTracker';
import type { TerminalView } from '../host/terminal/terminalService';
import type { ToolDiffs } from '../host/toolDiffs';
import type { ChatController } from '../session/chatController';
import type { ChatSession } from '../session/chatSession';
import { ChildTabs, type ChildPage } from './childTabs';
import { attr, jsonElement, pageHead, readPageAhead } from './pageHtml';
import { toPage } from './pageMessage';
import { ShownMemory } from './shownMemory';

export const CHAT_VIEW_ID = 'switchboard.chat';
/** The chat in an editor tab (its own conversation; it comes back after a reload). */
export const EDITOR_VIEW_TYPE = CHAT_VIEW_ID + '.editor';
const FLUSH_MS = 16;

/** Agent writes waiting for review (host/fs). */
export interface PendingWrites {
  readonly reviews: readonly { id: string; sessionId: string; agentName: string; agent: AgentIdentity; path: string; isNewFile: boolean; conflicts: number }[];
  readonly onDidChangeReviews: vscode.Event<unknown>;
  accept(id: string): boolean;
  reject(id: string): boolean;
  acceptAllForSession(id: string): boolean;
  openDiff(id: string): Promise<void>;
}

const TAIL_BYTES = 4096;
/** The largest first state written into a chat page (its JSON, in characters). */
const FIRST_STATE_MAX_CHARS = 1_000_000;

/**
 * A place the chat is shown: the side-bar view, or an editor tab. Each shows its own conversation
 * (ChatController.surfaces keeps which, common/conversation/surfaces the rules).
 */
interface Surface {
  /** 'view' (the side bar), 'editor1', 'editor2'… (editor tabs). */
  readonly id: string;
  readonly webview: vscode.Webview;
  ready: boolean;
  readonly isVisible: () => boolean;
  /** The conversation whose draft its prompt box was last given. */
  draftOf?: string;
  /** An editor tab: it is the active editor. */
  isActive?: () => boolean;
  /** Brings it to front. */
  readonly reveal: () => void;
  /** Its page's own id (kept in the page's state), under which its conversation is remembered. */
  key?: string;
  /** The plans last sent to it (for one tab): unchanged, they are not sent again with every usage or mode change. */
  sentPlans?: { tab: string; plans: SessionMeta['plans'] };
  /** The state written into its page (FirstState `id`), of conversation `tab`, as of `version` of the provider. */
  first?: { id: string; tab: string; version: number };
}

export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private readonly surfaces = new Set<Surface>();
  /** Transcript changes waiting for the next post, per conversation. */
  private readonly queues = new Map<string, OpQueue>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly visibilityEmitter = this.register(new vscode.EventEmitter<boolean>());
  /** Fired when the chat becomes visible or hidden (the permission alert listens). */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;
  /** Child agents' own tabs ("Open in tab" on a child's card). */
  readonly childTabs: ChildTabs;
  private readonly postEmitter = this.register(new vscode.EventEmitter<{ surface: string; message: HostMessage }>());
  /** Every message posted to a surface's page, or written into it as its first state (tests read what each surface was sent). */
  readonly onDidPost = this.postEmitter.event;
  private editors = 0;
  private readonly shownMemory: ShownMemory;
  /** Counts the changes of what a page's first state holds: a page made before one gets its state anew when ready. */
  private version = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: ChatController,
    private readonly diffs: ToolDiffs,
    private readonly terminals: TerminalView,
    private readonly changes: ChangeTracker,
    private readonly writes: PendingWrites,
    private readonly log: Logger,
    /** Workspace state: the conversation each page showed, for a reload. */
    memory?: vscode.Memento,
    /** Told when a chat surface opens and shows its first state: what activation defers waits for it (common/startupGate). */
    private readonly startup?: Pick<StartupGate, 'opening' | 'shown'>,
  ) {
    super();
    this.shownMemory = new ShownMemory(memory);
    // Once activation has returned, while the window makes the view: the page's files, read ahead
    // of resolveWebviewView (which then only writes the page).
    setImmediate(() => readPageAhead(vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), 'chat'));
    this.childTabs = this.register(new ChildTabs(extensionUri, chat, renderHtml, msg => this.handle(msg), (tab, items) => this.postTails(tab, items)));
    this.register(chat.onOps(({ tab, ops }) => this.enqueue(tab, ops)));
    this.register(chat.onMeta(({ tab, meta }) => { for (const s of this.showing(tab)) this.postMeta(s, tab, meta); }));
    this.register(chat.onStatus(() => {
      for (const s of this.ready()) {
        const tab = this.shownIn(s);
        this.send(s, { type: 'status', status: chat.statusOf(tab), abilities: chat.abilitiesOf(tab) });
        this.postQueue(s);
      }
      // The welcome marks the running agent.
      if (chat.status.status !== 'starting' && this.welcomeRunning !== chat.runningAgent?.name) this.postWelcome();
    }));
    this.register(onWelcomeInputs(() => this.postWelcome()));
    this.register(chat.onTabs(() => {
      for (const s of this.ready()) { this.send(s, { type: 'tabs', tabs: chat.tabInfos, activeTab: this.shownIn(s) }); this.postQueue(s); }
    }));
    this.register(chat.onQueue(tab => { for (const s of this.showing(tab)) this.postQueue(s); }));
    this.register(chat.onReset(tab => { for (const s of this.showing(tab)) this.replay(s); }));
    this.register(chat.onShown(ids => { for (const s of this.ready()) if (ids.includes(s.id)) this.replay(s); }));
    this.register(terminals.onDidChangeOutput(id => this.postTail(id)));
    this.register(changes.onDidChange(() => { for (const s of this.ready()) this.postChanges(s); }));
    this.register(writes.onDidChangeReviews(() => { for (const s of this.ready()) this.postWrites(s); }));
    // Another window's last keystrokes (a reload's race, savedDrafts.ts) into the prompt box they were typed in, if it shows that conversation.
    this.register(chat.onDraftTaken(t => {
      for (const s of this.showing(t.tab)) if (s.key === t.surface) this.send(s, { type: 'composer/restore', tab: t.tab, ...t.draft, over: t.over });
    }));
    this.register({ dispose: () => clearTimeout(this.flushTimer) });
    const stale: vscode.Event<unknown>[] = [chat.onOps, chat.onMeta, chat.onStatus, chat.onTabs, chat.onQueue, chat.onReset, chat.onShown, chat.onDrafts,
      terminals.onDidChangeOutput, changes.onDidChange, writes.onDidChangeReviews, vscode.workspace.onDidChangeWorkspaceFolders];
    for (const changed of stale) this.register(changed(() => this.version++));
  }

  /** True when the chat is on screen somewhere (side bar or editor tab). */
  get visible(): boolean {
    return [...this.surfaces].some(s => s.isVisible());
  }

  /** True when a visible surface shows conversation `tab`. */
  isShowing(tab: string): boolean {
    return this.showing(tab).some(s => s.isVisible());
  }

  /** Sends a message to every chat surface that has said it is ready. */
  post(message: HostMessage): void {
    const wire = toPage(message);
    for (const s of this.ready()) this.send(s, message, wire);
  }

  /** `wire`: the message as it goes to a page (toPage), when it was made once for several surfaces. */
  private send(surface: Surface, message: HostMessage, wire = toPage(message)): void {
    void surface.webview.postMessage(wire);
    this.postEmitter.fire({ surface: surface.id, message });
  }

  private ready(): Surface[] {
    return [...this.surfaces].filter(s => s.ready);
  }

  /** The conversation surface `s` shows. */
  private shownIn(s: Surface): string {
    return this.chat.surfaces.shownIn(s.id) ?? this.chat.activeTab;
  }

  /** The ready surfaces showing conversation `tab`. */
  private showing(tab: string): Surface[] {
    const ids = this.chat.surfaces.showing(tab);
    return this.ready().filter(s => ids.includes(s.id));
  }

  /** The surfaces: 'view' (the side bar), 'editor1'… (editor tabs); `ready`: its page said so (tests read them). */
  get surfaceList(): { id: string; ready: boolean; visible: boolean; shows: string | undefined }[] {
    return [...this.surfaces].map(s => ({ id: s.id, ready: s.ready, visible: s.isVisible(), shows: this.chat.surfaces.shownIn(s.id) }));
  }

  /** A message as the page of surface `id` sends it (tests act as the user of that surface). */
  receive(id: string, raw: unknown): void {
    const surface = [...this.surfaces].find(s => s.id === id);
    if (surface) this.onMessage(surface, raw);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.attach('view', view.webview, () => view.visible, () => view.show(false), view.onDidChangeVisibility, view.onDidDispose, { key: 'view' });
  }

  /** Opens the chat in a new editor tab beside the editor; it shows the current conversation, then its own. */
  openInEditor(): void {
    this.attachPanel(vscode.window.createWebviewPanel(EDITOR_VIEW_TYPE, editorTitle(), vscode.ViewColumn.Beside, {
      enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')],
    }));
  }

  /**
   * An editor tab of the chat open when the window reloaded: it comes back with the conversation it
   * showed (the serializer of EDITOR_VIEW_TYPE, registered at activation: extension.ts).
   */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void {
    this.attachPanel(panel, state);
  }

  /** An editor tab of the chat; `state`: its page's saved state (a tab VS Code restores after a reload). */
  private attachPanel(panel: vscode.WebviewPanel, state?: unknown): void {
    panel.title = editorTitle();
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const saved = (typeof state === 'object' && state !== null ? state : {}) as { key?: unknown; tab?: unknown };
    const page = typeof saved.key === 'string' && saved.key.length <= 100
      ? { key: saved.key, saved: typeof saved.tab === 'string' ? saved.tab : undefined }
      : { key: randomUUID() };
    const surface = this.attach(`editor${++this.editors}`, panel.webview, () => panel.visible, () => panel.reveal(panel.viewColumn, false), panel.onDidChangeViewState, panel.onDidDispose, page);
    surface.isActive = () => panel.active;
    // Brought to front: the conversation it shows is the one commands act on.
    panel.onDidChangeViewState(() => { if (panel.active && surface.ready) this.chat.surfaces.use(surface.id); });
  }

  /**
   * A new surface, its page written with the state of the conversation it will show (`page`: its
   * key, and the conversation its saved state names), which it shows as it loads.
   */
  private attach(id: string, webview: vscode.Webview, isVisible: () => boolean, reveal: () => void, onVisibility: vscode.Event<unknown>, onDispose: vscode.Event<void>, page: { key: string; saved?: string }): Surface {
    const surface: Surface = { id, webview, ready: false, isVisible, reveal };
    this.surfaces.add(surface);
    this.startup?.opening();
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    // The page is made before the options are set, so the two messages leave back to back (the
    // options alone start a frame with no page; bench/activation measured no difference either way).
    const html = renderHtml(webview, distUri, undefined, this.firstState(surface, page.key, page.saved));
    webview.options = { enableScripts: true, localResourceRoots: [distUri] };
    webview.html = html;
    const subs = [
      webview.onDidReceiveMessage(raw => this.onMessage(surface, raw)),
      onVisibility(() => this.visibilityEmitter.fire(this.visible)),
      onDispose(() => {
        this.surfaces.delete(surface);
        this.chat.surfaces.detach(surface.id);
        this.visibilityEmitter.fire(this.visible);
        subs.forEach(s => s.dispose());
      }),
    ];
    this.visibilityEmitter.fire(this.visible);
    return surface;
  }

  /**
   * A title-bar button of the side bar ('view') or of the chat's editor tab ('editor': the one in
   * front, else a visible one) was clicked: its surface is the one used last, so the
   * command acts on the conversation it shows.
   */
  useSurface(place: 'view' | 'editor'): void {
    const editors = [...this.surfaces].filter(s => s.id !== 'view');
    const surface = place === 'view' ? this.surfaceById('view') : editors.find(s => s.isActive?.()) ?? editors.find(s => s.isVisible());
    if (surface?.ready) this.chat.surfaces.use(surface.id);
  }

  /** Reveals the side bar's view. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /**
   * Shows conversation `tab` (the Agents view's Open, a notification's Open): in a visible surface
   * that shows it already, else in one that shows it, else in the one used last, brought to front;
   * no surface yet: the side bar's view.
   */
  async showConversation(tab: string): Promise<void> {
    const id = this.chat.surfaces.placeFor(tab, id => !!this.surfaceById(id)?.isVisible());
    this.chat.selectTab(tab, id);
    const surface = id === undefined ? undefined : this.surfaceById(id);
    if (surface) surface.reveal();
    else await this.reveal();
  }

  private surfaceById(id: string): Surface | undefined {
    return [...this.surfaces].find(s => s.id === id);
  }

  /**
   * Puts text (and file mentions) into the prompt box of the surface showing the current
   * conversation (brought to front; none yet: the side bar's), e.g. "Add selection to chat".
   */
  async insertIntoComposer(text: string, mentions: readonly string[]): Promise<void> {
    const place = () => this.surfaceById(this.chat.surfaces.placeFor(this.chat.activeTab, id => !!this.surfaceById(id)?.isVisible()) ?? '');
    const shown = place();
    if (!shown) await this.reveal();
    else if (!shown.isVisible()) shown.reveal();
    for (let i = 0; i < 50 && !place()?.ready; i++) await new Promise(r => setTimeout(r, 100));
    const target = place();
    if (target?.ready) this.send(target, { type: 'composer/insert', text, mentions });
  }

  private onMessage(surface: Surface, raw: unknown): void {
    // A page that has not had its state yet (a prompt typed as it loads) names no conversation: the
    // one its own surface shows, never another surface's.
    const tab = surface.ready ? this.chat.surfaces.shownIn(surface.id) : undefined;
    const msg = parseViewMessage(tab !== undefined && typeof raw === 'object' && raw !== null && !('tab' in raw) ? { ...raw, tab } : raw);
    if (!msg) {
      this.log.warn(`Ignored a malformed message from the chat view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      // A prompt refused here (an image too large or of a type agents do not take) is given back.
      const r = raw as { type?: unknown; text?: unknown };
      if (r?.type === 'prompt/send' && typeof r.text === 'string') {
        this.send(surface, { type: 'composer/restore', text: r.text, mentions: [], images: [] });
        void vscode.window.showWarningMessage(vscode.l10n.t('The prompt could not be sent: an attachment is too large or of an unsupported type (PNG, JPEG, GIF or WebP images only).'));
      }
      return;
    }
    if (msg.type === 'view/ready') {
      surface.ready = true;
      this.startup?.shown();
      // A page after a reload (or the view re-created) shows the conversation it showed, if still
      // open: as remembered here at each change, else as its own state says (which a browser window
      // may not have saved since its last change).
      surface.key = surface.id === 'view' ? 'view' : msg.key ?? surface.id;
      const shown = this.chat.surfaces.attach(surface.id, this.shownMemory.get(surface.key) ?? msg.tab);
      // The page showed the state written into it, and nothing changed since: what it shows is current.
      const first = surface.first;
      surface.first = undefined;
      this.replay(surface, true, first !== undefined && msg.first === first.id && first.tab === shown && first.version === this.version);
      return;
    }
    // Anything done in a surface makes it the one used last: commands act on its conversation.
    if (surface.ready) this.chat.surfaces.use(surface.id);
    void this.handle(msg, surface).catch(err => this.log.error(`Chat view action ${msg.type} failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** The running agent the welcome last marked. */
  private welcomeRunning: string | undefined;
  private welcomeGeneration = 0;

  /** The welcome of an empty chat, looked up anew (installed agents, sign-ins, the workspace). */
  private postWelcome(only?: Surface): void {
    const generation = ++this.welcomeGeneration;
    this.welcomeRunning = this.chat.runningAgent?.name;
    void readWelcome({ running: this.welcomeRunning, storedKeys: name => this.chat.hasSignInKeys(name) }).then(welcome => {
      if (generation !== this.welcomeGeneration) return;
      const message: HostMessage = { type: 'welcome', welcome };
      if (only) this.send(only, message);
      else this.post(message);
    }, err => this.log.warn(`The welcome could not be prepared: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** A message from surface `from` (none: a helper's tab); each acting on a conversation names its tab. */
  private async handle(msg: ReceivedViewMessage, from?: Surface): Promise<void> {
    const chat = this.chat;
    const reply = (m: HostMessage) => { if (from) this.send(from, m); else this.post(m); };
    const tabOf = (id: string) => chat.sessions.find(t => t.id === id);
    switch (msg.type) {
      case 'view/ready': break; // handled per surface
      case 'view/focus': break; // the surface was used (onMessage)
      case 'prompt/send': {
        // A prompt that never reached the agent goes back into the prompt box: nothing typed is lost.
        const result = await chat.sendPrompt(msg.text, msg.mentions, msg.images, msg.tab);
        if (result === 'notSent' || result === 'closed') {
          reply({ type: 'composer/restore', text: msg.text, mentions: msg.mentions, images: msg.images });
        }
        if (result === 'closed') void vscode.window.showWarningMessage(vscode.l10n.t('That conversation was closed; your prompt was not sent.'));
        break;
      }
      case 'composer/draft': chat.setDraft({ text: msg.text, mentions: msg.mentions, images: msg.images }, msg.tab, from?.key); break;
      case 'turn/cancel': await chat.cancelTurn(msg.tab); break;
      case 'child/open': this.childTabs.show(msg.tab, msg.childId); break;
      case 'child/cancel': await tabOf(msg.tab)?.cancelChild(msg.childId); break;
      case 'permission/answer': chat.answerPermission(msg.itemId, msg.optionId, msg.tab); break;
      case 'question/answer': await chat.answerQuestion(msg.itemId, msg.action, msg.values, msg.tab); break;
      case 'item/action': await chat.runAction(msg.action, msg.tab); break;
      case 'agent/pick': await vscode.commands.executeCommand('switchboard.selectAgent'); break;
      case 'parallel/open': await vscode.commands.executeCommand('switchboard.runInParallel'); break;
      case 'tab/select': chat.selectTab(msg.tab, from?.id); break;
      case 'tab/close': await chat.closeTab(msg.tab); break;
      case 'tab/new': await chat.newConversation(); break;
      case 'sessions/browse': await chat.browseSessions(); break;
      case 'mode/set': await chat.setMode(msg.modeId, msg.tab); break;
      case 'config/set': await chat.setConfigOption(msg.configId, msg.value, msg.tab); break;
      case 'mention/search': reply({ type: 'mention/results', query: msg.query, results: await findMentionCandidates(msg.query) }); break;
      case 'link/open': await openLink(msg.href); break;
      case 'location/open': await openLocation(msg.path, msg.line); break;
      case 'diff/open': await this.diffs.open(msg.tab, msg.itemId, msg.index); break;
      case 'turn/load': {
        const tab = tabOf(msg.tab);
        if (tab) reply({ type: 'turn/items', tab: tab.id, turnId: msg.turnId, items: await tab.turnItems(msg.turnId) });
        break;
      }
      case 'checkpoint/restore': await vscode.commands.executeCommand('switchboard.restoreCheckpoint', { tab: msg.tab, itemId: msg.itemId }); break;
      case 'item/openText': await openMessageText(await tabOf(msg.tab)?.findItem(msg.itemId)); break;
      case 'search/query': {
        const tab = tabOf(msg.tab);
        if (tab) reply({ type: 'search/results', tab: tab.id, query: msg.query, hits: searchTurns(await tab.allTurns(), msg.query) });
        break;
      }
      case 'write/action':
        if (msg.action === 'accept') this.writes.accept(msg.id);
        else if (msg.action === 'reject') this.writes.reject(msg.id);
        else if (msg.action === 'acceptAll') this.writes.acceptAllForSession(msg.id);
        else await this.writes.openDiff(msg.id);
        break;
      case 'change/action':
        if (msg.action === 'keep') this.changes.keep(msg.turnId, msg.path, msg.hunkId);
        // Undo of a whole turn asks first (the same confirmation as the Agent Changes view).
        else if (msg.action === 'undo' && !msg.path) await vscode.commands.executeCommand('switchboard.undoAllChanges', { turnId: msg.turnId });
        else if (msg.action === 'undo') await this.changes.undo(msg.turnId, msg.path, msg.hunkId);
        else await vscode.commands.executeCommand('switchboard.openChangeDiff', { turnId: msg.turnId, path: msg.path, hunkId: msg.hunkId });
        break;
      case 'queue/action': await chat.queueAction(msg.tab, msg.id, msg.action); break;
      case 'queue/save': chat.saveQueued(msg.tab, msg.id, msg.text); break;
      case 'welcome/start': {
        const spec = await chooseFromWelcome(msg.name);
        if (spec) await chat.start(spec);
        else void vscode.window.showWarningMessage(vscode.l10n.t('{0} is no longer among your agents.', msg.name));
        break;
      }
      case 'welcome/action':
        switch (msg.action) {
          case 'addAgent': await vscode.commands.executeCommand('switchboard.addAgent'); break;
          case 'getStarted': await vscode.commands.executeCommand('switchboard.getStarted'); break;
          case 'trust': await vscode.commands.executeCommand('workbench.trust.manage'); break;
          case 'openFolder': await vscode.commands.executeCommand('workbench.action.files.openFolder'); break;
        }
        break;
      case 'terminal/reveal':
        if (!this.terminals.reveal(msg.terminalId)) void vscode.window.showInformationMessage(vscode.l10n.t('That terminal was closed.'));
        break;
    }
  }

  private postMeta(s: Surface, tab: string, meta: SessionMeta): void {
    const same = s.sentPlans?.tab === tab && s.sentPlans.plans === meta.plans;
    s.sentPlans = { tab, plans: meta.plans };
    if (!same) { this.send(s, { type: 'session/meta', tab, meta }); return; }
    const { plans: _sent, ...rest } = meta;
    this.send(s, { type: 'session/meta', tab, meta: rest, samePlans: true });
  }

  /**
   * Sends surface `s` the whole state of the conversation it shows: its page was (re)created
   * (`newPage`), it shows another conversation, or that conversation's transcript was replaced.
   * `shown`: its page shows that state already (written into it, see firstState); only the welcome
   * is still to come.
   */
  private replay(s: Surface, newPage = false, shown = false): void {
    // Changes queued before this snapshot go out first (to the surfaces already showing them): the
    // snapshot holds them, and nothing posted after it repeats them.
    clearTimeout(this.flushTimer);
    this.flush(s);
    const tab = this.chat.sessions.find(t => t.id === this.shownIn(s)) ?? this.chat.active;
    if (s.key !== undefined) this.shownMemory.set(s.key, tab.id);
    if (!shown) for (const message of this.snapshot(s, tab, newPage)) this.send(s, message);
    if (newPage) this.postWelcome(s);
  }

  /** The messages that bring the page of surface `s` to conversation `tab` as it is now (replay). */
  private snapshot(s: Surface, tab: ChatSession, newPage: boolean): HostMessage[] {
    const chat = this.chat;
    s.sentPlans = { tab: tab.id, plans: tab.meta.plans };
    const messages: HostMessage[] = [{
      type: 'state/reset', tabs: chat.tabInfos, activeTab: tab.id, items: tab.items, archived: tab.archived,
      meta: tab.meta, status: chat.statusOf(tab.id), abilities: chat.abilitiesOf(tab.id),
      roots: (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath),
    }];
    // A new page (the view was hidden, the window reloaded), or one now showing another conversation
    // (its prompt box emptied), gets back what was typed for this conversation and not sent.
    const draft = newPage || s.draftOf !== tab.id ? chat.draftOf(tab.id, s.key) : undefined;
    s.draftOf = tab.id;
    if (draft) messages.push({ ...draft, type: 'composer/restore', tab: tab.id });
    for (const id of this.terminalsOf(tab.id, tab.items)) {
      const tail = this.tailMessage(id);
      if (tail) messages.push(tail);
    }
    messages.push(this.changesMessage(tab.id), this.writesMessage(tab.id));
    const queue = this.queueMessage(tab.id);
    if (queue) messages.push(queue);
    return messages;
  }

  /**
   * What the page of new surface `s` (its page's key `key`) shows as it loads, written into it: the
   * state of the conversation it will show (the one remembered for its key, else `saved`, as
   * ChatController.surfaces.attach decides). Its `view/ready` then needs no answer but the welcome,
   * unless something changed meanwhile. None for a conversation too large (FIRST_STATE_MAX_CHARS).
   */
  private firstState(s: Surface, key: string, saved: string | undefined): string | undefined {
    s.key = key;
    const remembered = this.shownMemory.get(key) ?? saved;
    const tab = this.chat.sessions.find(t => t.id === remembered) ?? this.chat.active;
    const id = randomUUID();
    s.first = { id, tab: tab.id, version: this.version };
    const messages = this.snapshot(s, tab, true);
    // A conversation too large to carry in the HTML (which VS Code keeps as long as the view
    // lives) is sent once the page is ready, as to a page made again.
    const first: FirstState = { id, key, messages };
    const json = JSON.stringify(first);
    if (json.length > FIRST_STATE_MAX_CHARS) { s.first = undefined; return undefined; }
    // Sent with the page itself (tests read what each page was sent).
    for (const message of messages) this.postEmitter.fire({ surface: s.id, message });
    return json;
  }

  /** The queued messages (typed while the agent works) of the conversation `s` shows. */
  private postQueue(s: Surface): void {
    const message = this.queueMessage(this.shownIn(s));
    if (message) this.send(s, message);
  }

  private queueMessage(tab: string): HostMessage | undefined {
    const queue = this.chat.queueView(tab);
    return queue && { type: 'queue', tab, queue };
  }

  /** Writes of the session of the conversation `s` shows, waiting for Accept / Reject. */
  private postWrites(s: Surface): void {
    this.send(s, this.writesMessage(this.shownIn(s)));
  }

  private writesMessage(tab: string): HostMessage {
    return { type: 'writes', writes: this.shownWrites(tab).map(r => ({ id: r.id, agentName: r.agentName, path: r.path, isNewFile: r.isNewFile, conflicts: r.conflicts })) };
  }

  /** The writes waiting for review that conversation `tab` (default: the current one) lists (tests read it). */
  shownWrites(tab = this.chat.activeTab): PendingWrites['reviews'] {
    return this.writes.reviews.filter(r => this.chat.tabOfSession(r.agent, r.sessionId)?.id === tab);
  }

  /** The undecided changes of the conversation `s` shows, per turn. */
  private postChanges(s: Surface): void {
    this.send(s, this.changesMessage(this.shownIn(s)));
  }

  private changesMessage(tab: string): HostMessage {
    return { type: 'changes', turns: this.changes.views().filter(t => t.tabId === tab).map(t => ({ turnId: t.turnId, files: t.files })) };
  }

  /** The output of the terminals that `items` of conversation `tab` show. */
  private postTails(tab: string, items: readonly Item[]): void {
    for (const id of this.terminalsOf(tab, items)) this.postTail(id);
  }

  /** The terminals that `items` of conversation `tab` show. */
  private *terminalsOf(tab: string, items: readonly Item[]): Iterable<string> {
    for (const item of items) {
      if (item.kind === 'tool') for (const c of item.tool.content) if (c.type === 'terminal') yield c.terminalId;
      if (item.kind === 'tool' && item.tool.agentTerminal) yield `${tab}/${item.tool.agentTerminal.key}`;
    }
  }

  private postTail(terminalId: string): void {
    const message = this.tailMessage(terminalId);
    if (!message) return;
    this.post(message);
    this.childTabs.post(message);
  }

  private tailMessage(terminalId: string): HostMessage | undefined {
    const text = this.terminals.getTail(terminalId, TAIL_BYTES, { plain: true, colors: true });
    return text === undefined ? undefined : { type: 'terminal/tail', terminalId, text, exited: !this.terminals.getInfo(terminalId)?.running };
  }

  /** Transcript changes of conversation `tab`, for the surfaces that show it (none: replayed in full when one does). */
  private enqueue(tab: string, ops: readonly TranscriptOp[]): void {
    if (!this.showing(tab).length) return;
    let queue = this.queues.get(tab);
    if (!queue) this.queues.set(tab, (queue = new OpQueue()));
    for (const op of ops) queue.push(op);
    // The user is asked something: shown now, with what came before it, never a frame later. So is
    // a turn's end: what follows it (the conversation's save, megabytes after a long turn) shares
    // the way to the window and must not go ahead of it.
    if (queue.urgent || ops.some(o => o.op === 'add' && o.item.kind === 'turnEnd')) { clearTimeout(this.flushTimer); this.flush(); return; }
    // At most one message per frame, but never a frame of delay after a quiet moment: the first
    // chunk of an answer (and the last, when chunks are sparse) is posted right away.
    this.flushTimer ??= setTimeout(() => this.flush(), Math.max(0, this.lastFlush + FLUSH_MS - Date.now()));
  }

  private lastFlush = 0;

  /** Posts every conversation's queued changes to the surfaces showing it (but `except`, about to get all of it). */
  private flush(except?: Surface): void {
    this.flushTimer = undefined;
    this.lastFlush = Date.now();
    const queued = [...this.queues];
    this.queues.clear();
    for (const [tab, queue] of queued) {
      if (!queue.length) continue;
      const message: HostMessage = { type: 'transcript/ops', tab, ops: queue.take() };
      const wire = toPage(message);
      for (const s of this.showing(tab)) if (s !== except) this.send(s, message, wire);
    }
  }
}

/**
 * The chat's page; with `child`, a child agent's read-only tab (views/childTabs.ts) saying so, its
 * body naming the conversation and the child (the page keeps them as its state, for a reload);
 * `first`: the JSON of the FirstState written into the page.
 */
function renderHtml(webview: vscode.Webview, distUri: vscode.Uri, child?: ChildPage, first?: string): string {
  const { head, script, asset } = pageHead(webview, distUri, 'chat', 'Switchboard', { inline: true });
  return `${head}
<body data-markdown="${attr(asset('markdown.js'))}"${child === undefined ? '' : ` class="child-tab" data-tab="${attr(child.tab)}" data-child="${attr(child.childId)}"`}>
<header>
${child === undefined ? '' : `<p id="child-note" role="note">${attr(child.note)}</p>`}
<nav id="tab-bar" aria-label="${attr(vscode.l10n.t('Conversations'))}"><div id="tabs" role="tablist" aria-label="${attr(vscode.l10n.t('Open conversations'))}"></div><div id="tab-actions"></div></nav>
<div id="status" role="status" aria-live="polite"></div>
</header>
<main aria-label="${attr(vscode.l10n.t('Conversation'))}"><section id="welcome" aria-labelledby="welcome-title" hidden></section><div id="transcript" role="log" aria-label="${attr(vscode.l10n.t('Conversation'))}" aria-live="off" tabindex="0"></div></main>
<div id="announcer" class="visually-hidden" aria-live="polite" aria-relevant="additions"></div>
<section id="writes" aria-label="${attr(vscode.l10n.t('Edits waiting for your review'))}" hidden></section>
<section id="changes" aria-label="${attr(vscode.l10n.t('Changed files'))}" hidden></section>
<section id="plan" aria-label="${attr(vscode.l10n.t('Plan'))}" hidden></section>
<section id="queue" aria-label="${attr(vscode.l10n.t('Queued messages'))}" hidden></section>
<form id="composer" aria-label="${attr(vscode.l10n.t('Prompt the agent'))}">
  <ul id="completions" role="listbox" aria-label="${attr(vscode.l10n.t('Suggestions'))}" hidden></ul>
  <p id="mode-note" role="note" hidden></p>
  <div id="attachments" role="group" aria-label="${attr(vscode.l10n.t('Attached files and images'))}"></div>
  <textarea id="prompt" rows="3" placeholder="${attr(vscode.l10n.t('Ask the agent… (Enter to send, Shift+Enter for a new line, / for commands, @ for files)'))}" aria-label="${attr(vscode.l10n.t('Prompt'))}"></textarea>
  <div class="composer-actions">
    <button type="button" id="agent" class="secondary" title="${attr(vscode.l10n.t('Choose the agent'))}"></button>
    <button type="button" id="parallel" class="secondary" title="${attr(vscode.l10n.t('Run in Parallel: this prompt to several agents, each in its own git worktree'))}" aria-label="${attr(vscode.l10n.t('Run in Parallel…'))}"><span class="codicon codicon-split-horizontal" aria-hidden="true"></span></button>
    <select id="mode" aria-label="${attr(vscode.l10n.t('Mode'))}" hidden></select>
    <span id="config"></span>
    <span class="spacer"></span>
    <span id="usage" role="meter" aria-label="${attr(vscode.l10n.t('Context used'))}" hidden></span>
    <button type="button" id="stop" class="secondary" title="${attr(vscode.l10n.t("Stop the agent's turn (Esc)"))}" hidden>${attr(vscode.l10n.t('Stop'))}</button>
    <button type="submit" id="send" title="${attr(vscode.l10n.t('Send (Enter)'))}">${attr(vscode.l10n.t('Send'))}</button>
  </div>
</form>
${first === undefined ? '' : jsonElement('first-state', first)}
${script}
</body>
</html>`;
}

const editorTitle = () => vscode.l10n.t({ message: 'Switchboard Chat', comment: 'Title of the editor tab that shows the chat' });


/**
 * The full text of a message (or a tool call's output) of any turn, in memory or on disk, in an
 * untitled editor.
 */
async function openMessageText(item: Item | undefined): Promise<void> {
  const text = item?.kind === 'tool' ? searchableText(item) : item && 'text' in item ? item.text : undefined;
  if (text === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('That message is no longer in the conversation.'));
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: item?.kind === 'tool' ? 'plaintext' : 'markdown', content: text });
  await vscode.window.showTextDocument(doc, { preview: true });
}
