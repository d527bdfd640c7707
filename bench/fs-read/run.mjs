#!/usr/bin/env node
// fs/read_text_file round trips through the extension (in a real VS Code extension host) against a
// bare Node SDK client serving the same read from disk — in the same run, with the same agent
// (read-agent.mjs, which times each request from its side) on the same Node 24. The bare client
// runs in rounds interleaved with the extension's inside the extension host (the ratio), and in
// plain Node before and after (for reference).
//
//   npm run bench:fs-read [-- --no-build]     (env: BENCH_ROUNDS=5 BENCH_N=20 BENCH_MB=5 BENCH_ACCEPTS=5,
//                                              BENCH_CASES=ranged-read,… to run only those cases)
//
// Cases (one `ratio <case>: <x>` line each):
//   tiny-read     a 100-byte file not open in VS Code, whole;
//   ranged-read   line 1000, limit 50 of the 5 MiB file not open (the bare reader reads only that far;
//                 the extension may serve it from its kept text: hits / misses are printed);
//   ranged-read-cold  the same, each read of a path never read before (a hard link to the file, made
//                 before the rounds): no cache can serve it;
//   ranged-read-touched  the same file, its times set to now before each read during the agent's turn:
//                 no kept text serves the window (its stamp changed), each read is also a change on
//                 disk the extension checks, and its whole text is read again and compared;
//   disk-read     the whole 5 MiB file not open (median; disk-read-p95: the 95th percentile);
//   dirty-read    the whole 5 MiB file open with an unsaved edit (served from the buffer; bare: disk);
//   accept-latency  Accept in the review diff → the agent has the write's answer (the file, not open
//                 in an editor, is then on disk), against the user's answer to a permission request
//                 → the agent has that answer.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { ensureTools, repoRoot, startWorkbench } from '../../test/runner/workbench.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.9)]; };
const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const N = Number(process.env.BENCH_N || 20);
const MB = Number(process.env.BENCH_MB || 5);
const log = (...a) => console.log('[fs-read]', ...a);

const tools = ensureTools({ log });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-fs-'));
const ws = path.join(tmp, 'ws');
fs.mkdirSync(ws);
const line = (i) => `${String(i).padStart(7, '0')} The quick brown fox jumps over the lazy dog; ünïcödé ✓ lorem ipsum.\n`;
const parts = [];
for (let i = 1, bytes = 0; bytes < MB * 1024 * 1024; i++) { parts.push(line(i)); bytes += Buffer.byteLength(parts[parts.length - 1]); }
const text = parts.join('');
for (const f of ['open.txt', 'disk.txt', 'cold.txt', 'touched.txt']) fs.writeFileSync(path.join(ws, f), text);
fs.writeFileSync(path.join(ws, 'tiny.txt'), 'The quick brown fox jumps over the lazy dog.\nSecond line of a tiny file, ünïcödé ✓.\n');
fs.writeFileSync(path.join(ws, 'accept.txt'), 'before\n');
log(`files: ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MiB, ${text.split('\n').length - 1} lines; ${ROUNDS}×${N} reads per case`);

// 1. Bare SDK client (same Node as the extension host). It runs before and after the extension,
//    and the faster of the two runs is the baseline (the shared machine's noise never favours us).
const runBare = () => new Promise((resolve, reject) => {
  const child = spawn(tools.node24, [path.join(here, 'bare-client.mjs'), String(ROUNDS), String(N), path.join(ws, 'tiny.txt'), path.join(ws, 'disk.txt')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', d => (out += d));
  child.on('exit', code => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`bare client exited ${code}`))));
});
const bare1 = await runBare();
log('bare client (before) done');

// 2. The extension, inside a real VS Code extension host (the project's dev build first).
if (!process.argv.includes('--no-build')) {
  await new Promise((resolve, reject) => spawn(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' })
    .on('exit', code => (code === 0 ? resolve() : reject(new Error(`esbuild.mjs exited ${code}`)))));
}
// Everything the extension host loads is copied into the bench's temp dir, so another build in the
// same tree (which wipes dist/ and out/) cannot pull it away mid-run.
const extDir = path.join(tmp, 'extension');
fs.mkdirSync(extDir);
for (const f of ['package.json', 'dist', 'media']) fs.cpSync(path.join(repoRoot, f), path.join(extDir, f), { recursive: true });
const entry = path.join(tmp, 'bench-entry', 'extBench.js');
await esbuild.build({
  entryPoints: [path.join(here, 'extBench.ts')], outfile: entry, bundle: true, platform: 'node', format: 'cjs',
  target: 'node20', external: ['vscode'], logLevel: 'warning',
});
const resultFile = path.join(tmp, 'ext.json');
fs.writeFileSync(`${resultFile}.progress`, '');
const tail = fs.watch(`${resultFile}.progress`, () => {
  const lines = fs.readFileSync(`${resultFile}.progress`, 'utf8').trim().split('\n');
  log(`extension: ${lines[lines.length - 1]}`);
});
const wb = await startWorkbench({
  tools, log: () => {}, extensionDevelopmentPath: extDir, extensionTestsPath: entry, workspace: ws,
  env: { BENCH_OUT: resultFile, BENCH_CASES: process.env.BENCH_CASES ?? '', BENCH_PROFILE: process.env.BENCH_PROFILE ?? '', BENCH_ROUNDS: String(ROUNDS), BENCH_N: String(N), BENCH_AGENT: path.join(here, 'read-agent.mjs'), SWITCHBOARD_NODE: tools.node24 },
});
try {
  const code = await wb.exitCode;
  if (code !== 0 || !fs.existsSync(resultFile)) throw new Error(`extension bench failed (exit code ${code})`);
} finally {
  tail.close();
  await wb.close();
}
const ext = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
log('extension done');
const bare2 = await runBare();
log('bare client (after) done');
if (!process.env.BENCH_PROFILE) fs.rmSync(tmp, { recursive: true, force: true });

// 3. Report. The ratio compares rounds interleaved in the same extension host process (same load);
//    the plain-Node bare client runs before and after are printed for reference.
const p95 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]; };
for (const [label, b] of [['before', bare1], ['after', bare2]]) {
  log(`bare client in plain Node, ${label}: ${Object.values(b).map(x => median(x.ms).toFixed(2) + ' ms').join(', ')} (median, tiny.txt / disk.txt)`);
}
const cases = ['tiny-read', 'ranged-read', 'ranged-read-cold', 'ranged-read-touched', 'disk-read', 'dirty-read', 'accept-latency'].filter(c => ext[c]);
const targets = { 'tiny-read': 1.5, 'ranged-read': 1.5, 'ranged-read-cold': 1.5, 'ranged-read-touched': 1.5, 'disk-read': 1.5, 'disk-read-p95': 1.3, 'dirty-read': 1.5 };
console.log(`\nms, median / p90 / p95 over ${ROUNDS}×${N} reads per case (accept-latency: ${ROUNDS}×${process.env.BENCH_ACCEPTS || 5}), measured by the agent; load ${os.loadavg().map(x => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log('case             extension                 baseline                  ');
const ratios = [];
for (const c of cases) {
  const e = ext[c], b = ext[`bare ${c}`];
  const fmt = (x) => `${median(x.ms).toFixed(2)} / ${p90(x.ms).toFixed(2)} / ${p95(x.ms).toFixed(2)}`;
  console.log(`${c.padEnd(16)} ${fmt(e).padEnd(25)} ${fmt(b).padEnd(25)}`);
  if (c !== 'accept-latency' && Math.abs(e.chars - b.chars) > 1) throw new Error(`${c}: content sizes differ: ${e.chars} vs ${b.chars}`);
  ratios.push([c, median(e.ms) / median(b.ms)]);
  if (c === 'disk-read') ratios.push(['disk-read-p95', p95(e.ms) / p95(b.ms)]);
}
console.log(`served from the extension's kept texts (hits / misses per case): ${Object.entries(ext.cacheCounts ?? {}).map(([c, x]) => `${c} ${x.hits}/${x.misses}`).join(', ')}`);
// Both sides run in the extension host: its collections while each side's rounds ran.
const gcLine = (key) => { const g = ext.gc?.[key]; return g ? `${g.major} major ${g.majorMs.toFixed(0)} ms, ${g.all} in all ${g.allMs.toFixed(0)} ms` : '—'; };
console.log(`garbage collection in the extension host during the rounds (extension | bare): ${cases.filter(c => ext.gc?.[c]).map(c => `${c} ${gcLine(c)} | ${gcLine(`bare ${c}`)}`).join('; ')}`);
console.log('');
for (const [c, r] of ratios) console.log(`ratio ${c}: ${r.toFixed(2)}${targets[c] ? `  (target ≤ ${targets[c]})` : ''}`);
const accept = ext['accept-latency'] && median(ext['accept-latency'].ms);
if (accept !== undefined) console.log(`accept-latency: median ${accept.toFixed(1)} ms (target ≤ 100 ms): ${accept <= 100 ? 'OK' : 'ABOVE TARGET'}`);
