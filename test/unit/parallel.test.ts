import assert from 'node:assert/strict';
import { canApply, newRunSet, runSetTransition, RunSetEvent, RunSetState } from '../../src/common/parallel/runSet';
import { renderRunSet } from '../../src/common/parallel/panelHtml';
import { runVariants } from '../../src/common/parallel/variants';
import { mergeApplied, mergeTexts } from '../../src/common/parallel/applyMerge';
import { parseNameStatus, parseNumstat, runFiles, totals } from '../../src/common/parallel/diffStats';
import { gitEnv } from '../../src/common/gitEnv';

const start = (): RunSetState => newRunSet('set1', 'Fix the bug', [
  { id: 'r1', label: 'A', agentName: 'A' },
  { id: 'r2', label: 'B', agentName: 'B' },
]);
const play = (s: RunSetState, ...events: RunSetEvent[]) => {
  let effects: unknown[] = [];
  for (const e of events) ({ state: s, effects: effects as unknown } = runSetTransition(s, e) as { state: RunSetState; effects: unknown });
  return { state: s, effects };
};
const file = { path: 'a.txt', change: 'modified' as const, added: 1, removed: 1 };

describe('Parallel run set', () => {
  it('runs two agents: starting, working, waiting, done; finished once both ended', () => {
    let { state } = play(start(), { type: 'runStarting', run: 'r1' }, { type: 'runStarting', run: 'r2' });
    assert.equal(state.phase, 'running');
    ({ state } = play(state, { type: 'runStarted', run: 'r1', at: 10 }, { type: 'runStarted', run: 'r2', at: 11 }, { type: 'runWaiting', run: 'r2', waiting: true }));
    assert.deepEqual(state.runs.map(r => r.status), ['working', 'waiting']);
    ({ state } = play(state, { type: 'runEnded', run: 'r1', at: 20, stopReason: 'end_turn', files: [file] }));
    assert.equal(state.phase, 'running');
    assert.ok(canApply(state, 'r1'), 'a run that ended with changes can be applied while the other works');
    ({ state } = play(state, { type: 'runWaiting', run: 'r2', waiting: false }, { type: 'runFailed', run: 'r2', at: 30, message: 'crashed' }));
    assert.equal(state.phase, 'finished');
    assert.deepEqual(state.runs.map(r => [r.status, r.endedAt, r.detail]), [['done', 20, undefined], ['failed', 30, 'crashed']]);
    assert.ok(!canApply(state, 'r2'), 'a failed run without changes cannot be applied');
  });

  it('apply stops the runs still working, applies one, then removes the worktrees', () => {
    let { state, effects } = play(start(), { type: 'runStarted', run: 'r1', at: 1 }, { type: 'runStarted', run: 'r2', at: 1 },
      { type: 'runEnded', run: 'r2', at: 5, stopReason: 'end_turn', files: [file] }, { type: 'applyAsked', run: 'r2' });
    assert.equal(state.phase, 'applying');
    assert.deepEqual(effects, [{ type: 'stopRun', run: 'r1' }, { type: 'applyRun', run: 'r2' }]);
    ({ state, effects } = play(state, { type: 'applyAsked', run: 'r2' }));
    assert.deepEqual(effects, [], 'a second Apply does nothing');
    ({ state, effects } = play(state, { type: 'applied' }));
    assert.equal(state.phase, 'applied');
    assert.deepEqual(effects, [{ type: 'removeWorktrees' }]);
    ({ effects } = play(state, { type: 'discardAsked' }));
    assert.deepEqual(effects, [], 'nothing left to discard');
  });

  it('a failed apply keeps the worktrees: another try or Discard is possible', () => {
    let { state, effects } = play(start(), { type: 'runEnded', run: 'r1', at: 2, stopReason: 'end_turn', files: [file] },
      { type: 'runEnded', run: 'r2', at: 2, stopReason: 'end_turn', files: [] }, { type: 'applyAsked', run: 'r1' }, { type: 'applyFailed', message: 'conflict' });
    assert.equal(state.phase, 'finished');
    assert.equal(state.message, 'conflict');
    assert.deepEqual(effects, []);
    ({ state, effects } = play(state, { type: 'discardAsked' }));
    assert.equal(state.phase, 'discarded');
    assert.deepEqual(effects, [{ type: 'removeWorktrees' }]);
  });

  it('discard while runs work stops them and removes the worktrees', () => {
    const { state, effects } = play(start(), { type: 'runStarted', run: 'r1', at: 1 }, { type: 'discardAsked' });
    assert.deepEqual(state.runs.map(r => r.status), ['stopped', 'stopped']);
    assert.deepEqual(effects, [{ type: 'stopRun', run: 'r1' }, { type: 'stopRun', run: 'r2' }, { type: 'removeWorktrees' }]);
  });

  it('a run stopped by the user stays stopped and keeps its changes; a cancelled turn is stopped', () => {
    let { state, effects } = play(start(), { type: 'runStarted', run: 'r1', at: 1 }, { type: 'stopAsked', run: 'r1' });
    assert.deepEqual(effects, [{ type: 'stopRun', run: 'r1' }]);
    ({ state } = play(state, { type: 'runEnded', run: 'r1', at: 4, stopReason: 'end_turn', files: [file] }, { type: 'runEnded', run: 'r2', at: 4, stopReason: 'cancelled', files: [] }));
    assert.deepEqual(state.runs.map(r => [r.status, r.files.length]), [['stopped', 1], ['stopped', 0]]);
    assert.equal(state.phase, 'finished');
    assert.ok(canApply(state, 'r1'));
  });

  it('no repository: the set fails with its message and nothing runs', () => {
    const { state, effects } = play(start(), { type: 'prepareFailed', message: 'not a git repository' }, { type: 'runStarting', run: 'r1' });
    assert.equal(state.phase, 'failed');
    assert.equal(state.message, 'not a git repository');
    assert.deepEqual(state.runs.map(r => r.status), ['preparing', 'preparing']);
    assert.deepEqual(effects, []);
  });

  it('tokens are kept per run; an unknown run changes nothing', () => {
    const s = start();
    const { state } = play(s, { type: 'runTokens', run: 'r1', tokens: 1200 });
    assert.equal(state.runs[0].tokens, 1200);
    assert.equal(runSetTransition(s, { type: 'runTokens', run: 'nope', tokens: 1 }).state, s);
  });
});

describe('Parallel run diff stats', () => {
  it('reads git name-status and numstat (-z), binary files without line counts', () => {
    const names = 'M\0src/a.ts\0A\0new file.txt\0D\0gone.md\0M\0img.png\0';
    const nums = '3\t1\tsrc/a.ts\x002\t0\tnew file.txt\x000\t4\tgone.md\0-\t-\timg.png\0';
    assert.deepEqual([...parseNameStatus(names)], [['src/a.ts', 'modified'], ['new file.txt', 'added'], ['gone.md', 'deleted'], ['img.png', 'modified']]);
    assert.deepEqual(parseNumstat(nums).get('img.png'), {});
    const files = runFiles(names, nums);
    assert.deepEqual(files.map(f => [f.path, f.change, f.added, f.removed]), [
      ['gone.md', 'deleted', 0, 4], ['img.png', 'modified', undefined, undefined], ['new file.txt', 'added', 2, 0], ['src/a.ts', 'modified', 3, 1]]);
    assert.deepEqual(totals(files), { files: 4, added: 5, removed: 5 });
  });

  it('empty output: no files', () => {
    assert.deepEqual(runFiles('', ''), []);
  });
});

describe('Parallel run applied over the user\'s file', () => {
  const b = (s: string) => new TextEncoder().encode(s);
  const t = (r: Uint8Array | null | 'conflict') => (r instanceof Uint8Array ? new TextDecoder().decode(r) : r);
  it('takes the run\'s version when the user did not change the file, deletes or creates likewise', () => {
    assert.equal(t(mergeApplied(b('a\n'), b('a\n'), b('b\n'))), 'b\n');
    assert.equal(t(mergeApplied(b('a\n'), b('a\n'), undefined)), null);
    assert.equal(t(mergeApplied(undefined, undefined, b('new\n'))), 'new\n');
  });
  it('merges changes to different lines; the same lines changed by both are a conflict', () => {
    const base = b('1\n2\n3\n4\n5\n6\n');
    assert.equal(t(mergeApplied(base, b('one\n2\n3\n4\n5\n6\n'), b('1\n2\n3\n4\n5\nsix\n'))), 'one\n2\n3\n4\n5\nsix\n');
    assert.equal(mergeApplied(base, b('1\nTWO\n3\n4\n5\n6\n'), b('1\ntwo\n3\n4\n5\n6\n')), 'conflict');
    assert.equal(mergeApplied(base, undefined, b('x\n')), 'conflict', 'the user deleted what the run changed');
    assert.equal(mergeApplied(b('\0a'), b('\0b'), b('\0c')), 'conflict', 'binary files are not merged');
  });
  it('a tab\'s unsaved text is merged the same way (its edits and the run\'s on the same lines: a conflict)', () => {
    assert.equal(mergeTexts('1\n2\n3\n', 'mine\n2\n3\n', '1\n2\nrun\n'), 'mine\n2\nrun\n');
    assert.equal(mergeTexts('1\n2\n3\n', 'mine\n2\n3\n', 'run\n2\n3\n'), 'conflict');
    assert.equal(mergeTexts('1\n', '1\n', undefined), null);
    assert.equal(mergeTexts('1\n', 'mine\n', undefined), 'conflict', 'the run deleted a file the user is editing');
  });
});

describe('Parallel runs panel', () => {
  it('shows each run side by side: status, time, tokens, files with counts, its answer escaped, Apply when it can', () => {
    let s = play(start(), { type: 'runStarted', run: 'r1', at: 0 }, { type: 'runStarted', run: 'r2', at: 0 }, { type: 'runTokens', run: 'r1', tokens: 42 },
      { type: 'runEnded', run: 'r1', at: 65_000, stopReason: 'end_turn', files: [file, { path: '<b>.png', change: 'added' }] }).state;
    let html = renderRunSet({ state: s, now: 70_000, questions: { r2: { itemId: 'p1', title: 'Run <rm>?', options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] } }, answers: { r1: '<script>x</script>' } });
    assert.match(html, /Time: 1m 05s · Tokens: 42/);
    assert.match(html, /Time: 1m 10s/, 'the run still working counts on');
    assert.match(html, /2 file\(s\) changed <span class="add">\+1<\/span> <span class="del">−1<\/span>/);
    assert.match(html, /&lt;b&gt;\.png<\/a> <span class="bin">binary/);
    assert.ok(!html.includes('<script>') && html.includes('&lt;script&gt;'));
    assert.match(html, /data-action="apply" data-run="r1">Apply this result/);
    assert.match(html, /Run &lt;rm&gt;\?<\/p><div class="actions"><button class="primary" data-action="answer" data-run="r2" data-item="p1" data-option="allow" aria-label="Allow: Allow once">Allow/);
    assert.match(html, /data-action="discard"/);
    s = play(s, { type: 'applyAsked', run: 'r1' }, { type: 'applied', message: 'Applied 2 file(s)' }).state;
    html = renderRunSet({ state: s, now: 0, questions: {}, answers: {} });
    assert.ok(!/data-action="(apply|discard|diff|stop)"/.test(html), 'nothing left to act on');
    assert.match(html, /Applied 2 file\(s\)/);
  });

  it('a run\'s question shows each option for what it does (a name contradicting its kind flagged), and the tool call\'s kind and input, escaped', () => {
    const s = play(start(), { type: 'runStarted', run: 'r1', at: 0 }).state;
    const html = renderRunSet({ state: s, now: 0, answers: {}, questions: { r1: {
      itemId: 'p1', title: 'Run it?', toolKind: 'execute', input: '{"command": "rm -rf <home>"}',
      options: [{ optionId: 'no', name: 'Reject', kind: 'allow_always', misleading: true }, { optionId: 'yes', name: 'Allow', kind: 'allow_once' }],
    } } });
    assert.match(html, /data-option="yes"[^>]*>Allow<\/button>.*data-option="no"[^>]*>Always allow \(named “Reject”\)<\/button>/s, 'ordered by kind, labelled by what it does');
    assert.match(html, /an option&#39;s name says the opposite of what it does/);
    assert.match(html, /execute/);
    assert.match(html, /rm -rf &lt;home&gt;/);
  });

  it('a set that could not start shows why, and no runs', () => {
    const s = play(start(), { type: 'prepareFailed', message: 'not a <git> repository' }).state;
    const html = renderRunSet({ state: s, now: 0, questions: {}, answers: {} });
    assert.match(html, /not a &lt;git&gt; repository/);
    assert.ok(!html.includes('class="runs"'));
  });
});

describe('Parallel run variants', () => {
  it('offers the model option, then the modes, as a run\'s choices', () => {
    const v = runVariants({
      configOptions: [
        { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'a', options: [{ group: 'g1', name: 'Fast', options: [{ value: 'a', name: 'Alpha' }] }, { group: 'g', name: 'More', options: [{ value: 'b', name: 'Beta' }] }] },
      ],
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
    });
    assert.deepEqual(v, [
      { label: 'Alpha', option: { configId: 'model', value: 'a' } }, { label: 'Beta', option: { configId: 'model', value: 'b' } },
      { label: 'Ask', mode: 'ask' }, { label: 'Code', mode: 'code' },
    ]);
    assert.deepEqual(runVariants({ configOptions: [] }), []);
  });
});

describe('git environment of Switchboard\'s own git commands', () => {
  it('drops every GIT_* variable of the window (another repository, index, config, program), in any case, and keeps the rest', () => {
    const env = gitEnv({ PATH: '/bin', HOME: '/h', GIT_DIR: '/x/.git', GIT_WORK_TREE: '/x', GIT_INDEX_FILE: '/i', GIT_OBJECT_DIRECTORY: '/o', GIT_ALTERNATE_OBJECT_DIRECTORIES: '/a', GIT_NAMESPACE: 'n', GIT_CONFIG_PARAMETERS: "'core.hookspath'='/evil'", GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: '/evil', Git_Exec_Path: '/evil' }, { GIT_INDEX_FILE: '/mine', GIT_TERMINAL_PROMPT: '0' });
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h', GIT_INDEX_FILE: '/mine', GIT_TERMINAL_PROMPT: '0' });
  });
});
