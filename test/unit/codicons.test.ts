import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codePoints, codiconGlyphs, codiconSources, fontCodePoints, pageCodicons, subsetCodiconCss, unknownCodicons, usedCodicons } from '../../scripts/codicons.mjs';

/** subset-font (it has no types), as esbuild.mjs uses it. */
const subsetFont = require('subset-font') as (font: Buffer, text: string, options: { targetFormat: 'truetype' }) => Promise<Buffer>;
const packageDist = 'node_modules/@vscode/codicons/dist';
const packageCss = fs.readFileSync(path.join(packageDist, 'codicon.css'), 'utf8');
const glyphs = codiconGlyphs(packageCss);

describe('The codicon stylesheet the pages carry (scripts/codicons.mjs)', () => {
  it('reads every glyph of the package', () => {
    assert.ok(glyphs.size > 500, `${glyphs.size} glyphs`);
    assert.match(glyphs.get('check')!, /^\.codicon-check:before \{ content: "\\[0-9a-f]{4}" \}$/);
  });

  it('keeps a glyph named whole, as a class or as a value a class is built from', () => {
    const used = usedCodicons([
      "h('span', 'codicon codicon-copy')",
      "const STATE = { busy: 'loading codicon-modifier-spin', waiting: 'bell-dot' };",
    ], glyphs);
    for (const name of ['copy', 'loading', 'bell-dot']) assert.ok(used.has(name), name);
    assert.ok(!used.has('gear'), 'a glyph no source names is left out');
  });

  it('keeps the glyphs a prefix builds with the words of its file', () => {
    const used = usedCodicons(["h('span', `codicon codicon-chevron-${open ? 'down' : 'right'}`)"], glyphs);
    assert.ok(used.has('chevron-down') && used.has('chevron-right'), [...used].join(' '));
    assert.ok(!used.has('chevron-up'));
  });

  it('names a codicon class the package has no glyph for (a typo fails the build)', () => {
    assert.deepEqual(unknownCodicons(["h('span', 'codicon codicon-chek')", "`codicon-${icon}`", "'codicon-modifier-spin'"], packageCss), ['chek']);
  });

  it('writes the font face, the base rule, the spin and only the glyphs asked for', () => {
    const css = subsetCodiconCss(packageCss, ['check', 'loading']);
    assert.match(css, /@font-face \{[^}]*url\("\.\/codicon\.ttf/);
    assert.match(css, /\.codicon\[class\*='codicon-'\] \{/);
    assert.match(css, /@keyframes codicon-spin/);
    assert.equal(css.match(/:before/g)?.length, 2);
  });

  it('reads the code points a font maps (the package font has every glyph of its stylesheet)', () => {
    const mapped = fontCodePoints(fs.readFileSync(path.join(packageDist, 'codicon.ttf')));
    const all = codePoints(packageCss, glyphs.keys());
    assert.equal(all.filter(c => !mapped.has(c)).length, 0);
    assert.ok(!mapped.has(0x41), 'no letter A in an icon font');
  });

  it("the pages' stylesheet and font have every glyph their sources name, and are a fraction of the package's", async () => {
    const { css, ttf } = await pageCodicons(fs, path, packageDist, subsetFont);
    assert.deepEqual(unknownCodicons(codiconSources(fs, path), packageCss), []);
    // Glyphs the chat draws (tool cards, tabs, plans, review lists, the welcome, the prompt box).
    const drawn = ['tools', 'check', 'error', 'circle-slash', 'loading', 'bell-dot', 'debug-disconnect', 'pass-filled', 'circle-large-outline',
      'chevron-down', 'chevron-right', 'file-media', 'cloud-download', 'folder-opened', 'shield', 'split-horizontal', 'copy', 'close'];
    for (const name of drawn) assert.ok(css.includes(`.codicon-${name}:before`), `codicon-${name} missing`);
    const mapped = fontCodePoints(ttf);
    assert.deepEqual(codePoints(packageCss, drawn).filter(c => !mapped.has(c)), [], 'glyphs the font lacks');
    assert.ok(!mapped.has(codePoints(packageCss, ['gear'])[0]), 'a glyph no page names is cut from the font');
    assert.ok(css.length < packageCss.length / 4, `${css.length} of ${packageCss.length} characters`);
    assert.ok(ttf.length < fs.statSync(path.join(packageDist, 'codicon.ttf')).size / 4, `${ttf.length} bytes`);
  });
});
