// The helper that starts the checkpoints' git processes (src/host/checkpoints/gitRunner.ts) against
// a real git and real processes: the same trees and bytes as git started directly, the same errors,
// and no helper outliving its host. Run with SB_RUNNER_PARENT set, this file is that host instead
// (it prints the helper's pid, then exits or waits to be killed).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { directRunner, HelperRunner } from '../../src/host/checkpoints/gitRunner';
import { ShadowRepo } from '../../src/host/checkpoints/shadowRepo';
import { isRunningState, parseProcStat } from '../../src/common/terminal';

async function parentMain(mode: string): Promise<void> {
  const runner = new HelperRunner();
  const r = await runner.run('git', ['--version'], { cwd: process.cwd(), env: process.env, maxBuffer: 1 << 20 });
  console.log(`${runner.pid} ${r.stdout.toString('utf8').trim()}`);
  // 'exit': nothing else to do, so this process must end by itself; 'wait': it waits to be killed.
  if (mode === 'wait') setInterval(() => undefined, 1e6);
}

/** Running (a zombie left to a parent that does not reap it is not). */
function alive(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return process.platform !== 'linux'; }
}

async function until(what: string, probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

if (process.env.SB_RUNNER_PARENT) {
  void parentMain(process.env.SB_RUNNER_PARENT);
} else {
  (process.platform === 'win32' ? describe.skip : describe)('checkpoints: git started by the helper process', function () {
    this.timeout(60_000);
    let tmp: string;
    let work: string;
    const runners: HelperRunner[] = [];
    beforeEach(() => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-runner-'));
      work = path.join(tmp, 'work');
      fs.mkdirSync(work);
    });
    afterEach(() => {
      for (const r of runners.splice(0)) r.dispose();
      fs.rmSync(tmp, { recursive: true, force: true });
    });
    const helper = () => { const r = new HelperRunner(); runners.push(r); return r; };
    const repos = () => {
      const h = helper();
      return {
        h,
        viaHelper: new ShadowRepo({ git: 'git', gitDir: path.join(tmp, 'helper.git'), workTree: work, maxFileBytes: 1 << 20, runner: h }),
        direct: new ShadowRepo({ git: 'git', gitDir: path.join(tmp, 'direct.git'), workTree: work, maxFileBytes: 1 << 20, runner: directRunner }),
      };
    };

    it('records the same trees as git started directly, and keeps the exact bytes a restore writes back', async () => {
      const { h, viaHelper, direct } = repos();
      const binary = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7919) % 256));
      fs.writeFileSync(path.join(work, 'a.txt'), 'before the turn\r\n');
      fs.writeFileSync(path.join(work, 'image.bin'), binary);
      fs.mkdirSync(path.join(work, 'sub'));
      fs.writeFileSync(path.join(work, 'sub', 'big.log'), 'x'.repeat(2 << 20));
      const before = await viaHelper.snapshot();
      assert.equal(before, await direct.snapshot());
      assert.ok(h.pid && h.pid !== process.pid, 'git ran through the helper');
      // The agent changes a file, deletes one, creates one.
      fs.writeFileSync(path.join(work, 'a.txt'), 'changed by the agent\n');
      fs.rmSync(path.join(work, 'image.bin'));
      fs.writeFileSync(path.join(work, 'new.txt'), 'created\n');
      const after = await viaHelper.snapshot();
      assert.equal(after, await direct.snapshot());
      assert.notEqual(after, before);
      const diff = await viaHelper.diff(before, after);
      assert.equal(diff, await direct.diff(before, after));
      // What a restore writes back: the blobs of the checkpoint, byte for byte.
      const listing = await viaHelper.git(['ls-tree', '-r', before]);
      const shaOf = (name: string) => new RegExp(`blob ([0-9a-f]+)\\t${name}$`, 'm').exec(listing)![1];
      assert.deepEqual(await viaHelper.blob(shaOf('a.txt')), Buffer.from('before the turn\r\n'));
      assert.ok((await viaHelper.blob(shaOf('image.bin'))).equals(binary));
      assert.deepEqual(await viaHelper.leftOut(before), new Set(['sub/big.log']), 'the file over the size cap is left out alike');
    });

    it('a failing git command fails with the same message as git started directly', async () => {
      const { viaHelper, direct } = repos();
      await viaHelper.snapshot();
      await direct.snapshot();
      const message = async (repo: ShadowRepo) => (await repo.blob('0123456789abcdef0123456789abcdef01234567').then(() => 'no error', (err: Error) => err.message));
      const got = await message(viaHelper);
      assert.match(got, /^git cat-file failed: /);
      assert.equal(got.replace(/helper\.git/g, 'X.git'), (await message(direct)).replace(/direct\.git/g, 'X.git'));
      const missing = await helper().run(path.join(tmp, 'no-such-git'), ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      assert.match(missing.error ?? '', /ENOENT/);
    });

    it('a helper killed mid-command: the command still gets its answer, and the next one a new helper', async () => {
      const h = helper();
      const first = await h.run('git', ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      const pid = h.pid!;
      const pending = h.run('git', ['hash-object', '--stdin'], { cwd: work, env: process.env, input: 'hello\n', maxBuffer: 1024 });
      process.kill(pid, 'SIGKILL');
      assert.equal((await pending).stdout.toString('utf8').trim(), 'ce013625030ba8dba906f756967f9e9ca394464a');
      const next = await h.run('git', ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      assert.deepEqual(next.stdout, first.stdout);
      assert.ok(h.pid && h.pid !== pid, 'a new helper');
    });

    it('a helper ending (the extension deactivating, the helper killed) ends the commands it still runs: none outlives it', async () => {
      const h = helper();
      await h.run('git', ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      const pid = h.pid!;
      // A command that would run on for a minute (git's stand-in here: the helper runs what it is given).
      void h.run('sleep', ['60'], { cwd: work, env: process.env, maxBuffer: 1024 });
      const childrenOf = (parent: number) => fs.readdirSync('/proc').filter(n => /^\d+$/.test(n)).map(Number)
        .filter(n => { try { return parseProcStat(fs.readFileSync(`/proc/${n}/stat`, 'utf8'))?.ppid === parent; } catch { return false; } });
      let sleeper = 0;
      await until('the helper to start the command', () => !!(sleeper = childrenOf(pid)[0] ?? 0), 10_000);
      const mine = new Set(childrenOf(process.pid));
      try {
        process.kill(pid, 'SIGTERM');
        await until('the command to end with its helper', () => !alive(sleeper), 10_000);
      } finally {
        // What the helper had not answered runs again directly, from here: not this test's subject.
        for (const n of childrenOf(process.pid)) if (!mine.has(n)) try { process.kill(n, 'SIGKILL'); } catch { /* gone */ }
        try { process.kill(sleeper, 'SIGKILL'); } catch { /* gone */ }
      }
    });

    it('dispose (the extension deactivating) ends the helper; a command after it still runs, directly', async () => {
      const h = helper();
      await h.run('git', ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      const pid = h.pid!;
      h.dispose();
      await until('the helper to end', () => !alive(pid), 10_000);
      const after = await h.run('git', ['--version'], { cwd: work, env: process.env, maxBuffer: 1024 });
      assert.match(after.stdout.toString('utf8'), /^git version /);
      assert.equal(h.pid, undefined, 'no new helper after dispose');
    });

    for (const mode of ['exit', 'wait'] as const) {
      it(mode === 'exit' ? 'never keeps its host alive, and ends with it' : 'ends when its host is killed (SIGKILL: no exit handler runs)', async () => {
        const host = spawn(process.execPath, [__filename], { env: { ...process.env, SB_RUNNER_PARENT: mode }, stdio: ['ignore', 'pipe', 'inherit'] });
        // Listened for from the start: in 'exit' mode the host may end right after printing.
        const exited = new Promise(r => host.once('exit', r));
        const line = await new Promise<string>((resolve, reject) => {
          host.stdout!.once('data', d => resolve(String(d)));
          host.once('exit', code => reject(new Error(`the host exited (${code}) before printing`)));
        });
        const [pid, ...version] = line.trim().split(' ');
        assert.match(version.join(' '), /^git version /);
        const helperPid = Number(pid);
        assert.ok(helperPid > 0, line);
        // Alive while its host is (in 'exit' mode the host may already be ending with it).
        if (mode === 'wait') assert.ok(alive(helperPid));
        if (mode === 'wait') host.kill('SIGKILL');
        await exited;
        await until('the helper to end', () => !alive(helperPid), 10_000);
      });
    }
  });
}
