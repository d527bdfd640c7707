// The agent rewrote a file on disk while its tab had unsaved edits. VS Code keeps a dirty tab as it
// is, so the tab would show stale text and its next save would silently revert the agent (or stop at
// a save conflict). Instead the tab is reverted to the agent's version (VS Code then knows the new
// disk version) and the user's edits are applied again on top, merged three-way (disk before, the
// buffer, disk after; common/review/reconcile.ts): the tab stays dirty with both, overlaps are
// marked as conflicts, and the user is told at once. When the merge cannot tell the user's edits
// from the agent's (no trustworthy disk text before the agent's change), the tab is left exactly as
// it is and the user chooses: keep theirs, take the agent's, or keep both.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { fileLabel } from '../../common/bidi';
import { bytesOf, type FileData } from '../../common/fs/encoding';
import { lineEdits, merge3, Resolution } from '../../common/fs/merge';
import type { Logger } from '../../common/logger';
import { keepBoth, reconcileBuffer } from '../../common/review/reconcile';
import { decodeFor } from '../fs/fileData';
import { textData } from '../../common/review/sides';
import { oneMergeAtATime, tabMergeHooks } from '../fs/tabMerges';
import { readDisk } from './diskSources';

export interface ReconcileResult {
  readonly conflicts: number;
  /** Nothing was merged: the tab is untouched until the user chooses. */
  readonly undecided?: boolean;
}

/** Undefined when there was nothing to reconcile (no dirty tab, or it already shows the disk text). */
export function reconcileDirtyBuffer(filePath: string, diskBefore: string | undefined, diskAfter: string | null, agentName: string, log: Logger): Promise<ReconcileResult | undefined> {
  return oneMergeAtATime(filePath, () => reconcileNow(filePath, diskBefore, diskAfter, agentName, log), log);
}

async function reconcileNow(filePath: string, diskBefore: string | undefined, diskAfter: string | null, agentName: string, log: Logger): Promise<ReconcileResult | undefined> {
  const doc = vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && d.uri.fsPath === filePath && !d.isClosed);
  if (!doc?.isDirty) return undefined;
  const name = fileLabel(filePath);
  if (diskAfter === null) {
    void vscode.window.showWarningMessage(vscode.l10n.t("{0} deleted {1} on disk while you had unsaved edits in it. Your tab keeps them: save to keep the file with them, or revert the tab and undo the agent's change.", agentName, name));
    return undefined;
  }
  let conflicts = 0;
  // The merge is made for the tab and the disk as they are now; if either changed before the tab is
  // reverted (the user typed, another write landed and is reconciled on its own), it is never
  // applied over them: made again for a tab that changed, dropped for a disk that moved on.
  for (let attempt = 1; ; attempt++) {
    const buffer = doc.getText();
    if (buffer === diskAfter || !doc.isDirty) return undefined;
    const result = reconcileBuffer(diskBefore, buffer, diskAfter, agentName);
    if (result.kind === 'undecidable') {
      log.warn(`${agentName} changed ${filePath} on disk under unsaved edits that cannot be told from its change: the tab is left as it is, the user chooses`);
      void askWhatTheTabKeeps(doc, agentName, log);
      return { conflicts: 1, undecided: true };
    }
    conflicts = result.conflicts;
    const applied = await reloadThenSet(doc, diskAfter, result.text, log, doc.version);
    if (typeof applied === 'number') { conflicts += applied; break; }
    if (applied === 'disk' || attempt === 3) {
      log.info(`${filePath} changed again while its unsaved edits were merged with ${agentName}'s change: left to the later change (${applied === 'disk' ? 'the disk moved on' : 'the tab kept changing'})`);
      return undefined;
    }
  }
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
 * The tab keeps the user's unsaved text as it is (its next save would overwrite the agent's change,
 * and VS Code asks first, the disk being newer) until the user chooses, as in a write's review:
 * their text, the agent's, or both (theirs first). Each is applied to the tab and disk as they are
 * when the user answers, and is one undoable edit of the tab.
 */
async function askWhatTheTabKeeps(doc: vscode.TextDocument, agentName: string, log: Logger): Promise<void> {
  const choices: { title: string; resolution: Resolution }[] = [
    { title: vscode.l10n.t('Keep yours'), resolution: 'ours' },
    { title: vscode.l10n.t("Take {0}'s", agentName), resolution: 'theirs' },
    { title: vscode.l10n.t('Keep both'), resolution: 'both' },
  ];
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t("{0} changed {1} on disk while you had unsaved edits, and your edits cannot be told apart from its change, so nothing was merged: your tab is unchanged. Keep yours, take {0}'s version, or keep both (yours first)?", agentName, fileLabel(doc.uri.fsPath)),
    ...choices);
  if (!choice || doc.isClosed) return;
  await oneMergeAtATime(doc.uri.fsPath, async () => {
    const data = await readDisk(doc.uri.fsPath);
    if (data?.kind !== 'text') return;
    const disk = data.text;
    const mine = doc.getText();
    const text = choice.resolution === 'ours' ? mine : choice.resolution === 'theirs' ? disk : keepBoth(mine, disk);
    log.info(`${doc.uri.fsPath}: the user chose ${choice.resolution} for unsaved edits under ${agentName}'s change on disk`);
    tellConflicts(doc, await reloadThenSet(doc, disk, text, log));
  }, log);
}

/**
 * Undo of an agent's change in a file whose tab has unsaved edits: the undo, a change of the tab's
 * text from `from` to `to`, is applied to the disk's text and to the tab's as they are when its turn
 * in the file's queue comes (another merge may have landed in the tab meanwhile); the tab stays
 * unsaved, the user's edits are never saved for them, and the next save is no conflict. Where the
 * undo overlaps what landed in the tab meanwhile, both are kept, marked as a conflict. A tab closed
 * meanwhile: the disk only. Where another program changed the undone lines on disk since, the disk
 * is left as it is (writing the undo there would drop that program's lines and save the user's edits
 * for them): the undo goes to the tab only, and the user is told (saving the tab keeps it,
 * discarding it keeps the disk). The tab closed meanwhile and the disk's undone lines changed:
 * nothing is written, the user is told. Returns what the disk holds and whether the undo was made
 * (in the disk, the tab or both); undefined, nothing done: the disk holds no text (deleted since, or binary).
 */
export function undoUnderDirtyBuffer(doc: vscode.TextDocument, from: string, to: string, log: Logger): Promise<{ disk: FileData; made: boolean } | undefined> {
  return oneMergeAtATime(doc.uri.fsPath, async () => {
    const disk = await readDisk(doc.uri.fsPath);
    if (disk?.kind !== 'text') return undefined;
    const onDisk = merge3(from, disk.text, to, 'ours');
    const tab = doc.isClosed ? undefined : doc.getText();
    // The undo in the tab: `to` itself, or merged with what landed in the tab meanwhile (overlaps marked).
    const onTab = tab === undefined || tab === from ? undefined
      : reconcileBuffer(from, tab, to, '', vscode.l10n.t({ message: 'The undo of the agent\'s change', comment: 'The label after >>>>>>> of a conflict written into a file: the side of Undo of an agent\'s change. One line.' }));
    const tabText = onTab?.kind === 'merged' ? onTab.text : to;
    const tabConflicts = onTab?.kind === 'merged' ? onTab.conflicts : 0;
    if (onDisk.conflicts.length) {
      if (tab === undefined) {
        // The tab was closed meanwhile: the undo, made for its text, is written nowhere (the disk's
        // lines moved on, and the tab's unsaved text it carried is gone with it).
        log.warn(`${doc.uri.fsPath}: the lines the undo restores changed on disk since and its tab was closed: not undone`);
        void vscode.window.showWarningMessage(vscode.l10n.t('The undo in {0} was not made: the lines it restores changed on disk since, and the file\'s tab was closed meanwhile.', fileLabel(doc.uri.fsPath)));
        return { disk, made: false };
      }
      log.warn(`${doc.uri.fsPath}: the lines the undo restores changed on disk since; the undo is made in the unsaved tab only, the disk left as it is`);
      if (!await setTabText(doc, tabText, log)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('The undo in {0} was not made: the lines it restores changed on disk since, and the file\'s tab could not be changed.', fileLabel(doc.uri.fsPath)));
        return { disk, made: false };
      }
      void vscode.window.showWarningMessage(vscode.l10n.t('The lines the undo restores in {0} differ on disk (changed by another program, or by your unsaved edits), so the file on disk was left as it is: the undo was made in your unsaved tab only. Save the tab to keep it; discard it to keep the file on disk.', fileLabel(doc.uri.fsPath)));
      tellConflicts(doc, tabConflicts);
      return { disk, made: true };
    }
    const written = textData(onDisk.text, disk.form);
    await vscode.workspace.fs.writeFile(doc.uri, bytesOf(written));
    if (tab === undefined) return { disk: written, made: true };
    const more = await reloadThenSet(doc, onDisk.text, tabText, log);
    tellConflicts(doc, tabConflicts + (typeof more === 'number' ? more : 0));
    return { disk: written, made: true };
  }, log);
}

/** Conflicts were marked in the tab outside an agent write's merge (which tells its own): the user is told. */
function tellConflicts(doc: vscode.TextDocument, conflicts: number | 'tab' | 'disk'): void {
  if (typeof conflicts !== 'number' || conflicts < 1) return;
  void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed while your unsaved edits were merged into it: {1} place(s) where both changed the same lines are marked as a conflict in the file.', fileLabel(doc.uri.fsPath), conflicts), vscode.l10n.t('Show File')).then(choice => {
    if (choice) void vscode.window.showTextDocument(doc);
  });
}

/**
 * Reverts the tab to the disk (VS Code then knows the disk's version), then sets its text to `text`
 * (unsaved). `version`: `text` was made from the tab at that version and from the disk holding
 * `diskText`; if the tab changed since ('tab') or the disk no longer holds it ('disk'), nothing is
 * done (checked right before the revert). If the disk changed between that check and the revert,
 * what `text` adds to `diskText` is merged onto what the revert loaded. Done: the conflicts that
 * merge marked (0 when there was none).
 */
async function reloadThenSet(doc: vscode.TextDocument, diskText: string, text: string, log: Logger, version?: number): Promise<number | 'tab' | 'disk'> {
  const previous = vscode.window.activeTextEditor;
  // "Revert File" acts on the active editor: make this one active (without taking the focus if its
  // group is the active one), revert it to the disk, and never revert anything else.
  await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
  let tookFocus = false;
  if (vscode.window.activeTextEditor?.document !== doc) {
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
    tookFocus = true;
  }
  if (version !== undefined) {
    if (doc.version !== version) return 'tab';
    if (!diskHolds(doc.uri.fsPath, diskText)) return 'disk';
  }
  await tabMergeHooks.beforeRevert?.(doc);
  if (vscode.window.activeTextEditor?.document === doc) {
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const loaded = doc.getText();
  let conflicts = 0;
  if (!doc.isDirty && loadedAs(loaded) !== loadedAs(diskText)) {
    // The disk moved on after the check: `text` is made for the disk before, the tab shows it now.
    const again = reconcileBuffer(diskText, text, loaded, '', vscode.l10n.t({ message: 'The file on disk now', comment: 'The label after >>>>>>> of a conflict written into a file: the disk\'s side, which changed while the unsaved edits were merged. One line.' }));
    log.info(`${doc.uri.fsPath} changed on disk while its unsaved edits were merged: merged again onto the disk as it is now`);
    text = again.kind === 'merged' ? again.text : loaded;
    conflicts = again.kind === 'merged' ? again.conflicts : 0;
  } else if (doc.isDirty) log.warn(`Could not reload ${doc.uri.fsPath} from disk before applying the unsaved edits again`);
  await tabMergeHooks.beforeSet?.(doc);
  await setTabText(doc, text, log);
  if (tookFocus && previous && previous.document !== doc && previous.document.uri.scheme === 'file' && !previous.document.isClosed) {
    await vscode.window.showTextDocument(previous.document, { viewColumn: previous.viewColumn, preserveFocus: false });
  }
  return conflicts;
}

/**
 * Sets the tab's text to `text` (unsaved), line by line (the user's Ctrl+Z undoes it). VS Code may
 * reload a clean tab once more on the watcher's report of a disk change, and an edit made for the
 * version before fails ("has changed in the meantime"): made again then. False: it could not be set.
 */
async function setTabText(doc: vscode.TextDocument, text: string, log: Logger): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const now = doc.getText();
    const edit = new vscode.WorkspaceEdit();
    for (const e of lineEdits(now, text)) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
    if (!edit.size || (await vscode.workspace.applyEdit(edit).then(ok => ok, () => false))) return true;
    if (attempt === 5 || doc.isClosed) { log.warn(`Could not merge the unsaved edits into ${doc.uri.fsPath}`); return false; }
    await new Promise(resolve => setTimeout(resolve, 50 * attempt));
  }
}

/** A text as a tab loads it from the disk: VS Code drops a BOM and makes the line ends one kind. */
function loadedAs(text: string): string {
  return (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n/g, '\n');
}

/** Whether the file still holds `text` (decoded in its encoding, or as UTF-8 as some callers read it; a BOM aside). */
function diskHolds(filePath: string, text: string): boolean {
  const bare = (t: string) => (t.startsWith('\uFEFF') ? t.slice(1) : t);
  let raw: Buffer;
  try { raw = readFileSync(filePath); } catch { return false; }
  if (bare(raw.toString('utf8')) === bare(text)) return true;
  const data = decodeFor(filePath, raw);
  return data.kind === 'text' && bare(data.text) === bare(text);
}
