// Run in Parallel and Fork Conversation (issue 19, points 4 and 5), with scripted agents, in a
// temporary git repository: each run works in its own git worktree made from the current state
// (uncommitted and untracked files included), outside the user's tree; Apply brings one run's
// changes in as reviewable changes (Keep / Undo) and removes every worktree; Discard removes them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { Item } from '../../src/common/transcript';
import { ParallelRuns } from '../../src/session/parallel/parallelRuns';
import { activeDiffTab, agentEvents, api, dump, freshReviewPerTest, gate, lastOf, quietLogger, tmpDir, useScriptedAgents, waitFor } from './helpers';

const A = 'Scripted A';
const B = 'Scripted B';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** A git repository with `committed` in its first commit (none: no commit at all). */
function repo(committed: Record<string, string> | undefined): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(tmpDir, 'repo-')));
  git(dir, 'init', '-q');
  for (const [rel, text] of Object.entries(committed ?? {})) { fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true }); fs.writeFileSync(path.join(dir, rel), text); }
  if (committed) { git(dir, 'add', '-A'); git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first'); }
  return dir;
}

const worktreeCount = (dir: string) => git(dir, 'worktree', 'list', '--porcelain').split('\n').filter(l => l.startsWith('worktree ')).length;
const answer = (items: readonly Item[]) => items.filter((i): i is Extract<Item, { kind: 'agent' }> => i.kind === 'agent').map(i => i.text).join('');

describe('Run in Parallel', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  freshReviewPerTest(() => sb);
  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /**
   * Two scripted agents: A reads the user's untracked file and edits a.txt over fs/*; B writes b.txt
   * itself (in its process), after asking permission when `ask`.
   */
  const twoAgents = (ask = false, outside?: string) => useScriptedAgents({
    [A]: { turns: [{ steps: [
      { type: 'read', path: '{{cwd}}/untracked.txt' },
      ...(outside ? [{ type: 'read', path: outside }] : []),
      { type: 'write', path: '{{cwd}}/a.txt', content: 'one\ntwo\nfrom A\n' },
      { type: 'text', text: 'A done.' },
    ] }] },
    [B]: { turns: [{ steps: [
      { type: 'claudeWrite', path: '{{cwd}}/b.txt', content: 'from B\n', permission: ask },
      { type: 'text', text: 'B done.' },
    ] }] },
  });

  it('two agents edit in their own worktrees of the current state; Apply brings one run in as reviewable changes and removes the worktrees', async () => {
    const dir = repo({ 'a.txt': 'one\n' });
    // The user's uncommitted change and untracked file: each run starts from them.
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
    fs.writeFileSync(path.join(dir, 'untracked.txt'), 'not committed\n');
    const agents = await twoAgents(true, path.join(dir, 'a.txt'));
    const id = sb.parallel.start('Improve a.txt', [{ agent: agents[A].spec }, { agent: agents[B].spec }], dir);
    // B asks first: its run waits for the user, who answers in its column.
    const question = await waitFor('B asks', () => sb.parallel.question(id, 'run2'));
    assert.equal(sb.parallel.state(id)?.runs[1].status, 'waiting');
    assert.deepEqual(question.options.map(o => o.optionId).sort(), ['allow', 'allow_always', 'reject']);
    // The status bar counts the waiting run with the conversations that wait.
    await waitFor(() => `the status bar: ${sb.waiting.text}`, () => sb.waiting.text === `$(bell-dot) ${B} is waiting for you`);
    sb.parallel.answer(id, 'run2', question.itemId, 'allow');
    await waitFor(() => `the status bar hides: ${sb.waiting.text}`, () => sb.waiting.text === undefined);
    const state = (await sb.parallel.finished(id))!;
    assert.equal(state.phase, 'finished', JSON.stringify(state));
    assert.deepEqual(state.runs.map(r => [r.label, r.status]), [[A, 'done'], [B, 'done']]);
    assert.deepEqual(state.runs[0].files, [{ path: 'a.txt', change: 'modified', added: 1, removed: 0 }]);
    assert.deepEqual(state.runs[1].files, [{ path: 'b.txt', change: 'added', added: 1, removed: 0 }]);
    assert.match(answer(sb.parallel.session(id, 'run1')!.items), /read: "not committed\\n"/, 'A read the untracked file in its worktree');
    assert.match(answer(sb.parallel.session(id, 'run1')!.items), /read error -32001: Access denied: .*a\.txt is outside this parallel run's worktree/, 'a path outside its worktree (the user\'s file) is refused');

    // Each agent's cwd and session root is its own worktree, outside the user's tree.
    const trees = sb.parallel.worktrees(id);
    assert.equal(trees.length, 2);
    for (const [i, name] of [A, B].entries()) {
      const cwd = agentEvents(agents[name].log).find(e => e.event === 'session/new')?.params as { cwd: string };
      assert.equal(fs.realpathSync(cwd.cwd), fs.realpathSync(trees[i]));
      assert.ok(!path.relative(dir, trees[i]).match(/^[^.]/), `${trees[i]} is outside ${dir}`);
    }
    assert.equal(worktreeCount(dir), 3);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\ntwo\n', 'the user\'s tree is untouched while the runs work');
    // A file's diff: the state the runs started from (the uncommitted text) ↔ the run's file.
    await sb.parallel.openDiff(id, 'run1', 'a.txt');
    const diff = await activeDiffTab();
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), 'one\ntwo\n');
    assert.equal(diff.modified.fsPath, path.join(trees[0], 'a.txt'));
    assert.ok(!fs.existsSync(path.join(dir, 'b.txt')));

    await sb.parallel.apply(id, 'run1');
    assert.equal(sb.parallel.state(id)?.phase, 'applied');
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\ntwo\nfrom A\n');
    assert.ok(!fs.existsSync(path.join(dir, 'b.txt')), 'the other run is not applied');
    // Reviewable like any agent change: a turn in Agent Changes, with its hunk; Undo brings back the user's text.
    const turn = await waitFor('the applied run in Agent Changes', () => sb.review.views().find(t => t.files.some(f => f.path === path.join(dir, 'a.txt'))));
    assert.match(turn.title, /Scripted A/);
    assert.deepEqual(turn.files.map(f => [f.kind, f.added, f.removed, f.hunks.length]), [['modified', 1, 0, 1]]);
    await sb.review.undo(turn.turnId);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\ntwo\n');

    // No worktree left, and the user's index, refs and stash untouched.
    for (const t of trees) assert.ok(!fs.existsSync(t), `${t} removed`);
    assert.equal(worktreeCount(dir), 1);
    assert.equal(git(dir, 'stash', 'list'), '');
    assert.equal(git(dir, 'status', '--porcelain'), ' M a.txt\n?? untracked.txt\n');
    assert.equal(git(dir, 'rev-list', '--all', '--count').trim(), '1', 'no commit reachable from a ref of the user\'s');
  });

  it('Apply into files open with unsaved edits: the run\'s change joins them in the tab (still unsaved); the same lines changed by both: not applied, named, tab and disk as they were', async () => {
    const dir = repo({ 'a.txt': 'one\ntwo\nthree\n', 'c.txt': 'x\ny\nz\n' });
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [
      { type: 'write', path: '{{cwd}}/a.txt', content: 'one\ntwo\nthree\nfrom A\n' },
      { type: 'write', path: '{{cwd}}/c.txt', content: 'X BY A\ny\nz\n' },
    ] }] } });
    const id = sb.parallel.start('Improve', [{ agent: agents[A].spec }], dir);
    assert.equal((await sb.parallel.finished(id))?.phase, 'finished');
    // The user types in both files and does not save.
    const docA = await vscode.workspace.openTextDocument(path.join(dir, 'a.txt'));
    await (await vscode.window.showTextDocument(docA, { preview: false })).edit(b => b.replace(new vscode.Range(0, 0, 0, 3), 'ONE MINE'));
    const docC = await vscode.workspace.openTextDocument(path.join(dir, 'c.txt'));
    await (await vscode.window.showTextDocument(docC, { preview: false })).edit(b => b.replace(new vscode.Range(0, 0, 0, 1), 'x mine'));
    assert.ok(docA.isDirty && docC.isDirty);

    await sb.parallel.apply(id, 'run1');
    const state = sb.parallel.state(id)!;
    assert.equal(state.phase, 'applied', JSON.stringify(state));
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\ntwo\nthree\nfrom A\n');
    await waitFor(() => `the tab to hold both: ${JSON.stringify(docA.getText())}`, () => docA.getText() === 'ONE MINE\ntwo\nthree\nfrom A\n');
    assert.ok(docA.isDirty, 'the user\'s edit is still unsaved');
    assert.ok(await docA.save(), 'saving is no conflict with the disk');
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'ONE MINE\ntwo\nthree\nfrom A\n');
    // The run's first line against the user's unsaved first line: left alone, and named.
    assert.match(state.message ?? '', /Not applied, because you changed the same lines since the run started: c\.txt/);
    assert.equal(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8'), 'x\ny\nz\n');
    assert.equal(docC.getText(), 'x mine\ny\nz\n');
  });

  it('Apply never follows a link: a link the run made, or a folder of the user\'s now a link out of the repository, is not applied and is named; a file outside the workspace folder is named', async () => {
    const dir = repo({ 'pkg/a.txt': 'one\n', 'sub/keep.txt': 'k\n' });
    const secret = path.join(tmpDir, `secret-${Date.now()}.txt`);
    fs.writeFileSync(secret, 'SECRET KEY\n');
    const elsewhere = fs.mkdtempSync(path.join(tmpDir, 'elsewhere-'));
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [
      { type: 'write', path: '{{cwd}}/a.txt', content: 'one\nfrom A\n' },
      { type: 'diskSymlink', path: '{{cwd}}/s', target: secret },
      { type: 'diskWrite', path: '{{cwd}}/../sub/new.txt', content: 'new\n' },
      { type: 'diskWrite', path: '{{cwd}}/../top.txt', content: 'top\n' },
    ] }] } });
    const id = sb.parallel.start('Improve', [{ agent: agents[A].spec }], path.join(dir, 'pkg'));
    assert.equal((await sb.parallel.finished(id))?.phase, 'finished');
    // Meanwhile the user's folder sub became a link out of the repository.
    fs.rmSync(path.join(dir, 'sub'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(dir, 'sub'));

    await sb.parallel.apply(id, 'run1');
    const state = sb.parallel.state(id)!;
    assert.equal(state.phase, 'applied', JSON.stringify(state));
    assert.equal(fs.readFileSync(path.join(dir, 'pkg', 'a.txt'), 'utf8'), 'one\nfrom A\n');
    assert.equal(fs.lstatSync(path.join(dir, 'pkg', 's'), { throwIfNoEntry: false }), undefined, 'no link, no copy of its target');
    assert.deepEqual(fs.readdirSync(elsewhere), [], 'nothing written through the link');
    assert.match(state.message ?? '', /Not applied, .*link.*: pkg\/s, sub\/new\.txt/);
    assert.equal(fs.readFileSync(path.join(dir, 'top.txt'), 'utf8'), 'top\n');
    assert.match(state.message ?? '', /outside the workspace folder .*: top\.txt/);
  });

  it('git variables of the window\'s environment (GIT_DIR, GIT_CONFIG_*) do not send the runs to another repository; hooks do not run', async () => {
    const dir = repo({ 'a.txt': 'mine\n' });
    const other = repo({ 'a.txt': 'other\n' });
    fs.writeFileSync(path.join(dir, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch "${path.join(dir, 'hook-ran')}"\n`, { mode: 0o755 });
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [{ type: 'read', path: '{{cwd}}/a.txt' }] }] } });
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_CONFIG_COUNT: process.env.GIT_CONFIG_COUNT, GIT_CONFIG_KEY_0: process.env.GIT_CONFIG_KEY_0, GIT_CONFIG_VALUE_0: process.env.GIT_CONFIG_VALUE_0 };
    let id: string;
    try {
      Object.assign(process.env, { GIT_DIR: path.join(other, '.git'), GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: path.join(dir, '.git', 'hooks') });
      id = sb.parallel.start('Read a.txt', [{ agent: agents[A].spec }], dir);
      assert.equal((await sb.parallel.finished(id))?.phase, 'finished', JSON.stringify(sb.parallel.state(id)));
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    assert.match(answer(sb.parallel.session(id, 'run1')!.items), /read: "mine\\n"/);
    assert.equal(worktreeCount(dir), 2, 'the run\'s worktree is of the user\'s repository');
    assert.equal(worktreeCount(other), 1);
    assert.ok(!fs.existsSync(path.join(dir, 'hook-ran')), 'no hook ran');
    await sb.parallel.discard(id);
  });

  it('Discard removes every worktree and changes nothing in the user\'s tree', async () => {
    const dir = repo({ 'a.txt': 'one\n' });
    fs.writeFileSync(path.join(dir, 'untracked.txt'), 'x\n');
    // The same agent twice, each run with another model.
    const models = { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'fast', options: [{ value: 'fast', name: 'Fast' }, { value: 'deep', name: 'Deep' }] };
    const agents = await useScriptedAgents({ [A]: { configOptions: [models], turns: [{ steps: [{ type: 'write', path: '{{cwd}}/a.txt', content: 'changed\n' }] }] } });
    const id = sb.parallel.start('Improve a.txt', [{ agent: agents[A].spec, option: { configId: 'model', value: 'fast' } }, { agent: agents[A].spec, option: { configId: 'model', value: 'deep' } }], dir);
    const state = (await sb.parallel.finished(id))!;
    assert.deepEqual(state.runs.map(r => [r.label, r.status, r.files.length]), [[`${A} #1`, 'done', 1], [`${A} #2`, 'done', 1]]);
    const chosen = agentEvents(agents[A].log).filter(e => e.event === 'session/set_config_option').map(e => (e.params as { value: string }).value).sort();
    assert.deepEqual(chosen, ['deep', 'fast']);
    const trees = sb.parallel.worktrees(id);
    assert.equal(trees.length, 2);
    // A closed panel comes back with Switchboard: Show Parallel Runs.
    sb.parallelPanels.show(id).dispose();
    const panelTabs = () => vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => t.input instanceof vscode.TabInputWebview && t.label === 'Parallel runs');
    await waitFor('the panel closed', () => panelTabs().length === 0);
    await vscode.commands.executeCommand('switchboard.showParallelRuns');
    await waitFor('the panel shown again', () => panelTabs().length === 1);
    await sb.parallel.discard(id);
    assert.equal(sb.parallel.state(id)?.phase, 'discarded');
    for (const t of trees) assert.ok(!fs.existsSync(t), `${t} removed`);
    assert.equal(worktreeCount(dir), 1);
    assert.equal(git(dir, 'status', '--porcelain'), '?? untracked.txt\n');
  });

  it('the window closes mid-run: the agents end and no worktree is left; a folder left by a window that died goes at the next start', async () => {
    const dir = repo({ 'a.txt': 'one\n' });
    const hold = gate('parallel-hold');
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [{ type: 'text', text: 'working' }, { type: 'waitFile', path: hold.path }] }] } });
    const storage = fs.mkdtempSync(path.join(tmpDir, 'storage-'));
    const runs = new ParallelRuns(quietLogger, storage, sb.review);
    const id = runs.start('x', [{ agent: agents[A].spec }, { agent: agents[A].spec }], dir);
    await waitFor('both runs working', () => runs.state(id)?.runs.every(r => r.status === 'working'));
    const trees = runs.worktrees(id);
    assert.equal(worktreeCount(dir), 3);
    runs.dispose();
    for (const t of trees) assert.ok(!fs.existsSync(t), `${t} removed`);
    assert.equal(worktreeCount(dir), 1);
    await waitFor('the agents ended', () => agentEvents(agents[A].log).filter(e => e.event === 'exit').length === 2);

    // A window that died mid-run (its extension host gone): its folder and worktree stay until the next start.
    const dead = path.join(storage, 'parallel', '999999999-x-set1');
    fs.mkdirSync(dead, { recursive: true });
    git(dir, 'worktree', 'add', '--detach', '-q', path.join(dead, 'run1'), 'HEAD');
    fs.writeFileSync(path.join(dead, 'owner.json'), JSON.stringify({ pid: 999999999, git: 'git', repoRoot: dir }));
    assert.equal(worktreeCount(dir), 2);
    const next = new ParallelRuns(quietLogger, storage, sb.review);
    try {
      await waitFor('the leftover swept', () => !fs.existsSync(dead) && worktreeCount(dir) === 1);
    } finally {
      next.dispose();
    }
  });

  it('a folder that is not a git repository, or one with no commit, gets a clear message and no run starts', async () => {
    const agents = await twoAgents();
    const plain = fs.mkdtempSync(path.join(tmpDir, 'plain-'));
    const id = sb.parallel.start('x', [{ agent: agents[A].spec }, { agent: agents[B].spec }], plain);
    const state = (await sb.parallel.finished(id))!;
    assert.equal(state.phase, 'failed');
    assert.match(state.message!, /works in a git repository, and .* is not in one/);
    const empty = repo(undefined);
    const state2 = (await sb.parallel.finished(sb.parallel.start('x', [{ agent: agents[A].spec }, { agent: agents[B].spec }], empty)))!;
    assert.equal(state2.phase, 'failed');
    assert.match(state2.message!, /needs a first commit/);
    assert.equal(agentEvents(agents[A].log).length, 0, 'no agent started');
  });
});

describe('Fork conversation', () => {
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  beforeEach(async () => { await sb.chat.stop(); await sb.chat.newConversation(); });
  after(async () => { await sb.chat.stop(); });

  it('an agent that offers session/fork forks its session; the new tab shows the history and continues', async () => {
    const agents = await useScriptedAgents({
      [A]: { agentCapabilities: { sessionCapabilities: { fork: {} } }, turns: [{ match: 'first', steps: [{ type: 'text', text: 'First answer.' }] }] },
    });
    assert.equal(await sb.chat.sendPrompt('first question'), 'sent');
    const original = sb.chat.active;
    assert.deepEqual(await sb.chat.forkConversation(), {});
    const fork = sb.chat.active;
    assert.notEqual(fork.id, original.id, 'a new tab');
    const forked = agentEvents(agents[A].log).find(e => e.event === 'session/fork')?.params as { sessionId: string };
    assert.equal(forked.sessionId, original.sessionId);
    assert.ok(fork.sessionId && fork.sessionId !== original.sessionId);
    assert.equal(answer(fork.items), 'First answer.', 'the history shows in the new tab');
    assert.equal(await sb.chat.sendPrompt('and then?'), 'sent');
    assert.equal(lastOf(fork.items, 'turnEnd')?.stopReason, 'end_turn', dump(fork.items));
    const prompts = agentEvents(agents[A].log).filter(e => e.event === 'prompt').map(e => (e.params as { sessionId: string }).sessionId);
    assert.deepEqual(prompts, [original.sessionId, fork.sessionId], 'the new tab continues in the forked session');
  });

  it('an agent without session/fork: a new tab, and a summary of the conversation for the prompt box', async () => {
    const agents = await useScriptedAgents({ [A]: { turns: [{ steps: [{ type: 'text', text: 'Renamed foo.' }] }] } });
    assert.equal(await sb.chat.sendPrompt('rename foo'), 'sent');
    const original = sb.chat.active;
    const forked = await sb.chat.forkConversation();
    assert.notEqual(sb.chat.active.id, original.id);
    assert.match(forked?.summary ?? '', /### User\nrename foo\n\n### Agent\nRenamed foo\./);
    assert.match(lastOf(sb.chat.active.items, 'notice')?.text ?? '', /cannot fork its session/);
    assert.equal(sb.chat.active.sessionId, undefined, 'the next prompt opens a new session');
    assert.equal(agentEvents(agents[A].log).filter(e => e.event === 'session/fork').length, 0);
  });
});
