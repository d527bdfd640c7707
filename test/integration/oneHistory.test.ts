// One history of agents' edits (issue 19 point 6, decision 0025): the writes applied for an agent,
// the review's changes (Agent Changes, the chat's changed files) and the user's decisions are one
// record, so an applied write's Undo and the review's are one operation, and Undo of one turn's
// change never undoes another's (point 3).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { ChangeTracker } from '../../src/host/review/changeTracker';
import { memoryMemento, quietLogger, reviewSuite, useScriptedAgent } from './helpers';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

describe('Review: one history of edits (the chat\'s Undo of a write, Agent Changes)', () => {
  const suite = reviewSuite();
  let sb: SwitchboardApi;
  let held: { release(): Promise<void> } | undefined;
  before(() => { sb = suite.sb; });
  afterEach(async () => {
    await held?.release();
    held = undefined;
  });

  const listed = (file: string) => sb.review.views().filter(t => t.files.some(f => f.path === file));
  const writeOf = (file: string, after: string) => {
    const w = sb.files.appliedWrites(sb.chat.sessionId).find(x => x.path === file && x.after === after);
    assert.ok(w, `the applied write of ${file}: ${JSON.stringify(sb.files.appliedWrites().map(x => [x.sessionId, x.path, x.after]))} (session ${sb.chat.sessionId})`);
    return w;
  };
  const bytes = (file: string) => fs.readFileSync(file).toString('hex');

  it('a write undone from the chat is gone from Agent Changes (the exact bytes back, a created file deleted); kept in Agent Changes, the write reads as kept', async () => {
    const undone = path.join(root(), 'history-undo.txt');
    const created = path.join(root(), 'history-created.txt');
    const binary = path.join(root(), 'history-binary.dat');
    const kept = path.join(root(), 'history-keep.txt');
    fs.writeFileSync(undone, '\ufeffalpha\r\nbeta\r\n');
    fs.writeFileSync(binary, Buffer.from([0, 1, 2, 0xff, 0xfe, 0]));
    fs.writeFileSync(kept, 'one\ntwo\n');
    fs.rmSync(created, { force: true });
    const original = { undone: bytes(undone), binary: bytes(binary) };
    await useScriptedAgent({ turns: [{ steps: [
      { type: 'read', path: undone, quiet: true }, { type: 'write', path: undone, content: 'alpha\r\nBETA\r\n' },
      { type: 'write', path: created, content: 'new file\n' },
      { type: 'write', path: binary, content: 'now text\n' },
      { type: 'read', path: kept, quiet: true }, { type: 'write', path: kept, content: 'one\nTWO\n' },
    ] }] });
    await sb.chat.sendPrompt('edit them');
    await sb.review.settled();
    // The file watcher reports late on a busy machine (and not at all 10 s after the turn): nothing here may wait for it.
    held = sb.review.holdDiskEvents();
    for (const f of [undone, created, binary, kept]) assert.equal(listed(f).length, 1, `${f} listed: ${JSON.stringify(sb.review.views())}`);

    for (const [file, after] of [[created, 'new file\n'], [binary, 'now text\n'], [undone, 'alpha\r\nBETA\r\n']]) {
      const w = writeOf(file, after);
      assert.equal(w.decided, undefined);
      assert.equal(await w.undo(), true);
      assert.deepEqual(listed(file), [], `${path.basename(file)} no longer listed in Agent Changes nor the chat`);
      assert.equal(w.decided, 'undo');
    }
    assert.equal(bytes(undone), original.undone, 'the exact bytes before the write (BOM, CRLF)');
    assert.equal(bytes(binary), original.binary, 'the binary file\'s exact bytes');
    assert.equal(fs.existsSync(created), false);

    const [turn] = listed(kept);
    sb.review.keep(turn.turnId, kept);
    assert.equal(writeOf(kept, 'one\nTWO\n').decided, 'keep');
    assert.equal(fs.readFileSync(kept, 'utf8'), 'one\nTWO\n');
  });

  it('Undo of one turn\'s write leaves the other turn\'s changes, in another file and in the same one', async () => {
    const a = path.join(root(), 'history-a.txt');
    const b = path.join(root(), 'history-b.txt');
    fs.writeFileSync(a, 'a1\na2\na3\na4\na5\n');
    fs.writeFileSync(b, 'b1\n');
    await useScriptedAgent({ turns: [
      { match: 'turn one', steps: [{ type: 'read', path: a, quiet: true }, { type: 'write', path: a, content: 'A1\na2\na3\na4\na5\n' }] },
      { match: 'turn two', steps: [
        { type: 'read', path: b, quiet: true }, { type: 'write', path: b, content: 'B1\n' },
        { type: 'read', path: a, quiet: true }, { type: 'write', path: a, content: 'A1\na2\na3\na4\nA5\n' },
      ] },
    ] });
    await sb.chat.sendPrompt('turn one');
    await sb.chat.sendPrompt('turn two');
    await sb.review.settled();
    held = sb.review.holdDiskEvents();
    const first = writeOf(a, 'A1\na2\na3\na4\na5\n');
    const second = writeOf(a, 'A1\na2\na3\na4\nA5\n');

    assert.equal(await first.undo(), true);
    assert.equal(fs.readFileSync(a, 'utf8'), 'a1\na2\na3\na4\nA5\n', "the first turn's line undone, the second turn's kept");
    assert.equal(fs.readFileSync(b, 'utf8'), 'B1\n');
    assert.deepEqual([first.decided, second.decided, writeOf(b, 'B1\n').decided], ['undo', undefined, undefined]);
    // Agent Changes follows: what is left of the file is the second turn's line only, and b stays.
    const [turn] = listed(a);
    assert.deepEqual(sb.review.hunks(turn.turnId, a).map(h => [h.curLine, h.added, h.removed]), [[5, 1, 1]]);
    assert.equal(listed(b).length, 1);
    const change = sb.review.fileChange(turn.turnId, a);
    assert.deepEqual([change?.baseline, change?.current], ['a1\na2\na3\na4\na5\n', 'a1\na2\na3\na4\nA5\n']);
  });

  it('pending reviews saved by the previous version (switchboard.review.v1) are restored after the upgrade, then saved in the new form', async () => {
    const file = path.join(root(), 'history-v1.txt');
    fs.writeFileSync(file, 'a\nB\n');
    const memento = memoryMemento();
    await memento.update('switchboard.review.v1', [{ turnId: 'turn4', tabId: 'tab1', agentName: 'Scripted', files: [{ path: file, baseline: 'a\nb\n', current: 'a\nB\n' }] }]);
    const upgraded = new ChangeTracker(memento, quietLogger);
    try {
      assert.deepEqual(upgraded.views().map(t => [t.turnId, t.agentName, t.files.map(f => [f.path, f.added, f.removed])]), [['turn4', 'Scripted', [[file, 1, 1]]]]);
      assert.notEqual(upgraded.beginTurn('tab1', 'Scripted'), 'turn4', 'a new turn never takes a restored id');
    } finally {
      upgraded.dispose(); // the window closes: state is written
    }
    assert.equal(memento.get('switchboard.review.v1'), undefined, 'the old form is cleared once saved anew');
    const reloaded = new ChangeTracker(memento, quietLogger);
    try {
      const [turn] = reloaded.views();
      assert.equal(turn?.turnId, 'turn4');
      await reloaded.undo(turn.turnId, file);
      assert.equal(fs.readFileSync(file, 'utf8'), 'a\nb\n');
    } finally {
      reloaded.dispose();
    }
  });
});
