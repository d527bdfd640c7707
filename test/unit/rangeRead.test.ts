// A ranged read of a large file answers from the bytes of its lines (sliceUtf8Lines), its whole
// text decoded only when needed (LazyText): it must give exactly what the whole-text path gives.
import assert from 'node:assert/strict';
import { BoundedTextMap } from '../../src/common/boundedTextMap';
import { chooseForm, decodeBytes, decodeUtf8, formOf, utf8Body } from '../../src/common/fs/encoding';
import { LazyText, textOf } from '../../src/common/fs/lazyText';
import { sliceUtf8Lines, utf8WindowIn } from '../../src/common/fs/byteLines';
import { sliceLines } from '../../src/common/fs/lines';

/** A small seeded generator: the same cases on every run. */
function rng(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const PIECES = ['a', 'line', ' ', '\n', '\r\n', '\r', 'é', '日本', '😀', '\t', '\u2028', 'x'.repeat(40)];

/** Up to `most` pieces drawn by `next`: mixed line endings and characters of every UTF-8 length. */
function randomText(next: () => number, most: number): string {
  let text = '';
  const n = Math.floor(next() * most);
  for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

describe('ranged reads from bytes (sliceUtf8Lines)', () => {
  it('gives what sliceLines gives on the decoded text, for any line endings, characters and window', () => {
    const next = rng(7);
    for (let c = 0; c < 400; c++) {
      const text = randomText(next, 60);
      const bytes = Buffer.from(text, 'utf8');
      for (const [line, limit] of [[1, 1], [2, 3], [0, null], [5, null], [3, 0], [1, 100], [40, 2], [null, 4], [Math.ceil(next() * 20), Math.ceil(next() * 5)]] as const) {
        assert.equal(sliceUtf8Lines(bytes, line, limit), sliceLines(text, line, limit), `${JSON.stringify(text)} line ${line} limit ${limit}`);
      }
    }
  });

  it('finds a window in the first bytes only when the rest cannot change it (utf8WindowIn)', () => {
    const next = rng(11);
    for (let c = 0; c < 300; c++) {
      const text = randomText(next, 40);
      const bytes = Buffer.from(text, 'utf8');
      const [line, limit] = [Math.ceil(next() * 6), Math.floor(next() * 4)];
      const whole = sliceUtf8Lines(bytes, line, limit);
      // Cut at every byte: a final answer there is the whole text's window.
      for (let cut = 0; cut <= bytes.length; cut++) {
        const at = utf8WindowIn(bytes.subarray(0, cut), cut === bytes.length, line, limit);
        if (at === 'more') continue;
        const got = at ? Buffer.from(bytes.subarray(at[0], at[1])).toString('utf8') : '';
        assert.equal(got, whole, `${JSON.stringify(text)} cut ${cut} line ${line} limit ${limit}`);
      }
      assert.notEqual(utf8WindowIn(bytes, true, line, limit), 'more');
    }
    // Without a limit the window runs to the end: never final before all of it is read.
    assert.equal(utf8WindowIn(Buffer.from('a\nb\nc\n'), false, 2, null), 'more');
  });

  it('reads line 1000 of a large file', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ünïcode\n`).join('');
    assert.equal(sliceUtf8Lines(Buffer.from(text), 1000, 2), 'line 1000 ünïcode\nline 1001 ünïcode\n');
  });
});

describe('utf8Body: the text bytes exactly when decodeBytes finds UTF-8 text', () => {
  const cases: [string, Uint8Array][] = [
    ['plain', Buffer.from('a\nb\n')],
    ['with a BOM', Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0a])],
    ['a NUL byte', Buffer.from([0x61, 0x00, 0x62])],
    ['not valid UTF-8', Buffer.from([0x61, 0xff, 0x62])],
    ['a UTF-16 BOM', Buffer.from([0xff, 0xfe, 0x61, 0x00])],
    ['empty', new Uint8Array()],
  ];
  for (const [name, bytes] of cases) {
    it(name, () => {
      const form = chooseForm(bytes, {});
      const data = decodeBytes(bytes, form);
      const body = utf8Body(bytes, form);
      assert.equal(body === undefined ? undefined : decodeUtf8(body), data.kind === 'text' && form.encoding === 'utf8' ? data.text : undefined);
    });
  }

  it('never for another encoding, even when its bytes are valid UTF-8', () => {
    assert.equal(utf8Body(Buffer.from('abc'), formOf('latin1')), undefined);
  });
});

describe('LazyText', () => {
  it('decodes once, when first asked, and is counted by its bytes', () => {
    let decodes = 0;
    const lazy = new LazyText(Buffer.from('héllo'), b => { decodes++; return decodeUtf8(b); });
    assert.equal(lazy.length, 6);
    assert.equal(decodes, 0);
    assert.equal(textOf(lazy), 'héllo');
    assert.equal(lazy.text, 'héllo');
    assert.equal(decodes, 1);
  });

  it('a BoundedTextMap keeps it undecoded and gives its text back', () => {
    const map = new BoundedTextMap(100);
    let decodes = 0;
    map.set('a', new LazyText(Buffer.from('x'.repeat(60)), b => { decodes++; return decodeUtf8(b); }));
    map.set('b', 'y'.repeat(30));
    assert.equal(decodes, 0);
    assert.equal(map.get('a'), 'x'.repeat(60));
    map.set('c', 'z'.repeat(20));
    assert.equal(map.get('a'), undefined, 'over the budget: the oldest goes');
    assert.equal(map.totalSize, 50);
  });
});
