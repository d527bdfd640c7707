#!/usr/bin/env node
// The cost of a checkpoint (host/checkpoints/shadowRepo.ts, as the extension runs it), on a
// 10,000-file workspace with 10 changed files and on a copy of the fixture workspace, against
// `git stash create` on the same tree in the same run (what a user would call the cheapest git
// snapshot). The checkpoint before a turn is what the prompt waits for between the user's Enter and
// `session/prompt` reaching the agent (checkpoints off: nothing), so each checkpoint is also the
// prompt's delay.
//
// This process first takes as much resident memory as an extension host (BENCH_HOST_MB, 300 MB of
// touched pages): Node's spawn forks the calling process synchronously, in its only JavaScript
// thread, and the fork's cost grows with the memory it copies the page tables of. Three ways are
// timed in rotating order each round, after the same 10 files changed again:
//   direct   the checkpoint with git started from this (host-sized) process, as before gitRunner.ts
//   helper   the checkpoint with git started by the small helper process (gitRunner.ts, what runs now)
//   stash    `git stash create` on the user's repository, started by a helper too (git's own time, no
//            fork of this process: what a bare client of a small size pays)
// and for each checkpoint this process's longest event-loop stall (a fork holds the thread) and the
// CPU it used (forks included). Then the fork itself: the synchronous `spawn()` of `git --version` from this
// process against the same from a fresh small Node (what the helper is).
//
//   npm run bench:checkpoint      (env: BENCH_FILES=10000 BENCH_CHANGED=10 BENCH_ROUNDS=15 BENCH_HOST_MB=300)
//
// The same, as the user and the agent see it in a real VS Code (Enter → session/prompt, checkpoints
// off / direct / helper): node bench/checkpoint/prompt.mjs.
//
// Prints `ratio checkpoint: <median helper checkpoint / median stash create>` (target ≤ 2) with the
// old way's ratio in the same run, the prompt's delay checkpoints on vs off, the host's blocked
// time per git process, the first (cold) checkpoint, and the storage the shadow directory takes.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const FILES = Number(process.env.BENCH_FILES || 10_000);
const CHANGED = Number(process.env.BENCH_CHANGED || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const HOST_MB = Number(process.env.BENCH_HOST_MB ?? 300);
const log = (...a) => console.log('[checkpoint]', ...a);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const ms = (x) => x.toFixed(1);
const load = () => os.loadavg().map(x => x.toFixed(1)).join(' ');

// Resident memory like an extension host's: touched pages, not just reserved.
const ballast = [];
for (let i = 0; i < HOST_MB; i++) { const b = new Uint8Array(1024 * 1024); for (let j = 0; j < b.length; j += 4096) b[j] = 1; ballast.push(b); }
// Held to the end (a local nothing reads again may be collected).
globalThis.benchBallast = ballast;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-cp-'));
const runners = [];
try {
  const out = path.join(tmp, 'shadowRepo.mjs');
  await esbuild.build({ stdin: { contents: "export { ShadowRepo } from './shadowRepo'; export { HelperRunner, directRunner } from './gitRunner';", resolveDir: path.join(here, '../../src/host/checkpoints'), loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error' });
  const { ShadowRepo, HelperRunner, directRunner } = await import(pathToFileURL(out).href);
  const gitPath = execFileSync(process.platform === 'win32' ? 'where' : 'which', ['git'], { encoding: 'utf8' }).split(/\r?\n/)[0].trim();
  log(`this process: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB resident; load before ${load()}`);

  /** Times direct, helper and stash create on workspace `ws`, `changed` files changed again each round. */
  const measure = async (name, ws, changed) => {
    const git = (...args) => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
    git('init', '--quiet');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'init');
    git('status', '--porcelain'); // refreshes the user's index, as an editor's git extension keeps it
    const helper = new HelperRunner();
    runners.push(helper);
    const repos = {
      direct: new ShadowRepo({ git: gitPath, gitDir: path.join(tmp, `${name}-direct.git`), workTree: ws, maxFileBytes: 10 * 1024 * 1024, runner: directRunner }),
      helper: new ShadowRepo({ git: gitPath, gitDir: path.join(tmp, `${name}-helper.git`), workTree: ws, maxFileBytes: 10 * 1024 * 1024, runner: helper }),
    };
    let t = performance.now();
    await repos.helper.snapshot();
    const cold = performance.now() - t;
    await repos.direct.snapshot();
    const times = { direct: [], helper: [], stash: [] };
    const blocked = { direct: [], helper: [], stash: [] };
    const cpu = { direct: [], helper: [], stash: [] };
    const trees = { direct: [], helper: [] };
    // What the extension's file watcher reports between two checkpoints: the files changed.
    const touched = changed.map(f => path.relative(ws, f).split(path.sep).join('/'));
    const runs = {
      direct: () => repos.direct.snapshot(touched).then(tree => trees.direct.push(tree)),
      helper: () => repos.helper.snapshot(touched).then(tree => trees.helper.push(tree)),
      stash: () => helper.run('git', ['stash', 'create'], { cwd: ws, env: process.env, maxBuffer: 1 << 20 }).then(r => { if (r.error) throw new Error(r.error); }),
    };
    const order = ['direct', 'helper', 'stash'];
    for (let r = 0; r < ROUNDS; r++) {
      for (const f of changed) fs.appendFileSync(f, `// round ${r}\n`);
      for (let k = 0; k < order.length; k++) {
        const which = order[(r + k) % order.length];
        // The longest the thread could not run a 1 ms timer (a spawn's fork, or the rest).
        const h = monitorEventLoopDelay({ resolution: 1 });
        h.enable();
        const c0 = process.cpuUsage();
        const s = performance.now();
        await runs[which]();
        times[which].push(performance.now() - s);
        const c = process.cpuUsage(c0);
        h.disable();
        cpu[which].push((c.user + c.system) / 1000);
        blocked[which].push(h.max / 1e6);
      }
    }
    // The same bytes recorded either way (both directories see the same files each round).
    if (trees.direct.join() !== trees.helper.join()) throw new Error('the helper recorded other trees than the direct checkpoint');
    const m = Object.fromEntries(Object.keys(times).map(k => [k, median(times[k])]));
    log(`${name}: first (cold) checkpoint ${ms(cold)} ms; median of ${ROUNDS}: stash create ${ms(m.stash)} ms, checkpoint direct ${ms(m.direct)} ms, helper ${ms(m.helper)} ms; ` +
      `this process's CPU per checkpoint direct ${ms(median(cpu.direct))} ms, helper ${ms(median(cpu.helper))} ms; ` +
      `longest event-loop stall direct ${ms(median(blocked.direct))} ms, helper ${ms(median(blocked.helper))} ms; shadow storage ${(await repos.helper.size() / 1048576).toFixed(1)} MiB`);
    log(`${name}: the prompt waits (Enter → session/prompt) checkpoints on ${ms(m.helper)} ms (was ${ms(m.direct)} ms), off 0 ms`);
    return m;
  };

  // The 10,000-file workspace.
  const big = path.join(tmp, 'ws');
  const perDir = 100;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(big, `src${Math.floor(i / perDir)}`);
    if (i % perDir === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `file${i % perDir}.ts`), `// file ${i}\nexport const value${i} = ${i};\n`.repeat(1 + (i % 20)));
  }
  fs.writeFileSync(path.join(big, '.gitignore'), 'node_modules/\n');
  const fileOf = (i) => path.join(big, `src${Math.floor(i / perDir)}`, `file${i % perDir}.ts`);
  const n = Math.min(CHANGED, FILES);
  const bigM = await measure(`${FILES} files`, big, Array.from({ length: n }, (_, k) => fileOf(Math.floor(k * FILES / n))));

  // The fixture workspace the tests and the other benches open (a few files), one changed a round.
  const small = path.join(tmp, 'fixture');
  fs.cpSync(path.join(here, '../../test/fixtures/workspace'), small, { recursive: true });
  const smallM = await measure('fixture workspace', small, [path.join(small, 'notes.txt')]);

  // The fork itself: spawn()'s synchronous part, from this process and from a small Node like the helper.
  const spawnTimes = async () => {
    const t = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      const c = spawn('git', ['--version'], { stdio: 'ignore' });
      t.push(performance.now() - s);
      await new Promise(res => c.on('exit', res));
    }
    return median(t);
  };
  const here_ = await spawnTimes();
  const smallNode = execFileSync(process.execPath, ['--input-type=module', '-e', `import { spawn } from 'node:child_process'; const t = []; for (let i = 0; i < 20; i++) { const s = performance.now(); const c = spawn('git', ['--version'], { stdio: 'ignore' }); t.push(performance.now() - s); await new Promise(r => c.on('exit', r)); } t.sort((a, b) => a - b); console.log(t[10]);`], { encoding: 'utf8' });
  log(`spawn() blocks the calling thread (median of 20, git --version): ${ms(here_)} ms from this ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB process, ${ms(Number(smallNode))} ms from a small Node (the helper)`);
  log(`load after ${load()}`);
  console.log(`ratio checkpoint: ${(bigM.helper / bigM.stash).toFixed(2)} (direct, as before: ${(bigM.direct / bigM.stash).toFixed(2)}; fixture workspace ${(smallM.helper / smallM.stash).toFixed(2)}, direct ${(smallM.direct / smallM.stash).toFixed(2)})`);
} finally {
  for (const r of runners) r.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
}
