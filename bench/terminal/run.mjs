#!/usr/bin/env node
// `npm run bench:terminal`: a command printing 100 MB with outputByteLimit 1 MB, run by an agent
// through Switchboard (terminal/create → wait_for_exit → output → release, mirrored into an
// integrated terminal) and by a bare child_process reader, in the same extension host, alternating.
// Prints the time ratio (target ≤ 1.3×) and the extension host's peak extra memory (target ≤ 4 MB).
// Prints `ratio terminal: <x>` (extension handlers / bare reader, median) and `ratio terminal-busy:
// <x>` (the same pair of runs with the other core kept busy by `yes > /dev/null`).
//   Env: SB_BENCH_ROUNDS (3), SB_BENCH_BYTES (104857600), SB_BENCH_REVEAL=0 (terminal not shown),
//        SB_BENCH_BUSY=0 (no busy rounds), SB_BENCH_PROFILE=1 (CPU and allocation profiles of the
//        extension host for one bare and one extension run); --no-build to skip `node esbuild.mjs`.
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
  env: { SB_BENCH_OUT: out, SB_BENCH_ROUNDS: process.env.SB_BENCH_ROUNDS ?? '', SB_BENCH_BYTES: process.env.SB_BENCH_BYTES ?? '', SB_BENCH_REVEAL: process.env.SB_BENCH_REVEAL ?? '', SB_BENCH_BUSY: process.env.SB_BENCH_BUSY ?? '', SB_BENCH_PROFILE: process.env.SB_BENCH_PROFILE ?? '' },
  onOutput: () => {},
});
try { await wb.exitCode; } finally { await wb.close(); }
const r = JSON.parse(fs.readFileSync(out, 'utf8'));
if (r.error) { console.error(r.error); process.exit(1); }

const mb = (kib) => (kib / 1024).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const col = (x) => x ? `${x.ms.toFixed(0).padStart(6)} ms ${x.hostCpuMs.toFixed(0).padStart(5)} ms ${mb(x.extraKiB).padStart(5)} MB` : '';
const q = (x, k) => (x[k].ms / x.bare.ms).toFixed(2).padStart(5);
console.log(`terminal bench: ${(r.bytes / 1024 / 1024).toFixed(0)} MB printed, outputByteLimit ${r.limit / 1024 / 1024} MB, integrated terminal ${r.reveal ? 'shown' : 'hidden'}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
console.log(`  command (${r.shell} -c): ${r.command}`);
console.log('  per run: wall time, extension host CPU time, extension host peak extra memory');
console.log('  round  bare reader                extension (handlers)       ratio  full ACP flow (agent)      ratio' + (r.busy ? '  | other core busy: bare reader   extension (handlers)       ratio' : ''));
r.rounds.forEach((x, i) => console.log(`  ${String(i + 1).padEnd(5)}  ${col(x.bare)}    ${col(x.extension)}  ${q(x, 'extension')}  ${col(x.agent)}  ${q(x, 'agent')}` +
  (x.bareBusy ? `  |                  ${col(x.bareBusy)}    ${col(x.extensionBusy)}  ${(x.extensionBusy.ms / x.bareBusy.ms).toFixed(2).padStart(5)}` : '')));
const ratio = median(r.rounds.map(x => x.extension.ms / x.bare.ms));
const agentRatio = median(r.rounds.map(x => x.agent.ms / x.bare.ms));
const busyRatio = r.busy ? median(r.rounds.map(x => x.extensionBusy.ms / x.bareBusy.ms)) : undefined;
const peak = (k) => Math.max(...r.rounds.map(x => x[k].extraKiB));
const med = (k) => median(r.rounds.map(x => x[k].extraKiB));
console.log(`  the agent got ${r.agentGot.outputBytes} bytes (truncated: ${r.agentGot.truncated}, exit code ${r.agentGot.exitCode}); handlers: ${r.serviceGot.outputBytes} bytes; terminal "${r.serviceGot.terminal}"`);
if (r.profiles) console.log(`  profiles of the extension host (CPU, then allocations): ${[...r.profiles, ...r.heap].join(', ')}`);
console.log(`  fixed cost of one agent terminal flow (command \`true\`, whole prompt): ${median(r.overheadMs).toFixed(0)} ms`);
console.log(`  full ACP flow / bare: ${agentRatio.toFixed(2)}x (includes the agent's own JSON handling of the 1 MB answer)`);
console.log(`  peak extra memory of the extension host: extension ${mb(med('extension'))} MB median, ${mb(peak('extension'))} MB max (target <= 4 MB) ${peak('extension') <= 4096 ? 'OK' : med('extension') <= 4096 ? 'OK (median)' : 'MISSED'}; full ACP flow ${mb(med('agent'))} MB median; bare reader ${mb(med('bare'))} MB median`);
console.log('');
console.log(`ratio terminal: ${ratio.toFixed(2)}  (extension / bare reader, median of ${r.rounds.length}; target <= 1.3) ${ratio <= 1.3 ? 'OK' : 'MISSED'}`);
if (busyRatio !== undefined) console.log(`ratio terminal-busy: ${busyRatio.toFixed(2)}  (the same with the other core busy; target <= 1.3) ${busyRatio <= 1.3 ? 'OK' : 'MISSED'}`);
