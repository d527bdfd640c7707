// The entry point loads the bundle with V8's code cache (src/boot/codeCache.ts): the module must be
// exactly what require() gives (same object in require's cache, its own require), with or without
// a cache, and a cache that does not fit is refused, never run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheFileOf, loadWithCodeCache } from '../../src/boot/codeCache';

/**
 * Loads `file` in a new Node process (V8's in-process compilation cache would otherwise stand in for
 * the file's): its cache outcome and what `lazy()` gives, or how the process ended.
 */
function loadInChild(file: string): { cache?: string; lazy?: string; status: number | null; signal: string | null } {
  const r = spawnSync(process.execPath, [__filename], { env: { ...process.env, SB_CODECACHE_CHILD: file }, encoding: 'utf8', timeout: 30_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { ...(line.startsWith('{') ? JSON.parse(line) : {}), status: r.status, signal: r.signal };
}

if (process.env.SB_CODECACHE_CHILD) {
  const loaded = loadWithCodeCache(process.env.SB_CODECACHE_CHILD, module);
  console.log(JSON.stringify({ cache: loaded.cache, lazy: (loaded.exports as { lazy(): string }).lazy() }));
} else describe('loading the bundle with V8\'s code cache', () => {
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
    // Another process (another window, the next start) compiles from it.
    assert.deepEqual(loadInChild(file), { cache: 'used', lazy: '0,1,4', status: 0, signal: null });
    forget();
    const second = loadWithCodeCache(file, module);
    assert.deepEqual(info(second.exports), info(first.exports));
  });

  it('never runs the code of an earlier bundle of the same length', () => {
    const first = loadWithCodeCache(file, module);
    assert.equal(first.saveCache(), true);
    forget();
    // Rebuilt in place, one character changed: V8 itself only compares the source's length.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('i * i', 'i + i'));
    assert.deepEqual(loadInChild(file), { cache: 'none', lazy: '0,2,4', status: 0, signal: null }, 'the new bundle\'s code');
    const rebuilt = loadWithCodeCache(file, module);
    assert.equal(rebuilt.saveCache(), true);
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.cache')), [path.basename(cacheFileOf(file, fs.readFileSync(file, 'utf8')))], 'only the current bundle\'s cache is kept');
  });

  it('never gives V8 a damaged cache (its body damaged ends the process in V8), and makes it again', () => {
    assert.equal(loadWithCodeCache(file, module).saveCache(), true);
    forget();
    const cacheFile = cacheFileOf(file, fs.readFileSync(file, 'utf8'));
    // Bytes in the middle of the cache's data changed (a disk error, a crash while writing, a sync tool).
    const bytes = fs.readFileSync(cacheFile);
    for (let i = Math.floor(bytes.length / 2); i < Math.floor(bytes.length / 2) + 64; i++) bytes[i] ^= 0x5a;
    fs.writeFileSync(cacheFile, bytes);
    assert.deepEqual(loadInChild(file), { cache: 'rejected', lazy: '0,1,4', status: 0, signal: null });
    const again = loadWithCodeCache(file, module);
    assert.equal(again.saveCache(), true, 'made again');
    assert.deepEqual(loadInChild(file), { cache: 'used', lazy: '0,1,4', status: 0, signal: null });
  });

  it('leaves no temporary file where the cache cannot be written', () => {
    const loaded = loadWithCodeCache(file, module);
    // The cache's name taken by a folder: its rename fails.
    fs.mkdirSync(cacheFileOf(file, fs.readFileSync(file, 'utf8')));
    assert.equal(loaded.saveCache(), false);
    assert.deepEqual(fs.readdirSync(dir).filter(n => n.endsWith('.tmp')), []);
  });

  it('a bundle that throws while loading is not left in require\'s cache', () => {
    fs.writeFileSync(file, 'throw new Error("broken bundle");\n');
    assert.throws(() => loadWithCodeCache(file, module), /broken bundle/);
    assert.equal(require.cache[file], undefined);
  });
});
