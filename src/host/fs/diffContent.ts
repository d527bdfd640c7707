// Both sides of every diff Switchboard opens (write reviews, applied writes, tool-call diffs) are
// virtual documents served from this one provider, from memory: no temp files, and never content
// encoded into the URI. URIs look like switchboard-diff:/<id>/<side>/<file name>,
// so the editor picks the language from the file name.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';

export const DIFF_SCHEME = 'switchboard-diff';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export class DiffContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this));
  }

  static uri(id: string, side: string, filePath: string): vscode.Uri {
    // A lone surrogate (an agent's path may hold one) cannot be percent-encoded: URI#toString would throw.
    const name = path.basename(filePath).replace(LONE_SURROGATE, '\uFFFD');
    return vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${id}/${side}/${name || 'file'}` });
  }

  /** The id a URI of ours belongs to, or undefined for any other URI. */
  static idOf(uri: vscode.Uri | undefined): string | undefined {
    if (!uri || uri.scheme !== DIFF_SCHEME) return undefined;
    return uri.path.split('/')[1] || undefined;
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
