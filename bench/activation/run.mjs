#!/usr/bin/env node
// bench/activation: what activating Switchboard costs, from opening its view (which is what
// activates it: no `*`, no onStartupFinished) to the chat being ready for input, against an empty
// extension that contributes one webview view and nothing else (bench/activation/empty-ext).
//
// Each round starts a fresh workbench (VS Code server + Chromium) with one of the two extensions,
// waits until the workbench has settled, then clicks the extension's activity-bar icon and waits
// for its webview to report ready (`body[data-ready="true"]`: page loaded, `ready` posted, state
// received). That span covers loading the bundle, activate(), resolving the view, the webview page
// and the first round trip. Rounds alternate (empty, Switchboard, empty, …) so both see the same
// machine load. Switchboard is measured as users get it: the production build (`--production`,
// built into a temporary copy of the repository), unless --ext points at another extension folder
// (e.g. an older build, to compare before and after).
//
// Prints the medians, the ratio (Switchboard / empty) and the size of the bundle activation loads.
// Usage: node bench/activation/run.mjs [--runs 5] [--ext <extension folder>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, ext: { type: 'string' } } });
const RUNS = Number(values.runs);
const here = path.dirname(fileURLToPath(import.meta.url));
const empty = path.join(here, 'empty-ext');
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tools = ensureTools();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-activation-'));

/** A production build of the working tree, in a copy (the dev build in dist/ stays as it is). */
function productionBuild() {
  const dir = path.join(tmp, 'switchboard');
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist', 'dist-vsix', 'test-results']);
  fs.cpSync(repoRoot, dir, { recursive: true, filter: src => !skip.has(path.relative(repoRoot, src)) });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('production build failed');
  return dir;
}

/** One round: a fresh workbench with `extensionPath`; ms from the click on its icon to its view being ready. */
async function round(extensionPath, tabName) {
  const wb = await startWorkbench({ tools, extensionDevelopmentPath: extensionPath, workspace: path.join(repoRoot, 'test/fixtures/workspace') });
  try {
    const page = wb.page;
    await waitForWorkbench(page);
    // Settled: the explorer shows the workspace (the extension host is up), then a quiet moment
    // so start-up work of the workbench itself does not land inside the measurement.
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(2000);
    const tab = page.getByRole('tab', { name: tabName });
    await tab.waitFor({ timeout: 30_000 });
    const view = page.frameLocator('iframe.webview').frameLocator('#active-frame');
    const t0 = Date.now();
    await tab.click();
    await view.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
    return Date.now() - t0;
  } finally {
    await wb.close();
  }
}

const kb = f => (fs.existsSync(f) ? `${(fs.statSync(f).size / 1024).toFixed(1)} KB` : 'missing');
try {
  const ext = values.ext ? path.resolve(values.ext) : productionBuild();
  const main = path.join(ext, JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8')).main);
  const emptyTimes = [];
  const extTimes = [];
  for (let r = 0; r < RUNS; r++) {
    emptyTimes.push(await round(empty, /Empty Baseline/));
    extTimes.push(await round(ext, /Switchboard/));
    console.log(`  round ${r + 1}/${RUNS}: empty ${emptyTimes[r]} ms, Switchboard ${extTimes[r]} ms`);
  }
  const e = median(emptyTimes);
  const s = median(extTimes);
  console.log(`bench/activation: click on the view's icon -> view ready, ${RUNS} alternating rounds, medians`);
  console.log(`  empty extension (one webview view): ${e} ms   [${emptyTimes.join(', ')}]`);
  console.log(`  Switchboard (${path.relative(repoRoot, ext) || '.'}): ${s} ms   [${extTimes.join(', ')}]`);
  console.log(`  ratio: ${(s / e).toFixed(2)}x;  cost over the empty extension: ${s - e} ms`);
  console.log(`  activation loads ${path.basename(main)} (${kb(main)}); on first agent start: acp-sdk.js (${kb(path.join(path.dirname(main), 'acp-sdk.js'))})`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
