// "Open in tab" on a child agent's card: the child's transcript (its messages, thoughts, tool calls,
// its own children) in an editor tab of its own, read-only and streamed live. The page is the chat's
// own (same bundle, same rendering) without its prompt box, tabs or status; its items are the parent
// conversation's filtered by common/childTranscript.ts. Requests of the child stay in the parent's chat.
import * as vscode from 'vscode';
import { ChildTranscript } from '../common/childTranscript';
import { Disposable } from '../common/disposable';
import { EMPTY_META } from '../common/sessionMeta';
import type { HostMessage, ReceivedViewMessage, ViewMessage } from '../common/protocol';
import { parseViewMessage } from '../common/protocol';
import { toPage } from './pageMessage';
import type { Item } from '../common/transcript';
import type { ChatController } from '../session/chatController';

/** What a child's tab may ask of the host: opening things, never answering or sending. */
const READ_ONLY: ReadonlySet<ViewMessage['type']> = new Set(['link/open', 'location/open', 'diff/open', 'item/openText', 'terminal/reveal', 'child/open']);

export interface ChildTab {
  readonly tab: string;
  readonly childId: string;
  readonly title: string;
  /** The child's transcript as the tab shows it (tests read it). */
  readonly items: ChildTranscript['items'];
}

/** The view type of a helper's tab (package.json activates the extension on it, to restore it). */
export const CHILD_VIEW_TYPE = 'switchboard.child';

/** What the page of a helper's tab is given: the note atop it, and which helper it shows (kept for a reload). */
export interface ChildPage { readonly note: string; readonly tab: string; readonly childId: string }

/** The title a child's card in the conversation gives it (the last card wins: patches come later). */
function cardTitle(items: readonly Item[], childId: string): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'child' && item.child.sessionId === childId) return item.child.title;
  }
  return undefined;
}

export class ChildTabs extends Disposable {
  private readonly open = new Map<string, { panel: vscode.WebviewPanel; transcript: ChildTranscript; ready: boolean; tab: string }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: ChatController,
    private readonly html: (webview: vscode.Webview, distUri: vscode.Uri, child: ChildPage) => string,
    private readonly handle: (msg: ReceivedViewMessage) => Promise<void>,
    /** Posts the output of the terminals these items show (to every surface, this tab included). */
    private readonly postTails: (tab: string, items: readonly Item[]) => void,
  ) {
    super();
    // The conversation closed: its helpers' tabs close with it.
    this.register(chat.onTabs(() => {
      for (const t of [...this.open.values()]) if (!chat.sessions.some(s => s.id === t.tab)) t.panel.dispose();
    }));
    this.register(chat.onOps(({ tab, ops }) => {
      for (const t of this.open.values()) {
        if (t.tab !== tab) continue;
        const mine = t.transcript.apply(ops);
        if (mine.length && t.ready) void t.panel.webview.postMessage(toPage({ type: 'transcript/ops', tab, ops: mine }));
      }
    }));
    this.register({ dispose: () => { for (const t of [...this.open.values()]) t.panel.dispose(); } });
  }

  /**
   * A helper's tab open when the window reloaded comes back (its page keeps which one it showed);
   * one whose conversation or helper is gone closes (the serializer of CHILD_VIEW_TYPE, registered
   * at activation: extension.ts).
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const s = state as { tab?: unknown; childId?: unknown } | undefined;
    if (typeof s?.tab === 'string' && typeof s.childId === 'string') this.show(s.tab, s.childId, panel);
    else panel.dispose();
  }

  /** Sends `message` (a terminal's output) to every child tab. */
  post(message: HostMessage): void {
    const wire = toPage(message);
    for (const t of this.open.values()) if (t.ready) void t.panel.webview.postMessage(wire);
  }

  /** The open child tabs (tests read them). */
  get tabs(): ChildTab[] {
    return [...this.open.values()].map(t => ({ tab: t.tab, childId: t.transcript.childId, title: t.panel.title, items: t.transcript.items }));
  }

  /**
   * Opens (or reveals) the tab of child agent `childId` of conversation `tab`. `restored`: the panel
   * VS Code brought back after a reload (its page said which child it showed), filled again here.
   */
  show(tab: string, childId: string, restored?: vscode.WebviewPanel): void {
    const key = `${tab}\n${childId}`;
    const existing = this.open.get(key);
    if (existing) { restored?.dispose(); existing.panel.reveal(); return; }
    const session = this.chat.sessions.find(t => t.id === tab);
    // After a reload the agent may not run yet: the child's card in the saved conversation names it.
    const child = session && (session.childTitle(childId) ?? cardTitle(session.items, childId));
    if (!session || child === undefined) {
      if (restored) restored.dispose();
      else void vscode.window.showInformationMessage(vscode.l10n.t('That helper agent is no longer in the conversation.'));
      return;
    }
    const title = vscode.l10n.t({ message: '{0} (helper in {1})', args: [child, session.info.title], comment: ['Title of the editor tab showing a helper agent\'s work: {0} the helper\'s title, {1} the conversation\'s'] });
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = restored ?? vscode.window.createWebviewPanel(CHILD_VIEW_TYPE, title, vscode.ViewColumn.Beside, { enableScripts: true, localResourceRoots: [distUri] });
    if (restored) {
      panel.title = title;
      panel.webview.options = { enableScripts: true, localResourceRoots: [distUri] };
    }
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const entry = { panel, transcript: new ChildTranscript(childId, session.items), ready: false, tab };
    this.open.set(key, entry);
    panel.webview.html = this.html(panel.webview, distUri, {
      note: vscode.l10n.t({ message: 'The work of the helper {0}, read-only and live. Its questions and permission requests are answered in the chat of {1}.', args: [child, session.info.title], comment: ['Note atop a helper agent\'s tab'] }),
      tab, childId,
    });
    const sub = panel.webview.onDidReceiveMessage(raw => {
      const msg = parseViewMessage(raw);
      if (msg?.type === 'view/ready') {
        entry.ready = true;
        void panel.webview.postMessage(toPage({
          type: 'state/reset', tabs: [], activeTab: tab, items: [...entry.transcript.items], archived: [], meta: EMPTY_META,
          status: this.chat.statusOf(tab), abilities: this.chat.abilitiesOf(tab),
        }));
        this.postTails(tab, entry.transcript.items);
      } else if (msg && READ_ONLY.has(msg.type)) void this.handle(msg);
    });
    panel.onDidDispose(() => { sub.dispose(); this.open.delete(key); });
  }
}
