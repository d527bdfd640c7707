// Checkpoints (issue 21): the files before each turn, restored from the user's message. A scripted
// agent changes files every way an agent can (a reviewed fs write, its own writes on disk, a binary
// file, `rm` and `mv` in a terminal); the restore brings back the exact bytes and the open editors,
// keeps unsaved edits, is a no-op the second time, and can be undone exactly.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import * as iconv from 'iconv-lite';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { api, dump, useScriptedAgents, waitFor } from './helpers';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const setting = (key: string, value: unknown) => vscode.workspace.getConfiguration('switchboard').update(key, value, vscode.ConfigurationTarget.Global);

/** Every file under `dir` with its bytes (base64), for exact comparisons. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isFile()) out[f.split(path.sep).join('/')] = fs.readFileSync(p).toString('base64');
    else out[f.split(path.sep).join('/') + '/'] = '';
  }
  return out;
}

/** The refs that keep restores' bytes in the shadow repositories. */
function restorePins(): string[] {
  const dir = (sb_!.checkpoints as unknown as { dir: string }).dir;
  return fs.readdirSync(dir).filter(f => f.endsWith('.git')).flatMap(g =>
    execFileSync('git', [`--git-dir=${path.join(dir, g)}`, 'for-each-ref', '--format=%(refname)', 'refs/checkpoints/restore/'], { encoding: 'utf8' }).split('\n').filter(Boolean));
}
let sb_: SwitchboardApi | undefined;

describe('Checkpoints', () => {
  let sb: SwitchboardApi;
  let confirm: SwitchboardApi['checkpoints']['ui']['confirm'];
  const asked: string[] = [];
  before(async () => {
    sb = sb_ = await api();
    confirm = sb.checkpoints.ui.confirm;
    sb.checkpoints.ui.confirm = async (message, detail) => { asked.push(`${message}\n${detail}`); return true; };
    await setting('fs.reviewWrites', 'never');
    await setting('terminal.confirmCommands', false);
  });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); asked.length = 0; });
  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    sb.checkpoints.ui.confirm = confirm;
    await sb.chat.stop();
    await setting('fs.reviewWrites', undefined);
    await setting('terminal.confirmCommands', undefined);
  });

  const restore = (tabId: string, itemId: string) => vscode.commands.executeCommand<boolean>('switchboard.restoreCheckpoint', { tab: tabId, itemId });
  const userItem = (items: SwitchboardApi['chat']['items'], text: string) => items.find(i => i.kind === 'user' && i.text === text)!;

  it('restores every file the turn changed, however it changed, with open editors; a second restore changes nothing; Undo Restore is exact', async () => {
    const dir = path.join(root(), 'cp-all');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const bin = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x80, 0]);
    const files: Record<string, string | Buffer> = {
      'edit.txt': 'one\ntwo\n', 'disk.txt': 'a\nb\nc\nd\ne\n', 'gone.txt': 'remove me\r\nwith CRLF\r\n', 'moved.txt': 'move me\n', 'image.bin': bin, 'same.txt': 'untouched\n',
    };
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
    const before = tree(dir);
    // Open in editors: one the agent writes through the client, one it rewrites on disk.
    const editDoc = await vscode.workspace.openTextDocument(path.join(dir, 'edit.txt'));
    await vscode.window.showTextDocument(editDoc, { preview: false });
    const diskDoc = await vscode.workspace.openTextDocument(path.join(dir, 'disk.txt'));
    await vscode.window.showTextDocument(diskDoc, { preview: false });

    const agents = await useScriptedAgents({ Scripted: { turns: [{ steps: [
      { type: 'write', path: path.join(dir, 'edit.txt'), content: 'one\nTWO BY THE AGENT\n' },
      { type: 'diskWrite', path: path.join(dir, 'disk.txt'), content: 'a\nb\nc\nd\nE BY THE AGENT\n' },
      { type: 'diskWrite', path: path.join(dir, 'new', 'deep', 'created.txt'), content: 'created\n' },
      { type: 'diskWrite', path: path.join(dir, 'image.bin'), content: Buffer.from([9, 9, 0, 9]).toString('base64'), base64: true },
      { type: 'terminal', command: 'sh', args: ['-c', 'rm gone.txt && mv moved.txt moved-away.txt'], cwd: dir },
    ] }] } });
    assert.equal(await sb.chat.sendPrompt('change everything'), 'sent', dump(sb.chat.items));
    const tab = sb.chat.active;
    const after = tree(dir);
    assert.ok(after['moved-away.txt'] && !after['gone.txt'] && after['new/deep/created.txt'], `the agent changed the files: ${JSON.stringify(Object.keys(after))}; ${dump(tab.items)}; ${fs.readFileSync(agents.Scripted.log, 'utf8').slice(-800)}`);
    await waitFor('the open editors to show the agent\'s changes', () => editDoc.getText().includes('TWO BY THE AGENT') && diskDoc.getText().includes('E BY THE AGENT'));
    // The user types in one of them and does not save.
    const editor = await vscode.window.showTextDocument(diskDoc, { preview: false });
    await editor.edit(b => b.insert(new vscode.Position(0, 0), 'my unsaved line\n'));
    assert.ok(diskDoc.isDirty);

    assert.equal(await restore(tab.id, userItem(tab.items, 'change everything').id), true, asked.join('\n'));
    assert.match(asked[0], /^Restore 7 files to before this turn\?/);
    assert.match(asked[0], /Checkpoints use [\d.]+ (KB|MB) of storage/);
    assert.deepEqual(tree(dir), before, 'every file has its bytes from before the turn; what the turn created is gone, folders too');
    await waitFor(() => `the open editor to show the restored text: ${JSON.stringify(editDoc.getText())}`, () => editDoc.getText() === 'one\ntwo\n' && !editDoc.isDirty);
    // The unsaved edit stays, merged onto the restored text, unsaved.
    await waitFor(() => `the unsaved edit kept on the restored text: ${JSON.stringify(diskDoc.getText())}`, () => diskDoc.getText() === 'my unsaved line\na\nb\nc\nd\ne\n');
    assert.ok(diskDoc.isDirty, 'the user\'s edit is still unsaved');
    const labels = () => vscode.window.tabGroups.all.flatMap(g => g.tabs).map(t => t.label);
    await waitFor(() => `the changes shown in a multi-file diff: ${JSON.stringify(labels())}`, () => labels().some(l => l.startsWith('Restore files to before this turn')));

    // Restoring again: nothing differs any more.
    assert.equal(await restore(tab.id, userItem(tab.items, 'change everything').id), false);
    assert.deepEqual(tree(dir), before);

    // Undo Restore: the files as the agent left them, exactly.
    assert.equal(await vscode.commands.executeCommand<boolean>('switchboard.undoRestore'), true);
    assert.deepEqual(tree(dir), after);
    await waitFor('the open editor to show the agent\'s text again', () => editDoc.getText() === 'one\nTWO BY THE AGENT\n');
    // And restoring once more is as exact as the first time.
    assert.equal(await restore(tab.id, userItem(tab.items, 'change everything').id), true);
    assert.deepEqual(tree(dir), before);
  });

  it('a windows-1252 file open in that encoding with an unsaved edit: the restore merges the tab in its encoding, no made-up conflict', async () => {
    const dir = path.join(root(), 'cp-cp1252');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const file = path.join(dir, 'notes.txt');
    const before = 'Café\nligne 2\nnaïve\nfin\n';
    const agents = before.replace('ligne 2', 'ligne deux à côté');
    const user = (t: string) => t.replace('fin', 'fin — à moi');
    fs.writeFileSync(file, iconv.encode(before, 'windows1252'));
    const open = vscode.workspace.openTextDocument as unknown as (uri: vscode.Uri, options: { encoding: string }) => Thenable<vscode.TextDocument>;
    const doc = await open(vscode.Uri.file(file), { encoding: 'windows1252' });
    assert.equal(doc.getText(), before);
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(await editor.edit(e => e.replace(new vscode.Range(3, 0, 3, 3), 'fin — à moi')));
    await useScriptedAgents({ Scripted: { turns: [{ steps: [
      { type: 'diskWrite', path: file, content: iconv.encode(agents, 'windows1252').toString('base64'), base64: true },
    ] }] } });
    assert.equal(await sb.chat.sendPrompt('accents'), 'sent', dump(sb.chat.items));
    const tab = sb.chat.active;
    await waitFor(() => `the tab to hold the agent's line and the user's (tab: ${JSON.stringify(doc.getText())})`, () => doc.getText() === user(agents));

    assert.equal(await restore(tab.id, userItem(tab.items, 'accents').id), true, asked.join('\n'));
    assert.ok(fs.readFileSync(file).equals(iconv.encode(before, 'windows1252')), 'the bytes from before the turn');
    await waitFor(() => `the tab to hold the user's line on the restored text (tab: ${JSON.stringify(doc.getText())})`, () => doc.getText() === user(before));
    assert.ok(doc.isDirty, 'still unsaved');
  });

  it('a file that grew past the size cap is overwritten by a restore only after its bytes are kept: Undo Restore gives them back', async () => {
    const dir = path.join(root(), 'cp-grown');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'before the turn\n');
    // About 1 KB: the agent's version is left out of the checkpoints taken after the turn.
    await setting('checkpoints.maxFileSizeMB', 0.001);
    try {
      const agentBytes = Buffer.concat([Buffer.from('the agent\'s notes\r\n\u0000\u00ff', 'latin1'), Buffer.alloc(4096, 0x41)]);
      await useScriptedAgents({ Scripted: { turns: [{ steps: [
        { type: 'diskWrite', path: notes, content: agentBytes.toString('base64'), base64: true },
      ] }] } });
      assert.equal(await sb.chat.sendPrompt('grow my notes'), 'sent', dump(sb.chat.items));
      const tab = sb.chat.active;
      assert.deepEqual(fs.readFileSync(notes), agentBytes);

      const pinsBefore = restorePins();
      assert.equal(await restore(tab.id, userItem(tab.items, 'grow my notes').id), true, asked.join('\n'));
      assert.equal(fs.readFileSync(notes, 'utf8'), 'before the turn\n');

      assert.equal(await vscode.commands.executeCommand<boolean>('switchboard.undoRestore'), true, asked.join('\n'));
      assert.ok(fs.existsSync(notes), 'Undo Restore did not delete the file');
      assert.deepEqual(fs.readFileSync(notes), agentBytes, 'Undo Restore gave back the exact bytes the restore overwrote');
      // Undone, the restore's kept bytes are no longer pinned: a prune frees them.
      assert.deepEqual(restorePins(), pinsBefore);
    } finally {
      await setting('checkpoints.maxFileSizeMB', undefined);
    }
  });

  it('a file over the size cap that appeared before a prompt is left out of its checkpoint unread: git stores nothing of it', async () => {
    const dir = path.join(root(), 'cp-huge');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const storage = (sb.checkpoints as unknown as { dir: string }).dir;
    /** The largest object any shadow repository holds (its size as a file, before compression). */
    const largestStored = (): number => Math.max(0, ...fs.readdirSync(storage).filter(f => f.endsWith('.git')).flatMap(g =>
      execFileSync('git', [`--git-dir=${path.join(storage, g)}`, 'cat-file', '--batch-all-objects', '--batch-check=%(objectsize)'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n').filter(Boolean).map(Number)));
    await useScriptedAgents({ Scripted: { turns: [{ steps: [{ type: 'text', text: 'ok' }] }] } });
    assert.equal(await sb.chat.sendPrompt('first'), 'sent', dump(sb.chat.items));
    // The first turn's after-checkpoint has run (the file appears between two checkpoints, not during one).
    await Promise.all([...(sb.checkpoints as unknown as { pending: Map<string, Promise<void>> }).pending.values()]);
    // 1 GiB of zeros (sparse: nothing on disk): git would read all of it and store it (~1 MiB deflated).
    const huge = path.join(dir, 'huge.bin');
    // The workspace's file watcher (a glob, as the checkpoints' own) reports it before the prompt.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, true);
    const reported = new Promise<void>(resolve => watcher.onDidCreate(uri => { if (uri.fsPath === huge) resolve(); }));
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 1024 ** 3);
    try {
      await reported;
      assert.equal(await sb.chat.sendPrompt('second'), 'sent', dump(sb.chat.items));
      await Promise.all([...(sb.checkpoints as unknown as { pending: Map<string, Promise<void>> }).pending.values()]);
      const largest = largestStored();
      assert.ok(largest < 1024 ** 3, `the checkpoints stored an object of ${Math.round(largest / 1024 ** 2)} MiB`);
    } finally {
      watcher.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never writes through a folder the agent replaced by a link to outside the workspace', async () => {
    const dir = path.join(root(), 'cp-link');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'a.txt'), 'a before\n');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-outside-'));
    try {
      const agents = await useScriptedAgents({
        'Scripted A': { turns: [{ steps: [{ type: 'diskWrite', path: path.join(dir, 'src', 'a.txt'), content: 'A wrote\n' }] }] },
        'Scripted B': { turns: [{ steps: [{ type: 'terminal', command: 'sh', args: ['-c', `rm -rf src && ln -s '${outside}' src`], cwd: dir }] }] },
      });
      assert.equal(await sb.chat.sendPrompt('turn of A'), 'sent', dump(sb.chat.items));
      const tabA = sb.chat.active;
      await sb.chat.newConversation();
      assert.equal(await sb.chat.start(agents['Scripted B'].spec), true, dump(sb.chat.items));
      assert.equal(await sb.chat.sendPrompt('turn of B'), 'sent', dump(sb.chat.items));
      assert.ok(fs.lstatSync(path.join(dir, 'src')).isSymbolicLink(), dump(sb.chat.items));

      // A's restore is scoped to src/a.txt, whose folder is now a link out of the workspace.
      await restore(tabA.id, userItem(tabA.items, 'turn of A').id);
      assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written outside the workspace');
    } finally {
      fs.rmSync(path.join(dir, 'src'), { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('with two conversations, restoring one\'s turn touches only the files it changed, and names the other that changed them too', async () => {
    const dir = path.join(root(), 'cp-two');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const file = (name: string) => path.join(dir, name);
    fs.writeFileSync(file('shared.txt'), 'shared before\n');
    fs.writeFileSync(file('b.txt'), 'b before\n');
    const agents = await useScriptedAgents({
      'Scripted A': { turns: [{ steps: [{ type: 'diskWrite', path: file('a.txt'), content: 'A made this\n' }, { type: 'diskWrite', path: file('shared.txt'), content: 'A wrote\n' }] }] },
      'Scripted B': { turns: [{ steps: [{ type: 'diskWrite', path: file('b.txt'), content: 'B wrote\n' }, { type: 'diskWrite', path: file('shared.txt'), content: 'B wrote over A\n' }] }] },
    });
    assert.equal(await sb.chat.sendPrompt('turn of A'), 'sent', dump(sb.chat.items));
    const tabA = sb.chat.active;
    await sb.chat.newConversation();
    assert.equal(await sb.chat.start(agents['Scripted B'].spec), true, dump(sb.chat.items));
    assert.equal(await sb.chat.sendPrompt('turn of B'), 'sent', dump(sb.chat.items));
    assert.notEqual(sb.chat.active.id, tabA.id);
    assert.equal(fs.readFileSync(file('b.txt'), 'utf8'), 'B wrote\n');

    assert.equal(await restore(tabA.id, userItem(tabA.items, 'turn of A').id), true, asked.join('\n'));
    assert.match(asked[0], /^Restore 2 files to before this turn\?/);
    assert.match(asked[0], /shared\.txt \(also changed by Scripted B\)/);
    assert.ok(!fs.existsSync(file('a.txt')), 'the file A created is gone');
    assert.equal(fs.readFileSync(file('shared.txt'), 'utf8'), 'shared before\n');
    assert.equal(fs.readFileSync(file('b.txt'), 'utf8'), 'B wrote\n', "B's own change stays");

    // Closed, A's checkpoints are kept until pruned: Show Checkpoint Storage says how much, Prune Now drops them.
    const turns = (m: string) => Number(/\((\d+) turns/.exec(m)?.[1]);
    const shown: string[] = [];
    const inform = sb.checkpoints.ui.inform;
    sb.checkpoints.ui.inform = async (message, ...actions) => { shown.push(message); return actions[0]; };
    try {
      await sb.chat.closeTab(tabA.id);
      await vscode.commands.executeCommand('switchboard.checkpointStorage');
      await vscode.commands.executeCommand('switchboard.checkpointStorage');
    } finally { sb.checkpoints.ui.inform = inform; }
    assert.match(shown[0], /^Checkpoints use [\d.]+ (KB|MB) of storage/);
    assert.ok(turns(shown[1]) < turns(shown[0]), shown.join('\n'));
  });
});
