// The command process in plain Node (no VS Code): exact output and exit codes, the shell string,
// and that kill/interrupt end the whole process group, proven by process id.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { groupLauncher, TerminalProcess } from '../../src/host/terminal/terminalProcess';
import { parseProcStat, isRunningState } from '../../src/common/terminal';

const posix = process.platform !== 'win32';
const start = (command: string, args: string[] = [], more: Partial<Parameters<typeof TerminalProcess.start>[0]> = {}) =>
  TerminalProcess.start({ command, args, env: [], cwd: os.tmpdir(), outputByteLimit: 1 << 20, graceMs: 500, ...more });

/** Running = exists and is not a zombie (this sandbox's init does not reap re-parented processes). */
function isRunning(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return false; }
}

const waitOutput = async (p: TerminalProcess, re: RegExp) => {
  const end = Date.now() + 30_000;
  while (!re.test(p.output.text(false))) {
    if (Date.now() > end) throw new Error(`no ${re} in ${JSON.stringify(p.output.text(false))}`);
    await new Promise(r => setTimeout(r, 10));
  }
  return p.output.text(false).match(re)!;
};

(posix ? describe : describe.skip)('Terminal process', function () {
  this.timeout(60_000);

  it('runs a shell string with the given env and cwd, reports exact output and exit code', async () => {
    const p = await start('echo "$FOO" && pwd && printf "é\\n" >&2; exit 3', [], { env: [{ name: 'FOO', value: 'bar baz' }] });
    assert.deepEqual(await p.exited, { exitCode: 3, signal: null });
    assert.equal(p.output.text(true), `bar baz\n${fs.realpathSync(os.tmpdir())}\né\n`);
  });

  it('runs a program with args directly (no shell interpretation)', async () => {
    const p = await start(process.execPath, ['-e', 'console.log(process.argv[1])', '$HOME && x']);
    await p.exited;
    assert.equal(p.output.text(true), '$HOME && x\n');
  });

  it('rejects a command that does not exist, by name', async () => {
    await assert.rejects(start('switchboard-no-such-cmd', ['x']), /Command not found: switchboard-no-such-cmd/);
  });

  it('kill ends the whole process group, grandchildren included', async () => {
    const p = await start('sleep 100 & echo child $!; sleep 100');
    const [, child] = await waitOutput(p, /child (\d+)/);
    assert.ok(isRunning(Number(child)));
    await p.kill();
    assert.deepEqual(p.exitStatus, { exitCode: null, signal: 'SIGTERM' });
    assert.equal(isRunning(p.pid), false);
    assert.equal(isRunning(Number(child)), false);
  });

  it('kill ends what the command detached: a new session, a double fork, an agent-given tag of the same name', async () => {
    // The agent's env cannot replace the tag: a command given SWITCHBOARD_PROC_TAG=x is still swept.
    const p = await start(`setsid sleep 100 </dev/null >/dev/null 2>&1 & echo setsid $!; (setsid sleep 100 </dev/null >/dev/null 2>&1 & echo daemon $!); sleep 100`, [], { env: [{ name: 'SWITCHBOARD_PROC_TAG', value: 'x' }] });
    const [, setsid] = await waitOutput(p, /setsid (\d+)/);
    const [, daemon] = await waitOutput(p, /daemon (\d+)/);
    const pids = [p.pid, Number(setsid), Number(daemon)];
    try {
      assert.ok(pids.every(isRunning));
      await p.kill();
      assert.deepEqual(pids.filter(isRunning), [], 'nothing runs after kill');
      assert.equal(p.groupRunning(), false);
    } finally {
      for (const pid of pids) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  });

  it('a command that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const p = await start(`trap '' TERM; echo ready; while :; do sleep 0.05; done`);
    await waitOutput(p, /ready/);
    const t0 = Date.now();
    await p.kill();
    assert.equal((await p.exited).signal, 'SIGKILL');
    assert.ok(Date.now() - t0 >= 450, `killed after ${Date.now() - t0} ms`);
    // The group's other members die with it, a moment later on a loaded machine.
    for (const end = Date.now() + 10_000; p.groupRunning() && Date.now() < end;) await new Promise(r => setTimeout(r, 20));
    assert.equal(p.groupRunning(), false);
  });

  it('interrupt sends SIGINT to the group', async () => {
    const p = await start(process.execPath, ['-e', `process.on('SIGINT', () => { console.log('got SIGINT'); process.exit(130); }); console.log('ready'); setInterval(() => {}, 1000);`]);
    await waitOutput(p, /ready/);
    p.interrupt();
    assert.deepEqual(await p.exited, { exitCode: 130, signal: null });
    assert.match(p.output.text(true), /got SIGINT/);
  });

  it('input reaches stdin; end of input ends it', async () => {
    const p = await start('cat');
    p.write('typed line\n');
    p.endInput();
    assert.deepEqual(await p.exited, { exitCode: 0, signal: null });
    assert.equal(p.output.text(true), 'typed line\n');
  });

  it('exit does not wait forever for a background job holding the output pipe; kill sweeps it', async () => {
    const p = await start('sleep 100 & echo bg $!');
    const status = await p.exited;
    assert.deepEqual(status, { exitCode: 0, signal: null });
    const bg = Number(/bg (\d+)/.exec(p.output.text(true))![1]);
    assert.ok(isRunning(bg));
    await p.kill();
    assert.equal(isRunning(bg), false);
  });

  (process.platform === 'linux' && groupLauncher() ? it : it.skip)('a locale that is not installed (LC_ALL forwarded by ssh) adds no launcher warning to the output', async () => {
    const p = await start(process.execPath, ['-e', 'console.log(process.env.PERL_BADLANG ?? "unset")'], { env: [{ name: 'LC_ALL', value: 'xx_NOWHERE.UTF-8' }] });
    assert.deepEqual(await p.exited, { exitCode: 0, signal: null });
    assert.equal(p.output.text(true), 'unset\n');
  });

  (process.platform === 'linux' && groupLauncher() ? it : it.skip)('the command leads its own process group in the host\'s session (same scheduler group); PERL* variables reach it untouched', async () => {
    const p = await start('cat /proc/$$/stat; echo "opt=$PERL5OPT lib=$PERL5LIB"', [], { env: [{ name: 'PERL5OPT', value: '-d' }, { name: 'PERL5LIB', value: '/nowhere' }, { name: 'SWITCHBOARD_PERLENV_X', value: 'y' }] });
    assert.deepEqual(await p.exited, { exitCode: 0, signal: null });
    const [stat, vars] = p.output.text(true).split('\n');
    const me = parseProcStat(fs.readFileSync('/proc/self/stat', 'utf8'))!;
    const cmd = parseProcStat(stat)!;
    assert.equal(cmd.pid, p.pid);
    assert.equal(cmd.pgrp, p.pid, 'leads its group');
    assert.equal(cmd.session, me.session, 'in the host\'s session');
    // PERL5OPT=-d would have started the launcher in the debugger (waiting for a terminal).
    assert.equal(vars, 'opt=-d lib=/nowhere');
  });

  it('output printed before the first listener subscribed is handed to it (the integrated terminal misses nothing)', async () => {
    const p = await start('echo early; echo more >&2');
    await p.exited;
    const seen: string[] = [];
    p.onData(c => seen.push(Buffer.from(c).toString()));
    assert.deepEqual(seen.join('').split('\n').sort(), ['', 'early', 'more']);
    const second: string[] = [];
    p.onData(c => second.push(Buffer.from(c).toString()));
    assert.deepEqual(second, [], 'only the first listener gets the early output');
  });

  it('a file that cannot be run is refused with the reason', async () => {
    await assert.rejects(start(os.tmpdir(), ['x']), (e: Error) => /Could not start .*: .*(Permission denied|EACCES)/i.test(e.message));
    const script = fs.mkdtempSync(`${os.tmpdir()}/sb-noexec-`) + '/script.sh';
    fs.writeFileSync(script, 'echo hi\n', { mode: 0o644 });
    await assert.rejects(start(script, ['x']), (e: Error) => /Could not start .*: .*(Permission denied|EACCES)/i.test(e.message));
  });
});
