// Follow the agent (issue 21 point 2): while on, the editor shows the file and line of each tool
// call in a preview tab and the focus stays where it was (the chat); a click into an editor ends it
// and the chat says so.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { api, tmpDir, useScriptedAgent, waitFor } from './helpers';

describe('Follow the agent', () => {
  let sb: SwitchboardApi;
  const a = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'follow-a.txt');
  const outside = path.join(tmpDir, 'follow-secret.txt');
  const link = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'follow-link.txt');
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  before(async () => {
    sb = await api();
    fs.writeFileSync(a, lines);
    fs.writeFileSync(outside, 'SECRET\n');
    fs.rmSync(link, { force: true });
    fs.symlinkSync(outside, link);
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  after(async () => {
    sb.follow.stop();
    await sb.chat.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(link, { force: true });
    fs.rmSync(a, { force: true });
  });

  const toolAt = (id: string, file: string, line: number) => ({ type: 'toolCall', toolCall: { toolCallId: id, title: `Read ${path.basename(file)}`, kind: 'read', status: 'completed', locations: [{ path: file, line }] } });
  const notices = () => sb.chat.active.items.filter(i => i.kind === 'notice').map(i => (i as { text: string }).text);
  const shown = () => { const e = vscode.window.activeTextEditor; return e ? `${e.document.uri.fsPath}:${e.selection.active.line + 1}` : 'no editor'; };

  it('shows each tool call’s file and line in a preview tab without taking the focus; a click into the editor stops it, and the chat says so', async () => {
    await useScriptedAgent({ turns: [
      { match: '^one', steps: [toolAt('t1', a, 12), { type: 'text', text: 'read a' }] },
    ] }, 'Follow');
    await vscode.commands.executeCommand('switchboard.followAgent');
    assert.equal(sb.follow.following, true);
    await vscode.commands.executeCommand('switchboard.chat.focus');
    await sb.chat.sendPrompt('one');
    await waitFor(() => `${a}:12 shown, not ${shown()}`, () => shown() === `${a}:12`);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.isPreview, 'a preview tab');
    // The focus stayed in the chat: typing reaches no editor (`type` goes only to a focused editor).
    await vscode.commands.executeCommand('type', { text: 'TYPED' });
    assert.equal(vscode.window.activeTextEditor!.document.getText(), lines, 'nothing was typed into the editor');

    // The user clicks into the editor (what a mouse click runs: focus, then a `mouse` cursor move).
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('_moveTo', { source: 'mouse', position: { lineNumber: 3, column: 1 } });
    await waitFor(() => `a note that following stopped: ${JSON.stringify(notices())}`, () => notices().some(t => /Stopped following the agent/.test(t)));
    assert.equal(sb.follow.following, false);
    assert.equal(shown(), `${a}:3`);
  });

  it('never opens a file outside the workspace, nor a link inside that points outside, and says so once', async () => {
    const opened: string[] = [];
    const watch = vscode.workspace.onDidOpenTextDocument(d => opened.push(d.uri.fsPath));
    try {
      await useScriptedAgent({ turns: [
        { match: '^two', steps: [toolAt('o1', outside, 1), toolAt('o2', link, 1), toolAt('o3', a, 7), { type: 'text', text: 'done' }] },
      ] }, 'Follow outside');
      await sb.chat.stop();
      await sb.chat.newConversation();
      const before = notices().length;
      sb.follow.start();
      await vscode.commands.executeCommand('switchboard.chat.focus');
      await sb.chat.sendPrompt('two');
      await waitFor(() => `${a}:7 shown, not ${shown()}; notes ${JSON.stringify(notices().slice(before))}`, () => shown() === `${a}:7`);
      assert.deepEqual(opened.filter(p => p === outside || p === link), [], 'neither the outside file nor the link was opened');
      assert.ok(!vscode.workspace.textDocuments.some(d => d.uri.fsPath === outside || d.uri.fsPath === link), 'not among the open documents');
      await waitFor('a note about the skipped files', () => notices().slice(before).some(t => /outside the workspace/.test(t)));
      const skipped = notices().slice(before).filter(t => /outside the workspace/.test(t));
      assert.equal(skipped.length, 1, `one note about skipped files: ${JSON.stringify(notices().slice(before))}`);
    } finally {
      watch.dispose();
      sb.follow.stop();
    }
  });
});
