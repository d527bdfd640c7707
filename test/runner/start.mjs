#!/usr/bin/env node
// `npm start`: build the extension and run it in VS Code in your browser, on machines without
// desktop VS Code (servers, containers, CI boxes). Stays in the foreground until Ctrl+C.
//
// Usage: npm start [-- [folder] [--port N] [--server code-server|vscode] [--watch] [--no-build]]
//   folder    the folder to open (default: the current directory)
//   --port    port on 127.0.0.1 (default 8123, or any free port if that one is taken)
//   --server  code-server (default) or vscode (the bare VS Code server inside the code-server package)
//   --watch   keep esbuild watching; after a change run "Developer: Reload Window" in the browser
//   --no-build  use dist/ as it is
//
// From another machine: ssh -L 8123:127.0.0.1:8123 <this machine>, then open the printed URL locally.
//
// How the extension is loaded: the web workbench only honours extensionDevelopmentPath in smoke-test
// mode (which hides notification toasts and dialogs), so instead the repository is symlinked into a
// persistent extensions folder as an installed extension (.vscode-test/extensions). It runs in
// production mode (ExtensionMode.Production); changes to package.json need a restart of this command,
// changes to dist/ only a window reload. Settings, state and the workbench layout persist in
// .vscode-test/user-data.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, ensureTools, startServer, linkExtension, stopping } from './workbench.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '8123' }, server: { type: 'string', default: 'code-server' },
    watch: { type: 'boolean' }, 'no-build': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter(l => l.startsWith('//')).join('\n'));
  process.exit(0);
}
if (!['code-server', 'vscode'].includes(flags.server)) { console.error('--server must be code-server or vscode'); process.exit(2); }
// npm runs scripts from the package folder; INIT_CWD is where `npm start` was typed.
const folder = path.resolve(process.env.INIT_CWD || process.cwd(), positionals[0] || '.');
if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) { console.error(`not a folder: ${folder}`); process.exit(2); }
const log = (...a) => console.log('[start]', ...a);

const tools = ensureTools({ log });

// ---- build (esbuild; --watch keeps a watcher running next to the server)
let watcher;
if (flags.watch) {
  watcher = spawn(process.execPath, ['esbuild.mjs', '--watch'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    watcher.stdout.on('data', d => { process.stdout.write(d); if (/watching/.test(d)) resolve(); });
    watcher.on('exit', code => reject(new Error(`esbuild --watch exited (${code})`)));
  });
  process.on('exit', () => watcher.kill());
} else if (!flags['no-build']) {
  log('building (node esbuild.mjs)…');
  await new Promise((resolve, reject) => spawn(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' })
    .on('exit', code => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`)))));
}

// ---- persistent user data + extensions folder, with the repo linked in as the extension
const userDataDir = path.join(repoRoot, '.vscode-test/user-data');
const extensionsDir = path.join(repoRoot, '.vscode-test/extensions');
const settingsFile = path.join(userDataDir, 'User/settings.json');
if (!fs.existsSync(settingsFile)) {
  // First run only; afterwards this file is yours (edit it in the workbench: Preferences: Open User Settings).
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(settingsFile, JSON.stringify({
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'security.workspace.trust.enabled': false,
    'chat.disableAIFeatures': true,
  }, null, 2));
}
const { id, folder: linked } = linkExtension({ extensionPath: repoRoot, extensionsDir });
log(`extension ${id} linked: .vscode-test/extensions/${linked} -> ${repoRoot}`);

const portFree = (port) => new Promise(resolve => {
  const s = net.createServer().once('error', () => resolve(false))
    .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
});
let port = Number(flags.port) || 0;
if (port && !(await portFree(port))) { log(`port ${port} is taken, using a free one`); port = 0; }

const server = await startServer({
  tools, server: flags.server, port, folder, userDataDir, extensionsDir, log,
  smokeTestDriver: false,   // a normal workbench: toasts, dialogs, no test protocol
});
const url = `${server.url}?folder=${encodeURIComponent(folder)}`;
console.log(`
  Switchboard is running in ${flags.server === 'vscode' ? 'the VS Code server' : 'code-server'} (VS Code 1.139, Node 24 extension host).
  Open:  ${url}
  Folder: ${folder}
  ${flags.watch ? 'esbuild is watching; run "Developer: Reload Window" after a change.\n  ' : ''}Server log: ${server.logFile}
  Press Ctrl+C to stop.
`);

// Foreground until Ctrl+C (workbench.mjs stops the server on SIGINT/SIGTERM) or until the server dies.
const { code, signal } = await server.exited;
if (stopping()) await new Promise(() => {});   // Ctrl+C: workbench.mjs finishes the cleanup and exits
log(`server exited (${code ?? signal}); last output:\n${server.logTail().split('\n').slice(-20).join('\n')}`);
await server.stop();
process.exit(code || 1);
