import assert from 'node:assert/strict';
import { EditHistory } from '../../src/common/review/editHistory';
import { addDecision, baselineFromOf, decidedSince, decisionOf, loadSaved, REVIEW_LIMITS, setBaselineFrom, toSaved, writesOf } from '../../src/common/review/reviewLog';
import { TurnChanges } from '../../src/common/review/turnChanges';

const shared = () => new EditHistory({ ...REVIEW_LIMITS, maxChars: 4 * 1024, maxPerOrigin: { ...REVIEW_LIMITS.maxPerOrigin, write: 2 } });

describe('The review in the one history of edits (reviewLog)', () => {
  it('a turn lists the files it changed from the history: baseline = before of its first edit, current = the last after', () => {
    const h = shared();
    const t = new TurnChanges('turn1', undefined, h);
    t.record('/w/a.txt', 'one\n', 'two\n');
    t.record('/w/b.txt', null, 'new\n');
    t.record('/w/a.txt', 'two\n', 'three\n');
    assert.deepEqual(t.pending().map(f => [f.path, f.baseline, f.current]), [['/w/a.txt', 'one\n', 'three\n'], ['/w/b.txt', null, 'new\n']], 'in the order first changed');
    assert.deepEqual(h.list({ origin: 'review' }).map(e => [e.scope, e.path, e.before, e.after]).sort(), [['turn1', '/w/a.txt', 'one\n', 'three\n'], ['turn1', '/w/b.txt', null, 'new\n']]);
    const again = new TurnChanges('turn1', undefined, h);
    assert.deepEqual(again.pending(), t.pending(), 'nothing kept outside the history');
    t.keep('/w/b.txt');
    assert.deepEqual(h.list({ origin: 'review' }).map(e => e.path), ['/w/a.txt'], 'a decided file leaves the history');
  });

  it('two turns in one history never share a file\'s change: undo of one leaves the other', () => {
    const h = shared();
    const a = new TurnChanges('turn1', undefined, h);
    const b = new TurnChanges('turn2', undefined, h);
    a.record('/w/a.txt', 'a\n', 'A\n');
    b.record('/w/b.txt', 'b\n', 'B\n');
    assert.deepEqual(a.undo('/w/a.txt'), { text: 'a\n' });
    assert.deepEqual(b.pending().map(f => [f.path, f.current]), [['/w/b.txt', 'B\n']]);
    assert.equal(a.isEmpty, true);
  });

  it('a flood of tool diffs and writes never pushes out an undecided change an Undo needs', () => {
    const h = shared();
    const t = new TurnChanges('turn1', undefined, h);
    t.record('/w/big.txt', 'x'.repeat(3000), 'y'.repeat(3000));
    for (let i = 0; i < 50; i++) h.add({ origin: 'toolDiff', scope: 'tab1', path: `/w/d${i}`, before: null, after: 'z'.repeat(1000) }, `k${i}`);
    for (let i = 0; i < 5; i++) h.add({ origin: 'write', scope: 's1', path: `/w/w${i}`, before: 'p', after: 'q'.repeat(1000) });
    assert.equal(t.get('/w/big.txt')?.current, 'y'.repeat(3000));
    assert.equal(h.list({ origin: 'write' }).length, 2, 'the writes keep their own bound');
    assert.deepEqual(t.undo('/w/big.txt'), { text: 'x'.repeat(3000) });
  });

  it('keeps the evidence that gave a baseline with the change, across its updates, until forgotten', () => {
    const h = shared();
    const t = new TurnChanges('turn1', undefined, h);
    setBaselineFrom(h, 'turn1', '/w/a.txt', { turnId: 'turn1', toolCallId: 'c1' });
    assert.equal(baselineFromOf(h, 'turn1', '/w/a.txt'), undefined, 'nothing to note on a file not listed');
    t.record('/w/a.txt', 'a\n', 'b\n');
    const id = h.get('review\0turn1\0/w/a.txt')?.id;
    setBaselineFrom(h, 'turn1', '/w/a.txt', { turnId: 'turn1', toolCallId: 'c1' });
    t.record('/w/a.txt', 'b\n', 'c\n');
    t.addWrites('/w/a.txt', ['e7']);
    assert.deepEqual(baselineFromOf(h, 'turn1', '/w/a.txt'), { turnId: 'turn1', toolCallId: 'c1' });
    assert.equal(h.get('review\0turn1\0/w/a.txt')?.id, id, 'one entry, updated in place');
    setBaselineFrom(h, 'turn1', '/w/a.txt', undefined);
    assert.equal(baselineFromOf(h, 'turn1', '/w/a.txt'), undefined);
    assert.deepEqual(writesOf(h, 'turn1', '/w/a.txt'), ['e7']);
    t.keep('/w/a.txt');
    t.record('/w/a.txt', 'c\n', 'd\n');
    assert.equal(baselineFromOf(h, 'turn1', '/w/a.txt'), undefined, 'a new change starts with no evidence');
    assert.deepEqual(writesOf(h, 'turn1', '/w/a.txt'), [], 'nor the writes of the decided one');
  });

  it('decisions: "decided since a turn began" and what became of an applied write', () => {
    const h = shared();
    const w = h.add({ origin: 'write', scope: 's1', path: '/w/a.txt', before: 'a\n', after: 'A\n' });
    const t = new TurnChanges('turn1', undefined, h);
    const since = h.lastSeq;
    t.record('/w/a.txt', 'a\n', 'A\n');
    t.addWrites('/w/a.txt', [w.id]);
    assert.deepEqual(writesOf(h, 'turn1', '/w/a.txt'), [w.id]);
    assert.equal(decidedSince(h, '/w/a.txt', since), false);
    assert.equal(decisionOf(h, w.id), undefined);
    addDecision(h, 'turn1', '/w/a.txt', { action: 'keep', hunkId: 'h1' });
    assert.equal(decidedSince(h, '/w/a.txt', since), true);
    assert.equal(decidedSince(h, '/w/a.txt', h.lastSeq), false, 'not for a turn that began after it');
    assert.equal(decidedSince(h, '/w/b.txt', since), false);
    assert.equal(decisionOf(h, w.id), undefined, 'a hunk kept does not settle the write');
    addDecision(h, 'turn1', '/w/a.txt', { action: 'undo', writes: [w.id] });
    assert.equal(decisionOf(h, w.id), 'undo');
  });

  it('decisions are bounded by number, the oldest forgotten first, never the undecided changes', () => {
    const h = shared();
    const t = new TurnChanges('turn1', undefined, h);
    t.record('/w/a.txt', 'a\n', 'A\n');
    for (let i = 0; i < 1100; i++) addDecision(h, 'turn0', `/w/f${i}`, { action: 'keep' });
    assert.equal(h.list({ origin: 'decision' }).length, 1000);
    assert.equal(decidedSince(h, '/w/f0', 0), false);
    assert.equal(decidedSince(h, '/w/f1099', 0), true);
    assert.equal(t.get('/w/a.txt')?.current, 'A\n');
  });

  it('reads the pending reviews saved before the one history (switchboard.review.v1), skipping malformed entries', () => {
    const v1 = [
      { turnId: 'turn3', tabId: 'tab1', agentName: 'Claude', files: [
        { path: '/w/a.txt', baseline: 'a\n', current: 'A\n' },
        { path: '/w/new.txt', baseline: null, current: 'n\n', by: 'Helper' },
        { path: '/w/img.png', baseline: 'AAE=', current: 'AAI=', binary: true },
        { path: '/w/l1.txt', baseline: 'caf\u00e9\n', current: 'cafe\n', form: { encoding: 'iso88591', bom: false } },
        { path: 42, baseline: 'x', current: 'y' },
        { path: '/w/same.txt', baseline: 'x', current: 'x' },
      ] },
      { turnId: 'turn7', tabId: '', agentName: 'A and B', working: ['A', 'B', 3], files: [{ path: '/w/b.txt', baseline: 'b\n', current: null }] },
      { turnId: 9, tabId: 'tab2', agentName: 'x', files: [] },
      null,
    ];
    const { turns, edits } = loadSaved(undefined, v1);
    assert.deepEqual(turns, [{ turnId: 'turn3', tabId: 'tab1', agentName: 'Claude' }, { turnId: 'turn7', tabId: '', agentName: 'A and B', working: ['A', 'B'] }]);
    assert.deepEqual(edits, [
      { turnId: 'turn3', path: '/w/a.txt', baseline: 'a\n', current: 'A\n' },
      { turnId: 'turn3', path: '/w/new.txt', baseline: null, current: 'n\n', by: 'Helper' },
      { turnId: 'turn3', path: '/w/img.png', baseline: 'AAE=', current: 'AAI=', binary: true },
      { turnId: 'turn3', path: '/w/l1.txt', baseline: 'caf\u00e9\n', current: 'cafe\n', form: { encoding: 'iso88591', bom: false } },
      { turnId: 'turn7', path: '/w/b.txt', baseline: 'b\n', current: null },
    ]);
    assert.deepEqual(loadSaved(undefined, 'garbage'), { turns: [], edits: [] });
    assert.deepEqual(loadSaved(undefined, undefined), { turns: [], edits: [] });
  });

  it('saves the history\'s undecided edits (v2) and reads them back as they were; v2 wins over v1', () => {
    const h = shared();
    const t = new TurnChanges('turn3', undefined, h);
    t.record('/w/a.txt', 'a\n', 'A\n');
    t.record('/w/img.png', 'AAE=', 'AAI=', { binary: true });
    t.attribute('/w/a.txt', 'Helper');
    t.record('/w/huge.txt', 'h', 'H'.repeat(100));
    new TurnChanges('turn4', undefined, h).record('/w/b.txt', 'b\n', null);
    const saved = JSON.parse(JSON.stringify(toSaved([{ turnId: 'turn3', tabId: 'tab1', agentName: 'Claude' }, { turnId: 'turn4', tabId: 'tab2', agentName: 'Codex', working: ['x'] }, { turnId: 'turn5', tabId: 'tab2', agentName: 'Codex' }], h, 50)));
    assert.equal(saved.version, 2);
    assert.deepEqual(saved.turns.map((x: { turnId: string }) => x.turnId), ['turn3', 'turn4'], 'turns without changes are not saved');
    const loaded = loadSaved(saved, [{ turnId: 'turn1', tabId: 't', agentName: 'old', files: [{ path: '/w/old', baseline: 'o', current: 'p' }] }]);
    assert.deepEqual(loaded.turns.map(x => x.turnId), ['turn3', 'turn4']);
    const h2 = shared();
    const files = (id: string) => loaded.edits.filter(e => e.turnId === id).map(({ turnId: _, ...f }) => f);
    const again = new TurnChanges('turn3', files('turn3'), h2);
    assert.deepEqual(again.pending(), t.pending().filter(f => f.path !== '/w/huge.txt'), 'files over the size bound are not saved');
    assert.deepEqual(new TurnChanges('turn4', files('turn4'), h2).pending(), [{ path: '/w/b.txt', baseline: 'b\n', current: null }]);
  });
});
