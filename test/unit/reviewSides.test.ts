import assert from 'node:assert/strict';
import { UTF8 } from '../../src/common/fs/encoding';
import { asSides, binaryData, sideIn, sideOf, textData } from '../../src/common/review/sides';

const LATIN1 = { encoding: 'iso88591', bom: false };

describe('The sides of a reviewed change (sides.ts)', () => {
  it('two texts in one encoding are a text change; anything else is kept as bytes (base64)', () => {
    assert.deepEqual(asSides(textData('a\n', LATIN1), textData('b\n', LATIN1)), { before: 'a\n', after: 'b\n', how: { form: LATIN1 } });
    assert.deepEqual(asSides(null, textData('new\n', UTF8)), { before: null, after: 'new\n', how: { form: UTF8 } });
    const mixed = asSides(binaryData(new Uint8Array([0, 255])), textData('x', UTF8));
    assert.deepEqual(mixed, { before: 'AP8=', after: 'eA==', how: { binary: true } });
    assert.deepEqual(asSides(textData('a', UTF8), textData('a', LATIN1)).how, { binary: true }, 'a change of encoding is a change of bytes');
  });

  it('a side stands for its content, and a content fits a change only in its form', () => {
    const text = { path: '/w/a', baseline: 'a\n', current: 'b\n', form: LATIN1 };
    assert.deepEqual(sideOf(text, 'b\n'), textData('b\n', LATIN1));
    assert.equal(sideOf(text, null), null);
    assert.equal(sideIn(text, textData('c\n', LATIN1)), 'c\n');
    assert.equal(sideIn(text, textData('c\n', UTF8)), undefined, 'text in another encoding');
    assert.equal(sideIn(text, binaryData(new Uint8Array([1]))), undefined, 'bytes in a text change');
    const bin = { path: '/w/b', baseline: 'AP8=', current: 'eA==', binary: true };
    assert.deepEqual(sideOf(bin, 'AP8='), binaryData(Buffer.from([0, 255])));
    assert.equal(sideIn(bin, textData('x', UTF8)), 'eA==');
  });
});
