// The watchdog in plain Node: when the pipe from its host closes (the host died, however), every
// process group it was told about ends, even one that ignores SIGTERM; forgotten groups are left alone.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { ProcessGuard, WATCHDOG_SOURCE } from '../../src/acp/processGuard';
import { isRunningState, parseProcStat } from '../../src/common/terminal';

const posix = process.platform !== 'win32';

function isRunning(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return false; }
}

async function until(what: string, probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

/** A process group leader (optionally ignoring SIGTERM) with one child; resolves both pids. */
async function group(ignoreTerm: boolean): Promise<{ leader: ChildProcess; pids: number[] }> {
  const trap = ignoreTerm ? "process.on('SIGTERM', () => {});" : '';
  const code = `${trap} const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(trap + 'setInterval(() => {}, 1e6)')}], { stdio: 'ignore' });` +
    `c.on('spawn', () => console.log(c.pid)); setInterval(() => {}, 1e6);`;
  const leader = spawn(process.execPath, ['-e', code], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const child = await new Promise<number>(resolve => leader.stdout!.once('data', d => resolve(Number(String(d).trim()))));
  return { leader, pids: [leader.pid!, child] };
}

(posix ? describe : describe.skip)('Process guard (watchdog)', function () {
  this.timeout(60_000);
  const cleanup: number[] = [];
  afterEach(() => { for (const p of cleanup.splice(0)) try { process.kill(-p, 'SIGKILL'); } catch { /* gone */ } });

  it('ends every watched group when its host pipe closes, SIGKILL for what ignores SIGTERM; leaves forgotten groups', async () => {
    const polite = await group(false);
    const stubborn = await group(true);
    const forgotten = await group(false);
    cleanup.push(polite.leader.pid!, stubborn.leader.pid!, forgotten.leader.pid!);
    const dog = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, '300'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    dog.stdin!.write(`+${polite.leader.pid}\n+${stubborn.leader.pid}\n+${forgotten.leader.pid}\n`);
    dog.stdin!.write(`-${forgotten.leader.pid}\n`);
    await new Promise(r => setTimeout(r, 200));
    for (const p of [...polite.pids, ...stubborn.pids]) assert.ok(isRunning(p), `${p} runs while the host is there`);
    dog.stdin!.end(); // what the kernel does to the pipe when the host dies
    await until('the watched groups to end', () => [...polite.pids, ...stubborn.pids].every(p => !isRunning(p)), 20_000);
    await until('the watchdog to exit', () => dog.exitCode !== null, 20_000);
    for (const p of forgotten.pids) assert.ok(isRunning(p), `the forgotten group (${p}) is left alone`);
  });

  it('ProcessGuard starts one watchdog on first watch, which outlives nothing of what it watches', async () => {
    const guard = new ProcessGuard({ graceMs: 300 });
    const agent = await group(true);
    const command = await group(false);
    cleanup.push(agent.leader.pid!, command.leader.pid!);
    guard.watch(agent.leader.pid);
    const dog = guard.pid!;
    guard.watch(command.leader.pid);
    assert.equal(guard.pid, dog, 'one watchdog for all groups');
    assert.ok(isRunning(dog));
    await new Promise(r => setTimeout(r, 200));
    // The host's end of the pipe closes, as when the host dies.
    (guard as unknown as { child: ChildProcess }).child.stdin!.destroy();
    await until('both groups to end', () => [...agent.pids, ...command.pids].every(p => !isRunning(p)), 20_000);
    await until('the watchdog to exit', () => !isRunning(dog), 20_000);
  });

  it('starts nothing until something is watched', () => {
    assert.equal(new ProcessGuard().pid, undefined);
  });
});
