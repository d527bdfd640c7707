// The last text we saw of files the agent may change: files it read, files open in the editor
// (as the user left them), files it wrote. It is the baseline of an edit the agent makes on disk
// without telling us the old text. Bounded: least recently seen files are forgotten first.
import * as vscode from 'vscode';
import { BoundedTextMap } from '../../common/boundedTextMap';
import { Disposable } from '../../common/disposable';

const MAX_TOTAL_CHARS = 64 * 1024 * 1024;
const MAX_FILE_CHARS = 8 * 1024 * 1024;

export class FileSnapshots extends Disposable {
  private readonly texts = new BoundedTextMap(MAX_TOTAL_CHARS);

  constructor() {
    super();
    this.reset();
    this.register(vscode.workspace.onDidOpenTextDocument(doc => this.fromDocument(doc)));
    // What the user saves is the new baseline. Typing is not followed (that would copy the buffer
    // on every keystroke): a dirty buffer is never reloaded from disk, so it needs no snapshot until
    // it is saved; a clean buffer reloaded from disk must keep the old snapshot to compare with.
    this.register(vscode.workspace.onDidSaveTextDocument(doc => this.fromDocument(doc)));
  }

  /** Forgets everything, then takes the open documents as they are (what activation does). */
  reset(): void {
    this.texts.clear();
    for (const doc of vscode.workspace.textDocuments) this.fromDocument(doc);
  }

  get(path: string): string | undefined {
    return this.texts.get(path);
  }

  remember(path: string, text: string | undefined): void {
    if (text === undefined || text.length > MAX_FILE_CHARS) this.texts.delete(path);
    else this.texts.set(path, text);
  }

  private fromDocument(doc: vscode.TextDocument): void {
    if (doc.uri.scheme === 'file') this.remember(doc.uri.fsPath, doc.getText());
  }
}
