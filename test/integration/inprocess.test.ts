// Agents that edit files in their own process and only report it, as today's Claude and Codex
// adapters do (the scripted agent's claudeEdit / claudeWrite / codexEdit / codexExec steps): atomic
// temp-file-and-rename writes, snippet diffs, `originalFile` in the tool response, output only in
// rawOutput. Each test checks the exact bytes on disk and in the editor after Keep, Undo or Undo all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';

import { agentEvents, api, freshReviewPerTest, useScriptedAgent, waitFor } from './helpers';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const numbered = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

describe('In-process edits (Claude and Codex adapters)', () => {
  let sb: SwitchboardApi;

  before(async () => { sb = await api(); });
  freshReviewPerTest(() => sb);

  /** Sends the prompt and allows every permission request until the turn ends. */
  async function turnAllowing(prompt: string, optionId = 'allow'): Promise<void> {
    const done = sb.chat.sendPrompt(prompt);
    let finished = false;
    void done.finally(() => { finished = true; });
    const answered = new Set<string>();
    while (!finished) {
      for (const item of sb.chat.items) {
        if (item.kind === 'permission' && item.permission.outcome === undefined && !answered.has(item.id)) {
          answered.add(item.id);
          sb.chat.answerPermission(item.id, optionId);
        }
      }
      await new Promise(r => setTimeout(r, 20));
    }
    await done;
  }

  /** A git repository in the workspace with tracked.txt committed as 'committed\n'. */
  function trackedRepo(name: string) {
    const repo = path.join(root(), name);
    fs.mkdirSync(repo, { recursive: true });
    const file = path.join(repo, 'tracked.txt');
    fs.writeFileSync(file, 'committed\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
    git('init', '-q');
    git('add', 'tracked.txt');
    git('commit', '-qm', 'init');
    return { repo, file };
  }

  function changeOf(file: string) {
    const turn = sb.review.views().find(t => t.files.some(f => f.path === file));
    return turn ? { turnId: turn.turnId, file: turn.files.find(f => f.path === file)! } : undefined;
  }

  // Proof of issue 11: each state of the file's tab × each decision, exact bytes on disk and in the editor.
  // The agent is Claude-shaped: snippet diff, permission request, temp file renamed over the file,
  // originalFile in its tool response.
  for (const state of ['not open', 'open and clean', 'open and dirty'] as const) {
    for (const decision of ['Keep', 'Undo', 'Undo all'] as const) {
      it(`matrix: a file ${state}, Claude's atomic snippet edit, ${decision}: exact bytes on disk and in the editor`, async () => {
        const file = path.join(root(), `inproc-matrix-${state.replace(/ /g, '-')}-${decision.replace(/ /g, '-')}.txt`);
        const before = numbered(12);
        const agent = before.replace('line 9\n', 'line nine\n');
        const user = (t: string) => t.replace('line 2\n', 'user two\n');
        fs.writeFileSync(file, before);
        let doc: vscode.TextDocument | undefined;
        if (state !== 'not open') {
          doc = await vscode.workspace.openTextDocument(file);
          const editor = await vscode.window.showTextDocument(doc);
          if (state === 'open and dirty') await editor.edit(e => e.replace(new vscode.Range(1, 0, 1, 6), 'user two'));
        }
        await useScriptedAgent({ turns: [{ steps: [
          { type: 'claudeEdit', path: file, old: 'line 9\n', new: 'line nine\n', quiet: true },
          { type: 'sleep', ms: 500 },
        ] }] });
        await turnAllowing(`edit ${path.basename(file)}`);
        const change = await waitFor('the change to be listed', () => changeOf(file));
        assert.equal(change.file.kind, 'modified');
        assert.deepEqual(change.file.hunks.map(h => [h.curLine, h.added, h.removed]), [[9, 1, 1]], "only the agent's edit is listed");
        assert.equal(fs.readFileSync(file, 'utf8'), agent, 'the agent wrote the disk');
        const tabAfterAgent = state === 'open and dirty' ? user(agent) : agent;
        if (doc) await waitFor(() => `the tab to show the agent's edit (tab: ${JSON.stringify(doc!.getText())})`, () => doc!.getText() === tabAfterAgent);
        if (decision === 'Keep') sb.review.keep(change.turnId, file);
        else if (decision === 'Undo') await sb.review.undo(change.turnId, file);
        else await sb.review.undo(change.turnId);
        assert.equal(changeOf(file), undefined, 'nothing left to decide');
        // Undo restores the disk exactly as it was before the turn; the user's unsaved edit stays in the tab, unsaved.
        const disk = decision === 'Keep' ? agent : before;
        assert.equal(fs.readFileSync(file, 'utf8'), disk, 'bytes on disk');
        if (doc) {
          const tab = decision === 'Keep' ? tabAfterAgent : state === 'open and dirty' ? user(before) : before;
          await waitFor(() => `the tab to hold ${JSON.stringify(tab)} (tab: ${JSON.stringify(doc!.getText())})`, () => doc!.getText() === tab);
          assert.equal(doc.isDirty, state === 'open and dirty', 'only the user\'s own edit is unsaved');
          if (doc.isDirty) {
            assert.equal(await doc.save(), true, 'saving is no conflict');
            assert.equal(fs.readFileSync(file, 'utf8'), tab, 'the save writes what the tab shows');
          }
        }
      });
    }
  }

  it('Claude edits a closed file by renaming a temp file over it: listed as modified, Undo all restores it', async () => {
    const file = path.join(root(), 'inproc-closed.txt');
    const before = numbered(30);
    fs.writeFileSync(file, before);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeEdit', path: file, old: 'line 17\n', new: 'line seventeen\n', quiet: true },
      // The agent keeps working while the file watcher reports the rename.
      { type: 'sleep', ms: 1500 },
    ] }] });
    await turnAllowing('edit inproc-closed');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    assert.equal(change.file.kind, 'modified', 'a rename over an existing file is an edit, not a creation');
    assert.deepEqual(change.file.hunks.map(h => [h.curLine, h.added, h.removed]), [[17, 1, 1]]);
    await sb.review.undo(change.turnId);
    assert.equal(fs.existsSync(file), true, 'Undo all must never delete a file that existed before the turn');
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it('Claude in accept-edits mode (no permission, the write races the announcement): still an edit; Undo one hunk, keep the other', async () => {
    const file = path.join(root(), 'inproc-auto.txt');
    const before = numbered(12);
    fs.writeFileSync(file, before);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeEdit', path: file, old: 'line 4\n', new: 'line four\n', permission: false, quiet: true },
      { type: 'claudeEdit', path: file, old: 'line 9\n', new: 'line nine\n', permission: false, quiet: true },
      { type: 'sleep', ms: 1500 },
    ] }] });
    await sb.chat.sendPrompt('edit inproc-auto');
    // Both edits: on a busy machine the second is detected a moment after the first is listed.
    const change = await waitFor(() => `both edits listed (listed: ${JSON.stringify(changeOf(file)?.file.hunks.map(h => h.curLine))})`,
      () => (changeOf(file)?.file.hunks.length === 2 ? changeOf(file) : undefined));
    assert.equal(change.file.kind, 'modified');
    assert.deepEqual(change.file.hunks.map(h => h.curLine), [4, 9]);
    await sb.review.undo(change.turnId, file, change.file.hunks[1].id);
    sb.review.keep(change.turnId, file);
    assert.equal(changeOf(file), undefined);
    assert.equal(fs.readFileSync(file, 'utf8'), before.replace('line 4\n', 'line four\n'));
  });

  /**
   * A 12-line file written before the turn, its watcher report handled (no turn running), with a
   * folder of gate files; `both`: its text once line 4 and line 9 are edited.
   */
  async function twoEditFile(name: string) {
    const file = path.join(root(), name);
    const gates = fs.mkdtempSync(path.join(path.dirname(root()), 'gates-'));
    const before = numbered(12);
    const both = before.replace('line 4\n', 'line four\n').replace('line 9\n', 'line nine\n');
    const setup = sb.review.holdDiskEvents();
    fs.writeFileSync(file, before);
    await setup.reported(file);
    await setup.release();
    return { file, gate: (g: string) => path.join(gates, g), before, both };
  }

  /** Once the turn ended: both edits listed, as a modification; Undo all restores `before`. */
  async function bothEditsListed(file: string, before: string) {
    await sb.review.turnsEnded();
    const change = changeOf(file);
    assert.deepEqual(change && [change.file.kind, change.file.hunks.map(h => h.curLine)], ['modified', [4, 9]]);
    await sb.review.undo(change!.turnId);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  }

  // The flake of 'accept-edits' above, driven: under load the client read both edits' tool calls
  // only after both writes landed, placed the first edit's snippet in a disk that already held the
  // second, and listed that as the baseline (only line 4 listed); the first edit's tool response,
  // whose originalFile says what the file held, came second and could no longer correct it.
  for (const order of ['the watcher first', 'the tool calls first'] as const) {
    it(`Claude in accept-edits mode, both edits on disk before the client reads either tool call (${order}): both listed against the file before the turn`, async () => {
      const { file, gate, before, both } = await twoEditFile(`inproc-late-${order.split(' ')[1]}.txt`);
      const [updates, end] = [gate('updates'), gate('end')];
      await useScriptedAgent({ turns: [{ holdUpdates: updates, steps: [
        { type: 'claudeEdit', path: file, old: 'line 4\n', new: 'line four\n', permission: false, quiet: true },
        { type: 'claudeEdit', path: file, old: 'line 9\n', new: 'line nine\n', permission: false, quiet: true },
        { type: 'awaitFile', path: end },
      ] }] });
      const held = sb.review.holdDiskEvents();
      const done = sb.chat.sendPrompt('edit inproc-late');
      try {
        await waitFor('both edits on disk', () => fs.readFileSync(file, 'utf8') === both);
        await held.reported(file);
        if (order === 'the watcher first') await held.release();
        fs.writeFileSync(updates, '');
        await waitFor('both tool calls completed', () => sb.chat.items.filter(i => i.kind === 'tool' && i.tool.status === 'completed').length === 2);
        await sb.review.settled();
        await held.release();
      } finally {
        fs.writeFileSync(end, '');
      }
      await done;
      await bothEditsListed(file, before);
    });
  }

  it('Claude in accept-edits mode, tools in parallel (another call completes before the first edit does), both edits on disk before the client reads any: both listed against the file before the turn', async () => {
    const { file, gate, before, both } = await twoEditFile('inproc-parallel.txt');
    const [updates, firstDone, end] = [gate('updates'), gate('first-done'), gate('end')];
    await useScriptedAgent({ turns: [{ holdUpdates: updates, steps: [
      { type: 'claudeEdit', path: file, old: 'line 4\n', new: 'line four\n', permission: false, quiet: true, completeAfter: firstDone },
      { type: 'toolCall', toolCall: { toolCallId: 'other', title: 'Read notes', kind: 'read', status: 'completed' } },
      { type: 'claudeEdit', path: file, old: 'line 9\n', new: 'line nine\n', permission: false, quiet: true },
      { type: 'awaitFile', path: end },
    ] }] });
    const held = sb.review.holdDiskEvents();
    const done = sb.chat.sendPrompt('edit inproc-parallel');
    try {
      await waitFor('both edits on disk', () => fs.readFileSync(file, 'utf8') === both);
      fs.writeFileSync(updates, '');
      await waitFor('the second edit completed', () => sb.chat.items.some(i => i.kind === 'tool' && i.tool.toolCallId === 'claudeEdit-2' && i.tool.status === 'completed'));
      await sb.review.settled();
      fs.writeFileSync(firstDone, '');
      await waitFor('the first edit completed', () => sb.chat.items.some(i => i.kind === 'tool' && i.tool.toolCallId === 'claudeEdit-0' && i.tool.status === 'completed'));
      await sb.review.settled();
      await held.release();
    } finally {
      fs.writeFileSync(firstDone, '');
      fs.writeFileSync(end, '');
    }
    await done;
    await bothEditsListed(file, before);
  });

  it('a tracked file replaced by a rename nobody announced is restored from git, never deleted, by Undo all', async () => {
    const { file } = trackedRepo('inproc-git');
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeWrite', path: file, content: 'rewritten\n', silent: true },
      { type: 'sleep', ms: 2000 },
    ] }] });
    await sb.chat.sendPrompt('rewrite tracked');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    assert.equal(change.file.kind, 'modified');
    await sb.review.undo(change.turnId);
    assert.equal(fs.readFileSync(file, 'utf8'), 'committed\n');
  });

  it("git's index is read with a git found outside the workspace (the Git extension's, else PATH's absolute folders), never one the workspace holds", async function () {
    if (process.platform === 'win32') this.skip(); // a shell script stands for the planted program
    const { repo, file } = trackedRepo('inproc-git-planted');
    // A program named git in the folder (the repository's or the agent's), and a relative PATH entry
    // that would find it: what runs must never be chosen by the workspace.
    const marker = path.join(repo, 'planted-ran');
    // (VS Code's Git extension, in the same process, may run it too with its bare `git`: only `show` is ours.)
    fs.writeFileSync(path.join(repo, 'git'), `#!/bin/sh\necho "$@" >> '${marker}'\necho planted\n`, { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `.${path.delimiter}${savedPath}`;
    try {
      await useScriptedAgent({ turns: [{ steps: [
        { type: 'claudeWrite', path: file, content: 'rewritten\n', silent: true },
        { type: 'sleep', ms: 2000 },
      ] }] });
      await sb.chat.sendPrompt('rewrite tracked');
      const change = await waitFor('the change to be listed', () => changeOf(file));
      const ran = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter(l => l.startsWith('show ')) : [];
      assert.deepEqual(ran, [], 'the git program in the workspace never ran for the review');
      assert.equal(change.file.kind, 'modified');
      await sb.review.undo(change.turnId);
      assert.equal(fs.readFileSync(file, 'utf8'), 'committed\n');
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("Claude's snippet diff is shown with context and real line numbers, once, in a file open and clean; Keep keeps it", async () => {
    const file = path.join(root(), 'inproc-clean.txt');
    const before = numbered(30);
    const after = before.replace('line 17\n', 'line seventeen\n');
    fs.writeFileSync(file, before);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeEdit', path: file, old: 'line 17\n', new: 'line seventeen\n', toolCallId: 'toolu_1', quiet: true },
      { type: 'sleep', ms: 500 },
    ] }] });
    await turnAllowing('edit inproc-clean');
    const permission = sb.chat.items.find(i => i.kind === 'permission');
    assert.ok(permission?.kind === 'permission');
    const diff = permission.permission.content?.find(c => c.type === 'diff');
    assert.ok(diff?.type === 'diff', 'the permission card shows the diff');
    assert.equal(diff.preview.lines[0], '@@ -14,7 +14,7 @@', 'the snippet is located at line 17, with 3 lines of context');
    assert.deepEqual(diff.preview.lines.filter(l => /^[+-]/.test(l)), ['-line 17', '+line seventeen']);
    const tool = sb.chat.items.find(i => i.kind === 'tool' && i.tool.toolCallId === 'toolu_1');
    assert.ok(tool?.kind === 'tool');
    assert.equal(tool.tool.content.filter(c => c.type === 'diff').length, 0, 'the same diff is not drawn a second time on the tool card');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    assert.equal(change.file.kind, 'modified');
    await waitFor('the clean tab to show the agent text', () => doc.getText() === after);
    sb.review.keep(change.turnId, file);
    assert.equal(changeOf(file), undefined);
    assert.equal(fs.readFileSync(file, 'utf8'), after);
    assert.equal(doc.getText(), after);
    assert.equal(doc.isDirty, false);
  });

  /** The scripted agent's log of the last claudeEditsUnderTyping; what its reads got. */
  let agentLog = '';
  const reads = () => agentEvents(agentLog).filter(e => e.event === 'result' && e.type === 'read').map(e => (e.result as { content?: string } | undefined)?.content);

  /** A numbered file open with the user's unsaved `userLine` on line `userAt` (0-based); then Claude's edit of it (`old` → `new`), allowed. */
  async function claudeEditsUnderTyping(name: string, lines: number, userAt: number, userLine: string, old: string, edited: string, then: object[] = [{ type: 'sleep', ms: 500 }]) {
    const file = path.join(root(), name);
    const before = numbered(lines);
    fs.writeFileSync(file, before);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit(e => e.replace(new vscode.Range(userAt, 0, userAt, `line ${userAt + 1}`.length), userLine));
    assert.equal(doc.isDirty, true);
    ({ log: agentLog } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeEdit', path: file, old, new: edited, quiet: true },
      ...then,
    ] }] }));
    await turnAllowing(`edit ${name}`);
    return { file, before, doc };
  }

  it('Claude edits a file with unsaved edits: listed against the disk, the tab merges both, the next save reverts nothing; Undo keeps the user edit', async () => {
    const { file, before, doc } = await claudeEditsUnderTyping('inproc-dirty.txt', 30, 1, 'user two', 'line 17\n', 'line seventeen\n');
    const agentOnly = before.replace('line 17\n', 'line seventeen\n');
    const both = agentOnly.replace('line 2\n', 'user two\n');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    assert.deepEqual(change.file.hunks.map(h => [h.curLine, h.added, h.removed]), [[17, 1, 1]], "only the agent's edit is listed");
    assert.equal(fs.readFileSync(file, 'utf8'), agentOnly, 'the agent wrote the disk');
    await waitFor('the tab to hold both edits', () => doc.getText() === both);
    assert.equal(doc.isDirty, true, "the user's edit is still unsaved");
    assert.equal(await doc.save(), true, 'saving is no conflict');
    assert.equal(fs.readFileSync(file, 'utf8'), both, 'the save keeps the agent edit');
    await sb.review.undo(change.turnId, file);
    const userOnly = before.replace('line 2\n', 'user two\n');
    assert.equal(doc.getText(), userOnly);
    assert.equal(fs.readFileSync(file, 'utf8'), userOnly);
  });

  it("Undo of an agent's change under unsaved edits, after another program changed the same lines on disk: the disk keeps that program's lines, the user's edit stays unsaved, the undo lands in the tab", async () => {
    const { file, before, doc } = await claudeEditsUnderTyping('inproc-dirty-undo-conflict.txt', 30, 1, 'user two', 'line 17\n', 'line seventeen\n');
    const agentOnly = before.replace('line 17\n', 'line seventeen\n');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    await waitFor('the tab to hold both edits', () => doc.getText() === agentOnly.replace('line 2\n', 'user two\n'));
    // Another program (a formatter, git) rewrites the agent's line on disk; the tab stays as the user left it.
    const formatted = agentOnly.replace('line seventeen\n', 'LINE SEVENTEEN\n');
    fs.writeFileSync(file, formatted);
    await sb.review.undo(change.turnId, file);
    assert.equal(fs.readFileSync(file, 'utf8'), formatted, "the other program's line is still on disk, and the user's unsaved line was not saved");
    assert.equal(doc.getText(), before.replace('line 2\n', 'user two\n'), 'the undo is in the tab, with the user edit');
    assert.equal(doc.isDirty, true);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  /**
   * Holds the merge of the file's tab with the agent's disk change right before it sets the merged
   * text (the tab reverted to the disk for that moment, the user's lines only in the merge):
   * `paused` resolves then, `release()` lets it go on; `waited()`: someone waits for that merge.
   * The extension's own merge queue (this test bundle has a copy of its own).
   */
  function holdMergeOf(file: string) {
    const hooks = sb.review.mergeHooks;
    let atSet!: () => void;
    const paused = new Promise<void>(resolve => { atSet = resolve; });
    let release!: () => void;
    const released = new Promise<void>(resolve => { release = resolve; });
    let waited = false;
    hooks.beforeSet = async doc => {
      if (doc.uri.fsPath !== file) return;
      hooks.beforeSet = undefined;
      atSet();
      await released;
    };
    hooks.waiting = f => { waited ||= f === file; };
    return {
      paused, release, waited: () => waited,
      dispose: () => { release(); hooks.beforeSet = undefined; hooks.waiting = undefined; },
    };
  }

  it("Undo clicked while the agent's change is being merged into the tab (reverted to the disk for that moment): the undo waits for the merge, the tab keeps the user's line without the agent's, the disk is as before the turn", async () => {
    // The change is listed before its merge into the tab is done. An undo that judged the tab while
    // the merge had it reverted saw no unsaved edits, was saved through the tab, and the user's
    // unsaved line was lost.
    const name = 'inproc-undo-mid-merge.txt';
    const file = path.join(root(), name);
    const hold = holdMergeOf(file);
    try {
      const edited = claudeEditsUnderTyping(name, 30, 1, 'user two', 'line 17\n', 'line seventeen\n');
      await hold.paused;
      const doc = vscode.workspace.textDocuments.find(d => d.uri.fsPath === file)!;
      assert.equal(doc.isDirty, false, 'the merge has the tab reverted to the disk at this moment');
      const change = await waitFor('the change to be listed', () => changeOf(file));
      let undone = false;
      const undo = sb.review.undo(change.turnId, file).finally(() => { undone = true; });
      await waitFor('the undo to wait for the merge, or to be made', () => hold.waited() || undone);
      hold.release();
      await undo;
      const { before } = await edited;
      assert.deepEqual({ tab: doc.getText(), unsaved: doc.isDirty, disk: fs.readFileSync(file, 'utf8') },
        { tab: before.replace('line 2\n', 'user two\n'), unsaved: true, disk: before });
      assert.equal(changeOf(file), undefined, 'the change left the list');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      hold.dispose();
    }
  });

  it("an agent's read of a file while its tab is being merged with the agent's change waits for the merge: it gets the user's unsaved line with the agent's change", async () => {
    const name = 'inproc-read-mid-merge.txt';
    const file = path.join(root(), name);
    const go = `${file}.go`;
    fs.rmSync(go, { force: true });
    const hold = holdMergeOf(file);
    try {
      const edited = claudeEditsUnderTyping(name, 30, 1, 'user two', 'line 17\n', 'line seventeen\n', [
        { type: 'waitFile', path: go },
        { type: 'read', path: file },
      ]);
      await hold.paused;
      // The agent reads the file now.
      fs.writeFileSync(go, '');
      await waitFor('the read to wait for the merge, or to be answered', () => hold.waited() || reads().length > 0);
      hold.release();
      const { before } = await edited;
      const both = before.replace('line 2\n', 'user two\n').replace('line 17\n', 'line seventeen\n');
      assert.deepEqual(reads(), [both], 'the agent read what the user sees: their unsaved line, and its change');
      const doc = vscode.workspace.textDocuments.find(d => d.uri.fsPath === file)!;
      assert.deepEqual({ tab: doc.getText(), unsaved: doc.isDirty }, { tab: both, unsaved: true });
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      hold.dispose();
      fs.rmSync(go, { force: true });
    }
  });

  it('an agent edit overlapping unsaved edits is marked as a conflict in the tab, nothing lost', async () => {
    const { file, before, doc } = await claudeEditsUnderTyping('inproc-conflict.txt', 10, 4, 'user five', 'line 5\n', 'agent five\n');
    const expected = before.replace('line 5\n', "<<<<<<< Your unsaved edits\nuser five\n=======\nagent five\n>>>>>>> Scripted's change on disk\n");
    await waitFor('the conflict to be marked in the tab', () => doc.getText() === expected).catch(() => assert.equal(doc.getText(), expected));
    assert.equal(fs.readFileSync(file, 'utf8'), before.replace('line 5\n', 'agent five\n'));
  });

  it("Codex's whole-file edit, written in place: listed once in the chat, Undo restores the exact bytes", async () => {
    const file = path.join(root(), 'inproc-codex.txt');
    const before = 'alpha\r\nbeta\r\ngamma\r\n';
    const after = 'alpha\r\nBETA\r\ngamma\r\n';
    fs.writeFileSync(file, before);
    await useScriptedAgent({ turns: [{ steps: [{ type: 'codexEdit', path: file, content: after, toolCallId: 'call_1', quiet: true }, { type: 'sleep', ms: 500 }] }] });
    await turnAllowing('edit inproc-codex');
    const diffs = sb.chat.items.flatMap(i => (i.kind === 'tool' ? i.tool.content : i.kind === 'permission' ? i.permission.content ?? [] : []).filter(c => c.type === 'diff'));
    assert.equal(diffs.length, 1, 'the diff is shown once (permission card), not again on the tool card');
    const change = await waitFor('the change to be listed', () => changeOf(file));
    assert.equal(change.file.kind, 'modified');
    await sb.review.undo(change.turnId);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it("an Undo All that cannot write one file (a folder took its place) undoes the others and keeps that one of Codex's changes listed, undoable once it can, and says why", async () => {
    const file = path.join(root(), 'inproc-undo-fails.txt');
    const other = path.join(root(), 'inproc-undo-other.txt');
    fs.rmSync(file, { recursive: true, force: true });
    fs.writeFileSync(file, 'alpha\nbeta\n');
    fs.writeFileSync(other, 'one\ntwo\n');
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'codexEdit', path: file, content: 'alpha\nBETA\n', toolCallId: 'call_1', quiet: true },
      { type: 'codexEdit', path: other, content: 'one\nTWO\n', toolCallId: 'call_2', quiet: true },
      { type: 'sleep', ms: 500 },
    ] }] });
    await turnAllowing('edit inproc-undo-fails');
    const change = await waitFor('both changes to be listed', () => (changeOf(other) ? changeOf(file) : undefined));
    // What the user could see go wrong: a folder where the file was (a checkout, a tool's output).
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'inside.txt'), 'keep me\n');
    const warned: string[] = [];
    const warn = sb.review.ui.warn;
    sb.review.ui.warn = async message => { warned.push(message); return undefined; };
    try {
      await sb.review.undo(change.turnId);
      assert.equal(fs.readFileSync(other, 'utf8'), 'one\ntwo\n', 'the other file of the turn is undone');
      assert.equal(changeOf(other), undefined);
      // Listed as the file is now (gone: a folder in its place), its Undo still to make.
      assert.equal(changeOf(file)?.file.kind, 'deleted', 'the change is still listed: its Undo was not made');
      assert.equal(fs.readFileSync(path.join(file, 'inside.txt'), 'utf8'), 'keep me\n', 'the folder is left as it is');
      assert.equal(warned.length, 1, `one warning (got ${JSON.stringify(warned)})`);
      assert.match(warned[0], /was not undone: .*inproc-undo-fails\.txt could not be written/);
      // The folder gone, the same Undo restores the file.
      fs.rmSync(file, { recursive: true });
      await sb.review.undo(change.turnId, file);
      assert.equal(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n');
      assert.equal(changeOf(file), undefined);
    } finally { sb.review.ui.warn = warn; }
  });

  it("Codex's command output carried only in rawOutput is readable as terminal output", async () => {
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'codexExec', command: 'npm test', stdout: '3 passing\n', stderr: '1 warning\n', exitCode: 1, toolCallId: 'exec_1', quiet: true },
    ] }] });
    await sb.chat.sendPrompt('run the tests');
    const tool = await waitFor('the command card', () => sb.chat.items.find(i => i.kind === 'tool' && i.tool.toolCallId === 'exec_1'));
    assert.ok(tool.kind === 'tool');
    assert.deepEqual(tool.tool.output, { stdout: '3 passing\n', stderr: '1 warning\n', exitCode: 1 });
    assert.equal(tool.tool.status, 'failed');
  });

  it('an edit whose snippet is not in the file is said to be unlocated, never drawn at line 1', async () => {
    const file = path.join(root(), 'inproc-missing.txt');
    fs.writeFileSync(file, numbered(5));
    await useScriptedAgent({ turns: [{ steps: [{ type: 'claudeEdit', path: file, old: 'not there\n', new: 'here\n', quiet: true }] }] });
    await turnAllowing('edit inproc-missing', 'reject');
    const permission = sb.chat.items.find(i => i.kind === 'permission');
    assert.ok(permission?.kind === 'permission');
    const diff = permission.permission.content?.find(c => c.type === 'diff');
    assert.ok(diff?.type === 'diff');
    assert.equal(diff.unlocated, 'the edited text is not in the file');
    assert.equal(diff.preview.lines.some(l => l.startsWith('@@')), false, 'no made-up line numbers');
    assert.equal(fs.readFileSync(file, 'utf8'), numbered(5));
  });

  it("Claude's Write: a new file is created (Undo all deletes it), an existing closed file is modified (Undo all restores it)", async () => {
    const created = path.join(root(), 'inproc-new', 'made.txt');
    const existing = path.join(root(), 'inproc-write.txt');
    fs.writeFileSync(existing, 'old content\n');
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'claudeWrite', path: created, content: 'fresh\n', quiet: true },
      { type: 'claudeWrite', path: existing, content: 'new content\n', quiet: true },
      { type: 'sleep', ms: 1000 },
    ] }] });
    await turnAllowing('write files');
    const files = await waitFor('both files listed', () => {
      const all = sb.review.views().flatMap(t => t.files);
      return all.length === 2 ? all : undefined;
    });
    assert.deepEqual(files.map(f => [path.basename(f.path), f.kind]).sort(), [['inproc-write.txt', 'modified'], ['made.txt', 'created']]);
    for (const t of sb.review.views()) await sb.review.undo(t.turnId);
    assert.equal(fs.existsSync(created), false);
    assert.equal(fs.readFileSync(existing, 'utf8'), 'old content\n');
  });
});

