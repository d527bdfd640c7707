// The full texts behind the diff content of tool calls, so "open diff" on a chat card shows the
// whole change in VS Code's diff editor. Both sides are virtual documents served from memory (the
// URI carries only a key, never content); the store is bounded by the size of its texts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { BoundedMap } from '../common/boundedTextMap';

export const TOOL_DIFF_SCHEME = 'switchboard-tool-diff';
/** Characters of diff texts kept (both sides); the oldest diffs are forgotten first. */
const MAX_CHARS = 64 * 1024 * 1024;
/** What an entry costs besides its texts, so many empty diffs are bounded too. */
const ENTRY_OVERHEAD = 256;

interface Entry { readonly path: string; readonly oldText: string; readonly newText: string }

export class ToolDiffs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly entries = new BoundedMap<Entry>(MAX_CHARS, e => ENTRY_OVERHEAD + e.oldText.length + e.newText.length);
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** An open diff follows a later update of the same tool call. */
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(TOOL_DIFF_SCHEME, this);

  /** Keeps the texts of every diff in a tool call / update of the tab. */
  record(tab: string, update: acp.SessionUpdate, itemId?: (toolCallId: string) => string): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    this.recordContent(tab, itemId ? itemId(update.toolCallId) : `tool:${update.toolCallId}`, update.content);
  }

  /** Keeps the diffs of a transcript item's content (a tool card, a permission request). */
  recordContent(tab: string, itemId: string, content: readonly acp.ToolCallContent[] | null | undefined): void {
    content?.forEach((c, index) => {
      if (c.type !== 'diff') return;
      const key = `${tab}/${itemId}/${index}`;
      this.entries.set(key, { path: c.path, oldText: c.oldText ?? '', newText: c.newText });
      for (const side of ['before', 'after']) this.changed.fire(this.uri(key, side, c.path));
    });
  }

  async open(tab: string, itemId: string, index: number, options: { preserveFocus?: boolean } = {}): Promise<void> {
    const key = `${tab}/${itemId}/${index}`;
    const entry = this.entries.get(key);
    if (!entry) {
      void vscode.window.showWarningMessage('This change is no longer available to compare.');
      return;
    }
    const name = path.basename(entry.path);
    const uri = (side: string) => this.uri(key, side, entry.path);
    await vscode.commands.executeCommand('vscode.diff', uri('before'), uri('after'), `${name} (agent's change)`, { preview: true, preserveFocus: options.preserveFocus });
  }

  private uri(key: string, side: string, filePath: string): vscode.Uri {
    return vscode.Uri.from({ scheme: TOOL_DIFF_SCHEME, path: `/${encodeURIComponent(key)}/${side}/${path.basename(filePath)}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, key, side] = uri.path.split('/');
    const entry = this.entries.get(decodeURIComponent(key));
    if (!entry) return '';
    return side === 'before' ? entry.oldText : entry.newText;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.entries.clear();
  }
}
