// fs/read_text_file and fs/write_text_file in a real VS Code, driven by the scripted agent: what
// the agent received (its JSONL log) and what the user sees (buffers, files on disk, the diff).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, dump, tmpDir, useScriptedAgent, waitFor } from './helpers';

type Step = Record<string, unknown>;
interface Outcome { type: string; step: number; result?: any; error?: { code: number; message: string; data?: any } }

const AGENT = 'Scripted';

describe('File system (fs/read_text_file, fs/write_text_file)', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;
  let ws: string;
  let n = 0;
  /** A fresh file path in the workspace for each test (the fixture copy is shared by all suites). */
  const fresh = (name: string) => path.join(ws, 'fs-it', `${++n}-${name}`);
  const write = (p: string, content: string | Buffer) => { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, content); return p; };
  const numbered = (count: number, eol = '\n') => Array.from({ length: count }, (_, i) => `line ${i + 1}${eol}`).join('');

  const config = () => vscode.workspace.getConfiguration('switchboard');
  const setting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);

  /** Starts a turn of the scripted agent running `steps`; the turn is awaited by the caller. */
  async function turn(steps: Step[]): Promise<{ log: string; done: Promise<unknown> }> {
    const { log } = await useScriptedAgent({ turns: [{ steps }] }, AGENT);
    const done = sb.chat.sendPrompt('go');
    done.catch(() => { /* asserted by the caller */ });
    return { log, done };
  }
  const outcomes = (log: string) => agentEvents(log).filter(e => e.event === 'result') as unknown as Outcome[];
  const outcome = (log: string, step: number) => waitFor(`the agent's result of step ${step}`, () => outcomes(log).find(o => o.step === step));
  const reviewFor = (p: string) => waitFor(`a review of ${p}`, () => sb.files.reviews.find(r => r.path === p));
  const diffTabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs)
    .filter(t => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'switchboard-diff');
  const diffTabOf = (id: string) => waitFor(`the diff tab of review ${id}`,
    () => diffTabs().find(t => (t.input as vscode.TabInputTextDiff).modified.path.startsWith(`/${id}/`)));
  const textOf = async (uri: vscode.Uri) => (await vscode.workspace.openTextDocument(uri)).getText();
  const openDirty = async (p: string, edit: (doc: vscode.TextDocument, e: vscode.WorkspaceEdit) => void) => {
    const doc = await vscode.workspace.openTextDocument(p);
    await vscode.window.showTextDocument(doc);
    const e = new vscode.WorkspaceEdit();
    edit(doc, e);
    assert.ok(await vscode.workspace.applyEdit(e));
    assert.ok(doc.isDirty);
    return doc;
  };

  /** The agent reads `file` in one turn; the returned function sends the turn that writes `content`. */
  async function readThenWrite(file: string, content: string): Promise<() => Promise<unknown>> {
    await useScriptedAgent({ turns: [
      { match: '^write', steps: [{ type: 'write', path: file, content }] },
      { steps: [{ type: 'read', path: file, quiet: true }] },
    ] }, AGENT);
    await sb.chat.sendPrompt('read');
    return () => {
      const done = sb.chat.sendPrompt('write');
      done.catch(() => { /* asserted by the caller */ });
      return done;
    };
  }

  before(async () => {
    sb = await api();
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await setting('fs.outsideWorkspace', 'deny'); // a modal cannot be answered from here; `ask` is covered by e2e
    await setting('fs.reviewWrites', 'always');
    await setting('fs.saveAfterWrite', true);
    await setting('terminal.confirmCommands', false); // the `cat` after a write runs unasked (its confirmation: Hostile agent)
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(async () => {
    for (const r of sb.files.reviews) r.reject();
    // Revert what tests left dirty, so closing editors never asks to save.
    for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setting('fs.outsideWorkspace', 'deny');
    await setting('fs.reviewWrites', 'always');
    await setting('fs.saveAfterWrite', true);
  });
  after(async () => {
    await sb.chat.stop();
    for (const key of ['fs.outsideWorkspace', 'fs.reviewWrites', 'fs.saveAfterWrite', 'terminal.confirmCommands']) await setting(key, undefined);
  });

  // ---------------------------------------------------------------------------------------- reads

  it('advertises fs.readTextFile and fs.writeTextFile', async () => {
    const { log, done } = await turn([{ type: 'text', text: 'hi' }]);
    await done;
    const init = agentEvents(log).find(e => e.event === 'initialize')!.params as any;
    assert.deepEqual(init.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
  });

  it('rejects a relative path with -32602 naming the path', async () => {
    const { log, done } = await turn([{ type: 'read', path: 'notes.txt' }, { type: 'write', path: 'src/x.ts', content: 'x' }]);
    await done;
    const [read, wrote] = [await outcome(log, 0), await outcome(log, 1)];
    assert.deepEqual([read.error?.code, read.error?.message], [-32602, 'Path must be absolute: notes.txt']);
    assert.deepEqual([wrote.error?.code, wrote.error?.message], [-32602, 'Path must be absolute: src/x.ts']);
    assert.ok(!fs.existsSync(path.join(ws, 'src/x.ts')));
  });

  it('reads a whole file, from line 10, 50 lines from line 10, and past the end (fast-agent flows), CRLF kept', async () => {
    const file = write(fresh('hundred.txt'), numbered(100, '\r\n'));
    const { log, done } = await turn([
      { type: 'read', path: file },
      { type: 'read', path: file, line: 10 },
      { type: 'read', path: file, line: 10, limit: 50 },
      { type: 'read', path: file, line: 101 },
      { type: 'read', path: file, line: 100, limit: 5 },
    ]);
    await done;
    const lines = numbered(100, '\r\n').split(/(?<=\r\n)/);
    assert.equal((await outcome(log, 0)).result.content, numbered(100, '\r\n'));
    assert.equal((await outcome(log, 1)).result.content, lines.slice(9).join(''));
    assert.equal((await outcome(log, 2)).result.content, lines.slice(9, 59).join(''));
    assert.ok((await outcome(log, 2)).result.content.startsWith('line 10\r\n'));
    assert.equal((await outcome(log, 3)).result.content, '');
    assert.equal((await outcome(log, 4)).result.content, 'line 100\r\n');
  });

  it('reads the open buffer with its unsaved edits', async () => {
    const file = write(fresh('buffer.txt'), 'on disk\nsecond\n');
    await openDirty(file, (doc, e) => e.insert(doc.uri, new vscode.Position(0, 0), 'UNSAVED '));
    const { log, done } = await turn([{ type: 'read', path: file }, { type: 'read', path: file, line: 2 }]);
    await done;
    assert.equal((await outcome(log, 0)).result.content, 'UNSAVED on disk\nsecond\n');
    assert.equal((await outcome(log, 1)).result.content, 'second\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'on disk\nsecond\n');
  });

  it('reads the disk, not a stale clean buffer, when a command rewrote the file', async () => {
    const file = write(fresh('rewritten.txt'), 'old content\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.getText(), 'old content\n');
    fs.writeFileSync(file, 'rewritten by a terminal command\n');
    const { log, done } = await turn([{ type: 'read', path: file }]);
    await done;
    assert.equal((await outcome(log, 0)).result.content, 'rewritten by a terminal command\n');
  });

  it('names what is wrong: missing file (-32002 with uri), directory, binary, not UTF-8', async () => {
    const missing = path.join(ws, 'fs-it', 'no-such-file.txt');
    const dir = path.dirname(write(fresh('d/inner.txt'), 'x'));
    const binary = write(fresh('image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const latin1 = write(fresh('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const { log, done } = await turn([missing, dir, binary, latin1].map(p => ({ type: 'read', path: p })));
    await done;
    const errors = await Promise.all([0, 1, 2, 3].map(i => outcome(log, i).then(o => o.error!)));
    assert.equal(errors[0].code, -32002);
    assert.equal(errors[0].message, `File not found: ${missing}`);
    assert.equal(errors[0].data.uri, pathToFileURL(missing).href);
    assert.equal(errors[1].message, `Path is a directory, not a file: ${dir}`);
    assert.equal(errors[2].message, `File is binary (it contains NUL bytes), not text: ${binary}`);
    assert.equal(errors[3].message, `File is not valid UTF-8 text: ${latin1}`);
    for (const e of errors.slice(1)) assert.equal(e.code, -32602);
  });

  // ------------------------------------------------------------------------------------ path policy

  it('outside the workspace: deny refuses reads and writes, allow serves them', async () => {
    const outside = write(path.join(tmpDir, `outside-${Date.now()}.txt`), 'secret\n');
    const { log, done } = await turn([{ type: 'read', path: outside }, { type: 'write', path: outside, content: 'pwned\n' }]);
    await done;
    const [read, wrote] = [await outcome(log, 0), await outcome(log, 1)];
    assert.match(read.error!.message, new RegExp(`^Access denied: ${outside} is outside the workspace`));
    assert.match(wrote.error!.message, /^Access denied: /);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'secret\n');

    await setting('fs.outsideWorkspace', 'allow');
    await sb.chat.stop();
    const second = await turn([{ type: 'read', path: outside }]);
    await second.done;
    assert.equal((await outcome(second.log, 0)).result.content, 'secret\n');
  });

  it('resolves symlinks and .. before deciding: a link inside pointing outside is outside', async () => {
    const outside = write(path.join(tmpDir, `target-${Date.now()}.txt`), 'outside target\n');
    const link = fresh('link-out.txt');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(outside, link);
    const inner = write(fresh('inner.txt'), 'inside target\n');
    const linkIn = fresh('link-in.txt');
    fs.symlinkSync(inner, linkIn);
    const dotdot = path.join(ws, 'src', '..', '..', path.basename(ws), '..', path.basename(outside));
    const { log, done } = await turn([
      { type: 'read', path: link }, { type: 'read', path: dotdot }, { type: 'read', path: linkIn },
      { type: 'write', path: link, content: 'through the link\n' },
    ]);
    await done;
    assert.match((await outcome(log, 0)).error!.message, /^Access denied: .*link-out\.txt is outside the workspace/);
    assert.match((await outcome(log, 1)).error!.message, /^Access denied: /, 'a path escaping with .. is outside');
    assert.equal((await outcome(log, 2)).result.content, 'inside target\n', 'a link to a file inside is served');
    assert.match((await outcome(log, 3)).error!.message, /^Access denied: /);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'outside target\n');
  });

  // ---------------------------------------------------------------------------------------- writes

  it('write: the agent waits while a diff shows current vs proposed (virtual, titled); Accept applies and saves', async () => {
    const file = write(fresh('review.ts'), 'const a = 1;\n');
    const { log, done } = await turn([{ type: 'write', path: file, content: 'const a = 2;\n' }, { type: 'text', text: 'after' }]);
    const review = await reviewFor(file);
    assert.equal(review.agentName, AGENT);
    const tab = await diffTabOf(review.id);
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'switchboard-diff');
    assert.equal(input.modified.scheme, 'switchboard-diff');
    assert.equal(await textOf(input.original), 'const a = 1;\n');
    assert.equal(await textOf(input.modified), 'const a = 2;\n');
    assert.ok(!input.modified.toString().includes('const'), 'no content in the URI');
    assert.match(tab.label, /review\.ts/);
    assert.match(tab.label, new RegExp(AGENT));
    // The agent is still waiting: no result yet, file untouched.
    await new Promise(r => setTimeout(r, 300));
    assert.equal(outcomes(log).length, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), 'const a = 1;\n');

    await vscode.commands.executeCommand('switchboard.acceptWrite');
    await done;
    assert.deepEqual((await outcome(log, 0)).result, {});
    assert.equal(fs.readFileSync(file, 'utf8'), 'const a = 2;\n');
    await waitFor('the diff closed', () => diffTabs().length === 0);
    const doc = vscode.workspace.textDocuments.find(d => d.uri.fsPath === file);
    assert.ok(!doc?.isDirty, 'nothing left unsaved');
  });

  it('write: a file not open in the editor is written to disk as accepted before the agent is answered (no save participants)', async () => {
    const file = write(fresh('closed.txt'), '\ufeffalpha\nbeta\n');
    let participants = 0;
    const sub = vscode.workspace.onWillSaveTextDocument(e => {
      if (e.document.uri.fsPath !== file) return;
      participants++;
      e.waitUntil(Promise.resolve([vscode.TextEdit.insert(new vscode.Position(0, 0), '// formatted\n')]));
    });
    try {
      const { log, done } = await turn([{ type: 'write', path: file, content: 'alpha\nBETA\n' }, { type: 'read', path: file }]);
      await reviewFor(file);
      await vscode.commands.executeCommand('switchboard.acceptWrite');
      await done;
      assert.deepEqual((await outcome(log, 0)).result, {});
      // Exactly what was accepted, the file's BOM kept; what the agent reads next is what it wrote.
      assert.deepEqual(fs.readFileSync(file), Buffer.from('\ufeffalpha\nBETA\n'));
      assert.equal((await outcome(log, 1)).result.content, 'alpha\nBETA\n');
      assert.equal(participants, 0, 'no save (and so no format on save) of a file the user does not have open');
      assert.ok(!vscode.workspace.textDocuments.some(d => d.uri.fsPath === file), 'not opened in VS Code');
    } finally {
      sub.dispose();
    }
  });

  it('write: an open file answers the agent once the edit is in the buffer; the save follows, and a command the agent runs next sees it', async () => {
    const file = write(fresh('slow-save.txt'), 'one\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    // A slow save participant (a formatter, a linter fixing on save): 1.5 s.
    const will = vscode.workspace.onWillSaveTextDocument(e => {
      if (e.document.uri.fsPath === file) e.waitUntil(new Promise<void>(r => setTimeout(r, 1500)));
    });
    let answeredBeforeSaved: boolean | undefined;
    let log = '';
    const did = vscode.workspace.onDidSaveTextDocument(d => {
      if (d.uri.fsPath === file && answeredBeforeSaved === undefined) answeredBeforeSaved = outcomes(log).some(o => o.step === 0);
    });
    try {
      const t = await turn([{ type: 'write', path: file, content: 'two\n' }, { type: 'terminal', command: `cat '${file}'`, quiet: true }]);
      log = t.log;
      await reviewFor(file);
      await vscode.commands.executeCommand('switchboard.acceptWrite');
      await t.done;
      assert.deepEqual((await outcome(log, 0)).result, {});
      assert.equal(doc.getText(), 'two\n');
      await waitFor('the save', () => answeredBeforeSaved !== undefined);
      assert.equal(answeredBeforeSaved, true, 'the agent had its answer before the (slow) save ended');
      assert.equal((await outcome(log, 1)).result.output, 'two\n', 'the command ran once the edit was on disk');
      assert.ok(!doc.isDirty);
    } finally {
      will.dispose();
      did.dispose();
    }
  });

  it('write: Accept is one undo step in the editor', async () => {
    const file = write(fresh('undo.txt'), numbered(30));
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const next = numbered(30).replace('line 3\n', 'three\n').replace('line 25\n', 'twenty-five\n');
    const { done } = await turn([{ type: 'write', path: file, content: next }]);
    await reviewFor(file);
    await vscode.commands.executeCommand('switchboard.acceptWrite');
    await done;
    assert.equal(doc.getText(), next);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), numbered(30), 'one undo restores both changed places');
  });

  it('write: Reject leaves the file untouched and tells the agent exactly that', async () => {
    const file = write(fresh('keep.txt'), 'keep me\n');
    const { log, done } = await turn([{ type: 'write', path: file, content: 'replaced\n' }]);
    const review = await reviewFor(file);
    await diffTabOf(review.id);
    await vscode.commands.executeCommand('switchboard.rejectWrite');
    await done;
    const o = await outcome(log, 0);
    assert.equal(o.error!.message, `User rejected the edit to ${file}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'keep me\n');
    // The answer does not wait for the diff editor; it closes right after.
    await waitFor('the diff to close', () => diffTabs().length === 0);
  });

  it('write: closing the diff without a decision is a rejection', async () => {
    const file = write(fresh('closed.txt'), 'original\n');
    const { log, done } = await turn([{ type: 'write', path: file, content: 'changed\n' }]);
    const review = await reviewFor(file);
    const tab = await diffTabOf(review.id);
    await vscode.window.tabGroups.close(tab);
    await done;
    assert.equal((await outcome(log, 0)).error!.message, `User rejected the edit to ${file}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'original\n');
    assert.equal(sb.files.reviews.length, 0);
  });

  it('write: creates a missing file and its missing parent folders; the left side is empty', async () => {
    const file = path.join(fresh('new'), 'deep', 'er', 'created.md');
    const { log, done } = await turn([{ type: 'write', path: file, content: '# Created\r\nby the agent\r\n' }]);
    const review = await reviewFor(file);
    assert.ok(review.isNewFile);
    const input = (await diffTabOf(review.id)).input as vscode.TabInputTextDiff;
    assert.equal(await textOf(input.original), '');
    assert.equal(await textOf(input.modified), '# Created\r\nby the agent\r\n');
    review.accept();
    await done;
    assert.deepEqual((await outcome(log, 0)).result, {});
    assert.equal(fs.readFileSync(file, 'utf8'), '# Created\r\nby the agent\r\n');
  });

  it('write: the left side is the buffer with its unsaved edits', async () => {
    const file = write(fresh('left.txt'), 'a\nb\n');
    await openDirty(file, (doc, e) => e.insert(doc.uri, new vscode.Position(2, 0), 'typed\n'));
    const { done } = await turn([{ type: 'write', path: file, content: 'A\nB\n' }]);
    const review = await reviewFor(file);
    const input = (await diffTabOf(review.id)).input as vscode.TabInputTextDiff;
    assert.equal(await textOf(input.original), 'a\nb\ntyped\n');
    review.reject();
    await done;
  });

  it('write: the user edits line 1 while the agent rewrites line 10 → both changes are in the file', async () => {
    const file = write(fresh('merge.txt'), numbered(20));
    const agentVersion = numbered(20).replace('line 10\n', 'line 10, rewritten by the agent\n');
    const sendWrite = await readThenWrite(file, agentVersion);
    const doc = await openDirty(file, (d, e) => e.replace(d.uri, d.lineAt(0).range, 'line 1, edited by the user'));
    const written = sendWrite();
    const review = await reviewFor(file);
    assert.equal(review.conflicts, 0);
    const input = (await diffTabOf(review.id)).input as vscode.TabInputTextDiff;
    const both = numbered(20).replace('line 1\n', 'line 1, edited by the user\n').replace('line 10\n', 'line 10, rewritten by the agent\n');
    assert.equal(await textOf(input.modified), both, 'the proposal keeps the user edit');
    await vscode.commands.executeCommand('switchboard.acceptWrite', review.id);
    await written;
    assert.equal(doc.getText(), both);
    await waitFor('the save after the answer', () => fs.readFileSync(file, 'utf8') === both);
  });

  it('write: overlapping edits are shown as a conflict, and the user decides', async () => {
    const file = write(fresh('conflict.txt'), numbered(12));
    const agentVersion = numbered(12).replace('line 5\n', 'agent 5\n');
    const sendWrite = await readThenWrite(file, agentVersion);
    await openDirty(file, (d, e) => {
      e.replace(d.uri, d.lineAt(4).range, 'user 5');
      e.replace(d.uri, d.lineAt(0).range, 'user 1');
    });
    const written = sendWrite();
    const review = await reviewFor(file);
    // The review follows the buffer: under load the write may come before the user's typing.
    await waitFor('the review to show the overlap as one conflict', () => review.conflicts === 1);
    const tab = await diffTabOf(review.id);
    await waitFor('the diff title to name the conflict', () => /conflict/.test(tab.label) || undefined);
    const input = tab.input as vscode.TabInputTextDiff;
    assert.match(await textOf(input.original), /user 5/);
    assert.match(await textOf(input.modified), /^user 1\n[^]*<<<<<<< [^]*user 5\n=======\nagent 5\n>>>>>>> /);
    // The overlap is the user's to settle: Accept alone decides nothing.
    assert.equal(review.accept(), false);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(fs.readFileSync(file, 'utf8'), numbered(12));
    await vscode.commands.executeCommand('switchboard.resolveConflict', review.id, 0, 'theirs');
    assert.ok(review.accept());
    await written;
    const decided = numbered(12).replace('line 1\n', 'user 1\n').replace('line 5\n', 'agent 5\n');
    await waitFor('the save after the answer', () => fs.readFileSync(file, 'utf8') === decided);
  });

  it('reviewWrites=never applies at once, listed with undo and open diff; saveAfterWrite=false leaves it unsaved', async () => {
    await setting('fs.reviewWrites', 'never');
    const file = write(fresh('never.txt'), 'before\n');
    const applied: string[] = [];
    const sub = sb.files.onDidApplyWrite(w => applied.push(w.path));
    try {
      const { log, done } = await turn([{ type: 'write', path: file, content: 'after\n' }]);
      await done;
      assert.deepEqual((await outcome(log, 0)).result, {});
      assert.equal(fs.readFileSync(file, 'utf8'), 'after\n');
      assert.deepEqual(applied, [file]);
      const w = sb.files.appliedWrites(sb.chat.sessionId).find(x => x.path === file)!;
      assert.deepEqual([w.before, w.after, w.reviewed, w.agentName], ['before\n', 'after\n', false, AGENT]);
      await w.openDiff();
      const input = (await waitFor('the applied diff', () => diffTabs()[0])).input as vscode.TabInputTextDiff;
      assert.equal(await textOf(input.original), 'before\n');
      assert.equal(await textOf(input.modified), 'after\n');
      assert.ok(await w.undo());
      assert.equal(fs.readFileSync(file, 'utf8'), 'before\n');
    } finally {
      sub.dispose();
    }

    await setting('fs.saveAfterWrite', false);
    await sb.chat.stop();
    const unsaved = write(fresh('unsaved.txt'), 'disk\n');
    const second = await turn([{ type: 'write', path: unsaved, content: 'buffer only\n' }]);
    await second.done;
    const doc = vscode.workspace.textDocuments.find(d => d.uri.fsPath === unsaved)!;
    assert.equal(doc.getText(), 'buffer only\n');
    assert.ok(doc.isDirty);
    assert.equal(fs.readFileSync(unsaved, 'utf8'), 'disk\n');
  });

  it('"Accept all for this session" applies the rest of the session\'s writes without review', async () => {
    const a = write(fresh('all-a.txt'), 'a\n');
    const b = write(fresh('all-b.txt'), 'b\n');
    const { log, done } = await turn([
      { type: 'write', path: a, content: 'A\n' },
      { type: 'write', path: b, content: 'B\n' },
    ]);
    await reviewFor(a);
    await vscode.commands.executeCommand('switchboard.acceptAllWrites');
    await done;
    assert.deepEqual([(await outcome(log, 0)).result, (await outcome(log, 1)).result], [{}, {}]);
    assert.equal(fs.readFileSync(a, 'utf8'), 'A\n');
    assert.equal(fs.readFileSync(b, 'utf8'), 'B\n');
    const listed = sb.files.appliedWrites(sb.chat.sessionId).filter(w => w.path === a || w.path === b);
    assert.deepEqual(listed.map(w => w.reviewed), [true, false]);
  });

  it('an edit the user already allowed through session/request_permission with the same diff is not asked twice', async () => {
    const file = write(fresh('permitted.txt'), 'old\n');
    const { log, done } = await turn([
      { type: 'permission', toolCall: { toolCallId: 'edit-1', title: 'Edit permitted.txt', kind: 'edit',
        content: [{ type: 'diff', path: file, oldText: 'old\n', newText: 'new\n' }] } },
      { type: 'write', path: file, content: 'new\n' },
      { type: 'write', path: file, content: 'newer\n' },
    ]);
    const card = await waitFor('the permission card', () => sb.chat.items.find(i => i.kind === 'permission'));
    sb.chat.answerPermission(card.id, 'allow');
    assert.deepEqual((await outcome(log, 1)).result, {}, dump(sb.chat.items));
    assert.equal(fs.readFileSync(file, 'utf8'), 'new\n');
    // A different content was not allowed: that one is reviewed.
    const review = await reviewFor(file);
    review.reject();
    await done;
    assert.equal((await outcome(log, 2)).error!.message, `User rejected the edit to ${file}`);
  });
});
