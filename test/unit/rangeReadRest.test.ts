// A ranged read answers from a file's first bytes and reads the rest after (host/fs/rangeRead):
// the whole text it keeps must be the file the window was read from, or nothing.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chooseForm, utf8Body } from '../../src/common/fs/encoding';
import { sliceLines } from '../../src/common/fs/lines';
import { type Earlier, readRest, readWindow, stampOf, utf8BodyInSlices } from '../../src/host/fs/rangeRead';
import { mulberry32 } from '../fixtures/agent/fuzz.mjs';

const line = (i: number) => `line ${String(i).padStart(6, '0')} ünïcödé ${'x'.repeat(80)}\n`;
const text = Array.from({ length: 30_000 }, (_, i) => line(i + 1)).join('');

describe('ranged reads: the window first, the whole file after (rangeRead)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sb-range-'));
    file = path.join(dir, 'large.txt');
    await fsp.writeFile(file, text);
  });
  afterEach(async () => { await fsp.rm(dir, { recursive: true, force: true }); });

  async function windowThenRest(between?: () => Promise<void>) {
    const fh = await fsp.open(file, 'r');
    const st = await fh.stat({ bigint: true });
    const head = await readWindow(fh, Number(st.size), {}, 1000, 3);
    assert.ok(head && typeof head === 'object' && 'content' in head, 'answered from the first bytes');
    await between?.();
    const whole = await readRest(fh, Number(st.size), stampOf(st), head);
    return { content: head.content, whole: whole?.text };
  }

  it('answers the window from the first bytes, then keeps the whole file', async () => {
    const got = await windowThenRest();
    assert.equal(got.content, line(1000) + line(1001) + line(1002));
    assert.ok(got.whole === text, 'the whole text is the file');
  });

  it('keeps no whole text when the file is changed in place between the answer and the rest', async () => {
    const got = await windowThenRest(async () => {
      // Same size, line 1 only (a formatter, the agent's own tool writing in place).
      const h = await fsp.open(file, 'r+');
      await h.write(Buffer.from('LINE'), 0, 4, 0);
      await h.close();
    });
    assert.equal(got.content, line(1000) + line(1001) + line(1002));
    assert.equal(got.whole, undefined, 'what the agent saw of the rest is not known');
  });

  it('never takes a file renamed over it meanwhile for what the agent saw', async () => {
    const renamed = text.replace('line 000001', 'LINE 000001');
    const got = await windowThenRest(async () => {
      await fsp.writeFile(path.join(dir, 'new.txt'), renamed);
      await fsp.rename(path.join(dir, 'new.txt'), file);
    });
    // The file read stays open: its own bytes, or nothing (the rename changed its ctime: unlinked).
    assert.ok(got.whole === undefined || got.whole === text, 'not the file renamed over it');
  });

  it('grows past its first piece for a window further in, and finds it after a BOM as the whole text does', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await fsp.writeFile(file, Buffer.concat([bom, Buffer.from(text.replace(/\n/g, '\r\n'))]));
    const fh = await fsp.open(file, 'r');
    const size = (await fh.stat()).size;
    const whole = text.replace(/\n/g, '\r\n');
    for (const [line, limit] of [[1, 2], [2500, 3], [15_000, 5]] as const) {
      const head = await readWindow(fh, size, {}, line, limit);
      assert.ok(head && typeof head === 'object' && 'content' in head, `line ${line}: answered`);
      assert.equal(head.content, sliceLines(whole, line, limit), `line ${line}`);
      assert.equal(head.form.bom, true);
    }
    // Reaching the end, past it, or no limit: all of the file is needed.
    for (const [line, limit] of [[29_999, 5], [40_000, 2], [29_000, null]] as const) {
      const all = await readWindow(fh, size, {}, line, limit);
      assert.ok(all && typeof all === 'object' && 'bytes' in all && all.bytes.byteLength === size, `line ${line} limit ${limit}: the whole file`);
    }
    await fh.close();
  });

  it('keeps no whole text whose window is not what the agent was given', async () => {
    const fh = await fsp.open(file, 'r');
    const st = await fh.stat({ bigint: true });
    const head = await readWindow(fh, Number(st.size), {}, 1000, 3);
    assert.ok(head && typeof head === 'object' && 'content' in head);
    // As if the window's bytes changed without the stamp showing it (a write within one timestamp tick).
    const whole = await readRest(fh, Number(st.size), stampOf(st), { ...head, content: head.content.replace('line', 'LINE') });
    assert.equal(whole, undefined);
  });

  async function restWith(earlier?: Earlier) {
    const fh = await fsp.open(file, 'r');
    const st = await fh.stat({ bigint: true });
    const head = await readWindow(fh, Number(st.size), {}, 1000, 3);
    assert.ok(head && typeof head === 'object' && 'content' in head);
    return { whole: await readRest(fh, Number(st.size), stampOf(st), head, earlier), form: head.form };
  }

  it('a file touched without a change gives the text kept before; changed after the window, its own bytes, which a later rest never alters', async () => {
    const first = await restWith();
    assert.ok(first.whole);
    const earlier = { text: first.whole, form: first.form };
    // Times set to now, the bytes the same: the text kept before, not another copy.
    const now = new Date();
    await fsp.utimes(file, now, now);
    assert.equal((await restWith(earlier)).whole, first.whole);
    // The same size, a byte after the window changed: that file's own text.
    const changed = text.replace('line 020000', 'LINE 020000');
    await fsp.writeFile(file, changed);
    const second = await restWith(earlier);
    assert.ok(second.whole && second.whole !== first.whole);
    // Another file of the same size read the same way next (into the same memory) leaves both as they were read.
    const other = text.replace('line 025000', 'LINE 025000');
    await fsp.writeFile(file, other);
    const third = await restWith({ text: second.whole, form: second.form });
    assert.deepEqual([first.whole.text === text, second.whole.text === changed, third.whole?.text === other], [true, true, true]);
  });

  it('a text kept before of another size or encoding is never taken for the rest', async () => {
    const first = await restWith();
    assert.ok(first.whole);
    await fsp.writeFile(file, text + line(30_001));
    const longer = await restWith({ text: first.whole, form: first.form });
    assert.equal(longer.whole?.text, text + line(30_001));
    await fsp.writeFile(file, text);
    const bom = await restWith({ text: first.whole, form: { encoding: 'utf8', bom: true } });
    assert.ok(bom.whole && bom.whole !== first.whole && bom.whole.text === text);
  });

  it('gives no window from bytes that are not text before it, and the whole bytes when the window needs them', async () => {
    await fsp.writeFile(file, Buffer.concat([Buffer.from(line(1)), Buffer.from([0]), Buffer.from(text)]));
    const fh = await fsp.open(file, 'r');
    const size = (await fh.stat()).size;
    assert.equal(await readWindow(fh, size, {}, 1000, 3), 'not text');
    const all = await readWindow(fh, size, {}, 1000, null);
    await fh.close();
    assert.ok(all && typeof all === 'object' && 'bytes' in all && all.bytes.byteLength === size, 'a window to the end reads all of it');
  });
});

describe('utf8BodyInSlices: utf8Body, a slice at a time', () => {
  const TEXT = ['a', '\n', 'é', '日本', '😀', '\uFEFF'].map(t => Buffer.from(t));
  // A NUL, bytes never valid in UTF-8, a character cut short, a lone continuation byte.
  const NOT_TEXT = [[0], [0xff], [0xe6, 0x97], [0x80]].map(b => Buffer.from(b));

  it('decides as utf8Body does for any bytes, slice size and BOM', async () => {
    const next = mulberry32(5);
    const pick = (from: readonly Buffer[]) => from[Math.floor(next() * from.length)];
    for (let c = 0; c < 600; c++) {
      const parts: Buffer[] = [];
      const n = Math.floor(next() * 30);
      // Mostly text: the other pieces are rare, so many cases are valid as a whole.
      for (let i = 0; i < n; i++) parts.push(pick(next() < 0.06 ? NOT_TEXT : TEXT));
      const bytes = Buffer.concat(parts);
      for (const form of [chooseForm(bytes, {}), { encoding: 'utf8', bom: false } as const]) {
        const want = utf8Body(bytes, form);
        for (const slice of [1, 2, 3, 5, 7, 64]) {
          const got = await utf8BodyInSlices(bytes, form, slice);
          assert.deepEqual(got && Buffer.from(got), want && Buffer.from(want), `${bytes.toString('hex')} slice ${slice} bom ${form.bom}`);
        }
      }
    }
  });
});
