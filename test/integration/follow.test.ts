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
  const a = path.join(tmpDir, 'follow-a.txt');
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  before(async () => {
    sb = await api();
    fs.writeFileSync(a, lines);
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  after(async () => {
    sb.follow.stop();
    await sb.chat.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
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
});
