// The watchdog in plain Node: when the pipe from its host closes (the host died, however), every
// process group it was told about ends, even one that ignores SIGTERM; forgotten groups are left alone.
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ProcessGuard, WATCHDOG_SOURCE } from '../../src/acp/processGuard';
import { PROC_TAG_VAR, readProcessTable, startTimeOf } from '../../src/acp/processTree';
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

  it("ends what carries the host's tags however it detached (setsid, double fork); another host's tag is left alone", async () => {
    const guard = new ProcessGuard({ graceMs: 300 });
    // Started like a command: the tag in the environment; it detaches at once and exits.
    const detach = (tag: string) => new Promise<number>(resolve => {
      const sh = spawn('/bin/sh', ['-c', '(setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!)'], { env: { ...process.env, SWITCHBOARD_PROC_TAG: tag }, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      sh.stdout!.on('data', d => { out += d; });
      sh.on('close', () => resolve(Number(out.trim())));
    });
    const mine = await detach(guard.newTag());
    const theirs = await detach('otherhost.1');
    cleanup.push(-mine, -theirs); // negative: the cleanup kills -(-pid), the process itself
    assert.match(guard.newTag(), new RegExp(`^${guard.hostTag}\\.2$`));
    const stubborn = await group(true);
    cleanup.push(stubborn.leader.pid!);
    guard.watch(stubborn.leader.pid); // starts the watchdog
    const dog = guard.pid!;
    await new Promise(r => setTimeout(r, 200));
    assert.ok(isRunning(mine) && isRunning(theirs));
    (guard as unknown as { child: ChildProcess }).child.stdin!.destroy();
    await until('the detached process to end', () => !isRunning(mine), 5000);
    await until('the watchdog to exit', () => !isRunning(dog), 5000);
    assert.ok(isRunning(theirs), "another host's process is left alone");
  });

  it('the process table has the tag from the environment; the environment of older processes is not read (Linux)', async function () {
    if (process.platform !== 'linux') this.skip();
    const child = spawn('sleep', ['100'], { env: { ...process.env, [PROC_TAG_VAR]: 'table.1' }, stdio: 'ignore' });
    cleanup.push(-child.pid!);
    await new Promise(r => child.once('spawn', r));
    // sleep has exec'd once its environment is the new one (a fresh fork still shows the parent's).
    await until('sleep to run', () => fs.readFileSync(`/proc/${child.pid}/cmdline`, 'latin1').startsWith('sleep'), 5000);
    const entry = (since?: number) => readProcessTable(fs, spawnSync, process.platform, PROC_TAG_VAR, since).find(p => p.pid === child.pid);
    const self = parseProcStat(fs.readFileSync('/proc/self/stat', 'utf8'))!;
    assert.deepEqual({ ...entry(), state: 'S' }, { pid: child.pid, ppid: process.pid, pgrp: self.pgrp, session: self.session, state: 'S', tag: 'table.1' });
    assert.equal(entry(startTimeOf(child.pid))?.tag, 'table.1', 'started at the bound: read');
    assert.equal(entry(startTimeOf(child.pid) + 1)?.tag, undefined, 'started before the bound: not read');
  });

  it('starts nothing until something is watched', () => {
    assert.equal(new ProcessGuard().pid, undefined);
  });
});
