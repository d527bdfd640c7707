// The Agents view: each agent and its conversations with what they are doing (a native tree in
// Switchboard's view container), and the conversations waiting for the user that the status bar
// counts (host/waitingAlert). The data is shaped by common/conversation/agentsTree from the
// controller's lifecycle model (ChatController.lifecycle) and the writes waiting for review; this
// module only turns it into TreeItems, refreshes it, and runs the nodes' actions.
import * as vscode from 'vscode';
import { registerCommand } from '../host/commands';
import { Disposable } from '../common/disposable';
import { agentsTree, type AgentNode, type ConversationFacts, type ConversationNode } from '../common/conversation/agentsTree';
import { LifecycleState, transition, waitingConversations } from '../common/conversation/lifecycle';
import type { Waiter } from '../common/conversation/waiting';
import { resetContextKeyLater } from '../host/contextKeys';
import { DeferredTreeView } from '../host/deferredTreeView';
import { OPEN_CONVERSATION, type Waits } from '../host/waitingAlert';
import type { ChatController } from '../session/chatController';
import type { PendingWrites } from './chatViewProvider';

/** Context key: the window has had several conversations (the Agents view is shown from then on). */
const AGENTS_LISTED_KEY = 'switchboard.agentsListed';

export const AGENTS_VIEW_ID = 'switchboard.agents';
type Node = AgentNode | ConversationNode;

export class AgentsView extends Disposable implements vscode.TreeDataProvider<Node>, Waits {
  private readonly treeEmitter = this.register(new vscode.EventEmitter<Node | undefined>());
  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.treeEmitter.event;
  /** The agents, conversations or waits may have changed (coalesced: one refresh per burst). */
  readonly onChange = this.changeEmitter.event;
  private readonly tree: DeferredTreeView<Node>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly chat: ChatController,
    private readonly writes: PendingWrites,
    /** True when a visible chat surface (side bar, editor tab) shows conversation `id`. */
    private readonly shownInChat: (id: string) => boolean,
    onChatVisibility: vscode.Event<boolean>,
    /** Shows conversation `id` in a visible chat surface, preferring one that shows it already. */
    private readonly showInChat: (id: string) => Promise<void>,
    showLog: () => void,
    /** When the tree is registered (host/deferredTreeView): after the chat's first state. */
    treeWhen: Promise<void>,
  ) {
    super();
    this.tree = this.register(new DeferredTreeView(AGENTS_VIEW_ID, { treeDataProvider: this }, treeWhen));
    for (const event of [chat.onTabs, chat.onStatus, chat.onMeta, writes.onDidChangeReviews, onChatVisibility] as vscode.Event<unknown>[]) {
      this.register(event(() => this.schedule()));
    }
    this.register({ dispose: () => clearTimeout(this.timer) });
    const command = (id: string, run: (node: Node | string | undefined) => unknown) => this.register(registerCommand(id, run));
    command(OPEN_CONVERSATION, node => this.open(idOf(node)));
    command('switchboard.closeConversation', node => { const id = idOf(node); return id && chat.closeTab(id); });
    command('switchboard.deleteConversation', node => { const id = idOf(node); return id && chat.deleteConversation(id); });
    command('switchboard.agents.stop', node => { const name = agentOf(node); return name && chat.stopAgent(name); });
    command('switchboard.agents.restart', async node => {
      // Restart works on the shown conversation's agent: one of this agent's conversations is shown first.
      const name = agentOf(node);
      const first = this.nodes().find(a => a.name === name)?.conversations[0];
      if (!name || !first) return name && chat.restartAgent(name);
      await this.showInChat(first.id);
      return chat.restart();
    });
    command('switchboard.agents.showLog', () => showLog());
    this.update();
    // A key left from before an extension host restart: reset later, off the chat's first layout.
    if (!this.listed) this.register(resetContextKeyLater(AGENTS_LISTED_KEY, () => this.listed));
  }

  /** The model now, with the writes that wait for review counted as waits of their conversations. */
  private state(): LifecycleState {
    let state = this.chat.lifecycle();
    for (const r of this.writes.reviews) {
      const tab = this.tabOfReview(r);
      if (tab) state = transition(state, { type: 'asked', conversation: tab.id, reason: 'review' }).state;
    }
    return state;
  }

  /** The conversation a review belongs to: its session on the agent connection that asked
   * (a child agent's write is its top-level conversation's: see ChatController.tabOfSession). */
  private tabOfReview(r: PendingWrites['reviews'][number]) {
    return this.chat.tabOfSession(r.agent, r.sessionId);
  }

  /** The tree as shown (tests read it). */
  nodes(): AgentNode[] {
    const tabs = new Map(this.chat.sessions.map(t => [t.id, t]));
    const reviews = new Map<string, number>();
    for (const r of this.writes.reviews) {
      const id = this.tabOfReview(r)?.id;
      if (id) reviews.set(id, (reviews.get(id) ?? 0) + 1);
    }
    return agentsTree(this.state(), (id): ConversationFacts | undefined => {
      const t = tabs.get(id);
      return t && {
        title: t.info.title, meta: t.meta,
        pending: { permission: t.pendingPermissionIds.length, question: t.pendingQuestionIds.length, review: reviews.get(id) ?? 0 },
      };
    });
  }

  waiters(): Waiter[] {
    const state = this.state();
    const titles = new Map(this.chat.sessions.map(t => [t.id, t.info.title]));
    return waitingConversations(state).map(c => ({ id: c.id, agent: c.agent, title: titles.get(c.id) ?? c.id, waitingFor: c.waitingFor ?? ['permission'] }));
  }

  readonly shown = (id: string): boolean => this.shownInChat(id);

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.name, node.conversations.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `agent:${node.name}`;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.iconPath = new vscode.ThemeIcon(node.icon);
      item.contextValue = node.contextValue;
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = `conversation:${node.id}`;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon, node.status === 'waiting' ? new vscode.ThemeColor('notificationsWarningIcon.foreground') : undefined);
    item.contextValue = node.contextValue;
    item.command = { command: OPEN_CONVERSATION, title: vscode.l10n.t('Open'), arguments: [node.id] };
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.nodes();
    return node.kind === 'agent' ? [...node.conversations] : [];
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => { this.timer = undefined; this.update(); }, 50);
  }

  /** Whether the view is in the side bar (see `update`). */
  private listed = false;

  private update(): void {
    // The view joins the side bar once the window has several conversations (or agents), and stays:
    // with one, the chat shows all it would; and two collapsed panes under the chat cost its first
    // frame ~15 ms of the window's thread at every opening (docs/decisions/0040).
    if (!this.listed && (this.chat.sessions.length > 1 || Object.keys(this.chat.lifecycle().agents).length > 1)) {
      this.listed = true;
      void vscode.commands.executeCommand('setContext', AGENTS_LISTED_KEY, true);
    }
    this.treeEmitter.fire(undefined);
    const waiting = this.waiters().length;
    this.tree.badge = waiting ? { value: waiting, tooltip: waiting === 1 ? vscode.l10n.t('1 conversation waiting for you') : vscode.l10n.t('{0} conversations waiting for you', waiting) } : undefined;
    this.changeEmitter.fire();
  }

  readonly owns = (id: string): boolean => this.chat.sessions.some(t => t.id === id);

  /** Shows conversation `id` in the chat. */
  async open(id: string | undefined): Promise<void> {
    if (!id) return;
    await this.showInChat(id);
  }
}

const idOf = (node: Node | string | undefined): string | undefined =>
  typeof node === 'string' ? node : node?.kind === 'conversation' ? node.id : undefined;

const agentOf = (node: Node | string | undefined): string | undefined =>
  typeof node === 'string' ? node : node?.kind === 'agent' ? node.name : node?.agent;
