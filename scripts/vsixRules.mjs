// What a Switchboard VSIX may hold and what its manifest must say. Pure functions, used by
// scripts/package.mjs after `vsce package` and unit-tested in test/unit/vsixRules.test.ts.

/** Files users need: the bundles, the icons, the manifest and its strings, the docs. */
const ALLOWED = [
  /^package\.json$/,
  /^package\.nls(\.[a-z]{2}(-[a-z]{2,4})?)?\.json$/i,
  /^l10n\/bundle\.l10n(\.[a-z]{2}(-[a-z]{2,4})?)?\.json$/i,
  /^(README|CHANGELOG)\.md$/,
  /^LICENSE(\.txt)?$/,
  /^dist\/[\w-]+\.js$/,
  /^dist\/webview\/[\w-]+\.(js|css|ttf)$/,
  /^media\/(icon\.png|activity\.svg|registry-snapshot\.json)$/,
  /^media\/walkthrough\/[\w-]+\.md$/,
];
const REQUIRED = ['package.json', 'dist/main.js', 'dist/extension.js', 'dist/acp-sdk.js', 'dist/iconv-lite.js', 'dist/registry.js', 'dist/tar.js', 'dist/yauzl.js', 'dist/webview/chat.js', 'dist/webview/markdown.js', 'media/icon.png', 'media/registry-snapshot.json', 'README.md', 'LICENSE'];

/** Why a listed file must not ship, or '' when it may. */
function reasonAgainst(file) {
  if (/\.map$/.test(file)) return 'a source map';
  if (/^(src|webview|test|bench|scripts|docs|out|\.ci|\.vscode|\.vscode-test|node_modules)\//.test(file)) return 'sources, tests, docs for contributors or tooling';
  if (/^\.[^/]+$/.test(file) || /^(CONTRIBUTING\.md|tsconfig\.json|esbuild\.mjs|package-lock\.json)$/.test(file)) return 'a development file';
  if (/\.(ts|tsx|mts|cts)$/.test(file)) return 'a TypeScript source';
  if (/\.vsix$/.test(file) || /^dist-vsix\//.test(file)) return 'a packaged VSIX';
  if (/^media\/screenshots\//.test(file)) return 'a README screenshot (the README links it from GitHub)';
  return ALLOWED.some(re => re.test(file)) ? '' : 'not on the allow-list in scripts/vsixRules.mjs';
}

/** Problems with the list of files `vsce ls` prints (paths relative to the extension root). */
export function checkListing(files) {
  const problems = [];
  for (const f of files) {
    const why = reasonAgainst(f);
    if (why) problems.push(`${f}: ${why}`);
  }
  for (const f of REQUIRED) if (!files.includes(f)) problems.push(`${f}: missing`);
  return problems;
}

/**
 * Problems with the webview's scripts: every `./x.js` a shipped dist/webview/*.js imports
 * (statically or with import(), e.g. chat.js's import('./markdown.js')) must ship too.
 * `read(file)` returns a listed file's text.
 */
export function checkWebviewImports(files, read) {
  const problems = [];
  for (const f of files.filter(f => /^dist\/webview\/[\w-]+\.js$/.test(f))) {
    const text = read(f);
    const names = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']\.\/([\w-]+\.js)["']/g)].map(m => m[1]);
    for (const n of new Set(names)) if (!files.includes(`dist/webview/${n}`)) problems.push(`${f} imports ./${n}, which the VSIX does not hold`);
  }
  return problems;
}

const URL_FIELDS = ['homepage', 'bugs', 'repository'];
/** The categories the VS Code Marketplace accepts (anything else is dropped from the listing). */
export const MARKETPLACE_CATEGORIES = ['AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps',
  'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Other', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing',
  'Themes', 'Visualization'];
const urlOf = v => (typeof v === 'string' ? v : v?.url);
const isUrl = v => { try { return !!new URL(String(v).replace(/^git\+/, '')).host; } catch { return false; } };
// Control, format, unassigned, private-use and line/paragraph separators (what Open VSX refuses).
const BAD_CHARS = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\u2028\u2029]/u;

/** Replaces `%key%` placeholders by their package.nls.json text (what the galleries show). */
export function localize(value, nls) {
  if (typeof value === 'string') {
    const m = /^%(.+)%$/.exec(value);
    return m && typeof nls[m[1]] === 'string' ? nls[m[1]] : value;
  }
  if (Array.isArray(value)) return value.map(v => localize(v, nls));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localize(v, nls)]));
  return value;
}

/** Every `%key%` in the manifest that package.nls.json does not define. */
export function missingNlsKeys(manifest, nls) {
  const keys = [...JSON.stringify(manifest).matchAll(/"%([^"%]+)%"/g)].map(m => m[1]);
  return [...new Set(keys.filter(k => typeof nls[k] !== 'string'))];
}

/**
 * Problems Open VSX (ExtensionValidator: name, version, field sizes and characters, URLs, gallery
 * banner) or the VS Code Marketplace (icon, categories, activation) would raise, checked offline,
 * and what a good listing needs besides (keywords, a bugs link, a Q&A link).
 * `manifest` is package.json as packaged; `nls` its package.nls.json; `icon` the icon's bytes as
 * packaged (undefined: the file the manifest names is not in the package).
 */
export function checkManifest(manifest, nls = {}, icon) {
  const problems = [];
  for (const k of missingNlsKeys(manifest, nls)) problems.push(`%${k}% has no text in package.nls.json`);
  const m = localize(manifest, nls);
  const name = /^[\w\-+$~]+$/;
  if (!m.publisher || !name.test(m.publisher)) problems.push(`publisher: '${m.publisher ?? ''}' is not a valid namespace`);
  if (!m.name || !name.test(m.name)) problems.push(`name: '${m.name ?? ''}' is not a valid extension name`);
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(m.version ?? '')) problems.push(`version: '${m.version ?? ''}' is not a semantic version`);
  if (!m.license) problems.push('license: missing (Open VSX refuses unlicensed extensions)');
  if (!m.engines?.vscode) problems.push('engines.vscode: missing');
  for (const [field, limit] of [['displayName', 255], ['description', 2048], ['license', 255]]) {
    const v = m[field];
    if (typeof v !== 'string' || !v.trim()) { if (field !== 'license') problems.push(`${field}: missing`); continue; }
    if (v.length > limit) problems.push(`${field}: longer than ${limit} characters`);
    if (BAD_CHARS.test(v)) problems.push(`${field}: contains a control or unassigned character`);
  }
  for (const field of ['categories', 'keywords']) {
    if (!Array.isArray(m[field]) || !m[field].length) problems.push(`${field}: missing (the galleries list and find the extension by them)`);
    for (const v of Array.isArray(m[field]) ? m[field] : []) {
      if (typeof v !== 'string' || v.length > 255 || BAD_CHARS.test(v)) problems.push(`${field}: invalid entry ${JSON.stringify(v)}`);
    }
  }
  for (const c of Array.isArray(m.categories) ? m.categories : []) {
    if (typeof c === 'string' && !MARKETPLACE_CATEGORIES.includes(c)) problems.push(`categories: '${c}' is not a Marketplace category (${MARKETPLACE_CATEGORIES.join(', ')})`);
  }
  if ((m.keywords ?? []).length > 30) problems.push('keywords: more than 30 (the Marketplace keeps 30)');
  // Q&A: the listing's "Q & A" link. "marketplace" is the Marketplace's own Q&A (Open VSX has none), a URL points elsewhere.
  if (m.qna === undefined) problems.push('qna: missing (the listing\'s Q & A link: a URL such as the repository\'s discussions, "marketplace", or false)');
  else if (m.qna !== false && m.qna !== 'marketplace' && !(typeof m.qna === 'string' && /^https:\/\//.test(m.qna) && isUrl(m.qna))) {
    problems.push(`qna: '${m.qna}' is not an https URL, "marketplace" or false`);
  }
  for (const field of URL_FIELDS) {
    const v = urlOf(m[field]);
    if (!v) problems.push(`${field}: missing`);
    else if (!isUrl(v) || v.length > 255) problems.push(`${field}: '${v}' is not a URL`);
  }
  const banner = m.galleryBanner;
  if (!banner) problems.push('galleryBanner: missing');
  else {
    if (!/^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(banner.color ?? '')) problems.push(`galleryBanner.color: '${banner.color}' is not a #rgb colour`);
    if (!['dark', 'light'].includes(banner.theme)) problems.push(`galleryBanner.theme: '${banner.theme}' is not dark or light`);
  }
  if (!m.icon) problems.push('icon: missing (the galleries show a placeholder)');
  else if (!/\.png$/i.test(m.icon)) problems.push('icon: must be a PNG (the Marketplace refuses SVG icons)');
  if (m.icon && !icon) problems.push(`icon: ${m.icon} is not in the package`);
  if (icon) {
    const png = icon.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const w = png ? icon.readUInt32BE(16) : 0, h = png ? icon.readUInt32BE(20) : 0;
    if (!png) problems.push('icon: not a PNG file');
    else if (w !== h || w < 128) problems.push(`icon: ${w}x${h}, must be square and at least 128x128`);
  }
  // Since VS Code 1.74 views, commands and webview panels activate the extension implicitly; an
  // explicit `*` or `onStartupFinished` would load it in every window.
  for (const e of m.activationEvents ?? []) {
    if (!/^(onView|onCommand|onWebviewPanel):/.test(e)) problems.push(`activationEvents: '${e}' activates more than the views and commands`);
  }
  return problems;
}

/** Images of the packaged README that a gallery could not show (relative, not https, SVG). */
export function checkReadmeImages(markdown) {
  const problems = [];
  const srcs = [
    ...[...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map(m => m[1]),
    ...[...markdown.matchAll(/<img[^>]+src=["']([^"']+)["']/g)].map(m => m[1]),
  ];
  for (const src of srcs) {
    if (!/^https:\/\//.test(src)) problems.push(`README image '${src}' is not an absolute https URL`);
    else if (/\.svg$/i.test(src)) problems.push(`README image '${src}' is an SVG (galleries refuse them)`);
  }
  return { images: srcs, problems };
}
