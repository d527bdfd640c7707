// Activation in two halves (docs/decisions/0041): every contributed command is registered when
// activate() returns, and each finds its handler once the services are built.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, EXTENSION_ID } from './helpers';

describe('Activation', () => {
  it('registers every contributed command, and each has its handler', async () => {
    const sb = await api();
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map(c => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(contributed.filter(id => !registered.has(id)), [], 'contributed commands VS Code does not know');
    assert.deepEqual(sb.unhandledCommands(), [], 'contributed commands with no handler');
  });
});
