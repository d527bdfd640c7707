// The file-system settings, read fresh on every request (changes apply without a restart).
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
  const i = config().inspect<T>(key);
  return i?.globalValue ?? i?.defaultValue;
}

export function readOutsideWorkspacePolicy(): OutsideWorkspacePolicy {
  return parseOutsideWorkspacePolicy(userValue(FsSettings.outsideWorkspace));
}

export function readSaveAfterWrite(): boolean {
  return config().get<boolean>(FsSettings.saveAfterWrite, true) !== false;
}

export function readReviewWrites(): ReviewWritesMode {
  return parseReviewWrites(userValue(FsSettings.reviewWrites));
}
