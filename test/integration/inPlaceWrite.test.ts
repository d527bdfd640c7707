// An agent that writes a file in place (Codex's apply_patch; any large write, any writer the machine
// descheduled) leaves it truncated for a moment before the new content lands. A file watcher report
// read in that moment must not be taken as the agent's change: the user's tab with unsaved edits
// was "reconciled" with an empty file (conflict markers around the whole file, the agent's side
// empty), seen in a full run on a loaded machine (e2e unsaved-activation).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { api, freshReviewPerTest, useScriptedAgent, waitFor } from './helpers';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('In-place writes seen half done (the file empty for a moment)', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;

  before(async () => { sb = await api(); });
  freshReviewPerTest(() => sb);

  it("Codex writes in place, the file empty for 200 ms before its content: the user's unsaved tab keeps both, never a conflict with an empty file; only the agent's line listed", async () => {
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'inplace-gap.txt');
    const before = numbered(12);
    const agentText = before.replace('line 9\n', 'line nine\n');
    const user = (t: string) => t.replace('line 2\n', 'user two\n');
    fs.writeFileSync(file, before);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(await editor.edit(e => e.replace(new vscode.Range(1, 0, 1, 6), 'user two')));
    const tabTexts: string[] = [];
    const watching = vscode.workspace.onDidChangeTextDocument(e => { if (e.document === doc) tabTexts.push(doc.getText()); });
    try {
      await useScriptedAgent({ turns: [{ steps: [
        { type: 'codexEdit', path: file, content: agentText, permission: false, quiet: true, writeFirst: true, writeGapMs: 200 },
      ] }] });
      await sb.chat.sendPrompt('edit inplace-gap');
      await sb.review.settled();
      const listed = () => {
        const turn = sb.review.views().find(t => t.files.some(f => f.path === file));
        return JSON.stringify(turn?.files.find(f => f.path === file)?.hunks.map(h => [h.curLine, h.added, h.removed]));
      };
      await waitFor(() => `the tab to hold both (tab: ${JSON.stringify(doc.getText())}, listed: ${listed()})`, () => doc.getText() === user(agentText) && listed() === '[[9,1,1]]');
      assert.deepEqual(tabTexts.filter(t => t.includes('<<<<<<<')), [], 'the tab never showed a conflict');
      assert.equal(fs.readFileSync(file, 'utf8'), agentText);
      assert.equal(doc.isDirty, true, "the user's line stays unsaved");
    } finally {
      watching.dispose();
    }
  });
});
