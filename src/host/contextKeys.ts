// Context keys (`setContext`) outlive the extension host that set them: the workbench keeps them
// across an extension host restart, so an owner resets its keys when it starts. Not at once: each
// change makes the workbench re-evaluate the menus that use the key, work it would otherwise do
// while it lays out the chat view that activated us (bench/activation). On a first activation the
// keys are undefined (false in a `when` clause) meanwhile; after an extension host restart a stale
// value stays up to CONTEXT_RESET_MS (e.g. Stop Following shown, the review's keybindings on),
// which only the workbench's own state can cause and the next reset or change ends.
import * as vscode from 'vscode';

/** How long after activation a key is reset to what its owner holds then. */
export const CONTEXT_RESET_MS = 2000;

/** Sets `key` to `value()` after CONTEXT_RESET_MS (its value then, so a change meanwhile is kept). */
export function resetContextKeyLater(key: string, value: () => boolean): vscode.Disposable {
  const timer = setTimeout(() => { void vscode.commands.executeCommand('setContext', key, value()); }, CONTEXT_RESET_MS);
  return { dispose: () => clearTimeout(timer) };
}
