// Review stays right with several agents (issue 19 point 3, decision 0025): a later turn of another
// conversation that changes a file still undecided from an earlier turn is listed as its own entry,
// stacked on the earlier one, and Undo of either undoes only that turn's change.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { dump, gate, reviewSuite, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';
const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const lines = (...changed: [number, string][]) => Array.from({ length: 12 }, (_, i) => changed.find(c => c[0] === i + 1)?.[1] ?? `line ${i + 1}`).join('\n') + '\n';

describe('Review: several agents change one file (each turn its own entry, Undo of one leaves the other)', () => {
  const suite = reviewSuite();
  let sb: SwitchboardApi;
  before(() => { sb = suite.sb; });

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

  it("B rewrote A's lines: the warning says why A's change was not undone and offers Undo Both, which restores the file as it was before both", async () => {
    const over = lines([1, 'B one'], [2, 'B two']);
    const { file, turnA } = await twoTurns('stacked-undo-both.txt', over);
    const warned: { message: string; actions: string[] }[] = [];
    const warn = sb.review.ui.warn;
    sb.review.ui.warn = async (message, ...actions) => { warned.push({ message, actions }); return 'Undo Both'; };
    try {
      await sb.review.undo(turnA, file);
      // Undo Both runs once the user chose it (the warning is not modal): done when the file is back.
      await waitFor(() => `the file as before both changes, not ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`, () => fs.readFileSync(file, 'utf8') === original && listedIn(file).length === 0, 5000);
    } finally { sb.review.ui.warn = warn; }
    assert.deepEqual(warned, [{ message: `${A}'s change of stacked-undo-both.txt was not undone: ${B} changed the same lines since. Undo ${B}'s change first, or undo ${A}'s hunk by hunk.`, actions: ['Undo Both'] }]);
  });

  it("the CodeLens of A's hunks (B's change on top added lines above one) sits at the lines the editor shows, and its Undo undoes that hunk", async () => {
    const file = path.join(root(), 'stacked-lens.txt');
    fs.writeFileSync(file, original);
    const byA2 = lines([2, 'A two'], [10, 'A ten']);
    const inserted = ['B new 1', 'B new 2', 'B new 3'];
    const withB = (text: string) => { const l = text.split('\n'); l.splice(4, 0, ...inserted); return l.join('\n'); };
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: byA2 }] }] },
      [B]: { turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: withB(byA2) }] }] },
    });
    assert.equal(await sb.chat.sendPrompt('edit lines 2 and 10'), 'sent');
    await sb.review.settled();
    await suite.tabWith(agents[B].spec);
    assert.equal(await sb.chat.sendPrompt('insert after line 4'), 'sent');
    await sb.review.settled();
    const [turnA, turnB] = sb.review.views().filter(t => t.files.some(f => f.path === file)).map(t => t.turnId);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const { uri } = doc;
    const lenses = async () => (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri))
      .filter(l => l.command?.command === 'switchboard.undoChange')
      .map(l => ({ line: l.range.start.line + 1, turnId: (l.command!.arguments![0] as { turnId: string }).turnId, ref: l.command!.arguments![0] }));
    const shown = await lenses();
    assert.deepEqual(shown.map(l => [l.turnId === turnA ? A : l.turnId === turnB ? B : l.turnId, l.line]).sort(), [[A, 13], [A, 2], [B, 5]],
      "A's line 10 is the editor's line 13 (B's three lines above it)");
    const tenth = shown.find(l => l.turnId === turnA && l.line === 13)!;
    await vscode.commands.executeCommand('switchboard.undoChange', tenth.ref);
    assert.equal(fs.readFileSync(file, 'utf8'), withB(lines([2, 'A two'])), "the hunk beside the CodeLens undone, A's line 2 and B's lines kept");
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** The two sides of the diff editor `switchboard.openChangeDiff` opened for `turnId`'s change of `file`. */
  async function diffOf(turnId: string, file: string): Promise<{ left: string; right: string; rightIsFile: boolean }> {
    await vscode.commands.executeCommand('switchboard.openChangeDiff', { turnId, path: file });
    const input = await waitFor(() => `a diff editor: ${String(vscode.window.tabGroups.activeTabGroup.activeTab?.label)}`, () => {
      const i = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return i instanceof vscode.TabInputTextDiff && i.original.path === file ? i : undefined;
    });
    const text = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();
    const sides = { left: await text(input.original), right: await text(input.modified), rightIsFile: input.modified.scheme === 'file' };
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    return sides;
  }

  it("the Diff of A's change (B's on top) shows A's lines, not B's: the file without A's change against the file", async () => {
    const { file, turnA, turnB } = await twoTurns('stacked-diff.txt');
    assert.deepEqual(await diffOf(turnA, file), { left: lines([10, 'B ten']), right: both, rightIsFile: true }, "B's line 10 on both sides");
    assert.deepEqual(await diffOf(turnB, file), { left: byA, right: both, rightIsFile: true });
  });

  it("B rewrote A's lines: the Diff of A's change shows A's change as A made it", async () => {
    const over = lines([1, 'B one'], [2, 'B two']);
    const { file, turnA } = await twoTurns('stacked-diff-overlap.txt', over);
    assert.deepEqual(await diffOf(turnA, file), { left: original, right: byA, rightIsFile: false });
  });

  /** A edits lines 1–2 and waits; B, in another tab, writes `bWrites`; then A's same turn writes `again`. */
  async function aWritesAgain(name: string, bWrites: string, again: string): Promise<{ file: string; turns: string[] }> {
    const file = path.join(root(), name);
    fs.writeFileSync(file, original);
    const go = gate(name);
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [
        { type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: byA },
        { type: 'waitFile', path: go.path },
        { type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: again },
      ] }] },
      [B]: { turns: [{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: bWrites }] }] },
    });
    const turnOfA = sb.chat.sendPrompt('edit lines 1 and 2, then 5');
    await waitFor(() => `A's first change listed: ${JSON.stringify(sb.review.views())}`, () => listedIn(file).length === 1);
    await suite.tabWith(agents[B].spec);
    assert.equal(await sb.chat.sendPrompt('edit line 10'), 'sent');
    await sb.review.settled();
    go.open();
    assert.equal(await turnOfA, 'sent');
    await sb.review.settled();
    assert.equal(fs.readFileSync(file, 'utf8'), again);
    assert.deepEqual(listedIn(file), [A, B, A], "A's second change listed under A, on top of B's");
    return { file, turns: sb.review.views().filter(t => t.files.some(f => f.path === file)).map(t => t.turnId) };
  }

  it("A's turn writes the file again after B's change stacked on it: that change is A's (its own entry on top), and Undo of B's leaves it", async () => {
    const { file, turns: [, turnB] } = await aWritesAgain('stacked-again.txt', both, lines([1, 'A one'], [2, 'A two'], [5, 'A five'], [10, 'B ten']));
    await sb.review.undo(turnB, file);
    assert.equal(fs.readFileSync(file, 'utf8'), lines([1, 'A one'], [2, 'A two'], [5, 'A five']), "B's line 10 undone, both of A's changes kept");
    assert.deepEqual(listedIn(file), [A, A]);
  });

  it("Undo of A's first change that B's (in the middle) overlaps names B, and Undo Both undoes B's and A's, not A's later change on top", async () => {
    const over = lines([1, 'B one'], [2, 'B two']);
    const { file, turns: [turnA] } = await aWritesAgain('stacked-again-overlap.txt', over, lines([1, 'B one'], [2, 'B two'], [5, 'A five']));
    const warned: string[] = [];
    const warn = sb.review.ui.warn;
    sb.review.ui.warn = async (message, ...actions) => { warned.push(message); return actions[0]; };
    try {
      await sb.review.undo(turnA, file);
      await waitFor(() => `B's and A's first change undone, not ${JSON.stringify(fs.readFileSync(file, 'utf8'))} (${listedIn(file)})`, () => fs.readFileSync(file, 'utf8') === lines([5, 'A five']) && listedIn(file).length === 1, 5000);
    } finally { sb.review.ui.warn = warn; }
    assert.deepEqual(warned, [`${A}'s change of stacked-again-overlap.txt was not undone: ${B} changed the same lines since. Undo ${B}'s change first, or undo ${A}'s hunk by hunk.`]);
    assert.deepEqual(listedIn(file), [A], "A's later change still to review");
  });
});
