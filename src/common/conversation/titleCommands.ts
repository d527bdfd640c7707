// The chat's title-bar buttons (issue 19): VS Code does not tell a command which view's or editor's
// title it was clicked in, so each surface's buttons have command ids of their own, hidden from the
// Command Palette, that name the surface: the side bar's, or the chat's editor tab in front. They act
// as the palette command does, on the conversation that surface shows (a new conversation opens
// there). The palette commands keep acting on the current conversation. Pure: no `vscode`.

/** The palette commands (without `switchboard.`) that have a button in the chat's title bars. */
export const TITLE_COMMANDS = [
  'newConversation', 'selectAgent', 'restartAgent', 'stopAgent', 'signOut', 'browseSessions', 'runInParallel',
  'forkConversation', 'openChatInEditor', 'followAgent', 'stopFollowingAgent', 'openInspector',
] as const;

export type TitlePlace = 'sideBar' | 'editorTab';
export const TITLE_PLACES: readonly TitlePlace[] = ['sideBar', 'editorTab'];

/** The id of `name`'s button in the title of `place`: `switchboard.sideBar.stopAgent`. */
export function titleCommandId(place: TitlePlace, name: string): string {
  return `switchboard.${place}.${name}`;
}
