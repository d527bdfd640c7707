// The full texts behind the diff content of tool calls, so "open diff" on a chat card shows the
// whole change in VS Code's diff editor. Snippet diffs (Claude's old_string → new_string) are first
// resolved to whole files (EditResolver). Both sides are served by the one in-memory diff provider
// that the write reviews use too (host/fs/diffContent.ts), from the one bounded history of edits
// that applied writes share (host/fs/editLog.ts).
import * as vscode from 'vscode';
import { fileLabel } from '../common/bidi';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { EditLog } from './fs/editLog';
import { decodeFor } from './fs/fileData';
import { EditResolver } from './review/editResolver';

export class ToolDiffs implements vscode.Disposable {
  private readonly resolver = new EditResolver((file, bytes) => {
    const data = decodeFor(file, bytes);
    return data.kind === 'text' ? data.text : undefined;
  });
  constructor(private readonly log: EditLog) {}

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
      // The same key keeps its id: an open diff follows a later update of the same tool call.
      const key = keyOf(tab, itemId, index);
      this.log.add({ origin: 'toolDiff', scope: tab, path: c.path, before: c.oldText ?? null, after: c.newText }, key);
    });
  }

  async open(tab: string, itemId: string, index: number, options: { preserveFocus?: boolean } = {}): Promise<void> {
    const entry = this.log.history.get(keyOf(tab, itemId, index));
    if (!entry) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This change is no longer available to compare.'));
      return;
    }
    await vscode.commands.executeCommand('vscode.diff', EditLog.uri(entry, 'before'), EditLog.uri(entry, 'after'),
      vscode.l10n.t({ message: "{0} (agent's change)", args: [fileLabel(entry.path)], comment: 'Title of a diff editor; {0} is a file name' }), { preview: true, preserveFocus: options.preserveFocus });
  }

  dispose(): void {
    this.log.history.forget({ origin: 'toolDiff' });
  }
}

/** One diff of a transcript item's content, in the shared history. */
const keyOf = (tab: string, itemId: string, index: number) => `toolDiff\0${tab}/${itemId}/${index}`;
