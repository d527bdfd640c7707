// Nothing the user typed is lost, and nothing a stopped turn proposed is written: agent writes
// against a buffer the user keeps editing, writes that skip the review, and reviews whose turn,
// conversation or agent ended. Real VS Code, the scripted agent; what the user sees is asserted
// (the review's two sides, the chat card's conflict count, the editor, the disk).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, dump, lastOf, useScriptedAgent, waitFor } from './helpers';

type Step = Record<string, unknown>;
interface Outcome { type: string; step: number; result?: any; error?: { code: number; message: string } }

const AGENT = 'Scripted';
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

describe('Write safety: typing during reviews, unreviewed writes, stopped turns', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let ws: string;
  let n = 0;
  const fresh = (name: string, content: string) => {
    const p = path.join(ws, 'safety-it', `${++n}-${name}`);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    return p;
  };
  const setting = (key: string, value: unknown) =>
    vscode.workspace.getConfiguration('switchboard').update(key, value, vscode.ConfigurationTarget.Global);

  async function turns(list: { match?: string; steps: Step[]; onCancel?: Step[] }[], extra: object = {}): Promise<string> {
    const { log } = await useScriptedAgent({ ...extra, turns: list }, AGENT);
    return log;
  }
  function send(text = 'go'): Promise<unknown> {
    const done = sb.chat.sendPrompt(text);
    done.catch(() => { /* asserted by the caller */ });
    return done;
  }
  const outcomes = (log: string) => agentEvents(log).filter(e => e.event === 'result') as unknown as Outcome[];
  const outcome = (log: string, step: number) => waitFor(`the agent's result of step ${step}`, () => outcomes(log).find(o => o.step === step));
  const reviewOf = (p: string) => sb.files.reviews.find(r => r.path === p);
  const reviewFor = (p: string) => waitFor(`a review of ${p}`, () => reviewOf(p));
  const diffTabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs)
    .filter(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'switchboard-diff');
  const diffOf = (id: string) => waitFor(`the diff of review ${id}`, () => {
    const tab = diffTabs().find(t => (t.input as vscode.TabInputTextDiff).modified.path.startsWith(`/${id}/`));
    return tab?.input as vscode.TabInputTextDiff | undefined;
  });
  /** Diff tabs of one review (tool-call diffs share the scheme and may be open too). */
  const diffTabsOf = (id: string) => diffTabs().filter(t => (t.input as vscode.TabInputTextDiff).modified.path.startsWith(`/${id}/`));
  const textOf = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();
  /** Waits until `uri` (a side of a review) shows `expected`. */
  async function shows(uri: vscode.Uri, expected: string | RegExp, what: string): Promise<void> {
    const ok = (t: string) => (typeof expected === 'string' ? t === expected : expected.test(t));
    const end = Date.now() + 30_000;
    let text = await textOf(uri);
    while (!ok(text) && Date.now() < end) {
      await new Promise(r => setTimeout(r, 50));
      text = await textOf(uri);
    }
    if (typeof expected === 'string') assert.equal(text, expected, what);
    else assert.match(text, expected, what);
  }
  async function type(doc: vscode.TextDocument, edit: (e: vscode.WorkspaceEdit) => void): Promise<void> {
    const e = new vscode.WorkspaceEdit();
    edit(e);
    assert.ok(await vscode.workspace.applyEdit(e));
  }
  const openFile = async (p: string) => {
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
  };

  before(async () => {
    sb = await api();
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await setting('fs.outsideWorkspace', 'deny');
    await setting('fs.reviewWrites', 'always');
    await setting('fs.saveAfterWrite', true);
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(async () => {
    for (const r of sb.files.reviews) r.reject();
    for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setting('fs.reviewWrites', 'always');
  });
  after(async () => {
    await sb.chat.stop();
    for (const key of ['fs.outsideWorkspace', 'fs.reviewWrites', 'fs.saveAfterWrite']) await setting(key, undefined);
  });

  // ------------------------------------------------------------ 1. typing during a pending review

  it('typing during a pending review: the diff follows the buffer, an overlap waits for the user\'s choice, both are kept', async () => {
    const file = fresh('typing.txt', numbered(3));
    const log = await turns([{ steps: [
      { type: 'read', path: file, quiet: true },
      { type: 'write', path: file, content: numbered(3).replace('line 1\n', 'agent 1\n') },
    ] }]);
    const done = send();
    const review = await reviewFor(file);
    const diff = await diffOf(review.id);
    const doc = await openFile(file);
    // The user changes line 1 and adds a new last line while the agent's edit waits.
    await type(doc, e => {
      e.replace(doc.uri, doc.lineAt(0).range, 'user 1');
      e.insert(doc.uri, new vscode.Position(3, 0), 'user 4\n');
    });
    const typed = 'user 1\nline 2\nline 3\nuser 4\n';
    await shows(diff.original, typed, 'the left side of the review is the buffer as the user typed it');
    await waitFor('the card to count 1 conflict', () => reviewOf(file)?.conflicts === 1);
    await shows(diff.modified, /^<<<<<<< .*\nuser 1\n=======\nagent 1\n>>>>>>> .*\nline 2\nline 3\nuser 4\n$/, 'the overlap is shown as a conflict, the new last line is kept');

    // Accept cannot decide the conflict by itself: nothing is written, the review stays.
    assert.equal(sb.files.accept(review.id), false);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(reviewOf(file), 'still pending');
    assert.equal(fs.readFileSync(file, 'utf8'), numbered(3));
    assert.equal(doc.getText(), typed);

    await vscode.commands.executeCommand('switchboard.resolveConflict', review.id, 0, 'both');
    const both = 'user 1\nagent 1\nline 2\nline 3\nuser 4\n';
    await shows(diff.modified, both, 'the right side shows the user\'s choice');
    assert.equal(reviewOf(file)?.conflicts, 0);
    assert.ok(sb.files.accept(review.id));
    await done;
    assert.deepEqual((await outcome(log, 1)).result, {});
    assert.equal(doc.getText(), both);
    // The agent is answered once the edit is in the buffer; the save follows.
    await waitFor('the save after the answer', () => !doc.isDirty);
    assert.equal(fs.readFileSync(file, 'utf8'), both);
  });

  it('typing during a pending review: edits elsewhere are merged into the proposal without a conflict; "theirs" and "ours" settle overlaps', async () => {
    const file = fresh('follow.txt', numbered(8));
    const agent = numbered(8).replace('line 2\n', 'agent 2\n').replace('line 6\n', 'agent 6\n');
    const log = await turns([{ steps: [{ type: 'read', path: file, quiet: true }, { type: 'write', path: file, content: agent }] }]);
    const done = send();
    const review = await reviewFor(file);
    const diff = await diffOf(review.id);
    const doc = await openFile(file);
    await type(doc, e => e.replace(doc.uri, doc.lineAt(3).range, 'user 4'));
    const merged = agent.replace('line 4\n', 'user 4\n');
    await shows(diff.modified, merged, 'the proposal keeps the user\'s line 4');
    assert.equal(reviewOf(file)?.conflicts, 0);
    // Now two overlaps: the user rewrites lines 2 and 6 as well.
    await type(doc, e => {
      e.replace(doc.uri, doc.lineAt(1).range, 'user 2');
      e.replace(doc.uri, doc.lineAt(5).range, 'user 6');
    });
    await waitFor('2 conflicts', () => reviewOf(file)?.conflicts === 2);
    await vscode.commands.executeCommand('switchboard.resolveConflict', review.id, 0, 'theirs');
    await vscode.commands.executeCommand('switchboard.resolveConflict', review.id, 1, 'ours');
    const expected = numbered(8).replace('line 2\n', 'agent 2\n').replace('line 4\n', 'user 4\n').replace('line 6\n', 'user 6\n');
    await shows(diff.modified, expected, 'agent\'s line 2, the user\'s lines 4 and 6');
    await vscode.commands.executeCommand('switchboard.acceptWrite', review.id);
    await done;
    assert.deepEqual((await outcome(log, 1)).result, {});
    await waitFor('the save after the answer', () => fs.readFileSync(file, 'utf8') === expected);
  });

  // ---------------------------------------------------------------- 2. writes that skip the review

  it('reviewWrites=never: a write to a file with unsaved edits the agent never read is merged into the buffer', async () => {
    await setting('fs.reviewWrites', 'never');
    const file = fresh('never.txt', numbered(10));
    const doc = await openFile(file);
    await type(doc, e => e.replace(doc.uri, doc.lineAt(0).range, 'user 1'));
    const log = await turns([{ steps: [{ type: 'write', path: file, content: numbered(10).replace('line 8\n', 'agent 8\n') }] }]);
    await send();
    assert.deepEqual((await outcome(log, 0)).result, {}, dump(sb.chat.items));
    const both = numbered(10).replace('line 1\n', 'user 1\n').replace('line 8\n', 'agent 8\n');
    assert.equal(doc.getText(), both, 'the unsaved edit survives');
    await waitFor('the save after the answer', () => fs.readFileSync(file, 'utf8') === both);
  });

  it('"Accept all": a later write overlapping unsaved edits falls back to a review instead of overwriting them', async () => {
    const first = fresh('all-first.txt', 'a\n');
    const file = fresh('all-second.txt', numbered(6));
    const doc = await openFile(file);
    await type(doc, e => e.replace(doc.uri, doc.lineAt(2).range, 'user 3'));
    const typed = doc.getText();
    const log = await turns([{ steps: [
      { type: 'write', path: first, content: 'A\n' },
      { type: 'write', path: file, content: numbered(6).replace('line 3\n', 'agent 3\n') },
    ] }]);
    const done = send();
    await vscode.commands.executeCommand('switchboard.acceptAllWrites', (await reviewFor(first)).id);
    await outcome(log, 0);
    const review = await reviewFor(file);
    assert.equal(review.conflicts, 1);
    assert.equal(doc.getText(), typed, 'nothing applied before the user decides');
    assert.equal(fs.readFileSync(file, 'utf8'), numbered(6));
    await vscode.commands.executeCommand('switchboard.resolveConflict', review.id, 0, 'ours');
    assert.ok(sb.files.accept(review.id));
    await done;
    assert.equal(doc.getText(), typed);
  });

  it('an edit allowed through a permission request is merged with unsaved edits elsewhere', async () => {
    const file = fresh('permitted.txt', numbered(6));
    const doc = await openFile(file);
    await type(doc, e => e.replace(doc.uri, doc.lineAt(5).range, 'user 6'));
    const agent = numbered(6).replace('line 1\n', 'agent 1\n');
    const log = await turns([{ steps: [
      { type: 'permission', toolCall: { toolCallId: 'edit-1', title: 'Edit', kind: 'edit', content: [{ type: 'diff', path: file, oldText: numbered(6), newText: agent }] } },
      { type: 'write', path: file, content: agent },
    ] }]);
    const done = send();
    const card = await waitFor('the permission card', () => sb.chat.items.find(i => i.kind === 'permission'));
    sb.chat.answerPermission(card.id, 'allow');
    await done;
    assert.deepEqual((await outcome(log, 1)).result, {});
    assert.equal(doc.getText(), agent.replace('line 6\n', 'user 6\n'));
  });

  // --------------------------------------------------------------------- 3. a stopped turn writes nothing

  it('Stop ends the pending review: diff closed, agent answered cancelled, a late Accept writes nothing and says why', async () => {
    const file = fresh('stopped.txt', 'before\n');
    const log = await turns([{ steps: [{ type: 'write', path: file, content: 'after\n' }] }], { abandonOnCancel: true });
    const done = send();
    const review = await reviewFor(file);
    await diffOf(review.id);
    await sb.chat.cancelTurn();
    await done;
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'cancelled', dump(sb.chat.items));
    await waitFor('the review to end', () => !reviewOf(file));
    await waitFor('the diff to close', () => diffTabsOf(review.id).length === 0);
    assert.equal((await outcome(log, 0)).error?.code, -32800);
    assert.equal(sb.files.accept(review.id), false, 'a late Accept');
    await vscode.commands.executeCommand('switchboard.acceptWrite', review.id);
    assert.match(sb.files.whyEnded(review.id) ?? '', /stopped/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');
  });

  it('a write that arrives after Stop (a tool already in flight) is refused; the next turn writes again', async () => {
    const file = fresh('in-flight.txt', 'before\n');
    const log = await turns([
      { match: 'again', steps: [{ type: 'write', path: file, content: 'next turn\n' }] },
      { steps: [{ type: 'text', text: 'working' }, { type: 'sleep', ms: 30_000 }],
        onCancel: [{ type: 'write', path: file, content: 'after stop\n' }] },
    ]);
    const done = send();
    await waitFor('the agent to work', () => sb.chat.items.some(i => i.kind === 'agent' && i.text.includes('working')));
    await sb.chat.cancelTurn();
    await done;
    const late = await waitFor('the late write\'s answer', () => outcomes(log).find(o => o.type === 'write'));
    assert.equal(late.error?.code, -32800, JSON.stringify(late));
    assert.equal(sb.files.reviews.length, 0, 'no review opened after Stop');
    assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');

    const next = send('again');
    const review = await reviewFor(file);
    assert.ok(sb.files.accept(review.id));
    await next;
    assert.equal(fs.readFileSync(file, 'utf8'), 'next turn\n');
  });

  it('closing the conversation ends its pending reviews; other conversations keep theirs', async () => {
    const kept = fresh('other-tab.txt', 'before\n');
    const file = fresh('closed-tab.txt', 'before\n');
    const log = await turns([
      { match: 'other', steps: [{ type: 'write', path: kept, content: 'after\n', detach: true }] },
      { steps: [{ type: 'write', path: file, content: 'after\n', detach: true }] },
    ]);
    await send('other');
    const other = await reviewFor(kept);
    await sb.chat.newConversation();
    await send();
    const review = await reviewFor(file);
    await sb.chat.closeTab(sb.chat.activeTab);
    await waitFor('the review to end', () => !reviewOf(file));
    assert.equal((await waitFor('the agent\'s answer', () => outcomes(log).find(o => o.error))).error?.code, -32800);
    assert.equal(sb.files.accept(review.id), false);
    assert.match(sb.files.whyEnded(review.id) ?? '', /closed/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');
    assert.equal(reviewOf(kept)?.id, other.id, 'the other conversation\'s review is still pending');
    assert.ok(sb.files.accept(other.id));
    await waitFor('the other write', () => fs.readFileSync(kept, 'utf8') === 'after\n');
  });

  it('an agent crash ends its pending reviews', async () => {
    const file = fresh('crashed.txt', 'before\n');
    await turns([
      { match: 'crash', steps: [{ type: 'crash' }] },
      { steps: [{ type: 'write', path: file, content: 'after\n', detach: true }] },
    ]);
    await send();
    const review = await reviewFor(file);
    await send('crash');
    await waitFor('the review to end', () => !reviewOf(file));
    await waitFor('the diff to close', () => diffTabsOf(review.id).length === 0);
    assert.equal(sb.files.accept(review.id), false);
    assert.match(sb.files.whyEnded(review.id) ?? '', /exited|crashed|stopped/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');
  });
});
