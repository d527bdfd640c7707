import assert from 'node:assert/strict';
import { agentList, attributeAmong, changedWhileTitle, workingWhen } from '../../src/common/review/attribution';

describe('attributeAmong (a disk change while several turns run)', () => {
  const a = { turnId: 'turn1', started: 1_700_000_000_250 };
  const b = { turnId: 'turn2', started: 1_700_000_001_250 };
  const during = 1_700_000_002_001;

  it('goes to the one running turn whose tool calls named the file', () => {
    assert.equal(attributeAmong([{ ...a, named: true }, { ...b, named: false }], during), 'turn1');
    assert.equal(attributeAmong([{ ...a, named: false }, { ...b, named: true }], during), 'turn2');
  });

  it('is shared when no turn, or more than one, named it', () => {
    assert.equal(attributeAmong([{ ...a, named: false }, { ...b, named: false }], during), 'shared');
    assert.equal(attributeAmong([{ ...a, named: true }, { ...b, named: true }], during), 'shared');
  });

  it('a turn that named the file but ended before it was modified does not get it', () => {
    assert.equal(attributeAmong([{ ...a, named: true, ended: during - 500 }, { ...b, named: false }], during), 'shared');
  });

  it('a file modified before every turn began is nobody\'s; an undated one (deleted) is still attributed', () => {
    assert.equal(attributeAmong([{ ...a, named: true }, { ...b, named: false }], a.started - 100), undefined);
    assert.equal(attributeAmong([{ ...a, named: true }, { ...b, named: false }], undefined), 'turn1');
    assert.equal(attributeAmong([], during), undefined);
  });

  it('a shared change names the turns running when the file was modified, not one that had ended by then', () => {
    const c = { turnId: 'turn0', started: a.started - 5_000, ended: during - 3_000, named: false };
    assert.equal(attributeAmong([{ ...a, named: false }, { ...b, named: false }, c], during), 'shared');
    assert.deepEqual(workingWhen([{ ...a, named: false }, { ...b, named: false }, c], during).map(t => t.turnId), ['turn1', 'turn2']);
    // Undated (deleted): every turn may have done it.
    assert.deepEqual(workingWhen([a, b, c], undefined).map(t => t.turnId), ['turn1', 'turn2', 'turn0']);
  });

  it('titles name the agents', () => {
    assert.equal(agentList(['A']), 'A');
    assert.equal(agentList(['A', 'B']), 'A and B');
    assert.equal(agentList(['A', 'B', 'C']), 'A, B and C');
    assert.equal(changedWhileTitle(['A', 'B']), 'Changed while A and B were working');
  });
});
