import assert from 'node:assert/strict';
import { structuredPatch } from 'diff';
import { compactDiff } from '../../src/common/diffPreview';
import { mulberry32 } from '../fixtures/agent/fuzz.mjs';

/** The old and new texts a preview's lines (with `@@` headers, all lines shown) describe, as line lists. */
function sides(lines: readonly string[]): { old: string[]; new: string[]; oldStart: number; newStart: number } {
  const head = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[0]);
  assert.ok(head, `a hunk header: ${lines[0]}`);
  const body = lines.slice(1);
  assert.ok(!body.some(l => l.startsWith('@@')), 'one hunk');
  const old = body.filter(l => l[0] !== '+').map(l => l.slice(1));
  const neu = body.filter(l => l[0] !== '-').map(l => l.slice(1));
  assert.equal(old.length, Number(head[2]), 'old line count in the header');
  assert.equal(neu.length, Number(head[4]), 'new line count in the header');
  return { old, new: neu, oldStart: Number(head[1]), newStart: Number(head[3]) };
}

const text = (lines: string[]) => lines.map(l => `${l}\n`).join('');

describe('compactDiff (the diff card\'s preview)', () => {
  it('a small change is the minimal diff, as the diff library gives it', () => {
    const before = text(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const after = text(['a', 'b', 'c', 'D', 'e', 'f', 'g', 'h', 'i']);
    const p = compactDiff(before, after);
    assert.deepEqual([p.added, p.removed], [2, 1]);
    const patch = structuredPatch('a', 'b', before, after, '', '', { context: 3 });
    assert.deepEqual(p.lines, patch.hunks.flatMap(h => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]));
  });

  it('a rewrite too different for the minimal diff is one true hunk: shared first and last lines kept as context', () => {
    const random = mulberry32(7);
    const word = () => Math.floor(random() * 1e9).toString(36);
    const shared = ['first', 'second', 'third', 'fourth'];
    const end = ['end 1', 'end 2'];
    const oldMiddle = Array.from({ length: 3000 }, word);
    const newMiddle = Array.from({ length: 2500 }, word);
    const before = text([...shared, ...oldMiddle, ...end]);
    const after = text([...shared, ...newMiddle, ...end]);
    assert.equal(structuredPatch('a', 'b', before, after, '', '', { maxEditLength: 2000 }), undefined, 'beyond the minimal diff\'s bound');
    const p = compactDiff(before, after);
    assert.deepEqual([p.added, p.removed], [2500, 3000]);
    assert.ok(p.truncated && p.lines.length === 40, 'bounded');
    // The same function with every line shown describes the texts exactly.
    const all = compactDiff(text(['x', ...shared, 'old', ...end]), text(['x', ...shared, 'new 1', 'new 2', ...end]));
    const s = sides(all.lines);
    assert.deepEqual(s.old, ['second', 'third', 'fourth', 'old', 'end 1', 'end 2']);
    assert.deepEqual(s.new, ['second', 'third', 'fourth', 'new 1', 'new 2', 'end 1', 'end 2']);
    assert.equal(s.oldStart, 3);
  });

  it('a long rewrite\'s hunk is true at the edges: nothing shared, text added to an empty file, and line ends kept', () => {
    // These go through the fallback only past the bound: build texts that are, with small edges.
    const random = mulberry32(11);
    const many = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 1e9).toString(36));
    const a = many(2100), b = many(2100);
    const p = compactDiff(text(a), text(b));
    assert.deepEqual([p.added, p.removed, p.lines[0]], [2100, 2100, '@@ -1,2100 +1,2100 @@']);
    const created = compactDiff('', text(b));
    assert.deepEqual([created.added, created.removed, created.lines[0]], [2100, 0, '@@ -0,0 +1,2100 @@']);
    const crlf = compactDiff(a.join('\r\n'), a.join('\n'));
    assert.equal(crlf.removed, 2099, 'a line that differs by its \\r is changed (the last line has none in either)');
  });

  it('the same texts again give the same preview without diffing again', () => {
    const before = text(Array.from({ length: 500 }, (_, i) => `line ${i}`));
    const after = before.replace('line 250', 'line two hundred fifty');
    const first = compactDiff(before, after);
    assert.equal(compactDiff(before.slice(0), `${after}`), first, 'equal texts: the preview made for them');
    assert.notEqual(compactDiff(before, after, { lineNumbers: false }), first, 'another form: its own preview');
    assert.notEqual(compactDiff(`${before}x\n`, after), first, 'another old text: its own preview');
  });
});
