import assert from 'node:assert/strict';
import { fitJsonTail, jsonExceeds, jsonStringBytes } from '../../src/common/jsonSize';

const real = (s: string) => Buffer.byteLength(JSON.stringify(s));

describe('jsonSize', () => {
  const samples = ['', 'plain', 'quote " and \\ backslash', 'ctrl \u0000\u0001\u001f\b\f\n\r\t', 'é ü €', '😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\ud83d', 'x\ud83d\ude00\ud83d'];

  it('counts exactly what JSON.stringify produces', () => {
    for (const s of samples) assert.equal(jsonStringBytes(s), real(s), JSON.stringify(s));
    const binary = new TextDecoder().decode(Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256));
    assert.equal(jsonStringBytes(binary), real(binary));
  });

  it('binary output decoded as text grows about 2.4 times as JSON', () => {
    const bytes = Uint8Array.from({ length: 1_000_000 }, () => Math.floor(Math.random() * 256));
    const ratio = jsonStringBytes(new TextDecoder().decode(bytes)) / bytes.length;
    assert.ok(ratio > 2 && ratio < 3, `ratio ${ratio}`);
  });

  it('keeps the longest tail that fits, never half a surrogate pair', () => {
    const s = 'ab"\n😀😀cd\u0001';
    for (let max = 2; max <= real(s) + 2; max++) {
      const { text, cut } = fitJsonTail(s, max);
      assert.ok(real(text) <= max || !cut && real(s) <= max, `max ${max}: ${JSON.stringify(text)}`);
      assert.ok(s.endsWith(text));
      assert.equal(cut, text !== s);
      assert.ok(!/^[\udc00-\udfff]/.test(text), 'starts with a low surrogate');
      // One more unit (or pair) from the front would not fit.
      if (cut) {
        const more = s.slice(s.length - text.length - (/[\udc00-\udfff]/.test(s[s.length - text.length - 1]) ? 2 : 1));
        assert.ok(real(more) > max, `max ${max}: ${JSON.stringify(more)} would fit too`);
      }
    }
  });

  it('jsonExceeds agrees with the exact count', () => {
    for (const s of samples) for (const max of [0, 5, real(s) - 1, real(s), real(s) + 1]) {
      assert.equal(jsonExceeds(s, max), real(s) > max, `${JSON.stringify(s)} ${max}`);
    }
  });
});
