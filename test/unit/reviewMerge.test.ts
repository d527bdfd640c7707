import assert from 'node:assert/strict';
import { merge3, mergeRegions, resolveLines } from '../../src/common/fs/merge';
import { ReviewMerge } from '../../src/common/fs/reviewMerge';

const numbered = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');
const labels = { ours: 'yours', theirs: 'agent' };

describe('merge: touching changes (the review\'s rule)', () => {
  it('reports a line the user appended right after the agent\'s rewritten last line as a conflict', () => {
    const base = 'a\nb\n';
    const ours = 'a\nb\nappended\n';
    const theirs = 'a\nB\n';
    assert.deepEqual(merge3(base, ours, theirs).conflicts, [], 'without touching: merged side by side');
    const r = merge3(base, ours, theirs, 'theirs', { touching: true });
    assert.equal(r.conflicts.length, 1);
    assert.deepEqual([r.conflicts[0].ours, r.conflicts[0].theirs], ['b\nappended\n', 'B\n']);
  });

  it('reports the issue\'s case: line 1 changed by both, a new last line by the user, in a one-line file', () => {
    const r = merge3('line 1\n', 'user 1\nuser 2\n', 'agent 1\n', 'theirs', { touching: true });
    assert.equal(r.conflicts.length, 1);
    assert.equal(r.conflicts[0].ours, 'user 1\nuser 2\n');
  });

  it('keeps the user\'s last line apart from a conflict on line 1 when lines lie between them', () => {
    const regions = mergeRegions('line 1\nline 2\nline 3\n', 'user 1\nline 2\nline 3\nuser 4\n', 'agent 1\nline 2\nline 3\n', { touching: true });
    assert.deepEqual(regions.map(r => r.kind), ['conflict', 'clean']);
    assert.deepEqual(regions[1], { kind: 'clean', lines: ['line 2\n', 'line 3\n', 'user 4\n'] });
  });

  it('an insertion at the very end of a file without a final newline: "both" never glues two lines', () => {
    const base = 'a\nb';
    const ours = 'a\nb\nc';
    const theirs = 'a\nB';
    const r = merge3(base, ours, theirs, 'both', { touching: true });
    assert.equal(r.conflicts.length, 1);
    assert.equal(r.text, 'a\nb\nc\nB');
    assert.deepEqual(resolveLines({ ours: ['x'], theirs: ['y\r\n'] }, 'both'), ['x\r\n', 'y\r\n']);
  });

  it('settles each conflict by a function of its sides', () => {
    const base = numbered(9);
    const ours = base.replace('line 2\n', 'u2\n').replace('line 8\n', 'u8\n');
    const theirs = base.replace('line 2\n', 'a2\n').replace('line 8\n', 'a8\n');
    const r = merge3(base, ours, theirs, (_c, i) => (i === 0 ? 'ours' : 'theirs'));
    assert.equal(r.text, base.replace('line 2\n', 'u2\n').replace('line 8\n', 'a8\n'));
  });
});

describe('ReviewMerge: a review that follows the buffer', () => {
  const base = numbered(8);
  const agent = base.replace('line 2\n', 'agent 2\n');

  it('proposes the agent\'s text while the user has not typed, and there is nothing to decide', () => {
    const m = new ReviewMerge(base, agent, base, labels);
    assert.equal(m.proposed, agent);
    assert.equal(m.result, agent);
    assert.equal(m.unresolved, 0);
  });

  it('keeps typing elsewhere in the proposal', () => {
    const m = new ReviewMerge(base, agent, base, labels);
    assert.ok(m.update(base.replace('line 6\n', 'user 6\n')));
    assert.equal(m.result, agent.replace('line 6\n', 'user 6\n'));
    assert.equal(m.proposed, m.result);
    assert.ok(!m.update(m.ours), 'the same text is no change');
  });

  it('shows an overlap between markers, has no result until the user chooses, and applies each choice', () => {
    const m = new ReviewMerge(base, agent, base, labels);
    m.update(base.replace('line 2\n', 'user 2\n'));
    assert.equal(m.unresolved, 1);
    assert.equal(m.result, undefined);
    assert.equal(m.proposed, base.replace('line 2\n', '<<<<<<< yours\nuser 2\n=======\nagent 2\n>>>>>>> agent\n'));
    assert.deepEqual([m.conflicts[0].startLine, m.conflicts[0].endLine], [1, 6]);
    for (const [choice, line] of [['ours', 'user 2\n'], ['theirs', 'agent 2\n'], ['both', 'user 2\nagent 2\n']] as const) {
      assert.ok(m.resolve(0, choice));
      assert.equal(m.result, base.replace('line 2\n', line));
      assert.equal(m.proposed, m.result);
      assert.equal(m.conflicts[0].resolution, choice);
    }
    assert.ok(m.resolve(0, undefined));
    assert.equal(m.result, undefined, 'reopened');
    assert.ok(!m.resolve(5, 'ours'));
  });

  it('keeps a choice while the user types elsewhere, and asks again after typing inside the conflict', () => {
    const m = new ReviewMerge(base, agent, base.replace('line 2\n', 'user 2\n'), labels);
    m.resolve(0, 'both');
    m.update(base.replace('line 2\n', 'user 2\n').replace('line 7\n', 'user 7\n'));
    assert.equal(m.result, base.replace('line 2\n', 'user 2\nagent 2\n').replace('line 7\n', 'user 7\n'));
    m.update(base.replace('line 2\n', 'user two\n').replace('line 7\n', 'user 7\n'));
    assert.equal(m.unresolved, 1);
    assert.equal(m.result, undefined);
  });

  it('uses the file\'s CRLF in its markers, and a final line without newline stays one line', () => {
    const b = 'a\r\nb';
    const m = new ReviewMerge(b, 'a\r\nB', 'a\r\nbee', labels);
    assert.equal(m.proposed, 'a\r\n<<<<<<< yours\r\nbee\r\n=======\r\nB\r\n>>>>>>> agent\r\n');
    m.resolve(0, 'theirs');
    assert.equal(m.result, 'a\r\nB');
  });

  it('a new file: base and ours empty, the agent\'s content proposed', () => {
    const m = new ReviewMerge('', 'new\n', '', labels);
    assert.equal(m.result, 'new\n');
  });
});
