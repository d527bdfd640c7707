// No agent outlives its editor: an agent that ignores a closed stdin and SIGTERM, the child it
// started, a child it detached (double fork into a new session), and a command it runs through
// terminal/* with what that command detached (setsid, a double-forking daemon, nohup & disown in a
// new session) all end when the extension host is killed (SIGKILL: no deactivate, no exit
// handler), proven by process id.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-proc-'));
const agentLog = path.join(dir, 'agent.jsonl');
const pidFile = path.join(dir, 'terminal.pids');
const DETACHED = ['setsid', 'daemon', 'nohup'];
// Each writes its own pid to <dir>/<how>.pid and leaves the command's process group.
const detachers = [
  `setsid sh -c 'echo $$ > ${dir}/setsid.pid; exec sleep 1000' </dev/null >/dev/null 2>&1 &`,
  `(setsid sh -c 'echo $$ > ${dir}/daemon.pid; exec sleep 1000' </dev/null >/dev/null 2>&1 &);`,
  `bash -c 'nohup setsid sh -c "echo \\$\\$ > ${dir}/nohup.pid; exec sleep 1000" </dev/null >/dev/null 2>&1 & disown'`,
].join(' ');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  log: agentLog, ignoreStdinClose: true, ignoreSigterm: true,
  turns: [{ steps: [
    { type: 'spawnChild', ignoreSigterm: true },
    { type: 'detachChild' },
    { type: 'terminal', command: `echo $$ > ${pidFile}; sleep 600 & echo $! >> ${pidFile}; ${detachers}; wait` },
  ] }],
});

const events = () => (fs.existsSync(agentLog) ? fs.readFileSync(agentLog, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : []);
const stat = pid => { try { return fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return undefined; } };
const ppidOf = pid => Number(stat(pid)?.slice(stat(pid).lastIndexOf(')') + 2).split(' ')[1]);
/** Alive and not a zombie (re-parented zombies are never reaped in this sandbox). */
const running = pid => { const s = stat(pid); return !!s && !/^[ZX]/.test(s.slice(s.lastIndexOf(')') + 2)); };

async function until(what, probe, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

export default async function ({ page, log }) {
  const { prompt } = await openChat(page);
  await prompt.fill('start everything');
  await prompt.press('Enter');
  const agentPid = await until('the agent to start', () => events().find(e => e.event === 'start')?.pid, 30_000);
  const childPid = await until("the agent's child", () => events().find(e => e.event === 'child')?.pid, 30_000);
  const [shellPid, sleepPid] = await until('the terminal command', () => {
    const p = fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : [];
    return p.length === 2 && p;
  }, 30_000);
  const detachedPid = await until("the agent's detached child", () => events().find(e => e.event === 'detached')?.pid, 30_000);
  const detached = await until('the detached processes of the command', () => {
    const p = DETACHED.map(h => { try { return Number(fs.readFileSync(path.join(dir, `${h}.pid`), 'utf8')); } catch { return 0; } });
    return p.every(Boolean) && p;
  }, 30_000);
  const hostPid = ppidOf(agentPid);
  const hostCmd = fs.readFileSync(`/proc/${hostPid}/cmdline`, 'utf8');
  assert.match(hostCmd, /extensionHost/, `the agent's parent ${hostPid} is the extension host: ${hostCmd}`);
  const pids = { agent: agentPid, child: childPid, agentDetached: detachedPid, shell: shellPid, sleep: sleepPid,
    ...Object.fromEntries(DETACHED.map((h, i) => [h, detached[i]])) };
  for (const [name, pid] of Object.entries(pids)) assert.ok(running(pid), `${name} (${pid}) runs before the kill`);
  log(`extension host ${hostPid}; ${JSON.stringify(pids)}`);

  process.kill(hostPid, 'SIGKILL');
  await until('the extension host to die', () => !running(hostPid), 10_000);
  try {
    await until('every process to end', () => Object.values(pids).every(p => !running(p)), 15_000);
  } catch (e) {
    const left = Object.entries(pids).filter(([, p]) => running(p)).map(([n, p]) => `${n} ${p}`);
    for (const [, p] of Object.entries(pids)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
    throw new Error(`${e.message}; still running after the extension host was killed: ${left.join(', ')}`);
  }
  log('agent, its children and the terminal command with what it detached all ended');
}
