import assert from 'node:assert/strict';
import * as iconv from 'iconv-lite';
import { bomEncoding, bytesOf, chooseForm, decodeBytes, encodeText, encodingLabel, FileData, formOf, idOf, looksBinary, sameData } from '../../src/common/fs/encoding';
import { TurnChanges } from '../../src/common/review/turnChanges';

const b = (...xs: number[]) => Uint8Array.from(xs);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const text = (d: FileData) => (d.kind === 'text' ? d.text : assert.fail(`expected text, got ${d.kind} (${d.reason})`));

describe('encoding: which encoding VS Code uses for a file', () => {
  it('a BOM names UTF-8, UTF-16 LE or BE', () => {
    assert.equal(bomEncoding(b(0xef, 0xbb, 0xbf, 0x61)), 'utf8');
    assert.equal(bomEncoding(b(0xff, 0xfe, 0x61, 0)), 'utf16le');
    assert.equal(bomEncoding(b(0xfe, 0xff, 0, 0x61)), 'utf16be');
    assert.equal(bomEncoding(b(0x61, 0x62)), undefined);
    assert.equal(bomEncoding(b()), undefined);
  });

  it('the open document wins, then the BOM, then files.encoding (UTF-8 by default)', () => {
    const sjis = iconv.encode('日本', 'shiftjis');
    assert.deepEqual(chooseForm(sjis, { document: 'shiftjis', configured: 'utf8' }), { encoding: 'shiftjis', bom: false });
    assert.deepEqual(chooseForm(b(0xff, 0xfe, 0x61, 0), { configured: 'windows1252' }), { encoding: 'utf16le', bom: true });
    assert.deepEqual(chooseForm(sjis, { configured: 'shiftjis' }), { encoding: 'shiftjis', bom: false });
    assert.deepEqual(chooseForm(sjis, {}), { encoding: 'utf8', bom: false });
    // A document VS Code shows as UTF-8 with BOM, and one it shows as UTF-8 though the bytes have a BOM.
    assert.deepEqual(chooseForm(b(0xef, 0xbb, 0xbf, 0x61), { document: 'utf8bom' }), { encoding: 'utf8', bom: true });
    assert.deepEqual(chooseForm(b(0xef, 0xbb, 0xbf, 0x61), { document: 'utf8' }), { encoding: 'utf8', bom: true });
  });

  it('files.encoding "utf8bom" reads a file without BOM as UTF-8 (and keeps it without)', () => {
    assert.deepEqual(chooseForm(b(0x61), { configured: 'utf8bom' }), { encoding: 'utf8', bom: false });
  });

  it('VS Code ids and forms: utf8bom is UTF-8 with a BOM, UTF-16 is written with one', () => {
    assert.deepEqual(formOf('utf8bom'), { encoding: 'utf8', bom: true });
    assert.deepEqual(formOf('utf16le'), { encoding: 'utf16le', bom: true });
    assert.deepEqual(formOf('windows1252'), { encoding: 'windows1252', bom: false });
    assert.equal(idOf({ encoding: 'utf8', bom: true }), 'utf8bom');
    assert.equal(encodingLabel('utf8bom'), 'UTF-8');
    assert.equal(encodingLabel('shiftjis'), 'shiftjis');
  });
});

describe('encoding: binary detection', () => {
  it('NUL bytes make a file binary, except in UTF-16', () => {
    assert.equal(looksBinary(PNG, 'utf8'), true);
    assert.equal(looksBinary(PNG, 'windows1252'), true);
    assert.equal(looksBinary(b(0x61, 0, 0x62, 0), 'utf16le'), false);
    assert.equal(looksBinary(b(0x61, 0x62), 'utf8'), false);
  });

  it('a PNG is binary in any 8-bit encoding; its bytes are kept as they are', () => {
    const d = decodeBytes(PNG, { encoding: 'utf8', bom: false });
    assert.equal(d.kind, 'binary');
    assert.equal(d.kind === 'binary' && d.reason, 'binary');
    assert.ok(Buffer.from(bytesOf(d)).equals(PNG));
  });

  it('bytes not valid in the encoding are never decoded (no U+FFFD replacement)', () => {
    const bad = b(0x6f, 0x6b, 0x0a, 0xc3, 0x28, 0x0a);
    const d = decodeBytes(bad, { encoding: 'utf8', bom: false });
    assert.deepEqual([d.kind, d.kind === 'binary' && d.reason], ['binary', 'encoding']);
    assert.ok(Buffer.from(bytesOf(d)).equals(Buffer.from(bad)));
    // Odd-length UTF-16 does not come back byte for byte (its last byte would be lost).
    assert.equal(decodeBytes(b(0xff, 0xfe, 0x61, 0x00, 0x62), formOf('utf16le')).kind, 'binary');
    // Windows-1252 has five unassigned bytes.
    assert.equal(decodeBytes(b(0x61, 0x81, 0x62), formOf('windows1252')).kind, 'binary');
    // A form that expects a BOM the bytes lack.
    assert.equal(decodeBytes(b(0x61, 0x00), formOf('utf16le')).kind, 'binary');
  });

  it('an unknown encoding id is binary, not a guess', () => {
    assert.equal(decodeBytes(b(0x61), { encoding: 'nosuchcodepage', bom: false }).kind, 'binary');
  });
});

describe('encoding: byte-for-byte round trips', () => {
  const cases: [string, string, Uint8Array][] = [
    ['windows1252', 'Café crème — «ok»\r\nnaïve\n', iconv.encode('Café crème — «ok»\r\nnaïve\n', 'windows1252')],
    ['shiftjis', '日本語のテキスト\n二行目\n', iconv.encode('日本語のテキスト\n二行目\n', 'shiftjis')],
    ['gbk', '中文文本\r\n第二行\r\n', iconv.encode('中文文本\r\n第二行\r\n', 'gbk')],
    ['utf16le', 'Grüße ✓\r\n', iconv.encode('Grüße ✓\r\n', 'utf16le', { addBOM: true })],
    ['utf16be', 'Grüße ✓\n', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('Grüße ✓\n', 'utf16be')])],
    ['utf8bom', 'héllo\n', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\n')])],
    ['utf8', 'mixed\r\nline endings\nkept\r', Buffer.from('mixed\r\nline endings\nkept\r')],
  ];
  for (const [id, expected, bytes] of cases) {
    it(`${id}: decodes to the text, and its text encodes to the same bytes`, () => {
      const d = decodeBytes(bytes, chooseForm(bytes, { configured: id }));
      assert.equal(text(d), expected);
      assert.equal(idOf(d.kind === 'text' ? d.form : formOf('utf8')), id);
      assert.ok(d.kind === 'text' && Buffer.from(encodeText({ text: expected, form: d.form })).equals(Buffer.from(bytes)));
    });
  }

  it('the same text in two encodings is not the same content', () => {
    const a: FileData = { kind: 'text', text: 'é', form: formOf('utf8') };
    const c: FileData = { kind: 'text', text: 'é', form: formOf('windows1252') };
    assert.equal(sameData(a, c), false);
    assert.equal(sameData(a, { kind: 'binary', bytes: Buffer.from('é'), reason: 'encoding', encoding: 'utf8' }), true);
    assert.equal(sameData(null, null), true);
    assert.equal(sameData(a, null), false);
  });
});

describe('TurnChanges: binary changes', () => {
  it('are listed without hunks, kept and undone whole', () => {
    const t = new TurnChanges('t1');
    t.record('/w/p.png', 'QUJD', 'REVG', { binary: true });
    assert.deepEqual(t.view(), [{ path: '/w/p.png', kind: 'modified', binary: true, added: 0, removed: 0, hunks: [] }]);
    assert.deepEqual(t.undo('/w/p.png', 'h0'), { text: 'QUJD' }, 'a hunk id undoes the whole file');
    assert.equal(t.isEmpty, true);
  });

  it('a later report keeps the first baseline and how the file is stored', () => {
    const t = new TurnChanges('t1');
    t.record('/w/a.txt', 'café\n', 'cafe\n', { form: formOf('windows1252') });
    t.record('/w/a.txt', 'cafe\n', 'cafés\n');
    assert.deepEqual(t.get('/w/a.txt'), { path: '/w/a.txt', baseline: 'café\n', current: 'cafés\n', form: { encoding: 'windows1252', bom: false } });
  });

  it('a user edit of a binary change moves its current bytes, never rebasing the baseline', () => {
    const t = new TurnChanges('t1');
    t.record('/w/p.bin', 'QUJD', 'REVG', { binary: true });
    t.updateCurrent('/w/p.bin', 'R0hJ');
    assert.deepEqual(t.get('/w/p.bin'), { path: '/w/p.bin', baseline: 'QUJD', current: 'R0hJ', binary: true });
  });
});
