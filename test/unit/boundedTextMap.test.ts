import assert from 'node:assert/strict';
import { BoundedMap, BoundedTextMap } from '../../src/common/boundedTextMap';

describe('BoundedTextMap', () => {
  it('forgets the least recently set texts beyond its budget', () => {
    const m = new BoundedTextMap(10);
    m.set('a', 'aaaa');
    m.set('b', 'bbbb');
    m.set('a', 'AAAA'); // a is now the most recent
    m.set('c', 'cccc');
    assert.equal(m.get('b'), undefined);
    assert.deepEqual([m.get('a'), m.get('c')], ['AAAA', 'cccc']);
  });

  it('does not keep a text larger than the whole budget', () => {
    const m = new BoundedTextMap(3);
    m.set('x', 'abcd');
    assert.equal(m.size, 0);
  });

  it('bounds any value by its size, not by the number of entries', () => {
    const m = new BoundedMap<{ a: string; b: string }>(100, v => v.a.length + v.b.length);
    for (let i = 0; i < 1000; i++) m.set(`k${i}`, { a: 'x', b: 'y' });
    assert.equal(m.size, 50);
    m.set('big', { a: 'a'.repeat(60), b: 'b'.repeat(30) });
    assert.equal(m.totalSize, 100);
    assert.equal(m.size, 6);
    assert.equal(m.get('k999')?.a, 'x');
    assert.equal(m.get('k993'), undefined);
  });
});
