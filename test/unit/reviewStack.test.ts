import assert from 'node:assert/strict';
import { EditHistory } from '../../src/common/review/editHistory';
import { loadSaved, placeOf, REVIEW_LIMITS, toSaved } from '../../src/common/review/reviewLog';
import { carryUnder, firstOverlap, lineThrough, stackChoice } from '../../src/common/review/stack';
import { TurnChanges } from '../../src/common/review/turnChanges';

const lines = (...changed: [number, string][]) => Array.from({ length: 12 }, (_, i) => changed.find(c => c[0] === i + 1)?.[1] ?? `l${i + 1}`).join('\n') + '\n';

describe('Several turns\' changes of one file, stacked (stack.ts)', () => {
  it('a turn of another conversation stacks; the same conversation\'s next turn joins the top entry; a turn already lower in the stack gets a new entry on top', () => {
    const top = { turnId: 'turn1', tabId: 'tab1' };
    assert.equal(stackChoice(undefined, { turnId: 'turn2', tabId: 'tab2' }, false), 'own');
    assert.equal(stackChoice(top, top, true), 'own');
    assert.equal(stackChoice(top, { turnId: 'turn2', tabId: 'tab2' }, false), 'stack');
    assert.equal(stackChoice(top, { turnId: 'turn2', tabId: 'tab1' }, false), 'top');
    assert.equal(stackChoice(top, { turnId: 'turn0', tabId: 'tab2' }, true), 'again');
    assert.equal(stackChoice(top, { turnId: 'turn0', tabId: 'tab1' }, true), 'top', 'its conversation\'s entry is the top one');
  });

  it("a lower entry's hunk is shown where the entries above moved its lines", () => {
    const base = lines();
    const insert = (text: string, at: number, ...added: string[]) => { const l = text.split('\n'); l.splice(at, 0, ...added); return l.join('\n'); };
    const three = { baseline: base, current: insert(base, 4, 'n1', 'n2', 'n3') };
    assert.deepEqual(lineThrough([three])(10, 1), { line: 13, count: 1 }, 'three lines added above it');
    assert.deepEqual(lineThrough([three])(2, 1), { line: 2, count: 1 }, 'lines added below it do not move it');
    assert.deepEqual(lineThrough([three])(5, 2), { line: 8, count: 2 }, 'lines added right before its first line');
    assert.deepEqual(lineThrough([three])(3, 2), { line: 3, count: 2 }, 'lines added right after its last line are not its');
    assert.deepEqual(lineThrough([three])(5, 0), { line: 8, count: 0 }, 'a deletion shown after the lines added at its place');
    const removed = { baseline: base, current: lines().split('\n').filter((_, i) => i !== 0 && i !== 1).join('\n') };
    assert.deepEqual(lineThrough([removed])(10, 1), { line: 8, count: 1 }, 'two lines removed above it');
    const rewrote = { baseline: base, current: lines([9, 'x'], [10, 'y'], [11, 'z']).replace('y\n', 'y\ny2\n') };
    assert.deepEqual(lineThrough([rewrote])(10, 1), { line: 9, count: 4 }, 'its line rewritten above: the rewritten lines');
    const twoRemovedAbove = { baseline: three.current, current: three.current.split('\n').slice(2).join('\n') };
    assert.deepEqual(lineThrough([three, twoRemovedAbove])(10, 1), { line: 11, count: 1 }, 'through each entry above, bottom up');
    assert.deepEqual(lineThrough([{ baseline: base, current: base }])(10, 1), { line: 10, count: 1 }, 'an entry above with no change');
  });

  it('undoing a lower entry takes its change out of the entries above and the file, their own changes kept', () => {
    const base = lines();
    const byA = lines([1, 'A1'], [2, 'A2']);
    const byB = lines([1, 'A1'], [2, 'A2'], [10, 'B10']);
    const typed = lines([1, 'A1'], [2, 'A2'], [6, 'typed'], [10, 'B10']);
    assert.deepEqual(carryUnder(byA, base, [byA, byB, typed]), [base, lines([10, 'B10']), lines([6, 'typed'], [10, 'B10'])]);
  });

  it('a later change overlapping the undone one, or a deleted file on a side, cannot be carried: nothing is given', () => {
    const base = lines();
    const byA = lines([1, 'A1'], [2, 'A2']);
    assert.equal(carryUnder(byA, base, [byA, lines([1, 'B1'], [2, 'A2'])]), undefined);
    assert.equal(carryUnder(byA, null, [byA, lines([1, 'A1'], [2, 'A2'], [10, 'B10'])]), undefined, 'a created file cannot be deleted under a later change');
    assert.equal(carryUnder(byA, base, [byA, null]), undefined, 'the file deleted since');
    assert.deepEqual(carryUnder(null, 'x\n', [null]), ['x\n'], 'a text equal to the undone side becomes the target');
  });

  it('names the first entry above whose change overlaps the undone one, maybe not the top one', () => {
    const base = lines();
    const byA = lines([1, 'A1'], [2, 'A2']);
    const byB = lines([1, 'B1'], [2, 'B2']);
    const again = lines([1, 'B1'], [2, 'B2'], [5, 'A5']);
    assert.equal(firstOverlap(byA, base, [{ baseline: byA, current: byB }, { baseline: byB, current: again }]), 0, 'the middle one');
    assert.equal(firstOverlap(byA, base, [{ baseline: byA, current: lines([1, 'A1'], [2, 'A2'], [9, 'B9']) }, { baseline: lines([1, 'A1'], [2, 'A2'], [9, 'B9']), current: lines([1, 'C1'], [2, 'A2'], [9, 'B9']) }]), 1, 'the top one');
    assert.equal(firstOverlap(byA, base, [{ baseline: byA, current: lines([1, 'A1'], [2, 'A2'], [9, 'B9']) }]), -1, 'none');
    assert.equal(firstOverlap(byA, base, [undefined]), 0, 'an entry that cannot be merged (bytes)');
  });

  it('a file\'s entries are saved and restored in the order they were first changed, whatever the turns\' order', () => {
    const history = new EditHistory(REVIEW_LIMITS);
    const a = new TurnChanges('turn1', undefined, history);
    const b = new TurnChanges('turn2', undefined, history);
    b.record('/w/f.txt', 'x\n', 'y\n');
    a.record('/w/f.txt', 'y\n', 'z\n');
    const saved = toSaved([{ turnId: 'turn1', tabId: 't1', agentName: 'A' }, { turnId: 'turn2', tabId: 't2', agentName: 'B' }], history, 1e6);
    assert.deepEqual(saved.edits.map(e => e.turnId), ['turn2', 'turn1']);
    const back = loadSaved(JSON.parse(JSON.stringify(saved)), undefined);
    assert.deepEqual(back.edits.map(e => [e.turnId, e.baseline, e.current]), [['turn2', 'x\n', 'y\n'], ['turn1', 'y\n', 'z\n']]);
    assert.ok(placeOf(history, 'turn2', '/w/f.txt')! < placeOf(history, 'turn1', '/w/f.txt')!);
  });

  it('restack sets both sides of an entry, and forgets it once they are equal', () => {
    const t = new TurnChanges('turn1');
    t.record('/w/f.txt', 'a\n', 'b\n');
    t.restack('/w/f.txt', 'c\n', 'd\n');
    assert.deepEqual([t.get('/w/f.txt')?.baseline, t.get('/w/f.txt')?.current], ['c\n', 'd\n']);
    t.restack('/w/f.txt', 'd\n', 'd\n');
    assert.equal(t.get('/w/f.txt'), undefined);
  });
});
