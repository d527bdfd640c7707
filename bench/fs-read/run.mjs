#!/usr/bin/env node
// fs/read_text_file round trip for a 5 MB file, through the extension (in a real VS Code extension
// host) against a bare Node SDK client serving the same read from disk — in the same run, with the
// same agent (read-agent.mjs, which times each request from its side) on the same Node 24.
//
//   npm run bench:fs-read            (env: BENCH_ROUNDS=3 BENCH_N=20 BENCH_MB=5)
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
let text = '';
for (let i = 1; Buffer.byteLength(text) < MB * 1024 * 1024; i++) text += line(i);
for (const f of ['open.txt', 'disk.txt']) fs.writeFileSync(path.join(ws, f), text);
log(`files: ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MiB, ${text.split('\n').length - 1} lines; ${ROUNDS}×${N} reads per case`);

// 1. Bare SDK client (same Node as the extension host).
const bare = await new Promise((resolve, reject) => {
  const child = spawn(tools.node24, [path.join(here, 'bare-client.mjs'), String(ROUNDS), String(N), path.join(ws, 'open.txt'), path.join(ws, 'disk.txt')],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', d => (out += d));
  child.on('exit', code => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`bare client exited ${code}`))));
});
log('bare client done');

// 2. The extension, inside a real VS Code extension host.
const entry = path.join(repoRoot, 'out/bench/fs-read/extBench.js');
await esbuild.build({
  entryPoints: [path.join(here, 'extBench.ts')], outfile: entry, bundle: true, platform: 'node', format: 'cjs',
  target: 'node20', external: ['vscode'], logLevel: 'warning',
});
await esbuild.build({ entryPoints: [path.join(repoRoot, 'src/extension.ts')], outfile: path.join(repoRoot, 'dist/extension.js'),
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], sourcemap: 'linked', logLevel: 'warning' });
const resultFile = path.join(tmp, 'ext.json');
const wb = await startWorkbench({
  tools, log: () => {}, extensionDevelopmentPath: repoRoot, extensionTestsPath: entry, workspace: ws,
  env: { BENCH_OUT: resultFile, BENCH_ROUNDS: String(ROUNDS), BENCH_N: String(N), BENCH_AGENT: path.join(here, 'read-agent.mjs'), SWITCHBOARD_NODE: tools.node24 },
});
try {
  const code = await wb.exitCode;
  if (code !== 0 || !fs.existsSync(resultFile)) throw new Error(`extension bench failed (exit code ${code})`);
} finally {
  await wb.close();
}
const ext = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
fs.rmSync(tmp, { recursive: true, force: true });

// 3. Report.
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.9)]; };
const rows = [
  ['open buffer (unsaved edit)', ext['open buffer'], bare[path.join(ws, 'open.txt')]],
  ['file on disk', ext.disk, bare[path.join(ws, 'disk.txt')]],
];
console.log(`\nfs/read_text_file round trip, ${MB} MB, ${ROUNDS * N} reads per case (median / p90, ms)`);
console.log('case                         extension          bare SDK client    ratio (median)');
let worst = 0;
for (const [name, e, b] of rows) {
  const ratio = median(e.ms) / median(b.ms);
  worst = Math.max(worst, ratio);
  console.log(`${name.padEnd(28)} ${median(e.ms).toFixed(1).padStart(6)} / ${p90(e.ms).toFixed(1).padStart(6)}    ${median(b.ms).toFixed(1).padStart(6)} / ${p90(b.ms).toFixed(1).padStart(6)}    ${ratio.toFixed(2)}×`);
  if (Math.abs(e.chars - b.chars) > 1) throw new Error(`content sizes differ: ${e.chars} vs ${b.chars}`);
}
console.log(`\nworst ratio ${worst.toFixed(2)}× (target ≤ 1.2×): ${worst <= 1.2 ? 'OK' : 'ABOVE TARGET'}`);
