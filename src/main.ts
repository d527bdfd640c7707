// The extension's entry point: loads the bundle (dist/extension.js) with V8's code cache
// (src/boot/codeCache.ts) and hands activation to it. Kept tiny: it is compiled on every start.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from './boot/codeCache';

interface Extension {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate(): unknown;
}

// Loaded when this file is: VS Code requires it while it still prepares the extension's context
// (its storage, from the window), so the bundle's compile and top level fill that wait instead of
// coming after it (docs/decisions/0034).
const bundle = loadWithCodeCache(path.join(__dirname, 'extension.js'), module);
const loaded = bundle.exports as Extension;

export function activate(context: vscode.ExtensionContext): unknown {
  const result = loaded.activate(context);
  // Made once activation has run (what it compiled is in the cache too), when there was none.
  const save = () => { setImmediate(() => bundle.saveCache()); };
  if (bundle.cache !== 'used') Promise.resolve(result).then(save, save);
  return result;
}

export function deactivate(): unknown {
  return loaded.deactivate();
}
