import assert from 'node:assert/strict';
import { modifiedDuring } from '../../src/common/review/mtime';

describe('modifiedDuring (dating a disk change by its modification time)', () => {
  const started = 1_700_000_000_250;
  const ended = 1_700_000_005_250;

  it('a file modified before the turn began is not the turn\'s (beyond the coarse clock\'s lag)', () => {
    assert.equal(modifiedDuring(started - 100, started), false);
    assert.equal(modifiedDuring(started - 5, started), true, 'the kernel clock may lag Date.now() by a few ms');
    assert.equal(modifiedDuring(started + 1, started), true);
  });

  it('a file modified after the turn ended is not the turn\'s', () => {
    assert.equal(modifiedDuring(ended + 1, started, ended), false);
    assert.equal(modifiedDuring(ended, started, ended), true);
    assert.equal(modifiedDuring(started + 2000, started, ended), true);
  });

  it('whole-second modification times (rounded down) never drop a change made during the turn', () => {
    // Written 750 ms after the turn began, stored as the whole second before it began.
    assert.equal(modifiedDuring(1_700_000_000_000, started), true);
    assert.equal(modifiedDuring(1_700_000_000_000, started + 1500), true);
    assert.equal(modifiedDuring(1_699_999_997_000, started), false, 'seconds before the turn');
  });
});
