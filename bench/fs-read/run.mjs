#!/usr/bin/env node
// fs/read_text_file round trip for a 5 MB file, through the extension (in a real VS Code extension
// host) against a bare Node SDK client serving the same read from disk — in the same run, with the
// same agent (read-agent.mjs, which times each request from its side) on the same Node 24. The
// bare client runs in rounds interleaved with the extension's inside the extension host (the
// ratio), and in plain Node before and after (for reference).
//
//   npm run bench:fs-read [-- --no-build]     (env: BENCH_ROUNDS=3 BENCH_N=20 BENCH_MB=5)
//
// Cases: "open buffer" = the file is open in VS Code with an unsaved edit (served from the buffer);
// "disk" = the file is not open (read from disk). The bare client reads both from disk.
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
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
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
for (const f of ['open.txt', 'disk.txt']) fs.writeFileSync(path.join(ws, f), text);
log(`files: ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MiB, ${text.split('\n').length - 1} lines; ${ROUNDS}×${N} reads per case`);

// 1. Bare SDK client (same Node as the extension host). It runs before and after the extension,
//    and the faster of the two runs is the baseline (the shared machine's noise never favours us).
const runBare = () => new Promise((resolve, reject) => {
  const child = spawn(tools.node24, [path.join(here, 'bare-client.mjs'), String(ROUNDS), String(N), path.join(ws, 'open.txt'), path.join(ws, 'disk.txt')],
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
const wb = await startWorkbench({
  tools, log: () => {}, extensionDevelopmentPath: extDir, extensionTestsPath: entry, workspace: ws,
  env: { BENCH_OUT: resultFile, BENCH_ROUNDS: String(ROUNDS), BENCH_N: String(N), BENCH_AGENT: path.join(here, 'read-agent.mjs'), SWITCHBOARD_NODE: tools.node24 },
});
try {
  const code = await wb.exitCode;
  if (code !== 0 || !fs.existsSync(resultFile)) throw new Error(`extension bench failed (exit code ${code})`);
} finally {
  await wb.close();
}
const ext = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
log('extension done');
const bare2 = await runBare();
log('bare client (after) done');
fs.rmSync(tmp, { recursive: true, force: true });

// 3. Report. The ratio compares rounds interleaved in the same extension host process (same load);
//    the plain-Node bare client runs before and after are printed for reference.
const rows = [
  ['open buffer (unsaved edit)', ext['open buffer'], ext['bare open buffer']],
  ['file on disk', ext.disk, ext['bare disk']],
];
for (const [label, b] of [['before', bare1], ['after', bare2]]) {
  log(`bare client in plain Node, ${label}: ${Object.values(b).map(x => median(x.ms).toFixed(1) + ' ms').join(', ')} (median, open.txt / disk.txt)`);
}
console.log(`\nfs/read_text_file round trip, ${MB} MB, ${ROUNDS * N} reads per case, measured by the agent (median / p90, ms)`);
console.log('case                         extension          bare SDK client    ratio (median)');
let worst = 0;
for (const [name, e, b] of rows) {
  const ratio = median(e.ms) / median(b.ms);
  worst = Math.max(worst, ratio);
  console.log(`${name.padEnd(28)} ${median(e.ms).toFixed(1).padStart(6)} / ${p90(e.ms).toFixed(1).padStart(6)}    ${median(b.ms).toFixed(1).padStart(6)} / ${p90(b.ms).toFixed(1).padStart(6)}    ${ratio.toFixed(2)}×`);
  if (Math.abs(e.chars - b.chars) > 1) throw new Error(`content sizes differ: ${e.chars} vs ${b.chars}`);
}
const plain = median([...Object.values(bare1), ...Object.values(bare2)].flatMap(x => x.ms));
console.log(`(bare client in plain Node, all its reads: median ${plain.toFixed(1)} ms; extension disk / that = ${(median(ext.disk.ms) / plain).toFixed(2)}×)`);
console.log(`\nworst ratio ${worst.toFixed(2)}× (target ≤ 1.2×): ${worst <= 1.2 ? 'OK' : 'ABOVE TARGET'}`);
