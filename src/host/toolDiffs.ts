// The full texts behind the diff content of tool calls, so "open diff" on a chat card shows the
// whole change in VS Code's diff editor. Snippet diffs (Claude's old_string → new_string) are first
// resolved to whole files (EditResolver). Both sides are served by the one in-memory diff provider
// that the write reviews use too (host/fs/diffContent.ts); this store is bounded.
import * as vscode from 'vscode';
import { fileLabel } from '../common/bidi';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { DiffContentProvider } from './fs/diffContent';
import { decodeFor } from './fs/fileData';
import { EditResolver } from './review/editResolver';

/** Characters of diff texts kept (both sides); the oldest diffs are forgotten first. */
const MAX_CHARS = 64 * 1024 * 1024;
/** What an entry costs besides its texts, so many empty diffs are bounded too. */
const ENTRY_OVERHEAD = 256;
const cost = (e: Entry) => ENTRY_OVERHEAD + e.oldText.length + e.newText.length;

interface Entry { readonly id: string; readonly path: string; readonly oldText: string; readonly newText: string }

export class ToolDiffs implements vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly resolver = new EditResolver((file, bytes) => {
    const data = decodeFor(file, bytes);
    return data.kind === 'text' ? data.text : undefined;
  });
  private nextId = 1;
  private chars = 0;

  constructor(private readonly content: DiffContentProvider) {}

  /** A tool call with its snippet diffs resolved to whole-file diffs (see EditResolver). */
  prepare<T extends acp.ToolCallUpdate>(tab: string, toolCall: T, asPermission: boolean): T {
    return this.resolver.prepare(tab, toolCall, asPermission);
  }

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
      // The same key keeps its id: an open diff follows a later update of the same tool call.
      const previous = this.entries.get(key);
      const id = previous?.id ?? `t${this.nextId++}`;
      if (previous) { this.entries.delete(key); this.chars -= cost(previous); }
      const entry: Entry = { id, path: c.path, oldText: c.oldText ?? '', newText: c.newText };
      this.entries.set(key, entry);
      this.chars += cost(entry);
      this.content.set(this.uri(entry, 'before'), entry.oldText);
      this.content.set(this.uri(entry, 'after'), entry.newText);
      // Bounded by the size of the texts, not their number; the newest entry always stays.
      while (this.chars > MAX_CHARS && this.entries.size > 1) {
        const [oldKey, old] = this.entries.entries().next().value!;
        this.entries.delete(oldKey);
        this.chars -= cost(old);
        if (old.id === id) continue;
        this.content.delete(this.uri(old, 'before'));
        this.content.delete(this.uri(old, 'after'));
      }
    });
  }

  async open(tab: string, itemId: string, index: number, options: { preserveFocus?: boolean } = {}): Promise<void> {
    const entry = this.entries.get(`${tab}/${itemId}/${index}`);
    if (!entry) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This change is no longer available to compare.'));
      return;
    }
    await vscode.commands.executeCommand('vscode.diff', this.uri(entry, 'before'), this.uri(entry, 'after'),
      vscode.l10n.t({ message: "{0} (agent's change)", args: [fileLabel(entry.path)], comment: 'Title of a diff editor; {0} is a file name' }), { preview: true, preserveFocus: options.preserveFocus });
  }

  private uri(entry: Entry, side: string): vscode.Uri {
    return DiffContentProvider.uri(entry.id, side, entry.path);
  }

  dispose(): void {
    for (const e of this.entries.values()) {
      this.content.delete(this.uri(e, 'before'));
      this.content.delete(this.uri(e, 'after'));
    }
    this.entries.clear();
    this.chars = 0;
  }
}
