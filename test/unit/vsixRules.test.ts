import assert from 'node:assert/strict';
import fs from 'node:fs';
import { checkListing, checkManifest, checkReadmeImages, checkWebviewImports, missingNlsKeys } from '../../scripts/vsixRules.mjs';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const nls = JSON.parse(fs.existsSync('package.nls.json') ? fs.readFileSync('package.nls.json', 'utf8') : '{}');
const icon = fs.readFileSync('media/icon.png');
const shipped = ['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'dist/main.js', 'dist/extension.js', 'dist/acp-sdk.js', 'dist/iconv-lite.js',
  'dist/registry.js', 'dist/tar.js', 'dist/yauzl.js', 'dist/webview/chat.js', 'dist/webview/markdown.js', 'dist/webview/chat.css', 'dist/webview/codicon.ttf', 'media/icon.png', 'media/activity.svg',
  'media/registry-snapshot.json'];

describe('VSIX contents', () => {
  it('accepts the bundles, icons, manifest and docs', () => assert.deepEqual(checkListing(shipped), []));

  it('refuses source maps, sources, tests and screenshots, naming each', () => {
    const problems = checkListing([...shipped, 'dist/extension.js.map', 'src/extension.ts', 'test/unit/fs.test.ts', 'media/screenshots/chat-dark.png', 'notes.txt']);
    assert.deepEqual(problems.map(p => p.split(':')[0]), ['dist/extension.js.map', 'src/extension.ts', 'test/unit/fs.test.ts', 'media/screenshots/chat-dark.png', 'notes.txt']);
  });

  it('refuses what only contributors need: docs, dotfiles, the lock file, the build script', () => {
    const dev = ['docs/architecture.md', 'docs/decisions/0001-acp-v1-only.md', 'CONTRIBUTING.md', '.nvmrc', '.vscodeignore', 'package-lock.json', 'esbuild.mjs', 'tsconfig.json'];
    assert.deepEqual(checkListing([...shipped, ...dev]).map(p => p.split(':')[0]), dev);
    assert.match(checkListing([...shipped, '.nvmrc'])[0], /\.nvmrc: a development file/);
  });

  it('says which required file is missing', () => {
    assert.deepEqual(checkListing(shipped.filter(f => f !== 'dist/acp-sdk.js')), ['dist/acp-sdk.js: missing']);
    // The registry's offline snapshot and the archive libraries Add Agent… loads on first use.
    assert.deepEqual(checkListing(shipped.filter(f => !/registry-snapshot|tar\.js/.test(f))), ['dist/tar.js: missing', 'media/registry-snapshot.json: missing']);
  });

  it('the markdown renderer (loaded on first need) is required', () => {
    assert.deepEqual(checkListing(shipped.filter(f => f !== 'dist/webview/markdown.js')), ['dist/webview/markdown.js: missing']);
  });

  it('every script a webview script imports ships with it', () => {
    const sources: Record<string, string> = {
      // What esbuild writes, minified or not.
      'dist/webview/chat.js': '(()=>{async function f(){return import("./markdown.js")}})();',
      'dist/webview/markdown.js': 'import{a as ar}from"./helpers.js";\nimport {\n  b\n} from "./more.js";',
    };
    const read = (f: string) => sources[f] ?? '';
    assert.deepEqual(checkWebviewImports([...shipped, 'dist/webview/helpers.js'], read), ['dist/webview/markdown.js imports ./more.js, which the VSIX does not hold']);
    assert.deepEqual(checkWebviewImports(shipped, read), [
      'dist/webview/markdown.js imports ./helpers.js, which the VSIX does not hold',
      'dist/webview/markdown.js imports ./more.js, which the VSIX does not hold',
    ]);
    const noRenderer = shipped.filter(f => f !== 'dist/webview/markdown.js');
    assert.deepEqual(checkWebviewImports(noRenderer, read), ['dist/webview/chat.js imports ./markdown.js, which the VSIX does not hold']);
  });
});

describe('gallery manifest checks', () => {
  it('the project manifest passes', () => assert.deepEqual(checkManifest(manifest, nls, icon), []));

  it('every %key% of the manifest has its text in package.nls.json', () => assert.deepEqual(missingNlsKeys(manifest, nls), []));

  it('refuses what Open VSX or the Marketplace refuse', () => {
    const bad = { ...manifest, name: 'has space', version: 'latest', license: '', galleryBanner: { color: 'blue', theme: 'grey' },
      activationEvents: ['onStartupFinished'], homepage: 'not a url', displayName: 'tab\there' };
    const problems = checkManifest(bad, nls, icon).map(p => p.split(':')[0]);
    for (const field of ['name', 'version', 'license', 'galleryBanner.color', 'galleryBanner.theme', 'activationEvents', 'homepage', 'displayName']) {
      assert.ok(problems.includes(field), `${field} in ${problems.join(', ')}`);
    }
  });

  it('refuses a small or non-PNG icon and an undefined %key%', () => {
    const small = Buffer.from(icon); small.writeUInt32BE(64, 16); small.writeUInt32BE(64, 20);
    assert.match(checkManifest(manifest, nls, small).join('\n'), /icon: 64x64/);
    assert.match(checkManifest(manifest, nls, Buffer.from('<svg/>')).join('\n'), /icon: not a PNG/);
    assert.match(checkManifest({ ...manifest, description: '%nope%' }, nls, icon).join('\n'), /%nope% has no text/);
  });

  it('names what the listing lacks: categories, keywords, a Q&A link, a bugs link, an icon, the icon file', () => {
    const { categories, keywords, qna, bugs, icon: _icon, ...bare } = manifest;
    const problems = checkManifest(bare, nls, undefined);
    for (const text of ['categories: missing', 'keywords: missing', 'qna: missing', 'bugs: missing', 'icon: missing']) {
      assert.ok(problems.some(p => p.startsWith(text)), `${text} in ${problems.join('\n')}`);
    }
    assert.deepEqual(checkManifest(manifest, nls, undefined), ['icon: media/icon.png is not in the package']);
  });

  it('refuses a category the Marketplace does not have and a Q&A link that is not a URL', () => {
    assert.deepEqual(checkManifest({ ...manifest, categories: ['AI', 'Agents'] }, nls, icon).map(p => p.split(' (')[0]),
      ["categories: 'Agents' is not a Marketplace category"]);
    assert.deepEqual(checkManifest({ ...manifest, qna: 'discussions' }, nls, icon), [`qna: 'discussions' is not an https URL, "marketplace" or false`]);
    assert.deepEqual(checkManifest({ ...manifest, qna: 'marketplace' }, nls, icon), []);
    assert.deepEqual(checkManifest({ ...manifest, qna: false }, nls, icon), []);
  });

  it('README images must be absolute https and not SVG', () => {
    const { images, problems } = checkReadmeImages('![a](media/a.png) ![b](https://x.org/b.svg) <img src="https://x.org/c.png">');
    assert.equal(images.length, 3);
    assert.equal(problems.length, 2);
  });
});

describe('release version', () => {
  it('the clientInfo agents see carries the version of package.json', () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    const source = fs.readFileSync('src/acp/agentConnection.ts', 'utf8');
    assert.match(source, new RegExp(`CLIENT_INFO[^\\n]*version: '${version.replace(/\./g, '\\.')}'`));
    const changelog = fs.readFileSync('CHANGELOG.md', 'utf8');
    assert.match(changelog, new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'), 'CHANGELOG has the release entry');
  });
});
