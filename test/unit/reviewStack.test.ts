import assert from 'node:assert/strict';
import { EditHistory } from '../../src/common/review/editHistory';
import { loadSaved, placeOf, REVIEW_LIMITS, toSaved } from '../../src/common/review/reviewLog';
import { carryUnder, stackChoice } from '../../src/common/review/stack';
import { TurnChanges } from '../../src/common/review/turnChanges';

const lines = (...changed: [number, string][]) => Array.from({ length: 12 }, (_, i) => changed.find(c => c[0] === i + 1)?.[1] ?? `l${i + 1}`).join('\n') + '\n';

describe('Several turns\' changes of one file, stacked (stack.ts)', () => {
  it('a turn of another conversation stacks; the same conversation\'s next turn, or a turn already lower in the stack, joins the top entry', () => {
    const top = { turnId: 'turn1', tabId: 'tab1' };
    assert.equal(stackChoice(undefined, { turnId: 'turn2', tabId: 'tab2' }, false), 'own');
    assert.equal(stackChoice(top, top, true), 'own');
    assert.equal(stackChoice(top, { turnId: 'turn2', tabId: 'tab2' }, false), 'stack');
    assert.equal(stackChoice(top, { turnId: 'turn2', tabId: 'tab1' }, false), 'top');
    assert.equal(stackChoice(top, { turnId: 'turn0', tabId: 'tab2' }, true), 'top');
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
