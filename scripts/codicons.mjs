// The codicon stylesheet the chat's page carries, cut to the glyphs our pages use (decision 0033).
// @vscode/codicons' codicon.css has a rule per glyph (~650, 34 KB), written into every chat page;
// our pages use a few dozen. esbuild.mjs writes dist/webview/codicon.css from the package's CSS and
// the glyph names found in the sources of the pages (webview/ and the HTML in src/views/).
//
// The font (codicon.ttf, 126 KB) is cut to the same glyphs (subset-font, HarfBuzz's subsetter), and
// the build checks the cut font maps each used glyph's code point.
//
// A name is "used" when a source file holds it as a whole word (`'check'`, a map's value such as
// `busy: 'loading codicon-modifier-spin'`) or as a class (`codicon-check`): more than is used (a
// word like `file` in a comment keeps its glyph), never less, as long as names are written whole. A
// name built from a prefix (`codicon-chevron-${open ? 'down' : 'right'}`) is the prefix joined with
// each word of the file. A `codicon-<name>` that is no glyph of the package (a typo, a glyph
// removed) fails the build.

/** The package's glyph names, each with its rule (`.codicon-x:before { content: "\eb01" }`). */
export function codiconGlyphs(css) {
  const glyphs = new Map();
  for (const m of css.matchAll(/^\.codicon-([a-z0-9-]+):before\s*\{[^}]*\}/gm)) glyphs.set(m[1], m[0]);
  return glyphs;
}

/** The classes of the package's CSS that are not glyphs (`modifier-spin`, …). */
function modifiers(css) {
  return new Set([...css.matchAll(/\.codicon-(modifier-[a-z0-9-]+)/g)].map(m => m[1]));
}

const WORD = /[a-z0-9]+(?:-[a-z0-9]+)*/g;

/** The glyph names `sources` (the files' texts) use, of the package's `glyphs`. */
export function usedCodicons(sources, glyphs) {
  const used = new Set();
  for (const text of sources) {
    const words = new Set(text.match(WORD) ?? []);
    for (const w of words) if (glyphs.has(w)) used.add(w);
    for (const m of text.matchAll(/codicon-([a-z0-9]+(?:-[a-z0-9]+)*)/g)) if (glyphs.has(m[1])) used.add(m[1]);
    for (const m of text.matchAll(/codicon-((?:[a-z0-9]+-)+)\$\{/g)) {
      for (const w of words) if (glyphs.has(m[1] + w)) used.add(m[1] + w);
    }
  }
  return used;
}

/** Each `codicon-<name>` written whole in `sources` that is neither a glyph nor a modifier of `css`. */
export function unknownCodicons(sources, css) {
  const glyphs = codiconGlyphs(css);
  const mods = modifiers(css);
  const unknown = new Set();
  for (const text of sources) {
    for (const m of text.matchAll(/codicon-([a-z0-9]+(?:-[a-z0-9]+)*)(-?\$\{)?/g)) {
      if (!m[2] && !glyphs.has(m[1]) && !mods.has(m[1])) unknown.add(m[1]);
    }
  }
  return [...unknown].sort();
}

/**
 * The package's stylesheet with only the glyphs in `used`: its head (the font face, the base rule,
 * the modifiers) as it is, comments and indentation dropped, then one rule per used glyph.
 */
export function subsetCodiconCss(css, used) {
  const glyphs = codiconGlyphs(css);
  const first = css.search(/^\.codicon-[a-z0-9-]+:before/m);
  const head = css.slice(0, first).replace(/\/\*[\s\S]*?\*\//g, '').replace(/\n\s*/g, '\n').replace(/\n{2,}/g, '\n').trim();
  return `${head}\n${[...used].sort().map(n => glyphs.get(n)).join('\n')}\n`;
}

/** The code point of each glyph in `used` (from its rule's `content: "\eb01"`). */
export function codePoints(css, used) {
  const glyphs = codiconGlyphs(css);
  return [...used].map(n => {
    const m = /content:\s*"\\([0-9a-f]+)"/i.exec(glyphs.get(n) ?? '');
    if (!m) throw new Error(`no code point for codicon-${n}`);
    return parseInt(m[1], 16);
  });
}

/** The code points a TrueType font's cmap maps to a glyph (subtables of format 4 and 12). */
export function fontCodePoints(ttf) {
  const view = new DataView(ttf.buffer, ttf.byteOffset, ttf.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const rec = 12 + i * 16;
    if (String.fromCharCode(...ttf.subarray(rec, rec + 4)) === 'cmap') cmap = view.getUint32(rec + 8);
  }
  if (cmap < 0) throw new Error('the font has no cmap table');
  const points = new Set();
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const sub = cmap + view.getUint32(cmap + 4 + i * 8 + 4);
    const format = view.getUint16(sub);
    if (format === 4) {
      const segs = view.getUint16(sub + 6) / 2;
      const ends = sub + 14, starts = ends + segs * 2 + 2, deltas = starts + segs * 2, offsets = deltas + segs * 2;
      for (let k = 0; k < segs; k++) {
        const end = view.getUint16(ends + k * 2), start = view.getUint16(starts + k * 2);
        const delta = view.getInt16(deltas + k * 2), offset = view.getUint16(offsets + k * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          const glyph = offset === 0 ? (c + delta) & 0xffff : view.getUint16(offsets + k * 2 + offset + (c - start) * 2);
          if (glyph !== 0) points.add(c);
        }
      }
    } else if (format === 12) {
      for (let k = 0; k < view.getUint32(sub + 12); k++) {
        const g = sub + 16 + k * 12;
        for (let c = view.getUint32(g); c <= view.getUint32(g + 4); c++) points.add(c);
      }
    }
  }
  return points;
}

/** The texts of the files whose pages use codicons: webview/ (scripts, stylesheets) and the HTML in src/views/. */
export function codiconSources(fs, path, root = '.') {
  const files = [];
  for (const dir of ['webview', 'src/views']) {
    for (const f of fs.readdirSync(path.join(root, dir))) if (/\.(ts|css)$/.test(f)) files.push(path.join(root, dir, f));
  }
  return files.sort().map(f => fs.readFileSync(f, 'utf8'));
}

/**
 * dist/webview/codicon.css's text and codicon.ttf's bytes for the sources under `root`, from the
 * package's folder (`dist` of @vscode/codicons) and `subsetFont` (the subset-font package); throws
 * naming each `codicon-<name>` the package has no glyph for, or a used glyph the cut font lacks.
 */
export async function pageCodicons(fs, path, packageDist, subsetFont, root = '.') {
  const packageCss = fs.readFileSync(path.join(packageDist, 'codicon.css'), 'utf8');
  const sources = codiconSources(fs, path, root);
  const unknown = unknownCodicons(sources, packageCss);
  if (unknown.length) throw new Error(`no codicon named ${unknown.map(n => `codicon-${n}`).join(', ')} in @vscode/codicons (webview/ or src/views/)`);
  const used = usedCodicons(sources, codiconGlyphs(packageCss));
  const points = codePoints(packageCss, used);
  const ttf = await subsetFont(fs.readFileSync(path.join(packageDist, 'codicon.ttf')), String.fromCodePoint(...points), { targetFormat: 'truetype' });
  const mapped = fontCodePoints(ttf);
  const lost = points.filter(c => !mapped.has(c));
  if (lost.length) throw new Error(`the cut codicon font lacks ${lost.map(c => `U+${c.toString(16)}`).join(', ')}`);
  return { css: subsetCodiconCss(packageCss, used), ttf };
}
