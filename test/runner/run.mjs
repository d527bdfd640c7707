#!/usr/bin/env node
// `npm run test:integration`: the extension inside a real VS Code (see workbench.mjs for how).
//
//   1. integration  mocha suites of out/test/integration/ (index.js exports run()) in the extension host
//   2. e2e          each test/e2e/*.e2e.mjs drives the UI with playwright, in a fresh workbench
//   3. vsix         `npm run package` (in a copy of the repo, so the dev build in dist/ and out/ is
//                   never clobbered) -> dist-vsix/<name>-<version>.vsix, installed like a user would
//                   install it, then test/e2e/vsix-smoke.mjs
//
// Usage: node test/runner/run.mjs [--only integration|e2e|vsix[,…]] [--grep <mocha pattern>]
//                                 [--e2e <name>] [--jobs <n>] [--no-build] [--help]
//   --grep    sets MOCHA_GREP for the extension host (test/integration/index.ts reads it); implies
//             --only integration unless --only is given.
//   --e2e     runs only test/e2e/<name>.e2e.mjs (or <name>.mjs); implies --only e2e unless --only is given.
//   --jobs    how many workbenches run at once (integration suite and e2e modules; default 2, or
//             TEST_JOBS). Each part's output is printed as one block when it ends.
//   --no-build  skip `node esbuild.mjs` (the dev build; it takes ~1 s and keeps bundles fresh).
// Env: TEST_TIMEOUT (s, default 900) hard limit per workbench (twice that for the integration suite); VERBOSE=1; KEEP_TMP=1;
//      SWITCHBOARD_SERVER=code-server (default: the bare VS Code server); CHROMIUM=/path/to/chromium.
// Exit status: 0 when every part passed, 1 otherwise (130 on Ctrl+C).
// Screenshots go to test-results/screenshots/, the VSIX to dist-vsix/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util, { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  repoRoot, ensureTools, ensureAdapters, startWorkbench, waitForWorkbench, installVsix, readZipEntries, peakMemoryMiB, trackPeakMemory,
} from './workbench.mjs';
import { writeFailureReport } from './diagnostics.mjs';

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' }, grep: { type: 'string' }, e2e: { type: 'string' },
    jobs: { type: 'string' }, 'no-build': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter(l => l.startsWith('//')).join('\n'));
  process.exit(0);
}
const PARTS = ['integration', 'e2e', 'vsix'];
const only = flags.only ? flags.only.split(',').map(s => s.trim())
  : flags.grep ? ['integration'] : flags.e2e ? ['e2e'] : PARTS;
const unknown = only.filter(p => !PARTS.includes(p));
if (unknown.length) { console.error(`--only: unknown part(s) ${unknown.join(', ')} (use ${PARTS.join('|')})`); process.exit(2); }

const resultsDir = path.join(repoRoot, 'test-results');
const shotsDir = path.join(resultsDir, 'screenshots');
fs.mkdirSync(shotsDir, { recursive: true });

const t0 = Date.now();
const secs = (from) => ((Date.now() - from) / 1000).toFixed(1);
const log = (...a) => console.log(`[run +${secs(t0)}s]`, ...a);
const heading = (s) => console.log(`\n==> ${s}`);

/** Runs a command, output inherited; rejects on non-zero exit or after timeoutSec. */
function run(cmd, args, { cwd = repoRoot, timeoutSec = 300, capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.on('data', d => (out += d));
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} ${args.join(' ')}: timed out after ${timeoutSec}s`)); }, timeoutSec * 1000);
    child.on('error', e => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${code ?? sig})${capture ? '\n' + out : ''}`));
    });
  });
}

// ------------------------------------------------------------------------------ summary bookkeeping
const results = [];   // { part, result, seconds, detail }
async function part(name, fn, { print = (...a) => console.error(...a), order = results.length } = {}) {
  const start = Date.now();
  let result = 'PASS', detail = '';
  try {
    await fn();
  } catch (e) {
    result = e?.code === 'TIMEOUT' ? 'TIMEOUT' : 'FAIL';
    detail = e?.message?.split('\n')[0] ?? String(e);
    print(`\n[${name}] ${result}:`, e?.quiet ? e.message : e?.stack || e);
  }
  results.push({ part: name, result, seconds: secs(start), detail, order });
  return result;
}

/** A part's output, kept and printed as one block when it ends (parts run side by side). */
function outputBlock(title) {
  const lines = [];
  return {
    log: (...a) => lines.push(util.format(...a)),
    flush: () => { console.log(`\n==> ${title}\n${lines.join('\n')}`); lines.length = 0; },
  };
}

/** Runs the tasks with at most `jobs` at once, in order of the list. */
async function pool(tasks, jobs) {
  let next = 0;
  const worker = async () => { while (next < tasks.length) await tasks[next++](); };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
}
const jobs = Math.max(1, Number(flags.jobs ?? process.env.TEST_JOBS ?? 2) || 1);

const screenshotOnFailure = async (page, name) => {
  try {
    const file = path.join(shotsDir, `${name}-failure.png`);
    await page.screenshot({ path: file, timeout: 10000 });
    console.error(`  screenshot: ${path.relative(repoRoot, file)}`);
  } catch { /* the page may be gone */ }
};

// ---------------------------------------------------------------------------------------- setup
heading('setup');
trackPeakMemory();
let tools;
await part('tools', async () => {
  tools = ensureTools({ log });
  log(`node24 ${tools.node24}`);
});
if (!tools) finish();
// realAdapters.test.ts (integration) drives the real Claude and Codex ACP adapters, installed here on
// first use (install-adapters.sh, ~840 MB, cached beside the tools); then this only checks.
let adapters = '';
if (only.includes('integration') && await part('adapters', () => { adapters = ensureAdapters({ log }); }) !== 'PASS') finish();
if (!flags['no-build'] && await part('build', () => run(process.execPath, ['esbuild.mjs'])) !== 'PASS') finish();

const testEnv = { SWITCHBOARD_TEST: '1', SWITCHBOARD_NODE: tools.node24 };
const fixtureWorkspace = path.join(repoRoot, 'test/fixtures/workspace');

// ---------------------------------------------------------------------------------- integration
/** The workbench-based parts (the integration suite, then each e2e module), run `jobs` at a time. */
const uiTasks = [];
if (only.includes('integration')) {
  const order = results.length;
  uiTasks.push(async () => {
    const out = outputBlock(`integration tests (extension host)${flags.grep ? ` --grep ${flags.grep}` : ''}`);
    await part('integration', async () => {
      const testsPath = path.join(repoRoot, 'out/test/integration/index.js');
      if (!fs.existsSync(testsPath)) throw new Error(`${path.relative(repoRoot, testsPath)} is missing (build with: node esbuild.mjs)`);
      const iLog = (...a) => out.log(`[run +${secs(t0)}s]`, ...a);
      const wb = await startWorkbench({
        // The whole suite runs in one workbench: give it twice what one e2e module gets (it took
        // 14 min at load 18 on 2 cores; a hung test is caught by mocha's own per-test timeout first).
        timeoutSec: 2 * Number(process.env.TEST_TIMEOUT || 900),
        tools, log: iLog, onOutput: out.log, extensionDevelopmentPath: repoRoot, extensionTestsPath: testsPath, workspace: fixtureWorkspace,
        env: { ...testEnv, MOCHA_GREP: flags.grep || '', SWITCHBOARD_ADAPTERS: adapters },
      });
      try {
        const code = await wb.exitCode;
        iLog(`extension tests finished, exit code ${code}`);
        if (code !== 0) throw Object.assign(new Error(`integration tests failed (exit code ${code})`), { quiet: true });
      } catch (e) {
        await screenshotOnFailure(wb.page, 'integration');
        throw e;
      } finally {
        await wb.close();
      }
    }, { print: out.log, order });
    out.flush();
  });
}

// ------------------------------------------------------------------------------------------ e2e

/** Runs one playwright module ({ default, settings?, workspaceFiles?, timeout? }) in a fresh workbench. */
async function runUiModule(file, { name, workbench, print = console.log }) {
  const mod = await import(pathToFileURL(file).href);
  if (typeof mod.default !== 'function') throw new Error(`${path.relative(repoRoot, file)} has no default export function`);
  const node24 = tools.node24;
  const started = Date.now();
  const modLog = (...a) => print(`[${name} +${secs(started)}s]`, ...a);
  const resolveExport = (v, arg) => (typeof v === 'function' ? v(arg) : v);
  // What the scripted agents did (their events, one JSON line each), for the failure report.
  const agentLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-agents-')), 'scripted-agent.log');
  const wb = await startWorkbench({
    tools, log: modLog, onOutput: print, workspace: fixtureWorkspace,
    timeoutSec: mod.timeout,
    // settings(…) may depend on the workspace copy's path, known only once the session exists.
    userSettings: ({ workspace }) => resolveExport(mod.settings, { workspace, repoRoot, node24 }),
    workspaceFiles: resolveExport(mod.workspaceFiles, { repoRoot, node24 }),
    ...workbench,
    env: { SCRIPTED_AGENT_LOG: agentLog, ...workbench?.env },
    workspaceTrust: !!mod.workspaceTrust,
  });
  try {
    await Promise.race([waitForWorkbench(wb.page), wb.failed]);
    modLog(`workbench ready (${secs(started)}s after start)`);
    await Promise.race([
      mod.default({ page: wb.page, log: modLog, shotsDir, workspace: wb.workspace, repoRoot, node24 }),
      wb.failed,
    ]);
    modLog('passed');
  } catch (e) {
    await screenshotOnFailure(wb.page, name);
    await writeFailureReport({ page: wb.page, tmp: wb.tmp, name, resultsDir, agentLog }).then(
      file => console.error(`  page state and host log: ${path.relative(repoRoot, file)}`),
      err => console.error(`  no failure report: ${err.message}`));
    throw e;
  } finally {
    await wb.close();
    fs.rmSync(path.dirname(agentLog), { recursive: true, force: true });
  }
}

if (only.includes('e2e')) {
  const dir = path.join(repoRoot, 'test/e2e');
  let files = fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.e2e.mjs')).sort() : [];
  if (flags.e2e) {
    const want = flags.e2e.replace(/(\.e2e)?\.mjs$/, '');
    files = files.filter(f => f === `${want}.e2e.mjs`);
    if (!files.length && fs.existsSync(path.join(dir, `${want}.mjs`))) files = [`${want}.mjs`];
    if (!files.length) { console.error(`--e2e: no test/e2e/${want}.e2e.mjs`); results.push({ part: `e2e:${want}`, result: 'FAIL', seconds: '0.0', detail: 'not found' }); }
  }
  for (const f of files) {
    const name = f.replace(/(\.e2e)?\.mjs$/, '');
    const order = results.length + uiTasks.length;
    uiTasks.push(async () => {
      const out = outputBlock(`e2e ${name}`);
      await part(`e2e:${name}`, () => runUiModule(path.join(dir, f), {
        name, print: out.log, workbench: { extensionDevelopmentPath: repoRoot, env: testEnv },
      }), { print: out.log, order });
      out.flush();
    });
  }
  if (!files.length && !flags.e2e) log('no test/e2e/*.e2e.mjs');
}
if (uiTasks.length) {
  log(`${uiTasks.length} workbench part(s), ${Math.min(jobs, uiTasks.length)} at a time`);
  await pool(uiTasks, jobs);
}

// ----------------------------------------------------------------------------------------- vsix
if (only.includes('vsix')) {
  heading('VSIX: package, install, smoke test');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-vsix-'));
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const vsixName = `${manifest.name}-${manifest.version}.vsix`;
  const vsix = path.join(repoRoot, 'dist-vsix', vsixName);
  const packaged = await part('vsix:package', async () => {
    // `npm run package` (scripts/package.mjs: production build, vsce, the content and gallery
    // checks), exactly as a release runs it, in a copy of the working tree so the production build
    // never replaces the dev build (dist/ with sourcemaps, out/test/) the other parts use.
    const pkg = path.join(tmp, 'pkg');
    const skip = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist', 'dist-vsix', 'test-results']);
    fs.cpSync(repoRoot, pkg, {
      recursive: true,
      filter: src => { const rel = path.relative(repoRoot, src); return !skip.has(rel) && !rel.endsWith('.vsix'); },
    });
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    process.env.SWITCHBOARD_TOOLS_DIR ||= tools.toolsDir; // scripts/package.mjs runs vsce on its Node 24
    await run(npm, ['run', '--silent', 'package'], { cwd: pkg, timeoutSec: 240 });
    fs.mkdirSync(path.dirname(vsix), { recursive: true });
    fs.copyFileSync(path.join(pkg, 'dist-vsix', vsixName), vsix);
    const entries = readZipEntries(vsix);
    log(`VSIX size: ${path.relative(repoRoot, vsix)} ${(fs.statSync(vsix).size / 1024).toFixed(1)} KB, ${entries.length} files`);
  });
  if (packaged === 'PASS') {
    await part('vsix:smoke', async () => {
      const smoke = path.join(repoRoot, 'test/e2e/vsix-smoke.mjs');
      if (!fs.existsSync(smoke)) throw new Error('test/e2e/vsix-smoke.mjs is missing');
      const extensionsDir = path.join(tmp, 'extensions');
      fs.mkdirSync(extensionsDir);
      await installVsix({ tools, vsix, extensionsDir, log });
      // No extensionDevelopmentPath and no SWITCHBOARD_TEST: the extension runs as a user would have it.
      await runUiModule(smoke, { name: 'vsix-smoke', workbench: { extensionsDir } });
    });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

finish();

// --------------------------------------------------------------------------------------- report
function finish() {
  results.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const w = Math.max(12, ...results.map(r => r.part.length));
  console.log(`\n${'part'.padEnd(w)}  result   seconds`);
  console.log(`${'-'.repeat(w)}  -------  -------`);
  for (const r of results) {
    console.log(`${r.part.padEnd(w)}  ${r.result.padEnd(7)}  ${r.seconds.padStart(7)}${r.detail ? '  ' + r.detail.slice(0, 100) : ''}`);
  }
  const ok = results.length > 0 && results.every(r => r.result === 'PASS');
  console.log(`\ntotal ${secs(t0)}s; peak memory (PSS of runner + servers + Chromium) ${peakMemoryMiB()} MiB`);
  // The failed parts again, last: a CI log is often read from its tail.
  for (const r of results.filter(r => r.result !== 'PASS')) {
    console.log(`${r.result} ${r.part}${r.detail ? ': ' + r.detail.slice(0, 400) : ''}`);
  }
  console.log(ok ? 'ALL PASSED' : 'FAILED');
  process.exit(ok ? 0 : 1);
}
