// Review of every change the agent makes, in a real VS Code, in the three ways agents write:
// through fs/write_text_file; on disk themselves while reporting `diff` content (current Claude,
// Codex); on disk reporting only `locations`. Each test keeps some hunks, undoes others, and checks
// the exact file contents after.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { SwitchboardApi } from '../../src/extension';
import { ChangeTracker } from '../../src/host/review/changeTracker';
import { activeDiffTab, agentEvents, lastOf, memoryMemento, quietLogger, reviewSuite, useScriptedAgent, waitFor } from './helpers';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const numbered = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';
const edit = (text: string, ...pairs: [string, string][]) => pairs.reduce((t, [a, b]) => t.replace(a, b), text);

describe('Review of agent changes', () => {
  const suite = reviewSuite();
  let sb: SwitchboardApi;
  before(() => { sb = suite.sb; });

  /** The single changed file of the last turn, and its hunks. */
  function lastChange(file: string) {
    const turn = sb.review.views().find(t => t.files.some(f => f.path === file));
    assert.ok(turn, `a pending change of ${file}: ${JSON.stringify(sb.review.views())}`);
    return { turnId: turn.turnId, hunks: sb.review.hunks(turn.turnId, file) };
  }

  it('writes through fs/write_text_file: keep the first and last hunk, undo the middle one', async () => {
    const file = path.join(root(), 'review-a.txt');
    const before = numbered(20);
    fs.writeFileSync(file, before);
    const after = edit(before, ['line 2\n', 'LINE TWO\n'], ['line 10\n', 'LINE TEN\n'], ['line 18\n', 'LINE EIGHTEEN\n']);
    await useScriptedAgent({ turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: after }] }] });
    await sb.chat.sendPrompt('edit review-a');
    const { turnId, hunks } = lastChange(file);
    assert.deepEqual(hunks.map(h => h.curLine), [2, 10, 18]);
    assert.equal(sb.review.viewOf(turnId)!.files[0].added, 3);

    sb.review.keep(turnId, file, hunks[0].id);
    await sb.review.undo(turnId, file, sb.review.hunks(turnId, file).find(h => h.curLine === 10)!.id);
    sb.review.keep(turnId, file, sb.review.hunks(turnId, file)[0].id);
    assert.equal(fs.readFileSync(file, 'utf8'), edit(before, ['line 2\n', 'LINE TWO\n'], ['line 18\n', 'LINE EIGHTEEN\n']));
    assert.equal(sb.review.viewOf(turnId), undefined, 'nothing left to decide');
  });

  it('edits on disk reported with diff content (like Claude and Codex): undo one hunk of a closed file, keep the other', async () => {
    const file = path.join(root(), 'review-b.txt');
    const before = numbered(12);
    fs.writeFileSync(file, before);
    const after = edit(before, ['line 3\n', 'changed 3\n'], ['line 11\n', 'line 11\nadded after 11\n']);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'e1', title: 'Edit review-b.txt', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: file, oldText: before, newText: after }] } },
      { type: 'diskWrite', path: file, content: after },
      { type: 'toolCallUpdate', update: { toolCallId: 'e1', status: 'completed', locations: [{ path: file }] } },
    ] }] });
    await sb.chat.sendPrompt('edit review-b');
    const { turnId, hunks } = await waitFor('the change to be listed', () => sb.review.views().length ? lastChange(file) : undefined);
    assert.deepEqual(hunks.map(h => [h.curLine, h.added, h.removed]), [[3, 1, 1], [12, 1, 0]]);
    await sb.review.undo(turnId, file, hunks[0].id);
    sb.review.keep(turnId, file, sb.review.hunks(turnId, file)[0].id);
    assert.equal(fs.readFileSync(file, 'utf8'), edit(before, ['line 11\n', 'line 11\nadded after 11\n']));
  });

  it('edits on disk reported only by locations, in a file open in the editor: undo is itself undoable with Ctrl+Z', async () => {
    const file = path.join(root(), 'review-c.txt');
    const before = numbered(10);
    fs.writeFileSync(file, before);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const after = edit(before, ['line 1\n', 'first!\n'], ['line 9\n', 'ninth!\n']);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'e2', title: 'Edit', kind: 'edit', status: 'in_progress' } },
      { type: 'diskWrite', path: file, content: after },
      { type: 'sleep', ms: 300 },
      { type: 'toolCallUpdate', update: { toolCallId: 'e2', status: 'completed', locations: [{ path: file, line: 1 }] } },
    ] }] });
    await sb.chat.sendPrompt('edit review-c');
    const { turnId } = await waitFor('the change to be listed', () => sb.review.views().length ? lastChange(file) : undefined);
    await waitFor('the buffer to show the agent change', () => doc.getText() === after);
    const hunks = sb.review.hunks(turnId, file);
    assert.deepEqual(hunks.map(h => h.curLine), [1, 9]);
    await sb.review.undo(turnId, file, hunks[1].id);
    assert.equal(doc.getText(), edit(before, ['line 1\n', 'first!\n']));
    assert.equal(fs.readFileSync(file, 'utf8'), doc.getText(), 'saved');
    // The undo is an ordinary edit: Ctrl+Z brings the agent's line back.
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), after);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a closed file the agent read, then rewrote on disk without reporting the diff, is listed against what it read', async () => {
    const file = path.join(root(), 'review-r.txt');
    const before = numbered(5);
    fs.writeFileSync(file, before);
    const after = edit(before, ['line 3\n', 'three\n']);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'read', path: file, quiet: true },
      { type: 'toolCall', toolCall: { toolCallId: 'w', title: 'Edit', kind: 'edit', status: 'in_progress' } },
      { type: 'diskWrite', path: file, content: after },
      { type: 'toolCallUpdate', update: { toolCallId: 'w', status: 'completed', locations: [{ path: file }] } },
    ] }] });
    await sb.chat.sendPrompt('edit review-r');
    const { turnId, hunks } = await waitFor('the change to be listed', () => sb.review.views().length ? lastChange(file) : undefined);
    assert.deepEqual(hunks.map(h => [h.curLine, h.removedText, h.addedText]), [[3, 'line 3\n', 'three\n']]);
    await sb.review.undo(turnId, file);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it('a file the agent creates on disk without reporting anything is caught by the watcher', async () => {
    const file = path.join(root(), 'unreported', 'made-up.txt');
    // The file watcher reports late (hundreds of ms, more under load): the agent keeps working meanwhile.
    await useScriptedAgent({ turns: [{ steps: [{ type: 'diskWrite', path: file, content: 'surprise\n' }, { type: 'sleep', ms: 3000 }] }] });
    await sb.chat.sendPrompt('do something');
    const { turnId } = await waitFor('the new file to be listed', () => sb.review.views().some(t => t.files.some(f => f.path === file)) ? lastChange(file) : undefined);
    assert.equal(sb.review.viewOf(turnId)!.files.find(f => f.path === file)!.kind, 'created');
    await sb.review.undo(turnId, file);
    assert.equal(fs.existsSync(file), false);
  });

  it('a change the agent makes on disk at the very end of its turn, reported late by the watcher, is still listed', async () => {
    const file = path.join(root(), 'review-late.txt');
    const before = numbered(4);
    fs.writeFileSync(file, before);
    const after = edit(before, ['line 4\n', 'last word\n']);
    // No tool call names the file, and the turn ends right after the write: only the watcher sees it, after the end.
    await useScriptedAgent({ turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'diskWrite', path: file, content: after }] }] });
    await sb.chat.sendPrompt('edit review-late');
    const { turnId, hunks } = await waitFor('the late change to be listed', () => sb.review.views().some(t => t.files.some(f => f.path === file)) ? lastChange(file) : undefined);
    assert.deepEqual(hunks.map(h => [h.curLine, h.removedText, h.addedText]), [[4, 'line 4\n', 'last word\n']]);
    await sb.review.undo(turnId, file);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  // Real adapters 'asking mode, reads a file' listed the file the test had just written as the
  // previous turn's creation: the watcher reported it while that turn was still ending (its last
  // checks running), or while the next turn ran, and any report went to the running turn.
  it('a file the user wrote before the turn began, reported by the watcher during the turn, is not listed', async () => {
    const file = path.join(root(), 'review-users-before.txt');
    const gate = path.join(fs.mkdtempSync(path.join(path.dirname(root()), 'gates-')), 'end');
    await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'thinking' }, { type: 'awaitFile', path: gate }] }] });
    const held = sb.review.holdDiskEvents();
    fs.writeFileSync(file, 'the user\'s\n');
    await held.reported(file);
    // The turn begins after the write, as the file's modification time tells (beyond the clock's lag).
    await waitFor('the clock to pass the write', () => Date.now() > fs.statSync(file).mtimeMs + 100);
    const done = sb.chat.sendPrompt('think');
    try {
      await waitFor('the turn to run', () => sb.chat.items.some(i => i.kind === 'agent' && i.text.includes('thinking')));
      await held.release();
    } finally {
      fs.writeFileSync(gate, '');
    }
    await done;
    await sb.review.turnsEnded();
    assert.deepEqual(sb.review.views().flatMap(t => t.files.map(f => [f.path, f.kind])), [], 'nothing listed');
  });

  it('a file the user writes while the turn is still ending (its last checks running) is not listed', async () => {
    const file = path.join(root(), 'review-users-after.txt');
    await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'done' }] }] });
    const ending = sb.review.holdTurnEnds();
    const held = sb.review.holdDiskEvents();
    try {
      await sb.chat.sendPrompt('answer');
      // The user writes a moment later: beyond the lag of the clock file times are taken from (a
      // write within it cannot be told from the agent's last one).
      const ended = Date.now();
      await waitFor('a moment to pass', () => Date.now() > ended + 100);
      fs.writeFileSync(file, 'the user\'s\n');
      await held.reported(file);
      await held.release();
    } finally {
      ending();
      await held.release();
    }
    await sb.review.turnsEnded();
    assert.deepEqual(sb.review.views().flatMap(t => t.files.map(f => [f.path, f.kind])), [], 'nothing listed');
  });

  it('a created file is removed and a deleted file restored by Undo', async () => {
    const created = path.join(root(), 'new-dir', 'created.txt');
    const deleted = path.join(root(), 'review-d.txt');
    fs.writeFileSync(deleted, 'precious\ncontent\n');
    const doc = await vscode.workspace.openTextDocument(deleted); // the user had it open: its text is known
    assert.ok(doc);
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'c', title: 'Create', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: created, oldText: null, newText: 'brand new\n' }] } },
      { type: 'diskWrite', path: created, content: 'brand new\n' },
      { type: 'toolCallUpdate', update: { toolCallId: 'c', status: 'completed' } },
      { type: 'toolCall', toolCall: { toolCallId: 'd', title: 'Delete', kind: 'delete', status: 'in_progress' } },
      { type: 'diskDelete', path: deleted },
      { type: 'toolCallUpdate', update: { toolCallId: 'd', status: 'completed', locations: [{ path: deleted }] } },
    ] }] });
    await sb.chat.sendPrompt('create and delete');
    // Only this test's two files count (a late watcher event of an earlier test must not hide them);
    // a timeout says what was listed instead.
    const mine = () => sb.review.views().flatMap(t => t.files).filter(f => f.path === created || f.path === deleted);
    const views = await waitFor(() => `both files listed (listed: ${JSON.stringify(sb.review.views().flatMap(t => t.files.map(f => [f.path, f.kind])))})`,
      () => mine().length === 2 ? mine() : undefined);
    assert.deepEqual(views.map(f => [path.basename(f.path), f.kind]).sort(), [['created.txt', 'created'], ['review-d.txt', 'deleted']]);
    for (const t of sb.review.views()) await sb.review.undo(t.turnId);
    assert.equal(fs.existsSync(created), false);
    assert.equal(fs.readFileSync(deleted, 'utf8'), 'precious\ncontent\n');
  });

  it('the user keeps typing in a changed file: Undo of the whole file keeps the user edit', async () => {
    const file = path.join(root(), 'review-e.txt');
    const before = numbered(10);
    fs.writeFileSync(file, before);
    const after = edit(before, ['line 8\n', 'agent 8\n']);
    await useScriptedAgent({ turns: [{ steps: [{ type: 'write', path: file, content: after }] }] });
    await sb.chat.sendPrompt('edit review-e');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit(e => e.replace(new vscode.Range(1, 0, 1, 6), 'user 2'));
    const { turnId } = lastChange(file);
    assert.deepEqual(sb.review.hunks(turnId, file).map(h => h.addedText), ['agent 8\n'], "the user's edit is not listed as the agent's");
    await sb.review.undo(turnId, file); // the whole file
    assert.equal(doc.getText(), edit(before, ['line 2\n', 'user 2\n']));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a permission request carrying a diff opens the diff editor before the user answers', async () => {
    const file = path.join(root(), 'review-g.txt');
    fs.writeFileSync(file, 'old line\n');
    const { log } = await useScriptedAgent({ turns: [{ steps: [
      { type: 'permission', toolCall: { toolCallId: 'p', title: 'Edit review-g.txt', kind: 'edit',
        content: [{ type: 'diff', path: file, oldText: 'old line\n', newText: 'new line\n' }] },
        options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] },
    ] }] });
    const turn = sb.chat.sendPrompt('edit review-g');
    const permission = await waitFor('permission', () => lastOf(sb.chat.items, 'permission'));
    const input = await activeDiffTab();
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'old line\n');
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'new line\n');
    assert.equal(agentEvents(log).some(e => e.event === 'result' && e.type === 'permission'), false, 'still waiting for the user');
    sb.chat.answerPermission(permission.id, 'no');
    await turn;
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a reported diff the disk never holds is not listed, and forgotten once its turn ended', async () => {
    const file = path.join(root(), 'review-never.txt');
    fs.writeFileSync(file, 'a\nb\n');
    const tracker = new ChangeTracker(memoryMemento(), quietLogger);
    try {
      tracker.beginTurn('tab1', 'Scripted');
      const content: acp.ToolCallContent[] = [{ type: 'diff', path: file, oldText: 'a\nb\n', newText: 'a\nnever\n' }];
      tracker.onToolUpdate('tab1', { toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'in_progress', content });
      tracker.onToolUpdate('tab1', { toolCallId: 'c1', status: 'completed' });
      await tracker.endTurn('tab1');
      assert.deepEqual(tracker.views(), []);
      assert.equal(tracker.waitingDiffs, 0, 'the ended turn keeps no diff waiting for the disk');
    } finally {
      tracker.dispose();
    }
  });

  it('a flood of reported diffs the disk never holds keeps a bounded number waiting, and each completion checks only its own', async () => {
    // An agent may report a diff for any path in every tool call (the fuzz bench's 100,000 messages did):
    // each waits for the disk to hold its new text. Before, every completed call re-read every waiting
    // diff's file (quadratic: the fuzz bench's extension host reached 9.7 GB and was killed).
    const tracker = new ChangeTracker(memoryMemento(), quietLogger);
    try {
      tracker.beginTurn('tab1', 'Scripted');
      for (let i = 0; i < 1500; i++) {
        const file = path.join(root(), 'flood', `never-${i}.txt`);
        tracker.onToolUpdate('tab1', { toolCallId: `f${i}`, title: 'Edit', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: file, oldText: 'a', newText: `b${i}` }] });
      }
      assert.ok(tracker.waitingDiffs <= 1000, `${tracker.waitingDiffs} diffs wait for the disk`);
      // The newest diff still counts once the disk holds it.
      const last = path.join(root(), 'flood-last.txt');
      fs.writeFileSync(last, 'a');
      tracker.onToolUpdate('tab1', { toolCallId: 'last', title: 'Edit', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: last, oldText: 'a', newText: 'b' }] });
      fs.writeFileSync(last, 'b');
      tracker.onToolUpdate('tab1', { toolCallId: 'last', status: 'completed' });
      await tracker.endTurn('tab1');
      assert.deepEqual(tracker.views().flatMap(v => v.files.map(f => path.basename(f.path))), ['flood-last.txt']);
      assert.equal(tracker.waitingDiffs, 0);
    } finally {
      tracker.dispose();
      fs.rmSync(path.join(root(), 'flood-last.txt'), { force: true });
    }
  });

  it('undecided changes survive a window reload', async () => {
    const file = path.join(root(), 'review-h.txt');
    fs.writeFileSync(file, 'a\nb\n');
    const memento = memoryMemento();
    const first = new ChangeTracker(memento, quietLogger);
    first.beginTurn('tab1', 'Scripted');
    first.recordWrite('tab1', file, 'a\nb\n', 'a\nB\n');
    fs.writeFileSync(file, 'a\nB\n');
    await first.endTurn('tab1');
    first.dispose(); // the window closes: state is written
    const second = new ChangeTracker(memento, quietLogger);
    try {
      const [turn] = second.views();
      assert.deepEqual(turn.files.map(f => [f.path, f.added, f.removed]), [[file, 1, 1]]);
      await second.undo(turn.turnId, file);
      assert.equal(fs.readFileSync(file, 'utf8'), 'a\nb\n');
    } finally {
      second.dispose();
    }
  });

  it('Undo keeps what changed on disk after the turn (a formatter, git, another tool)', async () => {
    const file = path.join(root(), 'review-s.txt');
    const before = numbered(12);
    fs.writeFileSync(file, before);
    await useScriptedAgent({ turns: [{ steps: [{ type: 'write', path: file, content: edit(before, ['line 3\n', 'agent 3\n']) }] }] });
    await sb.chat.sendPrompt('edit review-s');
    const { turnId, hunks } = lastChange(file);
    // After the turn, something else rewrites line 10 on disk.
    fs.writeFileSync(file, edit(before, ['line 3\n', 'agent 3\n'], ['line 10\n', 'tool 10\n']));
    await sb.review.undo(turnId, file, hunks[0].id);
    assert.equal(fs.readFileSync(file, 'utf8'), edit(before, ['line 10\n', 'tool 10\n']));
  });

  it('decorates changed lines and offers Keep / Undo as CodeLens in the editor', async () => {
    const file = path.join(root(), 'review-f.txt');
    const before = numbered(6);
    fs.writeFileSync(file, before);
    await useScriptedAgent({ turns: [{ steps: [{ type: 'write', path: file, content: edit(before, ['line 4\n', 'four\n']) }] }] });
    await sb.chat.sendPrompt('edit review-f');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const titles = lenses.map(l => l.command?.title ?? '');
    assert.ok(titles.some(t => t.includes('Keep')) && titles.some(t => t.includes('Undo')), titles.join(' | '));
    assert.equal(lenses.find(l => l.command?.title.includes('Undo'))!.range.start.line, 3);
    const { turnId } = lastChange(file);
    await vscode.commands.executeCommand('switchboard.undoChange', { turnId, path: file });
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
