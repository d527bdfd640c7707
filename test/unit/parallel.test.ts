import assert from 'node:assert/strict';
import { canApply, newRunSet, runSetTransition, RunSetEvent, RunSetState } from '../../src/common/parallel/runSet';
import { parseNameStatus, parseNumstat, runFiles, totals } from '../../src/common/parallel/diffStats';

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
