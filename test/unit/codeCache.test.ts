// The entry point loads the bundle with V8's code cache (src/boot/codeCache.ts): the module must be
// exactly what require() gives (same object in require's cache, its own require), with or without
// a cache, and a cache that does not fit is refused, never run.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheFileOf, loadWithCodeCache } from '../../src/boot/codeCache';

describe('loading the bundle with V8\'s code cache', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-codecache-'));
    file = path.join(dir, 'bundle.js');
    fs.writeFileSync(path.join(dir, 'dep.js'), 'exports.twice = n => 2 * n;\n');
    // A unique body per test: V8's in-process compilation cache cannot stand in for the file's.
    fs.writeFileSync(file, `const { twice } = require('./dep.js');\nconst p = require('node:path');\nexports.info = () => ({ twice: twice(21), file: __filename, dir: __dirname, base: p.basename(__filename), self: module.exports === exports, tag: ${JSON.stringify(dir)} });\nexports.lazy = function () { return Array.from({ length: 3 }, (_, i) => i * i).join(','); };\n`);
  });
  afterEach(() => {
    delete require.cache[file];
    delete require.cache[path.join(dir, 'dep.js')];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const info = (exports: unknown) => (exports as { info(): Record<string, unknown> }).info();
  const forget = () => { delete require.cache[file]; };

  it('loads the module as require() does, then from the cache it made', () => {
    const first = loadWithCodeCache(file, module);
    assert.equal(first.cache, 'none');
    assert.deepEqual(info(first.exports), { twice: 42, file, dir, base: 'bundle.js', self: true, tag: dir });
    assert.equal(require(file), first.exports, 'the same module object in require\'s cache');
    assert.equal((first.exports as { lazy(): string }).lazy(), '0,1,4');
    assert.equal(first.saveCache(), true);
    assert.ok(fs.statSync(cacheFileOf(file, fs.readFileSync(file, 'utf8'))).size > 0, 'the cache is beside the bundle');
    forget();
    const second = loadWithCodeCache(file, module);
    assert.equal(second.cache, 'used');
    assert.deepEqual(info(second.exports), info(first.exports));
    assert.equal(second.saveCache(), false, 'a cache that was used is not written again');
  });

  it('never runs the code of an earlier bundle of the same length', () => {
    const first = loadWithCodeCache(file, module);
    assert.equal(first.saveCache(), true);
    forget();
    // Rebuilt in place, one character changed: V8 itself only compares the source's length.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('i * i', 'i + i'));
    const rebuilt = loadWithCodeCache(file, module);
    assert.equal(rebuilt.cache, 'none');
    assert.equal((rebuilt.exports as { lazy(): string }).lazy(), '0,2,4', 'the new bundle\'s code');
    assert.equal(rebuilt.saveCache(), true);
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.cache')), [path.basename(cacheFileOf(file, fs.readFileSync(file, 'utf8')))], 'only the current bundle\'s cache is kept');
  });

  it('refuses a cache that does not fit (damaged) and makes it again', () => {
    fs.writeFileSync(cacheFileOf(file, fs.readFileSync(file, 'utf8')), Buffer.from('not a code cache at all'.repeat(10)));
    const damaged = loadWithCodeCache(file, module);
    assert.equal(damaged.cache, 'rejected');
    assert.equal(info(damaged.exports).twice, 42);
    assert.equal(damaged.saveCache(), true);
    forget();
    assert.equal(loadWithCodeCache(file, module).cache, 'used');
  });

  it('a bundle that throws while loading is not left in require\'s cache', () => {
    fs.writeFileSync(file, 'throw new Error("broken bundle");\n');
    assert.throws(() => loadWithCodeCache(file, module), /broken bundle/);
    assert.equal(require.cache[file], undefined);
  });
});
