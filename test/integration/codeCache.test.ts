// In a real VS Code the extension is loaded through dist/main.js, which compiles the bundle with
// V8's code cache (src/boot/codeCache.ts): once activated, the cache is made beside the bundle.
// (That it is then used, and never a damaged or stale one, is proven in test/unit/codeCache.test.ts.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { api, extensionRoot, waitFor } from './helpers';

describe('Activation through the entry point with V8\'s code cache', () => {
  it('activates from dist/main.js, and the code cache of the bundle is made beside it', async () => {
    await api();
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot(), 'package.json'), 'utf8')) as { main: string };
    assert.equal(manifest.main, './dist/main.js');
    const dist = path.join(extensionRoot(), 'dist');
    const cache = await waitFor('the code cache beside dist/extension.js', () => fs.readdirSync(dist).find(n => /^extension\.js\.[0-9a-f]{16}\..+\.cache$/.test(n)));
    assert.ok(fs.statSync(path.join(dist, cache)).size > 64 * 1024, 'a cache of the whole bundle');
  });
});
