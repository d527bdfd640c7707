// The extension's entry point: loads the bundle (dist/extension.js) with V8's code cache
// (src/boot/codeCache.ts) and hands activation to it. Kept tiny: it is compiled on every start.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache, type Loaded } from './boot/codeCache';

interface Extension {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate(): unknown;
}

let bundle: Loaded | undefined;
const load = (): Loaded => (bundle ??= loadWithCodeCache(path.join(__dirname, 'extension.js'), module));

// Loaded while VS Code prepares the extension's context (its storage states, asked of the window,
// whose thread is busy making the view), so the bundle's compile and top level fill that wait
// instead of coming after it (docs/decisions/0034). Not at this file's top level: VS Code requires
// this file with its request for the context still queued (its RPC writes go out on a 0 ms timer),
// and a synchronous load here held that request back until the load was done. A timer set now
// runs after VS Code's (same delay: first in, first out), once the request is on its way.
// activate() loads it itself if it comes first.
setTimeout(load, 0);

export function activate(context: vscode.ExtensionContext): unknown {
  const loaded = load();
  const result = (loaded.exports as Extension).activate(context);
  // Made once activation has run, its second half too (what they compiled is in the cache then), when
  // there was none: a timer set now runs after the one activate() set for its second half.
  const save = () => { setTimeout(() => loaded.saveCache(), 0); };
  if (loaded.cache !== 'used') Promise.resolve(result).then(save, save);
  return result;
}

export function deactivate(): unknown {
  return (load().exports as Extension).deactivate();
}
