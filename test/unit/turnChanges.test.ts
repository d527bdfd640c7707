import assert from 'node:assert/strict';
import { TurnChanges } from '../../src/common/review/turnChanges';

describe('TurnChanges', () => {
  it('names the child agent that changed a file, and keeps the name across later changes', () => {
    const t = new TurnChanges('t1');
    t.record('/a', 'one\n', 'two\n');
    t.attribute('/a', 'Writer');
    t.record('/a', 'two\n', 'three\n');
    t.attribute('/a', 'Other');
    assert.equal(t.view()[0].by, 'Writer');
  });

  it('keeps the first baseline of a file across several changes in a turn', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'one\n', 'two\n');
    t.record('/w/a.txt', 'two\n', 'three\n');
    assert.deepEqual(t.get('/w/a.txt'), { path: '/w/a.txt', baseline: 'one\n', current: 'three\n' });
    assert.deepEqual(t.view().map(v => [v.kind, v.added, v.removed]), [['modified', 1, 1]]);
  });

  it('forgets a file whose change was reverted by the agent itself', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'x\n', 'y\n');
    t.record('/w/a.txt', 'y\n', 'x\n');
    assert.equal(t.isEmpty, true);
  });

  it('keeps some hunks and undoes others, then nothing is pending', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'a\nb\nc\nd\ne\n', 'A\nb\nc\nd\nE\n');
    const [first, second] = t.hunks('/w/a.txt');
    t.keep('/w/a.txt', first.id);
    const undone = t.undo('/w/a.txt', t.hunks('/w/a.txt')[0].id);
    assert.deepEqual(undone, { text: 'A\nb\nc\nd\ne\n' });
    assert.equal(t.isEmpty, true);
    assert.ok(second);
  });

  it('undoing all of a created file deletes it; undoing a deletion restores the file', () => {
    const t = new TurnChanges('t1');
    t.record('/w/new.txt', null, 'hello\n');
    t.record('/w/gone.txt', 'keep me\n', null);
    assert.deepEqual(t.view().map(v => v.kind), ['created', 'deleted']);
    assert.deepEqual(t.undo('/w/new.txt', t.hunks('/w/new.txt')[0].id), { text: null });
    assert.deepEqual(t.undo('/w/gone.txt'), { text: 'keep me\n' });
    assert.equal(t.isEmpty, true);
  });

  it('keeping all of a created file settles it', () => {
    const t = new TurnChanges('t1');
    t.record('/w/new.txt', null, 'hello\n');
    t.keep('/w/new.txt', t.hunks('/w/new.txt')[0].id);
    assert.equal(t.isEmpty, true);
  });

  it("carries the user's later edits into the baseline, so Undo (even of the whole file) keeps them", () => {
    const t = new TurnChanges('t1');
    const base = 'a\nb\nc\nd\ne\nf\n';
    t.record('/w/a.txt', base, base.replace('e\n', 'AGENT\n'));
    t.updateCurrent('/w/a.txt', 'USER\nb\nc\nd\nAGENT\nf\n');
    assert.deepEqual(t.hunks('/w/a.txt').map(h => h.addedText), ['AGENT\n'], 'only the agent change is listed');
    assert.deepEqual(t.undo('/w/a.txt'), { text: 'USER\nb\nc\nd\ne\nf\n' });
  });

  it('an edit on top of the agent change stays part of it', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'x\ny\n', 'x\nY\n');
    t.updateCurrent('/w/a.txt', 'x\nYY\n');
    assert.deepEqual(t.undo('/w/a.txt'), { text: 'x\ny\n' });
  });

  it('round-trips through JSON for a window reload', () => {
    const t = new TurnChanges('t9');
    t.record('/w/a.txt', 'a\n', 'b\n');
    const again = new TurnChanges('t9', JSON.parse(JSON.stringify(t.pending())));
    assert.deepEqual(again.pending(), t.pending());
  });

  it('rebase: a better-known baseline replaces the one listed, and the hunks follow', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'one\nTWO\n', 'ONE\nTWO\n');
    t.rebase('/w/a.txt', 'one\ntwo\n');
    assert.deepEqual(t.get('/w/a.txt'), { path: '/w/a.txt', baseline: 'one\ntwo\n', current: 'ONE\nTWO\n' });
    assert.deepEqual(t.view().map(v => [v.added, v.removed]), [[2, 2]]);
    t.rebase('/w/a.txt', 'ONE\nTWO\n');
    assert.equal(t.get('/w/a.txt'), undefined, 'nothing left once the baseline is the current text');
  });

  it('undoPlan: what an undo makes of the file, the list unchanged until undo (an undo that cannot be written leaves it as it was)', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'a\n', 'A\n');
    t.record('/w/b.txt', 'one\ntwo\nthree\nfour\nfive\nsix\n', 'ONE\ntwo\nthree\nfour\nfive\nSIX\n');
    t.record('/w/c.txt', null, 'new\n');
    const listed = t.pending();
    const [first, last] = t.hunks('/w/b.txt').map(h => h.id);
    assert.deepEqual(t.undoPlan('/w/a.txt'), { text: 'a\n', leaves: true });
    assert.deepEqual(t.undoPlan('/w/b.txt', first), { text: 'one\ntwo\nthree\nfour\nfive\nSIX\n', leaves: false });
    assert.deepEqual(t.undoPlan('/w/c.txt'), { text: null, leaves: true });
    assert.deepEqual(t.undoPlan('/w/c.txt', t.hunks('/w/c.txt')[0].id), { text: null, leaves: true }, 'the last hunk of a created file deletes it');
    assert.equal(t.undoPlan('/w/b.txt', 'no-such-hunk'), undefined);
    assert.deepEqual(t.pending(), listed, 'nothing changed by planning');
    // undo then does what the plan said, and the file leaves the list when the plan said so.
    assert.deepEqual(t.undo('/w/b.txt', first), { text: 'one\ntwo\nthree\nfour\nfive\nSIX\n' });
    assert.deepEqual(t.undoPlan('/w/b.txt', t.hunks('/w/b.txt').find(h => h.id !== first)?.id ?? last), { text: 'one\ntwo\nthree\nfour\nfive\nsix\n', leaves: true });
  });
});
