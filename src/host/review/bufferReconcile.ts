// The agent rewrote a file on disk while its tab had unsaved edits. VS Code keeps a dirty tab as it
// is, so the tab would show stale text and its next save would silently revert the agent (or stop at
// a save conflict). Instead the tab is reverted to the agent's version (VS Code then knows the new
// disk version) and the user's edits are applied again on top, merged three-way (disk before, the
// buffer, disk after; common/review/reconcile.ts): the tab stays dirty with both, overlaps are
// marked as conflicts, and the user is told at once.
import * as vscode from 'vscode';
import { fileLabel } from '../../common/bidi';
import { lineEdits } from '../../common/fs/merge';
import type { Logger } from '../../common/logger';
import { reconcileBuffer } from '../../common/review/reconcile';

export interface ReconcileResult {
  readonly conflicts: number;
}

/** Undefined when there was nothing to reconcile (no dirty tab, or it already shows the disk text). */
export async function reconcileDirtyBuffer(filePath: string, diskBefore: string, diskAfter: string | null, agentName: string, log: Logger): Promise<ReconcileResult | undefined> {
  const doc = vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && d.uri.fsPath === filePath && !d.isClosed);
  if (!doc?.isDirty) return undefined;
  const name = fileLabel(filePath);
  if (diskAfter === null) {
    void vscode.window.showWarningMessage(vscode.l10n.t("{0} deleted {1} on disk while you had unsaved edits in it. Your tab keeps them: save to keep the file, or undo the agent's change.", agentName, name));
    return undefined;
  }
  const buffer = doc.getText();
  if (buffer === diskAfter) return undefined;
  const { text, conflicts } = reconcileBuffer(diskBefore, buffer, diskAfter, agentName);
  await reloadThenSet(doc, diskAfter, text, log);
  log.info(`${agentName} changed ${filePath} on disk under unsaved edits: merged into the tab (${conflicts} conflict(s))`);
  const message = conflicts > 1
    ? vscode.l10n.t('{0} changed {1} on disk while you had unsaved edits. Your edits were merged into its version; {2} places where you both changed the same lines are marked as a conflict in the file.', agentName, name, conflicts)
    : conflicts
    ? vscode.l10n.t('{0} changed {1} on disk while you had unsaved edits. Your edits were merged into its version; 1 place where you both changed the same lines is marked as a conflict in the file.', agentName, name)
    : vscode.l10n.t('{0} changed {1} on disk while you had unsaved edits. Your edits were merged into its version: save to keep both.', agentName, name);
  void vscode.window.showWarningMessage(message, vscode.l10n.t('Show File')).then(choice => {
    if (choice) void vscode.window.showTextDocument(doc);
  });
  return { conflicts };
}

/**
 * Undo of an agent's change in a file whose tab has unsaved edits: the disk gets `diskText` (the
 * undo applied to what the disk holds), the tab `bufferText` (the undo applied to the buffer), still
 * unsaved. The user's unsaved edits are never saved for them, and the next save is no conflict.
 */
export async function writeDiskUnderDirtyBuffer(doc: vscode.TextDocument, diskText: string, bufferText: string, log: Logger, diskBytes?: Uint8Array): Promise<void> {
  // `diskBytes`: `diskText` in the file's encoding (the caller knows it); else UTF-8, the BOM kept.
  const old = diskBytes ? undefined : await vscode.workspace.fs.readFile(doc.uri);
  const bom = old && old[0] === 0xef && old[1] === 0xbb && old[2] === 0xbf && !diskText.startsWith('\uFEFF') ? '\uFEFF' : '';
  await vscode.workspace.fs.writeFile(doc.uri, diskBytes ?? new TextEncoder().encode(bom + diskText));
  await reloadThenSet(doc, diskText, bufferText, log);
}

/** Reverts the tab to the disk (VS Code then knows the disk's version), then sets its text to `text` (unsaved). */
async function reloadThenSet(doc: vscode.TextDocument, diskText: string, text: string, log: Logger): Promise<void> {
  const previous = vscode.window.activeTextEditor;
  // "Revert File" acts on the active editor: make this one active (without taking the focus if its
  // group is the active one), revert it to the disk, and never revert anything else.
  await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
  let tookFocus = false;
  if (vscode.window.activeTextEditor?.document !== doc) {
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
    tookFocus = true;
  }
  if (vscode.window.activeTextEditor?.document === doc) {
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const now = doc.getText();
  if (now !== diskText) log.warn(`Could not reload ${doc.uri.fsPath} from disk before applying the unsaved edits again`);
  const edit = new vscode.WorkspaceEdit();
  for (const e of lineEdits(now, text)) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
  if (edit.size && !(await vscode.workspace.applyEdit(edit))) log.warn(`Could not merge the unsaved edits into ${doc.uri.fsPath}`);
  if (tookFocus && previous && previous.document !== doc && previous.document.uri.scheme === 'file' && !previous.document.isClosed) {
    await vscode.window.showTextDocument(previous.document, { viewColumn: previous.viewColumn, preserveFocus: false });
  }
}
