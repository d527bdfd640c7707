import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { plainInline, plainText } from '../../src/common/plainMarkdown';
import { lastBlockBoundary, MARKDOWN_OPTIONS } from '../../webview/markdown';
import { burstUpdates } from '../fixtures/agent/burst.mjs';
import { fuzzLines, mulberry32 } from '../fixtures/agent/fuzz.mjs';

const md = new MarkdownIt(MARKDOWN_OPTIONS);

/** What the plain path shows, as markdown-it would write it. */
const asHtml = (paragraphs: readonly string[]) => paragraphs.map(p => `<p>${md.utils.escapeHtml(p)}</p>\n`).join('');

/** Every text taken as plain renders exactly as markdown-it renders it, and freezes at the same place while it streams. */
function checkSame(texts: Iterable<string>): { plain: number; total: number } {
  let plain = 0, total = 0;
  for (const text of texts) {
    total++;
    const p = plainText(text);
    if (!p) continue;
    plain++;
    assert.equal(asHtml(p.paragraphs), md.render(text), `rendered alike: ${JSON.stringify(text)}`);
    assert.equal(p.lastBlockBoundary, lastBlockBoundary(text), `frozen alike: ${JSON.stringify(text)}`);
  }
  return { plain, total };
}

/** Every string inside a JSON value. */
function* strings(v: unknown): Generator<string> {
  if (typeof v === 'string') yield v;
  else if (Array.isArray(v)) for (const x of v) yield* strings(x);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) yield* strings(x);
}

describe('plainText (agent text shown without markdown-it)', () => {
  it('takes text without markdown, as markdown-it renders it', () => {
    const texts = ['', '   ', 'hello', 'line 0 of call 1\nline 1 of call 1', 'Step 0: looking at file0.\n', ' lead and trail \n  two\n', 'a\n\nb\n\n\nc d', 'para 1\n\npara 2\n\npara 3 still stream',
      'quotes "x" and \'y\' (paren) 50% $5 {a} ^', 'e\u0301 \u05E9\u05DC\u05D5\u05DD \u{1F469}\u200D\u{1F4BB} a\u200Bb \uD83D', 'ends with a dot.', 'a 1 b\n2 c', 'colon: then space'];
    for (const t of texts) assert.ok(plainText(t), `plain: ${JSON.stringify(t)}`);
    assert.deepEqual(plainText(' lead and trail \n  two\n')?.paragraphs, ['lead and trail\ntwo']);
    assert.deepEqual(checkSame(texts), { plain: texts.length, total: texts.length });
  });

  it('leaves to markdown-it every text that may hold markdown or a link', () => {
    const texts = ['**b**', '_i_', '`c`', '# h', '> q', '- x', '+ x', '* x', '1. x', '2) x', 'a\n---', 'a\n===', '    code', '\tcode', 'a  \nb', 'a\\\nb', '[l](u)', '![i](u)',
      '<b>', '&amp;', 'a | b\n--|--', '~~s~~', 'see file.md', 'http://x', 'mailto:a', 'a@b.c', '//host', 'localhost:80', '1.2.3.4', 'x\u00a0y', '\uFEFFx', 'a\u2028b', 'a\r\nb', 'nul\0'];
    for (const t of texts) assert.equal(plainText(t), undefined, `markdown: ${JSON.stringify(t)}`);
  });

  it('renders like markdown-it over the burst and fuzz generators\' texts and random ones', () => {
    const burst = [...burstUpdates({ kind: 'tools', count: 300 }), ...burstUpdates({ kind: 'varied', count: 3000 })].flatMap(u => [...strings(u)]);
    const b = checkSame(burst);
    assert.ok(b.plain > b.total / 3, `most burst texts take the plain path (${b.plain} of ${b.total})`);
    const fuzz: string[] = [];
    for (const line of fuzzLines({ seed: 7, count: 3000, sessionId: 's', cwd: '/w' })) {
      if (typeof line !== 'string') continue;
      try { fuzz.push(...strings(JSON.parse(line))); } catch { fuzz.push(line); }
    }
    checkSame(fuzz);
    // Random texts over the characters that matter to the rule.
    const rnd = mulberry32(23);
    const alphabet = ['a', 'b', '1', '9', ' ', ' ', '  ', '\n', '\n\n', '.', ':', '-', '+', '=', ')', '(', '"', "'", '/', 'é', '\u200B', 'x.y', ' 1. ', '    '];
    const random = Array.from({ length: 10000 }, () => Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(''));
    const r = checkSame(random);
    assert.ok(r.plain > 500, `random texts taken as plain: ${r.plain}`);
  });
});

describe('plainInline (a title shown without markdown-it)', () => {
  it('takes one line without markdown, as markdown-it renders it inline', () => {
    for (const t of ['Run step 12', 'Read a file', ' spaced  out ', 'colon: yes', 'e\u0301 \u{1F469}\u200D\u{1F4BB}']) {
      assert.ok(plainInline(t), JSON.stringify(t));
      assert.equal(md.renderInline(t), md.utils.escapeHtml(t));
    }
    for (const t of ['Read `README.md`', 'a\nb', '**x**', 'see x.md', 'http://x', '&amp;', 'a\\*']) assert.equal(plainInline(t), false, JSON.stringify(t));
    const rnd = mulberry32(5);
    const alphabet = ['a', ' ', '  ', '.', ':', '(', '"', '/', 'é', '\u200B', '\u00a0', '-', '1.', '#'];
    for (let n = 0; n < 5000; n++) {
      const t = Array.from({ length: 1 + Math.floor(rnd() * 10) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      if (plainInline(t)) assert.equal(md.renderInline(t), md.utils.escapeHtml(t), JSON.stringify(t));
    }
  });
});
