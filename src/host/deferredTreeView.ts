// A tree view of Switchboard's container created when startup's gate opens (common/startupGate,
// decision 0039): registering a tree costs the workbench's thread ~10 ms while it lays out the chat
// that activated us. What the owner sets before then (its badge) is applied when it is created.
import * as vscode from 'vscode';

export class DeferredTreeView<T> implements vscode.Disposable {
  private tree: vscode.TreeView<T> | undefined;
  private shownBadge: vscode.ViewBadge | undefined;
  private disposed = false;

  constructor(id: string, options: vscode.TreeViewOptions<T>, when: Promise<void>) {
    void when.then(() => {
      if (this.disposed) return;
      this.tree = vscode.window.createTreeView(id, options);
      if (this.shownBadge) this.tree.badge = this.shownBadge;
    });
  }

  get badge(): vscode.ViewBadge | undefined { return this.shownBadge; }
  set badge(badge: vscode.ViewBadge | undefined) {
    this.shownBadge = badge;
    if (this.tree) this.tree.badge = badge;
  }

  dispose(): void {
    this.disposed = true;
    this.tree?.dispose();
  }
}
