// The file-system settings: changes apply without a restart. The user's own values (inspect(), which
// costs milliseconds on a busy extension host) are kept until a change of switchboard.fs.*.
import * as vscode from 'vscode';
import { OutsideWorkspacePolicy, parseOutsideWorkspacePolicy, parseReviewWrites, ReviewWritesMode } from '../../common/fs/pathPolicy';

export const FsSettings = {
  outsideWorkspace: 'fs.outsideWorkspace',
  saveAfterWrite: 'fs.saveAfterWrite',
  reviewWrites: 'fs.reviewWrites',
} as const;

const config = () => vscode.workspace.getConfiguration('switchboard');

/**
 * The user's own value: what guards the user (review, files outside the workspace) must not be
 * switched off by a repository's .vscode/settings.json.
 */
function userValue<T>(key: string): T | undefined {
  watch ??= vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('switchboard.fs')) userValues.clear(); });
  if (userValues.has(key)) return userValues.get(key) as T | undefined;
  const i = config().inspect<T>(key);
  const value = i?.globalValue ?? i?.defaultValue;
  userValues.set(key, value);
  return value;
}
const userValues = new Map<string, unknown>();
let watch: vscode.Disposable | undefined;

export function readOutsideWorkspacePolicy(): OutsideWorkspacePolicy {
  return parseOutsideWorkspacePolicy(userValue(FsSettings.outsideWorkspace));
}

export function readSaveAfterWrite(): boolean {
  return config().get<boolean>(FsSettings.saveAfterWrite, true) !== false;
}

export function readReviewWrites(): ReviewWritesMode {
  return parseReviewWrites(userValue(FsSettings.reviewWrites));
}
