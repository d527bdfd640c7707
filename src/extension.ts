// Composition root: creates the log, the chat controller and the view, registers commands.
// Nothing else lives here.
import * as vscode from 'vscode';
import type { ConnectionServicesFactory } from './acp/clientServices';
import { createLogger } from './host/log';
import { pickAgent } from './host/agentPicker';
import { openSettings, Settings } from './host/config';
import { ChatController } from './session/chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './views/chatViewProvider';

/** Handed to integration tests through `extension.exports`; not a public API. */
export interface SwitchboardApi {
  readonly chat: ChatController;
}

let controller: ChatController | undefined;

export function activate(context: vscode.ExtensionContext): SwitchboardApi {
  const channel = vscode.window.createOutputChannel('Switchboard', { log: true });
  context.subscriptions.push(channel);
  const log = createLogger(channel);

  // What each agent connection serves besides the chat (fs, terminals); see acp/clientServices.ts.
  const services: ConnectionServicesFactory = () => ({ dispose() { /* nothing yet */ } });
  const chat = new ChatController(log, () => channel.show(true), services);
  controller = chat;
  context.subscriptions.push(chat);

  const view = new ChatViewProvider(context.extensionUri, chat, log);
  context.subscriptions.push(view, vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, {
    webviewOptions: { retainContextWhenHidden: false },
  }));

  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  command('switchboard.openChat', () => view.reveal());
  command('switchboard.selectAgent', async () => {
    const spec = await pickAgent({ useDefault: false });
    if (spec) { await view.reveal(); await chat.start(spec); }
  });
  command('switchboard.startAgent', async () => { await view.reveal(); await chat.start(); });
  command('switchboard.restartAgent', () => chat.restart());
  command('switchboard.stopAgent', () => chat.stop());
  command('switchboard.cancelTurn', () => chat.cancelTurn());
  command('switchboard.newConversation', () => chat.newConversation());
  command('switchboard.showLog', () => channel.show());
  command('switchboard.openSettings', () => openSettings(Settings.agents));

  return { chat };
}

/** Window close / reload / uninstall: the agent process must not outlive us. */
export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
