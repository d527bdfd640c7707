// The file-system settings, read fresh on every request (changes apply without a restart).
import * as vscode from 'vscode';
import { OutsideWorkspacePolicy, parseOutsideWorkspacePolicy, parseReviewWrites, ReviewWritesMode } from '../../common/fs/pathPolicy';

export const FsSettings = {
  outsideWorkspace: 'fs.outsideWorkspace',
  saveAfterWrite: 'fs.saveAfterWrite',
  reviewWrites: 'fs.reviewWrites',
} as const;

const config = () => vscode.workspace.getConfiguration('switchboard');

export function readOutsideWorkspacePolicy(): OutsideWorkspacePolicy {
  return parseOutsideWorkspacePolicy(config().get(FsSettings.outsideWorkspace));
}

export function readSaveAfterWrite(): boolean {
  return config().get<boolean>(FsSettings.saveAfterWrite, true) !== false;
}

export function readReviewWrites(): ReviewWritesMode {
  return parseReviewWrites(config().get(FsSettings.reviewWrites));
}
