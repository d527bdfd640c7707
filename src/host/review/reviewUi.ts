// Where the user reviews what the agent changed: a tree view (turn → file → hunk), CodeLens and
// decorations on the changed lines in the editor, and a diff of baseline vs the file as it is now.
// All of it reads the ChangeTracker and refreshes when it changes.
import * as vscode from 'vscode';
import { registerCommand } from '../commands';
import { fileLabel } from '../../common/bidi';
import { Disposable } from '../../common/disposable';
import type { ChangeTracker, TurnView } from './changeTracker';
import { resetContextKeyLater } from '../contextKeys';
import { DeferredTreeView } from '../deferredTreeView';

/** Context key: a change was listed in this window (the Agent Changes view is shown from then on). */
const CHANGES_LISTED_KEY = 'switchboard.changesListed';

export const BASELINE_SCHEME = 'switchboard-baseline';

type Node =
  | { readonly type: 'turn'; readonly turn: TurnView }
  | { readonly type: 'file'; readonly turnId: string; readonly path: string; readonly kind: string; readonly added: number; readonly removed: number; readonly binary?: boolean }
  | { readonly type: 'hunk'; readonly turnId: string; readonly path: string; readonly hunkId: string; readonly line: number; readonly added: number; readonly removed: number };

/** Arguments the review commands accept: a tree node, or a plain {turnId, path?, hunkId?}. */
export interface ChangeRef { readonly turnId: string; readonly path?: string; readonly hunkId?: string }

export class ReviewUi extends Disposable implements vscode.TreeDataProvider<Node>, vscode.CodeLensProvider, vscode.TextDocumentContentProvider {
  private readonly treeEmitter = this.register(new vscode.EventEmitter<Node | undefined>());
  private readonly lensEmitter = this.register(new vscode.EventEmitter<void>());
  private readonly docEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChangeTreeData = this.treeEmitter.event;
  readonly onDidChangeCodeLenses = this.lensEmitter.event;
  readonly onDidChange = this.docEmitter.event;
  /**
   * The added / removed line decorations, made with the first change to show: each one made is a
   * style sheet rule in the window, ~3 ms of its thread when made at activation.
   */
  private decorations: { added: vscode.TextEditorDecorationType; removed: vscode.TextEditorDecorationType } | undefined;

  /** `treeWhen`: when the Changes tree is registered (host/deferredTreeView): after the chat's first state. */
  constructor(private readonly tracker: ChangeTracker, treeWhen: Promise<void>) {
    super();
    const tree = this.register(new DeferredTreeView('switchboard.changes', { treeDataProvider: this, showCollapseAll: true }, treeWhen));
    // The lenses' provider is registered only while there are changes: once registered, VS Code asks
    // it for every file editor shown (all of them at activation, and each one opened).
    let lenses: vscode.Disposable | undefined;
    const lensesWhile = (any: boolean) => {
      if (any) lenses ??= vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this);
      else { lenses?.dispose(); lenses = undefined; }
    };
    this.register({ dispose: () => lensesWhile(false) });
    this.register(vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, this));
    // The view's badge counts the changed files; `switchboard.hasChanges` enables Keep all / Undo all.
    const count = () => tracker.views().reduce((n, t) => n + t.files.length, 0);
    // The view is in the side bar from the first change listed in this window on (and stays: it does
    // not come and go with each Keep): two collapsed panes under the chat cost its first frame
    // ~15 ms of the window's thread at every opening (docs/decisions/0040).
    let listed = false;
    const showCount = (n: number) => {
      lensesWhile(n > 0);
      tree.badge = n ? { value: n, tooltip: n === 1 ? vscode.l10n.t('1 changed file to review') : vscode.l10n.t('{0} changed files to review', n) } : undefined;
      void vscode.commands.executeCommand('setContext', 'switchboard.hasChanges', n > 0);
      if (n > 0 && !listed) {
        listed = true;
        void vscode.commands.executeCommand('setContext', CHANGES_LISTED_KEY, true);
      }
    };
    this.register(tracker.onDidChange(() => {
      this.treeEmitter.fire(undefined);
      this.lensEmitter.fire();
      this.decorate();
      showCount(count());
      for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === BASELINE_SCHEME) this.docEmitter.fire(doc.uri);
    }));
    // Changes kept from before a reload: counted at once (they waited for the next change); none:
    // the key is reset later (host/contextKeys), off the view's first layout.
    const kept = count();
    if (kept > 0) showCount(kept);
    else {
      this.register(resetContextKeyLater('switchboard.hasChanges', () => count() > 0));
      this.register(resetContextKeyLater(CHANGES_LISTED_KEY, () => listed));
    }
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()));
    const cmd = (id: string, run: (ref: ChangeRef) => unknown) =>
      this.register(registerCommand(id, (arg?: Node | ChangeRef) => { const ref = toRef(arg); return ref ? run(ref) : undefined; }));
    cmd('switchboard.keepChange', ref => tracker.keep(ref.turnId, ref.path, ref.hunkId));
    // Undo of a whole turn asks first, from every surface: the tree, the chat, the command palette.
    cmd('switchboard.undoChange', ref => (ref.path ? tracker.undo(ref.turnId, ref.path, ref.hunkId) : this.undoAll([ref.turnId])));
    cmd('switchboard.openChangeDiff', ref => this.openDiff(ref));
    this.register(registerCommand('switchboard.keepAllChanges', () => { for (const t of tracker.views()) tracker.keep(t.turnId); }));
    this.register(registerCommand('switchboard.undoAllChanges', (arg?: Node | ChangeRef) => {
      const ref = toRef(arg);
      return this.undoAll(ref ? [ref.turnId] : tracker.views().map(t => t.turnId));
    }));
  }

  /** Undoes every change of these turns once the user confirmed; false when nothing was undone. */
  async undoAll(turnIds: readonly string[]): Promise<boolean> {
    const views = turnIds.map(id => this.tracker.viewOf(id)).filter((v): v is TurnView => !!v);
    const files = views.flatMap(v => v.files);
    if (!files.length) return false;
    const created = files.filter(f => f.kind === 'created').length;
    const detail = `${created > 1 ? vscode.l10n.t('Each file goes back to its text before the agent changed it; {0} files the agent created will be deleted.', created) : created ? vscode.l10n.t('Each file goes back to its text before the agent changed it; 1 file the agent created will be deleted.') : vscode.l10n.t('Each file goes back to its text before the agent changed it.')} ` +
      vscode.l10n.t('Your own later edits are kept. Ctrl+Z in an editor brings a change back.');
    const undoAll = vscode.l10n.t('Undo All');
    const ok = await vscode.window.showWarningMessage(files.length > 1 ? vscode.l10n.t("Undo the agent's changes to {0} files?", files.length) : vscode.l10n.t("Undo the agent's changes to 1 file?"), { modal: true, detail }, undoAll);
    if (ok !== undoAll) return false;
    for (const v of views) await this.tracker.undo(v.turnId);
    return true;
  }

  /** Baseline (left, virtual) against the file as it is now (right, editable). */
  async openDiff(ref: ChangeRef): Promise<void> {
    const change = ref.path ? this.tracker.fileChange(ref.turnId, ref.path) : undefined;
    if (!ref.path || !change) return;
    // A binary change has no text diff: the file itself is shown (in its own editor, e.g. an image).
    if (change.binary) {
      if (change.current !== null) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(ref.path), { preview: true });
      return;
    }
    const left = vscode.Uri.from({ scheme: BASELINE_SCHEME, path: ref.path, query: ref.turnId });
    const fileUri = vscode.Uri.file(ref.path);
    // A lower entry whose change a later one overlaps: its own change, both sides as it made them.
    const own = this.tracker.diffSides(ref.turnId, ref.path)?.right !== 'file';
    const right = change.current === null ? vscode.Uri.from({ scheme: BASELINE_SCHEME, path: ref.path, query: `${ref.turnId}&deleted` })
      : own ? vscode.Uri.from({ scheme: BASELINE_SCHEME, path: ref.path, query: `${ref.turnId}&own` }) : fileUri;
    const hunk = ref.hunkId ? (own ? this.tracker.hunks(ref.turnId, ref.path) : this.tracker.shownHunks(ref.turnId, ref.path)).find(h => h.id === ref.hunkId) : undefined;
    const line = Math.max(0, (hunk?.curLine ?? 1) - 1);
    await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t({ message: "{0} (agent's changes)", args: [fileLabel(ref.path)], comment: 'Title of a diff editor; {0} is a file name' }),
      { preview: true, selection: new vscode.Range(line, 0, line, 0) });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [turnId, side] = uri.query.split('&');
    const change = this.tracker.fileChange(turnId, uri.path);
    if (side === 'deleted' || change?.binary) return '';
    const sides = this.tracker.diffSides(turnId, uri.path);
    if (side === 'own') return (sides?.right !== 'file' ? sides?.right : change?.current) ?? '';
    return (sides ? sides.left : change?.baseline) ?? '';
  }

  // ---- tree ------------------------------------------------------------------------------------

  getChildren(node?: Node): Node[] {
    if (!node) return this.tracker.views().map(turn => ({ type: 'turn', turn }));
    if (node.type === 'turn') {
      return node.turn.files.map(f => ({ type: 'file', turnId: node.turn.turnId, path: f.path, kind: f.kind, added: f.added, removed: f.removed, binary: !!f.binary }));
    }
    if (node.type === 'file') {
      return this.tracker.shownHunks(node.turnId, node.path).map(h => ({
        type: 'hunk', turnId: node.turnId, path: node.path, hunkId: h.id, line: h.curLine, added: h.added, removed: h.removed,
      }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'turn': {
        const item = new vscode.TreeItem(node.turn.files.length === 1 ? vscode.l10n.t('{0}: 1 file', node.turn.title) : vscode.l10n.t('{0}: {1} files', node.turn.title, node.turn.files.length), vscode.TreeItemCollapsibleState.Expanded);
        item.description = vscode.l10n.t({ message: 'written, undoable', comment: 'The agent already wrote these changes to disk; they can be undone' });
        item.tooltip = node.turn.working
          ? vscode.l10n.t('These files changed on disk while several agents were working, and no agent reported changing them: keep them, or undo them.')
          : vscode.l10n.t('The agent already wrote these changes: keep them, or undo them.');
        // A string tooltip would become the row's accessible name and hide what the row says.
        item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
        item.contextValue = 'switchboard.turn';
        item.iconPath = new vscode.ThemeIcon('hubot');
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.file(node.path);
        const item = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.Collapsed);
        item.label = fileLabel(node.path); // not the raw name VS Code would take from the URI
        item.description = node.binary ? (node.kind === 'created' ? vscode.l10n.t('created, binary') : node.kind === 'deleted' ? vscode.l10n.t('deleted, binary') : vscode.l10n.t('binary')) : node.kind === 'created' ? vscode.l10n.t({ message: 'created +{0} -{1}', args: [node.added, node.removed], comment: 'A file the agent created; {0} lines added, {1} removed' }) : node.kind === 'deleted' ? vscode.l10n.t({ message: 'deleted +{0} -{1}', args: [node.added, node.removed], comment: 'A file the agent deleted; {0} lines added, {1} removed' }) : `+${node.added} -${node.removed}`;
        item.contextValue = 'switchboard.file';
        item.command = { command: 'switchboard.openChangeDiff', title: vscode.l10n.t('Open Diff'), arguments: [{ turnId: node.turnId, path: node.path }] };
        return item;
      }
      case 'hunk': {
        const item = new vscode.TreeItem(vscode.l10n.t('Line {0}', node.line), vscode.TreeItemCollapsibleState.None);
        item.description = `+${node.added} -${node.removed}`;
        item.contextValue = 'switchboard.hunk';
        item.iconPath = new vscode.ThemeIcon('diff');
        item.command = { command: 'switchboard.openChangeDiff', title: vscode.l10n.t('Open Diff'), arguments: [{ turnId: node.turnId, path: node.path, hunkId: node.hunkId }] };
        return item;
      }
    }
  }

  // ---- editor: CodeLens and decorations ----------------------------------------------------------

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    for (const { turnId, change } of this.tracker.changesOf(doc.uri.fsPath)) {
      for (const h of this.tracker.shownHunks(turnId, change.path)) {
        const line = Math.min(Math.max(0, h.curLine - 1), Math.max(0, doc.lineCount - 1));
        const range = new vscode.Range(line, 0, line, 0);
        const ref: ChangeRef = { turnId, path: change.path, hunkId: h.id };
        lenses.push(
          new vscode.CodeLens(range, { title: `$(check) ${vscode.l10n.t({ message: 'Keep (+{0} -{1})', args: [h.added, h.removed], comment: 'CodeLens: keep the agent\'s change of {0} added and {1} removed lines' })}`, command: 'switchboard.keepChange', arguments: [ref] }),
          new vscode.CodeLens(range, { title: `$(discard) ${vscode.l10n.t('Undo')}`, command: 'switchboard.undoChange', arguments: [ref] }),
          new vscode.CodeLens(range, { title: vscode.l10n.t({ message: 'Diff', comment: 'CodeLens: show the agent\'s change in a diff editor' }), command: 'switchboard.openChangeDiff', arguments: [ref] }),
        );
      }
    }
    return lenses;
  }

  private decorate(): void {
    if (!this.decorations && this.tracker.views().length === 0) return;
    const types = (this.decorations ??= {
      added: this.register(vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
        overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
        overviewRulerLane: vscode.OverviewRulerLane.Left,
      })),
      removed: this.register(vscode.window.createTextEditorDecorationType({
        isWholeLine: true,
        borderWidth: '2px 0 0 0', borderStyle: 'solid', borderColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      })),
    });
    for (const editor of vscode.window.visibleTextEditors) {
      const added: vscode.Range[] = [];
      const removed: vscode.Range[] = [];
      if (editor.document.uri.scheme === 'file') {
        for (const { turnId, change } of this.tracker.changesOf(editor.document.uri.fsPath)) {
          for (const h of this.tracker.shownHunks(turnId, change.path)) {
            const first = h.curLine - 1;
            if (h.curLineCount > 0) added.push(new vscode.Range(first, 0, first + h.curLineCount - 1, 0));
            else removed.push(new vscode.Range(Math.min(first, editor.document.lineCount - 1), 0, Math.min(first, editor.document.lineCount - 1), 0));
          }
        }
      }
      editor.setDecorations(types.added, added);
      editor.setDecorations(types.removed, removed);
    }
  }
}

function toRef(arg: unknown): ChangeRef | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Record<string, unknown>;
  if (a.type === 'turn') return { turnId: (a.turn as TurnView).turnId };
  if (typeof a.turnId === 'string') {
    return { turnId: a.turnId, path: typeof a.path === 'string' ? a.path : undefined, hunkId: typeof a.hunkId === 'string' ? a.hunkId : undefined };
  }
  return undefined;
}
