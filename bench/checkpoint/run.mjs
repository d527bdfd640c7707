#!/usr/bin/env node
// The cost of a checkpoint (host/checkpoints/shadowRepo.ts, as the extension runs it) of a
// 10,000-file workspace with 10 changed files, against `git stash create` on the same tree in the
// same run (what a user would call the cheapest git snapshot). Rounds are interleaved: each round
// changes the same 10 files again, then times both, in alternating order.
//
//   npm run bench:checkpoint      (env: BENCH_FILES=10000 BENCH_CHANGED=10 BENCH_ROUNDS=15)
//
// Prints `ratio checkpoint: <median checkpoint / median stash create>` (target ≤ 2), the first
// (cold) checkpoint, and the storage the shadow directory takes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const FILES = Number(process.env.BENCH_FILES || 10_000);
const CHANGED = Number(process.env.BENCH_CHANGED || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const log = (...a) => console.log('[checkpoint]', ...a);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-cp-'));
try {
  const out = path.join(tmp, 'shadowRepo.mjs');
  await esbuild.build({ entryPoints: [path.join(here, '../../src/host/checkpoints/shadowRepo.ts')], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error' });
  const { ShadowRepo } = await import(pathToFileURL(out).href);

  const ws = path.join(tmp, 'ws');
  const perDir = 100;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(ws, `src${Math.floor(i / perDir)}`);
    if (i % perDir === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `file${i % perDir}.ts`), `// file ${i}\nexport const value${i} = ${i};\n`.repeat(1 + (i % 20)));
  }
  fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
  const git = (...args) => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  git('init', '--quiet');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'init');
  git('status', '--porcelain'); // refreshes the user's index, as an editor's git extension keeps it
  const gitPath = execFileSync(process.platform === 'win32' ? 'where' : 'which', ['git'], { encoding: 'utf8' }).split(/\r?\n/)[0].trim();
  const repo = new ShadowRepo({ git: gitPath, gitDir: path.join(tmp, 'storage', 'shadow.git'), workTree: ws, maxFileBytes: 10 * 1024 * 1024 });

  let t = performance.now();
  await repo.snapshot();
  const cold = performance.now() - t;
  log(`${FILES} files; first (cold) checkpoint: ${cold.toFixed(0)} ms`);

  const fileOf = (i) => path.join(ws, `src${Math.floor(i / perDir)}`, `file${i % perDir}.ts`);
  const changed = Array.from({ length: Math.min(CHANGED, FILES) }, (_, k) => fileOf(Math.floor(k * FILES / Math.min(CHANGED, FILES))));
  const stash = [];
  const checkpoint = [];
  const time = async (fn) => { const s = performance.now(); await fn(); return performance.now() - s; };
  for (let r = 0; r < ROUNDS; r++) {
    for (const f of changed) fs.appendFileSync(f, `// round ${r}\n`);
    const runStash = async () => stash.push(await time(() => git('stash', 'create')));
    const runCheckpoint = async () => checkpoint.push(await time(() => repo.snapshot()));
    if (r % 2) { await runStash(); await runCheckpoint(); } else { await runCheckpoint(); await runStash(); }
  }
  const m = { stash: median(stash), checkpoint: median(checkpoint) };
  log(`median of ${ROUNDS}: git stash create ${m.stash.toFixed(1)} ms, checkpoint ${m.checkpoint.toFixed(1)} ms; shadow storage ${(await repo.size() / 1024 / 1024).toFixed(1)} MiB; load ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
  console.log(`ratio checkpoint: ${(m.checkpoint / m.stash).toFixed(2)}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
