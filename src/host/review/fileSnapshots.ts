// The last text we saw of files the agent may change: files it read, files open in the editor
// (as saved on disk), files it wrote. It is the baseline of an edit the agent makes on disk
// without telling us the old text. Bounded: least recently seen files are forgotten first.
//
// A tab with unsaved edits is never taken as a file's text: its edits are the user's, and an agent
// that edits in its own process changes the disk, not the tab. Taken as the baseline, the user's
// unsaved lines would be listed as lines the agent removed, merged away from the tab, and written
// to disk by Undo. Such a tab's snapshot is read from the disk, whenever the extension activated
// (after the user typed, or with tabs a window reload restored unsaved).
import * as vscode from 'vscode';
import { BoundedTextMap } from '../../common/boundedTextMap';
import { Disposable } from '../../common/disposable';
import type { SomeText } from '../../common/fs/lazyText';
import { readDiskSync } from './diskSources';

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

  /** Whether a text is kept for the file (not decoding one kept as bytes). */
  has(path: string): boolean {
    return this.texts.has(path);
  }

  remember(path: string, text: SomeText | undefined): void {
    if (text === undefined || text.length > MAX_FILE_CHARS) this.texts.delete(path);
    else this.texts.set(path, text);
  }

  /**
   * The agent read a file through the client: served an unsaved tab's text, it saw the user's edits,
   * but the file on disk (what a command it runs, or an in-process edit, changes) is its baseline.
   */
  rememberRead(path: string, text: SomeText): void {
    const doc = vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && d.uri.fsPath === path && !d.isClosed);
    this.remember(path, doc?.isDirty ? diskText(path) : text);
  }

  private fromDocument(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    this.remember(doc.uri.fsPath, doc.isDirty ? diskText(doc.uri.fsPath) : doc.getText());
  }
}

/** The file's text on disk (undefined when it is missing, binary or not valid in its encoding). */
function diskText(path: string): string | undefined {
  const data = readDiskSync(path)?.data;
  return data?.kind === 'text' ? data.text : undefined;
}
