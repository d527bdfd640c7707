// Conversations that wait for the user (a permission, a write to review, a question): a status-bar
// item counts them (hidden at 0; a click opens the first one), and a notification names each one
// that starts waiting while its chat is not on screen, once per wait (its button opens it). Nothing
// is ever answered for the user. What waits and what counts as seen: common/conversation/waiting.
import * as vscode from 'vscode';
import { registerCommand } from './commands';
import { Disposable } from '../common/disposable';
import { WaitNotices, waitingLabel, waitingMessage, type Waiter } from '../common/conversation/waiting';

/** What the alert watches; the Agents view (views/agentsView) implements it over the chat. */
export interface Waits {
  /** The conversations waiting for the user now, in tab order. */
  readonly waiters: () => readonly Waiter[];
  /** Fires when they may have changed (or the chat's visibility did). */
  readonly onChange: vscode.Event<unknown>;
  /** True when conversation `id` is on screen (the chat is visible and shows it). */
  readonly shown: (id: string) => boolean;
  /** Shows conversation `id` (the item's click, a notification's Open). */
  readonly open: (id: string) => unknown;
  /** True when `id` is one of this source's (waiting or not: a notification's Open may come later). */
  readonly owns: (id: string) => boolean;
}

/** Several sources of waits as one (the chat's conversations, then the parallel runs). */
export function joinWaits(...all: readonly Waits[]): Waits {
  return {
    waiters: () => all.flatMap(w => w.waiters()),
    onChange: (listener, thisArg, disposables) => vscode.Disposable.from(...all.map(w => w.onChange(listener, thisArg, disposables))),
    shown: id => all.some(w => w.shown(id)),
    open: id => all.find(w => w.owns(id))?.open(id),
    owns: id => all.some(w => w.owns(id)),
  };
}

export const OPEN_CONVERSATION = 'switchboard.openConversation';
export const FOCUS_WAITING = 'switchboard.focusWaiting';

export class WaitingAlert extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('switchboard.waiting', vscode.StatusBarAlignment.Left, 1000));
  private readonly notices = new WaitNotices();
  private readonly notifyEmitter = this.register(new vscode.EventEmitter<string>());
  /** A notification was shown (its text). */
  readonly onNotify = this.notifyEmitter.event;
  private shownText: string | undefined;
  /** The status-bar item's text while it is shown. */
  get text(): string | undefined { return this.shownText; }

  constructor(private readonly waits: Waits) {
    super();
    this.item.name = vscode.l10n.t('Switchboard: conversations waiting for you');
    this.item.command = FOCUS_WAITING;
    this.register(registerCommand(FOCUS_WAITING, () => { const first = waits.waiters()[0]; if (first) return waits.open(first.id); }));
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.register(waits.onChange(() => this.update()));
    this.update();
  }

  private update(): void {
    const waiters = this.waits.waiters();
    const label = waitingLabel(waiters);
    if (label) {
      this.item.text = `$(bell-dot) ${label.text}`;
      this.item.tooltip = label.tooltip;
      this.item.show();
    } else {
      this.item.hide();
    }
    this.shownText = label && this.item.text;
    for (const w of this.notices.next(waiters, this.waits.shown)) {
      const open = vscode.l10n.t('Open');
      const message = waitingMessage(w);
      this.notifyEmitter.fire(message);
      void vscode.window.showInformationMessage(message, open).then(choice => {
        if (choice) void this.waits.open(w.id);
      });
    }
  }
}
