// The chat's title-bar buttons, per surface (common/conversation/titleCommands.ts): the side bar's
// act on the side bar's conversation, the editor tab's on the conversation of the chat's editor tab
// in front; each makes its surface the one used last, then runs the palette command.
import * as vscode from 'vscode';
import { registerCommand } from '../host/commands';
import { TITLE_COMMANDS, TITLE_PLACES, titleCommandId } from '../common/conversation/titleCommands';
import type { ChatViewProvider } from './chatViewProvider';

export function registerTitleCommands(view: ChatViewProvider): vscode.Disposable[] {
  return TITLE_PLACES.flatMap(place => TITLE_COMMANDS.map(name => registerCommand(titleCommandId(place, name), () => {
    view.useSurface(place === 'sideBar' ? 'view' : 'editor');
    return vscode.commands.executeCommand(`switchboard.${name}`);
  })));
}
