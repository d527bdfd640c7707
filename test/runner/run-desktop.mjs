#!/usr/bin/env node
// `npm run test:desktop`: the integration suite (out/test/integration) in DESKTOP VS Code, through
// @vscode/test-electron, for machines that can download VS Code (needs internet the first time;
// the download is cached in .vscode-test/). Offline machines: use `npm run test:integration`, which
// runs the same suite in the VS Code server (see run.mjs).
//
// Usage: node test/runner/run-desktop.mjs [--grep <mocha pattern>] [--no-build]
// Env: VSCODE_VERSION (default "stable", or e.g. "1.93.0" = the engines.vscode minimum),
//      SWITCHBOARD_NODE (node for the scripted test agent; default: the node running this script).
// On Linux without a display it re-runs itself under `xvfb-run -a` when available.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ensureAdapters } from './workbench.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: flags } = parseArgs({
  options: { grep: { type: 'string' }, 'no-build': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (flags.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter(l => l.startsWith('//')).join('\n'));
  process.exit(0);
}

// Desktop VS Code needs an X display on Linux.
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !process.env.SWITCHBOARD_UNDER_XVFB) {
  const xvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' }).stdout.trim();
  if (xvfb) {
    const r = spawnSync(xvfb, ['-a', process.execPath, ...process.argv.slice(1)],
      { stdio: 'inherit', env: { ...process.env, SWITCHBOARD_UNDER_XVFB: '1' } });
    process.exit(r.status ?? 1);
  }
  console.warn('warning: no DISPLAY and no xvfb-run (apt-get install xvfb); VS Code will probably fail to start.');
}

const { runTests, TestRunFailedError } = await import('@vscode/test-electron');

if (!flags['no-build']) {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const extensionTestsPath = path.join(repoRoot, 'out/test/integration/index.js');
if (!fs.existsSync(extensionTestsPath)) {
  console.error(`${path.relative(repoRoot, extensionTestsPath)} is missing (build with: node esbuild.mjs)`);
  process.exit(2);
}

// Fresh, throw-away state every run: a copy of the workspace fixture, and user data / extensions
// folders of our own (test-electron's defaults, .vscode-test/user-data and .vscode-test/extensions,
// are the persistent ones used by `npm start`). Kept short and inside the repo: on macOS the IPC
// socket lives in the user-data dir and its path must stay under ~100 characters.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-desktop-'));
const workspace = path.join(tmp, 'workspace');
fs.cpSync(path.join(repoRoot, 'test/fixtures/workspace'), workspace, { recursive: true });
const stateDir = path.join(repoRoot, '.vscode-test/desktop');
fs.rmSync(stateDir, { recursive: true, force: true });

const t0 = Date.now();
let code;
try {
  code = await runTests({
    version: process.env.VSCODE_VERSION || 'stable',
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions',
      `--user-data-dir=${path.join(stateDir, 'ud')}`, `--extensions-dir=${path.join(stateDir, 'ext')}`],
    extensionTestsEnv: {
      SWITCHBOARD_TEST: '1',
      SWITCHBOARD_NODE: process.env.SWITCHBOARD_NODE || process.execPath,
      MOCHA_GREP: flags.grep || '',
      // realAdapters.test.ts: the real Claude and Codex adapters, installed on first use.
      SWITCHBOARD_ADAPTERS: ensureAdapters(),
    },
  });
} catch (e) {
  const msg = String(e?.message || e);
  // runTests rejects with TestRunFailedError when the tests fail, anything else is a setup problem.
  if ((TestRunFailedError && e instanceof TestRunFailedError) || /^Test run (failed|terminated)/.test(msg)) {
    code = typeof e.code === 'number' ? e.code : 1;
  } else {
    const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo|socket hang up|timeout|fetch failed|status code/i.test(msg);
    console.error(`\nCould not ${offline ? 'download' : 'start'} desktop VS Code: ${msg}`);
    if (offline) {
      console.error('This machine cannot reach update.code.visualstudio.com. Either run it where it can (the download\n' +
        'is cached in .vscode-test/ afterwards), or use `npm run test:integration`, which runs the same suite\n' +
        'offline in the VS Code server from the code-server npm package.');
    }
    code = 2;
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`\ndesktop integration tests: ${code === 0 ? 'PASSED' : `FAILED (exit ${code})`} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
process.exit(code);
