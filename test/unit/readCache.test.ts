import assert from 'node:assert/strict';
import { FileStamp, FileTextCache, sameStamp, settled } from '../../src/common/fs/readCache';

const NOW = 1_700_000_000_000; // epoch ms
const ns = (ms: number) => BigInt(ms) * 1_000_000n;
const stamp = (over: Partial<FileStamp> = {}): FileStamp => ({
  dev: 1n, ino: 42n, size: 10n, mtimeNs: ns(NOW - 60_000), ctimeNs: ns(NOW - 60_000), ...over,
});

describe('FileTextCache (texts kept between reads)', () => {
  it('serves a text again only for the very same stamp', () => {
    const c = new FileTextCache(1000);
    c.set('/f', stamp(), NOW, 'hello');
    assert.equal(c.get('/f', stamp())?.text, 'hello');
    for (const changed of [{ size: 11n }, { ino: 43n }, { dev: 2n }, { mtimeNs: ns(NOW - 60_000) + 1n }, { ctimeNs: ns(NOW - 59_999) }]) {
      c.set('/f', stamp(), NOW, 'hello');
      assert.equal(c.get('/f', stamp(changed)), undefined, JSON.stringify(changed, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
      assert.equal(c.size, 0, 'a mismatch forgets the entry');
    }
  });

  it('does not keep the text of a file written less than the margin before its stat (same-tick writes could leave the same stamp)', () => {
    const c = new FileTextCache(1000, 3000);
    c.set('/recent-mtime', stamp({ mtimeNs: ns(NOW - 100) }), NOW, 'a');
    c.set('/recent-ctime', stamp({ ctimeNs: ns(NOW - 100) }), NOW, 'b'); // mtime set back with utimes
    c.set('/future', stamp({ mtimeNs: ns(NOW + 5000), ctimeNs: ns(NOW + 5000) }), NOW, 'c'); // a clock ahead of ours
    assert.equal(c.size, 0);
    assert.equal(c.get('/recent-mtime', stamp({ mtimeNs: ns(NOW - 100) })), undefined);
    c.set('/old', stamp({ mtimeNs: ns(NOW - 3000), ctimeNs: ns(NOW - 3000) }), NOW, 'd');
    assert.equal(c.get('/old', stamp({ mtimeNs: ns(NOW - 3000), ctimeNs: ns(NOW - 3000) }))?.text, 'd');
  });

  it('replaces a kept text with an unsettled newer one by forgetting it', () => {
    const c = new FileTextCache(1000);
    c.set('/f', stamp(), NOW, 'old');
    const fresh = stamp({ mtimeNs: ns(NOW), ctimeNs: ns(NOW) });
    assert.equal(c.set('/f', fresh, NOW, 'new').text, 'new');
    assert.equal(c.get('/f', stamp()), undefined);
    assert.equal(c.get('/f', fresh), undefined);
  });

  it('stays within its budget of characters, forgetting the oldest first', () => {
    const c = new FileTextCache(10);
    c.set('/a', stamp(), NOW, 'aaaaaa');
    c.set('/b', stamp(), NOW, 'bbbbbb');
    assert.equal(c.get('/a', stamp()), undefined);
    assert.equal(c.get('/b', stamp())?.text, 'bbbbbb');
    c.set('/huge', stamp(), NOW, 'x'.repeat(11));
    assert.equal(c.get('/huge', stamp()), undefined);
  });

  it('counts hits and misses', () => {
    const c = new FileTextCache(100);
    c.get('/f', stamp());
    c.set('/f', stamp(), NOW, 't');
    c.get('/f', stamp());
    assert.deepEqual([c.hits, c.misses], [1, 1]);
  });

  it('sameStamp and settled', () => {
    assert.ok(sameStamp(stamp(), stamp()));
    assert.ok(!sameStamp(stamp(), stamp({ ctimeNs: 1n })));
    assert.ok(settled(stamp(), NOW));
    assert.ok(!settled(stamp({ ctimeNs: ns(NOW - 2999) }), NOW, 3000));
  });
});
