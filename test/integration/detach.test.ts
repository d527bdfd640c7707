// No process escapes, in a real VS Code: whatever a command or an agent does to detach (a new
// session with setsid, a daemon's double fork that re-parents it, `nohup … & disown` in a new
// session) ends when its terminal is killed or released and when its agent stops or exits, proven
// by process id. (The extension host's death: test/e2e/processes.e2e.mjs.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { SwitchboardApi } from '../../src/extension';
import { agentEvents, api, isRunning, tmpDir, useScriptedAgent, waitFor } from './helpers';

/**
 * A command that detaches three ways, each `sleep 1000` writing its pid to <dir>/<how>.pid, then
 * writes <dir>/ready. Every one leaves the command's process group; the double fork also leaves
 * its process tree (re-parented to init).
 */
const DETACH_SCRIPT = `d=$1
setsid sh -c 'echo $$ > "$1/setsid.pid"; exec sleep 1000' sh "$d" </dev/null >/dev/null 2>&1 &
(setsid sh -c 'echo $$ > "$1/daemon.pid"; exec sleep 1000' sh "$d" </dev/null >/dev/null 2>&1 &)
bash -c 'nohup setsid sh -c "echo \\$\\$ > \\"\\$1/nohup.pid\\"; exec sleep 1000" sh "$1" </dev/null >/dev/null 2>&1 & disown' bash "$d"
while [ ! -s "$d/setsid.pid" ] || [ ! -s "$d/daemon.pid" ] || [ ! -s "$d/nohup.pid" ]; do sleep 0.05; done
: > "$d/ready"
`;
const HOWS = ['setsid', 'daemon', 'nohup'] as const;

let runs = 0;
/** A fresh folder with the detaching script; `line` runs it, then `rest`. */
function detacher(rest: string): { dir: string; ready: string; line: string; pids: () => Record<string, number> } {
  const dir = path.join(tmpDir, `detach-${++runs}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'detach.sh'), DETACH_SCRIPT);
  const pids = () => Object.fromEntries(HOWS.map(h => [h, Number(fs.readFileSync(path.join(dir, `${h}.pid`), 'utf8'))]));
  return { dir, ready: path.join(dir, 'ready'), line: `echo leader $$; sh '${dir}/detach.sh' '${dir}'; ${rest}`, pids };
}

const survivors = (pids: Record<string, number>) => Object.entries(pids).filter(([, p]) => isRunning(p)).map(([n, p]) => `${n} ${p}`);
const terminalOutput = (log: string) => (agentEvents(log).find(e => e.event === 'result' && e.type === 'terminal')?.result as { output: string; exitStatus: unknown } | undefined);

(process.platform === 'linux' ? describe : describe.skip)('Detached processes (no process escapes)', function () {
  this.timeout(90_000);
  let sb: SwitchboardApi;
  const started: number[] = [];

  before(async () => { sb = await api(); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  // A failing run must not leave a thousand-second sleep behind.
  afterEach(() => { for (const p of started.splice(0)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ } });
  after(async () => { await sb.chat.stop(); });

  it('terminal/kill ends what the command detached: setsid, a double-forking daemon, nohup & disown', async () => {
    const d = detacher('sleep 1000');
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: d.line, awaitFile: d.ready, kill: true, release: false }] }],
    });
    await sb.chat.sendPrompt('go');
    const r = terminalOutput(log);
    assert.ok(r, JSON.stringify(agentEvents(log)));
    const pids = { leader: Number(/leader (\d+)/.exec(r.output)![1]), ...d.pids() };
    started.push(...Object.values(pids));
    // terminal/kill has answered (and the agent read the output since): nothing may run now.
    assert.deepEqual(survivors(pids), [], 'still running after terminal/kill');
  });

  it('terminal/release ends what a finished command left detached, even when the agent passed a tag of its own', async () => {
    const d = detacher('echo done');
    // An agent cannot take a command out of the sweep by naming the variable in terminal/create's env.
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'terminal', command: d.line, env: { SWITCHBOARD_PROC_TAG: 'escaped' } }] }] });
    await sb.chat.sendPrompt('go');
    const r = terminalOutput(log);
    assert.ok(r, JSON.stringify(agentEvents(log)));
    // The command itself ended on its own; its detached processes are what release must end.
    assert.deepEqual(r.exitStatus, { exitCode: 0, signal: null });
    assert.match(r.output, /done\n$/);
    const pids = d.pids();
    started.push(...Object.values(pids));
    assert.deepEqual(survivors(pids), [], 'still running after terminal/release');
  });

  for (const how of ['stopping the agent', 'the agent exiting'] as const) {
    it(`${how} ends what the agent and its commands detached`, async () => {
      const d = detacher('echo done');
      const { log } = await useScriptedAgent({
        ignoreStdinClose: true,
        turns: [
          { match: 'detach', steps: [
            { type: 'detachChild' },
            // Never released by the agent: the command ends, what it detached stays.
            { type: 'request', method: 'terminal/create', params: { sessionId: '{{sessionId}}', command: d.line } },
            { type: 'awaitFile', path: d.ready, timeoutMs: 30_000 },
          ] },
          { match: 'exit', steps: [{ type: 'exit', code: 0 }] },
        ],
      });
      await sb.chat.sendPrompt('detach');
      const agent = agentEvents(log).find(e => e.event === 'start')!.pid as number;
      const pids = { agent, agentDetached: agentEvents(log).find(e => e.event === 'detached')!.pid as number, ...d.pids() };
      started.push(...Object.values(pids));
      assert.deepEqual(survivors(pids).length, Object.keys(pids).length, 'everything runs before');
      if (how === 'stopping the agent') await sb.chat.stop();
      else await sb.chat.sendPrompt('exit').catch(() => { /* the agent went away */ });
      await waitFor(() => `no survivor; still running: ${survivors(pids).join(', ')}`, () => survivors(pids).length === 0, 10_000);
    });
  }
});
