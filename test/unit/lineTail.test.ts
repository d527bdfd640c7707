import assert from 'node:assert/strict';
import { LineTail } from '../../src/common/lineTail';

describe('LineTail', () => {
  it('keeps the last lines across chunk boundaries, including an unterminated one', () => {
    const t = new LineTail(3);
    t.push('one\ntw');
    t.push('o\r\nthree\n\nfour\nfi');
    assert.equal(t.text(), 'three\nfour\nfi');
  });

  it('stays bounded whatever is pushed', () => {
    const t = new LineTail(2, 10);
    for (let i = 0; i < 10_000; i++) t.push(`line ${i}\n`);
    t.push('x'.repeat(1_000_000));
    const text = t.text();
    assert.ok(text.length < 100, `kept ${text.length} chars`);
    assert.match(text, /^line 9999\nx{10}…$/);
  });
});
