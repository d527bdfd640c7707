import assert from 'node:assert/strict';
import { computeHunks, keepHunk, undoHunk } from '../../src/common/review/hunks';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('review hunks', () => {
  const base = lines(30);
  const cur = base.replace('line 2\n', 'LINE TWO\n').replace('line 15\n', '').replace('line 28\n', 'line 28\nextra a\nextra b\n');

  it('finds one hunk per separate change, with counts and current lines', () => {
    const hunks = computeHunks(base, cur);
    assert.deepEqual(hunks.map(h => [h.added, h.removed, h.curLine]), [[1, 1, 2], [0, 1, 15], [2, 0, 28]]);
    assert.equal(hunks[0].removedText, 'line 2\n');
    assert.equal(hunks[0].addedText, 'LINE TWO\n');
  });

  it('undoing one hunk restores just that hunk', () => {
    const [, middle] = computeHunks(base, cur);
    const after = undoHunk(cur, middle);
    assert.ok(after.includes('line 15\n') && after.includes('LINE TWO') && after.includes('extra a'));
    assert.equal(computeHunks(base, after).length, 2);
  });

  it('keep and undo in any order end at the exact expected text', () => {
    let b = base;
    let c = cur;
    // keep the first hunk, then undo the (now first) deletion, keep the last
    b = keepHunk(b, computeHunks(b, c)[0]);
    c = undoHunk(c, computeHunks(b, c)[0]);
    b = keepHunk(b, computeHunks(b, c)[0]);
    assert.deepEqual(computeHunks(b, c), []);
    assert.equal(c, base.replace('line 2\n', 'LINE TWO\n').replace('line 28\n', 'line 28\nextra a\nextra b\n'));
    assert.equal(b, c);
  });

  it('handles a created file (empty baseline) and a file without a final newline', () => {
    const [created] = computeHunks('', 'a\nb');
    assert.deepEqual([created.added, created.removed, created.curLine], [2, 0, 1]);
    assert.equal(undoHunk('a\nb', created), '');
    const [tail] = computeHunks('x\ny', 'x\nz');
    assert.equal(undoHunk('x\nz', tail), 'x\ny');
    assert.equal(keepHunk('x\ny', tail), 'x\nz');
  });

  it('preserves CRLF line endings', () => {
    const b = 'a\r\nb\r\nc\r\n';
    const c = 'a\r\nB\r\nc\r\n';
    const [h] = computeHunks(b, c);
    assert.equal(undoHunk(c, h), b);
  });
});
