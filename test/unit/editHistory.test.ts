import assert from 'node:assert/strict';
import { Edit, EditHistory, ENTRY_OVERHEAD } from '../../src/common/review/editHistory';

const write = (path: string, before: string | null, after: string, scope = 's1') => ({ origin: 'write' as const, scope, path, before, after });
const diff = (path: string, before: string | null, after: string, scope = 'tab1') => ({ origin: 'toolDiff' as const, scope, path, before, after });

describe('EditHistory', () => {
  it('keeps writes and tool diffs in one order, each with its own id, listed by origin, scope or path', () => {
    const h = new EditHistory({ maxChars: 1e6 });
    const a = h.add(write('/w/a.txt', 'one\n', 'two\n'));
    const b = h.add(diff('/w/b.txt', null, 'new\n'), 'tab1/tool:1/0');
    const c = h.add(write('/w/a.txt', 'two\n', 'three\n', 's2'));
    assert.deepEqual(h.list().map(e => e.id), [a.id, b.id, c.id]);
    assert.ok(a.seq < b.seq && b.seq < c.seq);
    assert.deepEqual(h.list({ origin: 'write' }).map(e => e.after), ['two\n', 'three\n']);
    assert.deepEqual(h.list({ scope: 's2' }).map(e => e.id), [c.id]);
    assert.deepEqual(h.list({ path: '/w/a.txt' }).map(e => e.before), ['one\n', 'two\n']);
    assert.equal(h.byId(b.id)?.before, null);
    assert.equal(h.get('tab1/tool:1/0')?.id, b.id);
  });

  it('a later update of the same key keeps the id (an open diff follows it), takes the new texts and becomes the newest', () => {
    const h = new EditHistory({ maxChars: 1e6 });
    const forgotten: Edit[] = [];
    h.onForget(e => forgotten.push(e));
    const first = h.add(diff('/w/a.txt', 'x', 'y'), 'k');
    const other = h.add(write('/w/b.txt', 'p', 'q'));
    const updated = h.add(diff('/w/a.txt', 'x', 'z'), 'k');
    assert.equal(updated.id, first.id);
    assert.equal(h.get('k')?.after, 'z');
    assert.deepEqual(h.list().map(e => e.id), [other.id, first.id]);
    assert.deepEqual(forgotten, [], 'an update is not a loss');
    assert.equal(h.keptChars, 2 * ENTRY_OVERHEAD + 4);
  });

  it('is bounded by the size of the texts: the oldest edits are forgotten first, the newest always stays', () => {
    const h = new EditHistory({ maxChars: 2 * ENTRY_OVERHEAD + 20 });
    const forgotten: (string | null)[] = [];
    h.onForget(e => forgotten.push(e.after));
    h.add(write('/w/a', '', 'a'.repeat(10)));
    h.add(write('/w/b', '', 'b'.repeat(10)));
    assert.deepEqual(forgotten, []);
    h.add(write('/w/c', '', 'c'.repeat(10)));
    assert.deepEqual(forgotten, ['a'.repeat(10)]);
    const huge = h.add(write('/w/e', 'x'.repeat(5000), 'y'));
    assert.deepEqual(h.list().map(e => e.id), [huge.id], 'alone, over the bound, but kept');
    assert.ok(h.keptChars > 2 * ENTRY_OVERHEAD + 20);
  });

  it('a flood of tool diffs never forgets an applied write (each origin has its own budget of characters)', () => {
    const h = new EditHistory({ maxChars: 3 * ENTRY_OVERHEAD + 30 });
    const forgotten: (string | null)[] = [];
    h.onForget(e => forgotten.push(e.after));
    const w = h.add(write('/w/a', 'before', 'after'));
    for (let i = 0; i < 100; i++) h.add(diff(`/w/d${i}`, null, 'x'.repeat(10)), `k${i}`);
    assert.equal(h.byId(w.id)?.after, 'after', 'the write (its diff, its Undo) is still there');
    assert.ok(!forgotten.includes('after'));
    assert.deepEqual(h.list({ origin: 'toolDiff' }).map(e => e.path), ['/w/d97', '/w/d98', '/w/d99'], 'the tool diffs stay within their own budget');
    // And the other way round: writes do not push out tool diffs.
    for (let i = 0; i < 10; i++) h.add(write(`/w/w${i}`, '', 'y'.repeat(10)));
    assert.equal(h.list({ origin: 'toolDiff' }).length, 3);
    assert.deepEqual(h.list({ origin: 'write' }).map(e => e.path), ['/w/w7', '/w/w8', '/w/w9']);
  });

  it('bounds the number of edits of an origin without forgetting those of another', () => {
    const h = new EditHistory({ maxChars: 1e6, maxPerOrigin: { write: 2 } });
    const d = h.add(diff('/w/d', null, 'd'), 'kd');
    h.add(write('/w/1', '', '1'));
    h.add(write('/w/2', '', '2'));
    h.add(write('/w/3', '', '3'));
    assert.deepEqual(h.list().map(e => e.after), ['d', '2', '3']);
    assert.equal(h.get('kd')?.id, d.id);
  });

  it('forgets the edit of an origin least lately learnt: an updated diff counts as new, by number and by size', () => {
    const h = new EditHistory({ maxChars: 3 * ENTRY_OVERHEAD + 4, maxPerOrigin: { toolDiff: 2 } });
    const forgotten: (string | null)[] = [];
    h.onForget(e => forgotten.push(e.path));
    const w = h.add(write('/w/w', '', 'w'));
    h.add(diff('/w/1', null, '1'), 'k1');
    h.add(diff('/w/2', null, '2'), 'k2');
    h.add(diff('/w/1', null, '1b'), 'k1');
    h.add(diff('/w/3', null, '3'), 'k3');
    assert.deepEqual(forgotten, ['/w/2'], 'by number');
    h.add(write('/w/x', '', 'x'));
    h.add(write('/w/y', '', 'y'));
    h.add(write('/w/w', '', 'w2'));
    assert.deepEqual(forgotten, ['/w/2', '/w/w'], 'by size');
    assert.equal(h.byId(w.id), undefined);
    assert.deepEqual(h.list().map(e => e.path), ['/w/1', '/w/3', '/w/x', '/w/y', '/w/w']);
    assert.deepEqual(h.list({ origin: 'toolDiff' }).map(e => e.after), ['1b', '3']);
  });

  it('forgets the edits of one origin, or everything, each edit told once', () => {
    const h = new EditHistory({ maxChars: 1e6 });
    const forgotten: (string | null)[] = [];
    h.onForget(e => forgotten.push(e.id));
    const a = h.add(write('/w/a', '', 'a'));
    const b = h.add(diff('/w/b', null, 'b'), 'k');
    h.forget({ origin: 'toolDiff' });
    assert.deepEqual(h.list().map(e => e.id), [a.id]);
    h.forget();
    assert.deepEqual(forgotten, [b.id, a.id]);
    assert.equal(h.size, 0);
    assert.equal(h.keptChars, 0);
    assert.equal(h.get('k'), undefined);
  });
});
