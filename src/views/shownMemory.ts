// The conversation each chat page (the side bar's view, an editor tab of the chat) showed, kept in
// workspace state by the page's key, for a window reload (views/chatViewProvider.ts).
import type * as vscode from 'vscode';

const SHOWN_KEY = 'switchboard.surfaces';
const SHOWN_KEPT = 20;

/**
 * The conversation each chat page showed, by the page's key, in workspace state, saved at each
 * change: a browser window that reloads may not have saved the page's own state since its last change.
 */
export class ShownMemory {
  constructor(private readonly memento: vscode.Memento | undefined) {}

  get(key: string): string | undefined {
    return this.read()[key];
  }

  set(key: string, tab: string): void {
    const all = this.read();
    if (all[key] === tab) return;
    delete all[key];
    all[key] = tab;
    // The pages seen last (an editor tab closed for good is forgotten in time).
    const kept = Object.entries(all).slice(-SHOWN_KEPT);
    void this.memento?.update(SHOWN_KEY, Object.fromEntries(kept));
  }

  private read(): Record<string, string> {
    const v = this.memento?.get<unknown>(SHOWN_KEY);
    if (!v || typeof v !== 'object') return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
}
