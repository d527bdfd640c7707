// The chat webview: strict CSP with a per-load nonce, validated messages, and transcript changes
// coalesced into one postMessage per frame (a 10,000-chunk answer must not cost 10,000 IPC hops).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { HostMessage, parseViewMessage } from '../common/protocol';
import type { TranscriptOp } from '../common/transcript';
import type { ChatController } from '../session/chatController';

export const CHAT_VIEW_ID = 'switchboard.chat';
const FLUSH_MS = 16;

export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private queue: TranscriptOp[] = [];
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly chat: ChatController, private readonly log: Logger) {
    super();
    this.register(chat.onOps(ops => this.enqueue(ops)));
    this.register(chat.onStatus(status => this.post({ type: 'status', status })));
    this.register(chat.onReset(() => this.replay()));
    this.register({ dispose: () => clearTimeout(this.flushTimer) });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [distUri] };
    view.webview.html = renderHtml(view.webview, distUri);
    const subs = [
      view.webview.onDidReceiveMessage(raw => this.onMessage(raw)),
      view.onDidDispose(() => {
        if (this.view === view) { this.view = undefined; this.ready = false; }
        subs.forEach(s => s.dispose());
      }),
    ];
  }

  /** Reveals the view and focuses the prompt box. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  private onMessage(raw: unknown): void {
    const msg = parseViewMessage(raw);
    if (!msg) {
      this.log.warn(`Ignored a malformed message from the chat view: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (msg.type) {
      case 'view/ready': this.ready = true; this.replay(); break;
      case 'prompt/send': void this.chat.sendPrompt(msg.text); break;
      case 'turn/cancel': void this.chat.cancelTurn(); break;
      case 'permission/answer': this.chat.answerPermission(msg.itemId, msg.optionId); break;
      case 'item/action': void this.chat.runAction(msg.action); break;
      case 'agent/pick': void vscode.commands.executeCommand('switchboard.selectAgent'); break;
    }
  }

  /** Sends the whole state: the view was (re)created and starts empty. */
  private replay(): void {
    this.queue = [];
    this.post({ type: 'state/reset', items: this.chat.items, status: this.chat.status });
  }

  private enqueue(ops: readonly TranscriptOp[]): void {
    if (!this.ready) return; // replayed in full on `view/ready`
    for (const op of ops) {
      const last = this.queue[this.queue.length - 1];
      if (op.op === 'append' && last?.op === 'append' && last.id === op.id) {
        this.queue[this.queue.length - 1] = { op: 'append', id: op.id, text: last.text + op.text };
      } else {
        this.queue.push(op);
      }
    }
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (!this.queue.length) return;
    const ops = this.queue;
    this.queue = [];
    this.post({ type: 'transcript/ops', ops });
  }

  private post(message: HostMessage): void {
    if (this.view && this.ready) void this.view.webview.postMessage(message);
  }
}

function renderHtml(webview: vscode.Webview, distUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(distUri, name)).toString();
  const csp = [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicon.css')}">
<link rel="stylesheet" href="${asset('chat.css')}">
<title>Switchboard</title>
</head>
<body>
<header id="status" role="status" aria-live="polite"></header>
<main id="transcript" role="log" aria-label="Conversation" aria-live="polite"></main>
<form id="composer">
  <textarea id="prompt" rows="3" placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)" aria-label="Prompt"></textarea>
  <div class="composer-actions">
    <button type="button" id="agent" class="secondary" title="Choose the agent"></button>
    <span class="spacer"></span>
    <button type="button" id="stop" class="secondary" title="Stop the agent's turn (Esc)" hidden>Stop</button>
    <button type="submit" id="send" title="Send (Enter)">Send</button>
  </div>
</form>
<script nonce="${nonce}" src="${asset('chat.js')}"></script>
</body>
</html>`;
}
