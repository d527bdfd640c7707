// Links in agent output are untrusted: web and mail links open through VS Code (which asks the user
// about unknown domains), file paths open in the editor, and everything else — `command:` URIs
// above all — is refused.
import * as path from 'node:path';
import * as vscode from 'vscode';

export async function openLink(href: string): Promise<void> {
  let uri: vscode.Uri | undefined;
  if (/^(https?|mailto):/i.test(href)) {
    await vscode.env.openExternal(vscode.Uri.parse(href, true));
    return;
  }
  // Agents link files as /abs/a.ts#L10, a.ts#L10 or file:///abs/a.ts#L10; the fragment is the line.
  const target = decodeURIComponentSafe(href.replace(/#.*$/, ''));
  if (/^file:/i.test(href)) uri = vscode.Uri.parse(href, true).with({ fragment: '' });
  else if (path.isAbsolute(target)) uri = vscode.Uri.file(target);
  else if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) uri = vscode.Uri.joinPath(folder.uri, target);
  }
  if (!uri) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Switchboard does not open links of this kind: {0}', href.slice(0, 200)));
    return;
  }
  const line = /#L?(\d+)/.exec(href)?.[1];
  await openLocation(uri.fsPath, line ? Number(line) : null);
}

/** Opens a file at a 1-based line (ACP locations are 1-based). */
export async function openLocation(file: string, line: number | null): Promise<void> {
  const uri = vscode.Uri.file(file);
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
  } catch (err) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Cannot open {0}: {1}', file, err instanceof Error ? err.message : String(err)));
  }
}

function decodeURIComponentSafe(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}
