import assert from 'node:assert/strict';
import { BoundedTextMap } from '../../src/common/boundedTextMap';

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
});
