// Follow the agent: while on, each tool call of the shown conversation that points at a file
// (common/follow/followTarget.ts) opens it at its line in a preview tab, without taking the focus
// from the prompt box. A click or a key in an editor (a selection change the user made: our own
// reveals are `Command` changes) ends it, and the chat says so.
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { FollowTarget, FollowTracker } from '../../common/follow/followTarget';
import { isWithin } from '../../common/fs/pathPolicy';
import { realPathOf, workspaceRoots } from '../../host/fs/files';
import type { Logger } from '../../common/logger';
import type { ChatController } from '../chatController';
import { resetContextKeyLater } from '../../host/contextKeys';

export const FOLLOWING_CONTEXT = 'switchboard.following';
/** Larger files are not followed (the editor would load them whole). */
export const FOLLOW_MAX_BYTES = 16 * 1024 * 1024;

export class FollowAgent extends Disposable {
  private on = false;
  private readonly tracker = new FollowTracker();
  private readonly changed = this.register(new vscode.EventEmitter<boolean>());
  /** Following started (true) or stopped (false). */
  readonly onDidChange = this.changed.event;
  /** The last reveal, so a slow one does not overtake a newer one. */
  private generation = 0;
  /** The chat said (since following started) that a file was skipped. */
  private skipNoted = false;

  constructor(private readonly chat: ChatController, private readonly log: Logger) {
    super();
    this.register(chat.onUpdate(({ tab, update }) => {
      if (!this.on || tab.id !== chat.activeTab) return;
      const target = this.tracker.next(update);
      if (target) void this.show(target);
    }));
    this.register(vscode.window.onDidChangeTextEditorSelection(e => {
      if (this.on && (e.kind === vscode.TextEditorSelectionChangeKind.Mouse || e.kind === vscode.TextEditorSelectionChangeKind.Keyboard)) {
        this.stop(vscode.l10n.t('Stopped following the agent: you moved into an editor.'));
      }
    }));
    this.register(resetContextKeyLater(FOLLOWING_CONTEXT, () => this.on));
  }

  get following(): boolean {
    return this.on;
  }

  start(): void {
    if (this.on) return;
    this.on = true;
    this.tracker.reset();
    this.skipNoted = false;
    void vscode.commands.executeCommand('setContext', FOLLOWING_CONTEXT, true);
    this.note(vscode.l10n.t('Following the agent: the editor shows the file of each tool call. Click into an editor to stop.'));
    this.changed.fire(true);
  }

  /** Ends following; `why` goes into the chat. */
  stop(why = vscode.l10n.t('Stopped following the agent.')): void {
    if (!this.on) return;
    this.on = false;
    this.generation++;
    void vscode.commands.executeCommand('setContext', FOLLOWING_CONTEXT, false);
    this.note(why);
    this.changed.fire(false);
  }

  toggle(): void {
    if (this.on) this.stop(); else this.start();
  }

  private note(text: string): void {
    this.chat.active.addNotice(text);
  }

  private async show(target: FollowTarget): Promise<void> {
    const generation = ++this.generation;
    try {
      // The agent names the path: only a regular file inside a workspace folder (symlinks and `..`
      // resolved, as fs/* requests are) is opened; never a file elsewhere, a FIFO or a device.
      const real = await realPathOf(target.path);
      const roots = await workspaceRoots();
      const st = roots.some(root => isWithin(real, root)) ? await fsp.lstat(real).catch(() => undefined) : undefined;
      if (!st?.isFile() || st.size > FOLLOW_MAX_BYTES) {
        if (!this.on) return;
        this.log.info(`Follow the agent: not showing ${target.path} (outside the workspace, not a regular file, or too large)`);
        if (!this.skipNoted) {
          this.skipNoted = true;
          this.note(vscode.l10n.t('Follow the agent shows only files inside the workspace: a tool call named a file outside the workspace, not a regular file, or too large, and it was not opened.'));
        }
        return;
      }
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
      if (generation !== this.generation || !this.on) return;
      const pos = new vscode.Position(Math.min(doc.lineCount - 1, Math.max(0, (target.line ?? 1) - 1)), 0);
      // Beside a chat that is itself an editor tab, never over it.
      const chatInFront = vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview;
      await vscode.window.showTextDocument(doc, {
        preview: true, preserveFocus: true, selection: new vscode.Range(pos, pos),
        viewColumn: chatInFront ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
      });
    } catch (err) {
      // A file the agent named that cannot be opened (deleted, binary, outside reach): skipped.
      this.log.info(`Follow the agent: cannot show ${target.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
