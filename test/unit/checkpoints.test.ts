import assert from 'node:assert/strict';
import { foldersToRemove, parseRawDiff, restorePlan, restoreScope, toPrune, type TurnSpan } from '../../src/common/checkpoints/plan';

const Z = '0000000000000000000000000000000000000000';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const raw = (...entries: [string, string, string, string, string, string][]) =>
  entries.map(([om, nm, os, ns, st, p]) => `:${om} ${nm} ${os} ${ns} ${st}\0${p}\0`).join('');

describe('checkpoints: what a restore does', () => {
  const diff = raw(
    ['100644', '100644', A, B, 'M', 'src/changed.ts'],
    ['000000', '100644', Z, B, 'A', 'created since.txt'],
    ['100755', '000000', A, Z, 'D', 'bin/deleted.sh'],
    ['100644', '120000', A, B, 'T', 'link'],
    ['160000', '160000', A, B, 'M', 'vendor/nested'],
  );

  it('parses git diff-tree -z --raw, names with spaces and all', () => {
    const changes = parseRawDiff(diff);
    assert.deepEqual(changes.map(c => [c.path, c.oldMode, c.newMode]), [
      ['src/changed.ts', '100644', '100644'], ['created since.txt', null, '100644'], ['bin/deleted.sh', '100755', null],
      ['link', '100644', '120000'], ['vendor/nested', '160000', '160000'],
    ]);
    assert.equal(changes[1].oldSha, null);
    assert.deepEqual(parseRawDiff(''), []);
    assert.deepEqual(parseRawDiff('garbage\0x\0'), []);
  });

  it('writes back what the checkpoint had (bytes and mode), deletes what was created since, never touches nested repositories', () => {
    assert.deepEqual(restorePlan(parseRawDiff(diff)), [
      { op: 'write', path: 'bin/deleted.sh', sha: A, mode: '100755', existsNow: false },
      { op: 'delete', path: 'created since.txt' },
      { op: 'write', path: 'link', sha: A, mode: '100644', existsNow: true },
      { op: 'write', path: 'src/changed.ts', sha: A, mode: '100644', existsNow: true },
    ]);
  });

  it('keeps to the scope when one is given', () => {
    assert.deepEqual(restorePlan(parseRawDiff(diff), new Set(['src/changed.ts', 'not/in/diff'])).map(o => o.path), ['src/changed.ts']);
    assert.deepEqual(restorePlan(parseRawDiff(diff), new Set()), []);
  });

  it('lists the folders of deleted files deepest first', () => {
    assert.deepEqual(foldersToRemove(['a/b/c.txt', 'a/d.txt', 'top.txt', 'x/y/z/w.txt']), ['x/y/z', 'a/b', 'x/y', 'a', 'x']);
  });
});

describe('checkpoints: several conversations', () => {
  const t = (conversation: string, start: number, end: number | undefined, ...changed: string[]): TurnSpan => ({ conversation, start, end, changed });

  it('alone since the turn: everything that differs may be restored', () => {
    const s = restoreScope([t('A', 1, 2, '/w/a'), t('B', 0, 1, '/w/b'), t('A', 3, 4, '/w/c')], 'A', 1);
    assert.equal(s.paths, undefined);
    assert.equal(s.others.size, 0);
  });

  it('another conversation worked since (or during): only this conversation\'s files, naming the others that changed them', () => {
    const s = restoreScope([t('A', 1, 4, '/w/a', '/w/shared'), t('B', 2, 3, '/w/b', '/w/shared'), t('A', 5, 6, '/w/later'), t('C', 7, undefined, '/w/shared')], 'A', 1);
    assert.deepEqual([...s.paths!].sort(), ['/w/a', '/w/later', '/w/shared']);
    assert.deepEqual([...s.others], [['/w/shared', ['B', 'C']]]);
  });

  it('a turn of another conversation that was still running at the checkpoint counts; one that ended before does not', () => {
    assert.ok(restoreScope([t('B', 0, 5, '/w/b'), t('A', 2, 3, '/w/a')], 'A', 2).paths);
    assert.equal(restoreScope([t('B', 0, 1, '/w/b'), t('A', 2, 3, '/w/a')], 'A', 2).paths, undefined);
  });

  it('earlier turns of the same conversation are not in the scope', () => {
    const s = restoreScope([t('A', 1, 2, '/w/old'), t('A', 3, 6, '/w/new'), t('B', 4, 5, '/w/b')], 'A', 3);
    assert.deepEqual([...s.paths!], ['/w/new']);
  });
});

describe('checkpoints: pruning', () => {
  const day = 86_400_000;
  const now = 100 * day;
  const convs = [
    { key: 'open', checkpoints: 10 },
    { key: 'old', closedAt: now - 30 * day, checkpoints: 5 },
    { key: 'recent', closedAt: now - 1 * day, checkpoints: 5 },
    { key: 'older', closedAt: now - 60 * day, checkpoints: 5 },
  ];

  it('drops closed conversations past the age limit, never open ones', () => {
    assert.deepEqual(toPrune(convs, now, { maxAgeMs: 14 * day, maxBytes: 0 }, 1e9).sort(), ['old', 'older']);
    assert.deepEqual(toPrune(convs, now, { maxAgeMs: 0, maxBytes: 0 }, 1e9), []);
  });

  it('above the storage cap, drops closed conversations oldest first until the estimate fits', () => {
    // 25 checkpoints in 2500 bytes: 100 each. Cap 2000: dropping "older" (500) is enough.
    assert.deepEqual(toPrune(convs, now, { maxAgeMs: 0, maxBytes: 2000 }, 2500), ['older']);
    // Cap 1000: every closed one goes, and the open one stays even though it is still above.
    assert.deepEqual(toPrune(convs, now, { maxAgeMs: 0, maxBytes: 1000 }, 2500), ['older', 'old', 'recent']);
    assert.deepEqual(toPrune(convs, now, { maxAgeMs: 0, maxBytes: 3000 }, 2500), []);
  });
});
