// Review stays right with several agents (issue 19 point 3, decision 0025): a later turn of another
// conversation that changes a file still undecided from an earlier turn is listed as its own entry,
// stacked on the earlier one, and Undo of either undoes only that turn's change.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { dump, severalAgentsSuite, useScriptedAgents } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';
const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const lines = (...changed: [number, string][]) => Array.from({ length: 12 }, (_, i) => changed.find(c => c[0] === i + 1)?.[1] ?? `line ${i + 1}`).join('\n') + '\n';

describe('Review: several agents change one file (each turn its own entry, Undo of one leaves the other)', () => {
  const suite = severalAgentsSuite();
  let sb: SwitchboardApi;
  const fsConfig = () => vscode.workspace.getConfiguration('switchboard.fs');
  before(async () => {
    sb = suite.sb;
    await fsConfig().update('reviewWrites', 'never', vscode.ConfigurationTarget.Global);
  });
  beforeEach(() => { for (const t of sb.review.views()) sb.review.keep(t.turnId); });
  after(async () => { await fsConfig().update('reviewWrites', undefined, vscode.ConfigurationTarget.Global); });

  const original = lines();
  const byA = lines([1, 'A one'], [2, 'A two']);
  const both = lines([1, 'A one'], [2, 'A two'], [10, 'B ten']);

  /** A edits lines 1–2 of the file (left undecided), then B, in another tab, line 10. */
  async function twoTurns(name: string, bWrites = both): Promise<{ file: string; turnA: string; turnB: string }> {
    const file = path.join(root(), name);
    fs.writeFileSync(file, original);
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: byA }] }] },
      [B]: { turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: bWrites }] }] },
    });
    assert.equal(await sb.chat.sendPrompt('edit lines 1 and 2'), 'sent');
    await sb.review.settled();
    const tabB = await suite.tabWith(agents[B].spec);
    assert.equal(await sb.chat.sendPrompt('edit line 10'), 'sent', dump(tabB.items));
    await sb.review.settled();
    const listed = sb.review.views().filter(t => t.files.some(f => f.path === file));
    assert.deepEqual(listed.map(t => [t.title, t.files.filter(f => f.path === file).map(f => [f.added, f.removed])]), [[A, [[2, 2]]], [B, [[bWrites === both ? 1 : 2, bWrites === both ? 1 : 2]]]], `B's change listed under B's turn: ${JSON.stringify(sb.review.views())}`);
    assert.equal(listed[1].tabId, tabB.id);
    return { file, turnA: listed[0].turnId, turnB: listed[1].turnId };
  }
  const listedIn = (file: string) => sb.review.views().filter(t => t.files.some(f => f.path === file)).map(t => t.title);

  it("Undo of A's change (B's on top) restores A's lines and leaves B's line 10; then Undo of B's restores the file", async () => {
    const { file, turnA, turnB } = await twoTurns('stacked-undo-a.txt');
    await sb.review.undo(turnA, file);
    assert.equal(fs.readFileSync(file, 'utf8'), lines([10, 'B ten']), "A's lines back, B's line 10 kept");
    assert.deepEqual(listedIn(file), [B]);
    assert.deepEqual(sb.review.hunks(turnB, file).map(h => [h.curLine, h.added, h.removed]), [[10, 1, 1]]);
    await sb.review.undo(turnB, file);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.deepEqual(listedIn(file), []);
  });

  it("Undo of B's change leaves A's", async () => {
    const { file, turnA, turnB } = await twoTurns('stacked-undo-b.txt');
    await sb.review.undo(turnB, file);
    assert.equal(fs.readFileSync(file, 'utf8'), byA, "B's line 10 undone, A's lines kept");
    assert.deepEqual(listedIn(file), [A]);
    assert.deepEqual(sb.review.hunks(turnA, file).map(h => [h.curLine, h.added, h.removed]), [[1, 2, 2]]);
  });

  it("Undo of A's hunk alone (B's change on top) leaves B's", async () => {
    const { file, turnA } = await twoTurns('stacked-hunk-a.txt');
    const [first] = sb.review.hunks(turnA, file);
    await sb.review.undo(turnA, file, first.id);
    assert.equal(fs.readFileSync(file, 'utf8'), lines([10, 'B ten']), "A's hunk undone under B's change");
    assert.deepEqual(listedIn(file), [B]);
  });

  it("Keep of A's change does not keep B's", async () => {
    const { file, turnA, turnB } = await twoTurns('stacked-keep-a.txt');
    sb.review.keep(turnA, file);
    assert.deepEqual(listedIn(file), [B], "B's change still to review");
    await sb.review.undo(turnB, file);
    assert.equal(fs.readFileSync(file, 'utf8'), byA, "the kept change of A's stays");
    assert.deepEqual(listedIn(file), []);
  });

  it("Keep of B's change leaves A's to review, against the file as it is (B's line kept)", async () => {
    const { file, turnA, turnB } = await twoTurns('stacked-keep-b.txt');
    sb.review.keep(turnB, file);
    assert.deepEqual(listedIn(file), [A]);
    assert.deepEqual(sb.review.hunks(turnA, file).map(h => [h.curLine, h.added, h.removed]), [[1, 2, 2]]);
    await sb.review.undo(turnA, file);
    assert.equal(fs.readFileSync(file, 'utf8'), lines([10, 'B ten']), "A's lines back, B's kept line stays");
    assert.deepEqual(listedIn(file), []);
  });

  it("B rewrote A's lines: Undo of A's change touches nothing (the user is told; B's change is never undone with it)", async () => {
    const over = lines([1, 'B one'], [2, 'B two']);
    const { file, turnA } = await twoTurns('stacked-overlap.txt', over);
    await sb.review.undo(turnA, file);
    assert.equal(fs.readFileSync(file, 'utf8'), over, 'the file as B left it');
    assert.deepEqual(listedIn(file), [A, B], 'both still to review');
  });
});
