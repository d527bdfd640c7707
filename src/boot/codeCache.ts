// Loading the extension's bundle with V8's code cache: compiling the ~450 KB bundle is the largest
// part of activation that is ours (17–21 ms of the extension host's thread measured in plain Node,
// more when other extensions activate at the same moment). The cache is V8's own serialization of
// the compiled code, kept beside the bundle and made once per bundle (by its content), V8 version
// and architecture; V8 also checks it against its flags and refuses any that does not fit (then the
// bundle is compiled as usual and the cache made again). Node alone: no `vscode` here (src/main.ts uses it).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module = require('node:module');
import * as path from 'node:path';
import * as vm from 'node:vm';

export interface Loaded {
  readonly exports: unknown;
  /** 'used': compiled from the cache; 'rejected': a cache was there but V8 refused it; 'none': no cache. */
  readonly cache: 'used' | 'rejected' | 'none';
  /** Writes the cache (when it was not used) from what V8 has compiled by then; false if it could not. */
  saveCache(): boolean;
}

/**
 * Where the cache of `file` with this `source` is kept: per content, V8 version and architecture.
 * V8 checks a cache against the source's length only: a bundle rebuilt to the same length would
 * otherwise run the code of the one before.
 */
export function cacheFileOf(file: string, source: string): string {
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return `${file}.${digest}.${process.versions.v8.replace(/[^\w.-]/g, '_')}-${process.arch}.cache`;
}

const DIGEST_BYTES = 32;

/**
 * The cache's data, when its digest (the file's first 32 bytes) matches: V8 checks a cache's header,
 * not its body, and a damaged body can end the process (a fatal error while deserializing).
 */
function readCache(cacheFile: string): Buffer | 'damaged' | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  if (bytes.length <= DIGEST_BYTES || !createHash('sha256').update(data).digest().equals(bytes.subarray(0, DIGEST_BYTES))) return 'damaged';
  return data;
}

/**
 * Loads the CommonJS `file` as require() would (the same module object in require's cache, its own
 * require, __filename, __dirname), compiled with the code cache beside it when there is one.
 * Anything unexpected: plain require().
 */
export function loadWithCodeCache(file: string, parent?: NodeModule): Loaded {
  let cacheFile: string;
  let script: vm.Script;
  let mod: Module;
  let cache: Loaded['cache'] = 'none';
  try {
    const source = fs.readFileSync(file, 'utf8');
    cacheFile = cacheFileOf(file, source);
    const kept = readCache(cacheFile);
    const cachedData = kept === 'damaged' ? undefined : kept;
    // Columns of the first line as in the file (the module wrapper comes before it).
    const wrapper = (Module as unknown as { wrapper?: readonly string[] }).wrapper;
    script = new vm.Script(Module.wrap(source), { filename: file, cachedData, columnOffset: wrapper ? -wrapper[0].length : 0 });
    cache = kept === 'damaged' || (cachedData && script.cachedDataRejected) ? 'rejected' : cachedData ? 'used' : 'none';
    mod = new Module(file, parent);
    mod.filename = file;
    mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  } catch {
    return { exports: require(file), cache: 'none', saveCache: () => false };
  }
  const registry = (Module as unknown as { _cache: Record<string, Module> })._cache;
  registry[file] = mod;
  const localRequire = Object.assign((id: string) => mod.require(id), {
    resolve: (request: string, options?: { paths?: string[] }) => (Module as unknown as { _resolveFilename(r: string, m: Module, main: boolean, o?: object): string })._resolveFilename(request, mod, false, options),
    cache: registry,
    main: require.main,
    extensions: (Module as unknown as { _extensions: object })._extensions,
  });
  try {
    const wrapper = script.runInThisContext({ displayErrors: true }) as (exports: unknown, require: unknown, module: Module, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, localRequire, mod, file, path.dirname(file));
    mod.loaded = true;
  } catch (e) {
    delete registry[file];
    const siblings = parent?.children;
    if (siblings?.includes(mod)) siblings.splice(siblings.indexOf(mod), 1);
    throw e;
  }
  return {
    exports: mod.exports,
    cache,
    saveCache: () => {
      if (cache === 'used') return false;
      // Written whole or not at all (two windows may make it at once), with the digest of its data.
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        const fd = fs.openSync(tmp, 'w');
        try {
          const data = script.createCachedData();
          fs.writeSync(fd, createHash('sha256').update(data).digest());
          fs.writeSync(fd, data);
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(tmp, cacheFile);
      } catch {
        fs.rmSync(tmp, { force: true });
        return false;
      }
      // The caches of earlier builds of the bundle (and temporary files left by a crash) are of no use any more.
      const dir = path.dirname(file);
      const mine = path.basename(file);
      for (const name of fs.readdirSync(dir)) {
        if (name.startsWith(`${mine}.`) && (name.endsWith('.cache') || name.endsWith('.tmp')) && path.join(dir, name) !== cacheFile && name !== path.basename(tmp)) {
          try { fs.rmSync(path.join(dir, name), { force: true }); } catch { /* another window's, in use: left */ }
        }
      }
      return true;
    },
  };
}
