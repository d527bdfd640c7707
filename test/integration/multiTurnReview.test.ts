// Review with several turns running at once (issue 19, point 3): two scripted agents, each in its
// own tab, both turns running. A change goes to the turn whose agent's tool call named it; a disk
// change no tool call names is listed once, as changed while both agents were working, never
// dropped and never given to one of them; Undo of one turn never undoes another's change.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { ChatSession } from '../../src/session/chatSession';
import { api, dump, freshReviewPerTest, gate, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';
const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

describe('Review of several turns at once', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  freshReviewPerTest(() => sb);

  /** A new tab talking to `spec`'s agent (its own process), shown. */
  async function tabWith(spec: { name: string }): Promise<ChatSession> {
    await sb.chat.newConversation();
    assert.equal(await sb.chat.start(spec as never), true, dump(sb.chat.items));
    assert.equal(sb.chat.active.agentName, spec.name);
    return sb.chat.active;
  }

  /**
   * Sends `promptA` in the shown tab (agent A, the default), then `promptB` in a new tab with B's
   * agent; opens `both` once both turns run (the scripted agents wait on it).
   */
  async function bothRunning(specB: { name: string }, promptA: string, promptB: string, both: { open(): void }) {
    const tabA = sb.chat.active;
    const turnA = sb.chat.sendPrompt(promptA);
    // Seen: a conversation started before A's prompt was shown took A's tab again.
    await waitFor(() => `A's turn to run: ${dump(tabA.items)}`, () => tabA.busy && tabA.items.some(i => i.kind === 'user'));
    const tabB = await tabWith(specB);
    const turnB = sb.chat.sendPrompt(promptB);
    await waitFor(() => `B's turn to run: ${dump(tabB.items)}`, () => tabB.busy && tabB.items.some(i => i.kind === 'user'));
    assert.notEqual(tabB.id, tabA.id);
    both.open();
    return { tabA, tabB, turnA, turnB };
  }

  const turnsListing = (file: string) => sb.review.views().filter(t => t.files.some(f => f.path === file));
  const listing = () => JSON.stringify(sb.review.views().map(t => ({ title: t.title, agent: t.agentName, files: t.files.map(f => path.basename(f.path)) })));

  it('A and B edit a file each in turns running at once: each under its own turn, a silent disk change under "changed while A and B were working"; Undo of one leaves the others', async () => {
    const a = path.join(root(), 'multi-a.txt');
    const b = path.join(root(), 'multi-b.txt');
    const shared = path.join(root(), 'multi-shared.txt');
    fs.writeFileSync(a, 'a one\na two\n');
    fs.writeFileSync(b, 'b one\nb two\n');
    fs.writeFileSync(shared, 'shared one\n');
    // Open (and so seen) before the turns: its text then is what a change is compared with.
    await vscode.workspace.openTextDocument(shared);
    const both = gate('both-running');
    const endA = gate('end-a');
    const endB = gate('end-b');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [
        { type: 'waitFile', path: both.path },
        { type: 'codexEdit', path: a, content: 'a one\nA WROTE\n', permission: false },
        { type: 'waitFile', path: endA.path },
      ] }] },
      [B]: { turns: [{ steps: [
        { type: 'waitFile', path: both.path },
        { type: 'claudeEdit', path: b, old: 'b one\n', new: 'B WROTE\n', permission: false },
        // Something B ran (a script): no tool call names the file.
        { type: 'claudeWrite', path: shared, content: 'shared changed\n', silent: true },
        { type: 'waitFile', path: endB.path },
      ] }] },
    });
    const { tabA, tabB, turnA, turnB } = await bothRunning(agents[B].spec, 'edit a', 'edit b', both);
    try {
      await waitFor(() => `the three files listed while both turns run: ${listing()}; B: ${dump(tabB.items)}; B's log: ${fs.readFileSync(agents[B].log, 'utf8').slice(-1500)}`,
        () => turnsListing(a).length && turnsListing(b).length && turnsListing(shared).length);
      assert.ok(tabA.busy && tabB.busy, 'both turns still run');
    } finally {
      endA.open();
      endB.open();
    }
    assert.equal(await turnA, 'sent');
    assert.equal(await turnB, 'sent');
    await sb.review.settled();

    const [ofA] = turnsListing(a);
    const [ofB] = turnsListing(b);
    const ofShared = turnsListing(shared);
    assert.equal(ofShared.length, 1, `listed once: ${listing()}`);
    assert.deepEqual(ofA.files.map(f => f.path), [a], listing());
    assert.equal(ofA.agentName, A);
    assert.equal(ofA.tabId, tabA.id);
    assert.deepEqual(ofB.files.map(f => f.path), [b], listing());
    assert.equal(ofB.agentName, B);
    assert.equal(ofB.tabId, tabB.id);
    assert.deepEqual(ofShared[0].files.map(f => f.path), [shared], listing());
    assert.notEqual(ofShared[0].turnId, ofA.turnId);
    assert.notEqual(ofShared[0].turnId, ofB.turnId);
    assert.equal(ofShared[0].title, `Changed while ${A} and ${B} were working`, listing());
    assert.equal(ofA.title, A);

    await sb.review.undo(ofA.turnId);
    assert.equal(fs.readFileSync(a, 'utf8'), 'a one\na two\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'B WROTE\nb two\n', 'Undo of A\'s turn leaves B\'s change');
    assert.equal(fs.readFileSync(shared, 'utf8'), 'shared changed\n', 'and the change nobody can be sure of');
    assert.deepEqual(turnsListing(b).map(t => t.turnId), [ofB.turnId]);

    await sb.review.undo(ofShared[0].turnId);
    assert.equal(fs.readFileSync(shared, 'utf8'), 'shared one\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'B WROTE\nb two\n');
    assert.equal(turnsListing(shared).length, 0);
  });
  it('an agent whose turn ran alongside another and ended before a silent disk change is not named among the agents working when it happened', async () => {
    const C = 'Scripted C';
    const shared = path.join(root(), 'multi-after-c.txt');
    fs.writeFileSync(shared, 'shared one\n');
    await vscode.workspace.openTextDocument(shared);
    const first = gate('a-and-c');
    const second = gate('a-and-b');
    const end = gate('end');
    const agents = await useScriptedAgents({
      [A]: { turns: [
        { match: '^first', steps: [{ type: 'waitFile', path: first.path }, { type: 'text', text: 'A works.' }] },
        { match: '^second', steps: [{ type: 'waitFile', path: second.path }, { type: 'waitFile', path: end.path }] },
      ] },
      [B]: { turns: [{ steps: [
        { type: 'waitFile', path: second.path },
        { type: 'claudeWrite', path: shared, content: 'shared changed\n', silent: true },
        { type: 'waitFile', path: end.path },
      ] }] },
      [C]: { turns: [{ steps: [{ type: 'waitFile', path: first.path }, { type: 'text', text: 'C works.' }] }] },
    });
    // A and C at once; both end. Then, seconds later, A and B at once, and B changes a file silently.
    const earlier = await bothRunning(agents[C].spec, 'first', 'first', first);
    assert.deepEqual([await earlier.turnA, await earlier.turnB], ['sent', 'sent']);
    sb.chat.selectTab(earlier.tabA.id);
    const { turnA, turnB } = await bothRunning(agents[B].spec, 'second', 'second', second);
    try {
      await waitFor(() => `the silent change listed: ${listing()}`, () => turnsListing(shared).length);
    } finally {
      end.open();
    }
    assert.deepEqual([await turnA, await turnB], ['sent', 'sent']);
    await sb.review.settled();
    assert.deepEqual(turnsListing(shared).map(t => t.title), [`Changed while ${A} and ${B} were working`], listing());
  });

  it("the watcher's report of a file A's tool call named goes to A's turn while B's runs too, before A's call completes", async () => {
    const a = path.join(root(), 'multi-named.txt');
    fs.writeFileSync(a, 'named one\nnamed two\n');
    const both = gate('both-running');
    const complete = gate('complete-a');
    const end = gate('end');
    const agents = await useScriptedAgents({
      [A]: { turns: [{ steps: [
        { type: 'waitFile', path: both.path },
        // Written at once, its tool call completes later: until then only the watcher tells.
        { type: 'claudeEdit', path: a, old: 'named two\n', new: 'A WROTE\n', permission: false, completeAfter: complete.path },
        { type: 'waitFile', path: end.path },
      ] }] },
      [B]: { turns: [{ steps: [{ type: 'waitFile', path: both.path }, { type: 'text', text: 'B works.' }, { type: 'waitFile', path: end.path }] }] },
    });
    const { tabA, tabB, turnA, turnB } = await bothRunning(agents[B].spec, 'edit named', 'work', both);
    try {
      await waitFor(() => `A's write on disk: ${fs.readFileSync(a, 'utf8')}`, () => fs.readFileSync(a, 'utf8') === 'named one\nA WROTE\n');
      const [turn] = await waitFor(() => `the file listed before A's call completes: ${listing()}`, () => turnsListing(a).length ? turnsListing(a) : undefined);
      assert.equal(turn.agentName, A, listing());
      assert.equal(turn.tabId, tabA.id);
      assert.ok(tabA.busy && tabB.busy, 'both turns still run');
    } finally {
      complete.open();
      end.open();
    }
    assert.equal(await turnA, 'sent');
    assert.equal(await turnB, 'sent');
    await sb.review.settled();
    const listed = turnsListing(a);
    assert.equal(listed.length, 1, listing());
    assert.equal(listed[0].agentName, A);
    await sb.review.undo(listed[0].turnId);
    assert.equal(fs.readFileSync(a, 'utf8'), 'named one\nnamed two\n');
  });
});
