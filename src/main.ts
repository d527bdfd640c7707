// The extension's entry point: loads the bundle (dist/extension.js) with V8's code cache
// (src/boot/codeCache.ts) and hands activation to it. Kept tiny: it is compiled on every start.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './boot/codeCache';

interface Extension {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate(): unknown;
}

let loaded: Extension | undefined;

export function activate(context: vscode.ExtensionContext): unknown {
  const bundle = loadWithCodeCache(path.join(__dirname, 'extension.js'), module);
  loaded = bundle.exports as Extension;
  const result = loaded.activate(context);
  // Made once activation has run (what it compiled is in the cache too), when there was none.
  const save = () => { setImmediate(() => bundle.saveCache()); };
  if (bundle.cache !== 'used') Promise.resolve(result).then(save, save);
  return result;
}

export function deactivate(): unknown {
  return loaded?.deactivate();
}
