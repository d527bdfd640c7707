// When an agent waits for a permission answer and the chat is not visible, say so: a status-bar
// item (click to show the chat) and one notification per request. Nothing is answered for the user.
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';

/** A conversation whose agent waits for a permission answer. */
export interface WaitingTab {
  readonly id: string;
  readonly agentName: string;
  /** Ids of the permission requests not yet answered (unique within the tab). */
  readonly pendingPermissionIds: readonly string[];
  /** Ids of its open elicitations (forms, URLs to open). */
  readonly pendingQuestionIds?: readonly string[];
}

/** What the alert watches; the session layer's chat controller implements it. */
export interface PermissionWaits {
  readonly waitingTabs: readonly WaitingTab[];
  /** Fires when tabs (and so what they wait for) change. */
  readonly onTabs: vscode.Event<unknown>;
}

export class PermissionAlert extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('switchboard.permission', vscode.StatusBarAlignment.Left, 1000));
  private notified = new Set<string>();

  constructor(private readonly chat: PermissionWaits, private readonly isChatVisible: () => boolean, onVisibility: vscode.Event<boolean>) {
    super();
    this.item.name = vscode.l10n.t('Switchboard: agent waiting');
    this.item.command = 'switchboard.openChat';
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.register(chat.onTabs(() => this.update()));
    this.register(onVisibility(() => this.update()));
  }

  private update(): void {
    const waiting = this.chat.waitingTabs;
    if (!waiting.length || this.isChatVisible()) {
      this.item.hide();
      if (!waiting.length) this.notified.clear();
      return;
    }
    const names = [...new Set(waiting.map(t => t.agentName))].join(', ');
    this.item.text = `$(bell-dot) ${vscode.l10n.t('{0} is waiting for you', names)}`;
    const asks = waiting.some(t => t.pendingQuestionIds?.length);
    this.item.tooltip = asks ? vscode.l10n.t('An agent asks you something. Click to open the chat.') : vscode.l10n.t('An agent asks for permission. Click to open the chat.');
    this.item.show();
    // Item ids repeat across tabs: a request is known by its tab and its id.
    const fresh = waiting.flatMap(t => [...t.pendingPermissionIds, ...t.pendingQuestionIds ?? []].map(id => `${t.id}/${id}`)).filter(id => !this.notified.has(id));
    if (fresh.length) {
      fresh.forEach(id => this.notified.add(id));
      const open = vscode.l10n.t('Open Chat');
      const text = asks ? vscode.l10n.t('{0} asks you a question.', names) : vscode.l10n.t('{0} asks for permission.', names);
      void vscode.window.showInformationMessage(text, open).then(choice => {
        if (choice) void vscode.commands.executeCommand('switchboard.openChat');
      });
    }
  }
}
