#!/usr/bin/env node
// `npm run bench:terminal`: a command printing 100 MB with outputByteLimit 1 MB, run by one ACP
// agent (terminal-agent.mjs) through Switchboard (terminal/create → tool call → wait_for_exit →
// output → release, shown in the chat card; with the default settings the integrated terminal is made
// only for a command still running after a second, and this one takes ~0.2 s) and through a
// bare SDK client serving terminal/* with a plain child process (bareClient.mjs), in the same
// extension host, alternating; the agent times each flow. Prints `ratio terminal: <x>` (full flow
// with Switchboard's default settings — the integrated terminal not shown — / bare SDK client,
// median; target ≤ 1.3), `ratio terminal-shown: <x>` (the same with `switchboard.terminal.reveal`
// on: the workbench draws the terminal as the command runs), `ratio terminal-handlers: <x>` (the
// extension's handlers called directly / a bare child_process reader) and `ratio terminal-busy:
// <x>` (the headline pair with the other core kept busy by `yes > /dev/null`), and the extension
// host's peak extra memory (handlers: target ≤ 4 MB) and its garbage collection pauses per flow.
//   Env: SB_BENCH_ROUNDS (7), SB_BENCH_CARD=0 (no tool call showing the terminal), SB_BENCH_BYTES (104857600), SB_BENCH_SHOWN=0 (no shown rounds),
//        SB_BENCH_BUSY=0 (no busy rounds), SB_BENCH_PORT_SCAN=1 (VS Code's port scan of remote windows left on),
//        SB_BENCH_PROFILE=1 (CPU and allocation profiles of the extension host for one bare and one
//        extension run); --no-build to skip `node esbuild.mjs`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTools, repoRoot, startWorkbench } from '../../test/runner/workbench.mjs';

if (!process.argv.includes('--no-build')) {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-out-')), 'result.json');
const tools = ensureTools({ log: () => {} });
const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, extensionTestsPath: path.join(repoRoot, 'bench/terminal/host.cjs'),
  workspace: path.join(repoRoot, 'test/fixtures/workspace'), timeoutSec: 600,
  // Once a terminal exists, a remote window's extension host scans /proc for listening ports every
  // 2 s (VS Code's port forwarding; ~50 ms of its thread here), landing at random in either side's
  // rounds. Desktop VS Code has no such scan; SB_BENCH_PORT_SCAN=1 keeps it.
  userSettings: process.env.SB_BENCH_PORT_SCAN === '1' ? undefined : { 'remote.autoForwardPorts': false },
  env: { SB_BENCH_OUT: out, SB_BENCH_ROOT_PID: String(process.pid), SB_BENCH_ROUNDS: process.env.SB_BENCH_ROUNDS ?? '', SB_BENCH_BYTES: process.env.SB_BENCH_BYTES ?? '', SB_BENCH_SHOWN: process.env.SB_BENCH_SHOWN ?? '', SB_BENCH_BUSY: process.env.SB_BENCH_BUSY ?? '', SB_BENCH_PROFILE: process.env.SB_BENCH_PROFILE ?? '', SB_BENCH_CARD: process.env.SB_BENCH_CARD ?? '', SB_BENCH_CPU_DETAIL: process.env.SB_BENCH_CPU_DETAIL ?? '' },
  onOutput: () => {},
});
try { await wb.exitCode; } finally { await wb.close(); }
const r = JSON.parse(fs.readFileSync(out, 'utf8'));
if (r.error) { console.error(r.error); process.exit(1); }

const mb = (kib) => (kib / 1024).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
// A flow's time is the agent's own (create sent → release answered); the handlers' is wall time here.
const t = (x) => x.agentMs ?? x.ms;
const col = (x) => x ? `${t(x).toFixed(0).padStart(6)} ms ${x.hostCpuMs.toFixed(0).padStart(5)} ms ${mb(x.extraKiB).padStart(5)} MB ${x.workbenchCpuMs.toFixed(0).padStart(5)} ms` : '';
const q = (x, k, b) => (t(x[k]) / t(x[b])).toFixed(2).padStart(5);
console.log(`terminal bench: ${(r.bytes / 1024 / 1024).toFixed(0)} MB printed, outputByteLimit ${r.limit / 1024 / 1024} MB, integrated terminal not shown (the default)${r.shown ? ', then shown' : ''}, chat card ${r.card ? 'shown' : 'not sent'}, port scan ${process.env.SB_BENCH_PORT_SCAN === '1' ? 'on' : 'off'}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
console.log(`  command (${r.shell} -c): ${r.command}; Switchboard's commands run in ${r.grouping}`);
console.log('  per run: time, extension host CPU time, extension host peak extra memory, CPU time of all the workbench\'s processes (server, extension host, renderer, the command)');
console.log('  full ACP flow, timed by the agent: terminal/create → wait_for_exit → output → release');
console.log('  round  bare SDK client            Switchboard                ratio' + (r.busy ? '  | other core busy: bare SDK client   Switchboard                ratio' : ''));
r.rounds.forEach((x, i) => console.log(`  ${String(i + 1).padEnd(5)}  ${col(x.bareFlow)}    ${col(x.agent)}  ${q(x, 'agent', 'bareFlow')}` +
  (x.bareFlowBusy ? `  |                  ${col(x.bareFlowBusy)}    ${col(x.agentBusy)}  ${q(x, 'agentBusy', 'bareFlowBusy')}` : '')));
if (r.shown) {
  console.log('  the same with the integrated terminal shown as it starts (switchboard.terminal.reveal)');
  console.log('  round  bare SDK client            Switchboard, terminal shown  ratio');
  r.rounds.forEach((x, i) => console.log(`  ${String(i + 1).padEnd(5)}  ${col(x.bareFlowShown)}    ${col(x.agentShown)}  ${q(x, 'agentShown', 'bareFlowShown')}`));
}
const stepsOf = (k) => [0, 1, 2, 3].map(j => median(r.rounds.map(x => x[k].steps[j])).toFixed(0)).join(' / ');
console.log(`  median per step (create / wait_for_exit / output / release): Switchboard ${stepsOf('agent')} ms, bare SDK client ${stepsOf('bareFlow')} ms`);
console.log('  handlers only (no transport), wall time in the extension host');
console.log('  round  bare reader                extension handlers         ratio');
r.rounds.forEach((x, i) => console.log(`  ${String(i + 1).padEnd(5)}  ${col(x.bare)}    ${col(x.extension)}  ${q(x, 'extension', 'bare')}`));
const ratios = (k, b) => r.rounds.map(x => t(x[k]) / t(x[b]));
const flowRatio = median(ratios('agent', 'bareFlow'));
const handlersRatio = median(ratios('extension', 'bare'));
const busyRatio = r.busy ? median(ratios('agentBusy', 'bareFlowBusy')) : undefined;
const shownRatio = r.shown ? median(ratios('agentShown', 'bareFlowShown')) : undefined;
const peak = (k) => Math.max(...r.rounds.map(x => x[k].extraKiB));
const med = (k) => median(r.rounds.map(x => x[k].extraKiB));
const got = (g) => `${g.outputBytes} bytes (truncated: ${g.truncated}, exit code ${g.exitCode})`;
console.log(`  the agent got ${got(r.agentGot)} from Switchboard, ${got(r.bareGot)} from the bare client; handlers: ${r.serviceGot.outputBytes} bytes; terminal "${r.serviceGot.terminal}"`);
if (r.agentGot.outputBytes !== r.bareGot.outputBytes || !r.agentGot.truncated) throw new Error('the two clients did not answer the same output');
if (r.profiles) console.log(`  profiles of the extension host (CPU, then allocations): ${[...r.profiles, ...r.heap].join(', ')}`);
const oSteps = (k) => [0, 1, 2, 3].map(j => median(r.overhead.map(o => o[k][j])).toFixed(1)).join(' / ');
console.log(`  fixed cost of one flow (command \`true\`, median of ${r.overhead.length}): Switchboard ${median(r.overhead.map(o => o.extension)).toFixed(1)} ms (${oSteps('extensionSteps')}), bare SDK client ${median(r.overhead.map(o => o.bare)).toFixed(1)} ms (${oSteps('bareSteps')})`);
console.log(`  peak extra memory of the extension host: Switchboard flow ${mb(med('agent'))} MB median, ${mb(peak('agent'))} MB max; handlers ${mb(med('extension'))} MB median (target <= 4 MB) ${med('extension') <= 4096 ? 'OK' : 'MISSED'}; bare SDK client ${mb(med('bareFlow'))} MB, bare reader ${mb(med('bare'))} MB median`);
if (process.env.SB_BENCH_CPU_DETAIL) for (const k of ['bareFlow', 'agent', 'bare', 'extension', ...(r.shown ? ['bareFlowShown', 'agentShown'] : [])]) console.log(`  CPU by process, ${k}: ${r.rounds.map(x => JSON.stringify(x[k].byProcess)).join('\n     ')}`);
const gcOf = (k) => ['minor', 'major', 'incremental'].map(g => `${g} ${median(r.rounds.map(x => x[k].gc?.[g] ?? 0)).toFixed(0)}`).join(', ') + ` ms (${median(r.rounds.map(x => x[k].gc?.n ?? 0))} pauses)`;
console.log(`  garbage collection in the extension host per flow (median): Switchboard ${gcOf('agent')}; bare SDK client ${gcOf('bareFlow')}; handlers ${gcOf('extension')}; bare reader ${gcOf('bare')}`);
const cpuOf = (k) => median(r.rounds.map(x => x[k].workbenchCpuMs));
console.log(`  CPU time of the whole workbench per flow (median; another program's load does not count): Switchboard ${cpuOf('agent').toFixed(0)} ms, bare SDK client ${cpuOf('bareFlow').toFixed(0)} ms (${(cpuOf('agent') / cpuOf('bareFlow')).toFixed(2)}x)`);
if (r.shown) console.log(`  CPU time of the whole workbench per flow, terminal shown: Switchboard ${cpuOf('agentShown').toFixed(0)} ms, bare SDK client ${cpuOf('bareFlowShown').toFixed(0)} ms (${(cpuOf('agentShown') / cpuOf('bareFlowShown')).toFixed(2)}x)`);
console.log(`  per-round ratios: full flow ${range(ratios('agent', 'bareFlow'))}, handlers ${range(ratios('extension', 'bare'))}${r.shown ? `, terminal shown ${range(ratios('agentShown', 'bareFlowShown'))}` : ''}`);
console.log('');
console.log(`ratio terminal: ${flowRatio.toFixed(2)}  (full ACP flow as the agent sees it, Switchboard with its defaults / bare SDK client, median of ${r.rounds.length}; target <= 1.3) ${flowRatio <= 1.3 ? 'OK' : 'MISSED'}`);
if (shownRatio !== undefined) console.log(`ratio terminal-shown: ${shownRatio.toFixed(2)}  (the same with the integrated terminal shown as it starts, switchboard.terminal.reveal; target <= 1.3) ${shownRatio <= 1.3 ? 'OK' : 'MISSED'}`);
console.log(`ratio terminal-handlers: ${handlersRatio.toFixed(2)}  (the extension's handlers / a bare child_process reader, no transport)`);
if (busyRatio !== undefined) console.log(`ratio terminal-busy: ${busyRatio.toFixed(2)}  (full ACP flow with the other core busy; target <= 1.3) ${busyRatio <= 1.3 ? 'OK' : 'MISSED'}`);
