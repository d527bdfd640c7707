// Shared by the benches that drive the chat webview: a workbench whose default agent is the scripted
// agent playing `script`, the chat open, and one warm-up turn done (so no round includes the agent's
// start); the extension host's resident memory.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, startWorkbench, waitForWorkbench } from '../test/runner/workbench.mjs';
import { openChat } from '../test/e2e/support.mjs';

export async function warmChat(tools, script, settings = {}, inspectExtensions = 0) {
  const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
  const wb = await startWorkbench({
    tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'), inspectExtensions,
    userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench', ...settings },
  });
  await waitForWorkbench(wb.page);
  const { view, prompt } = await openChat(wb.page, { patient: true });
  await prompt.fill('warm up');
  await prompt.press('Enter');
  await view.locator('.turn.live .turn-end').waitFor({ timeout: 120_000 });
  return { wb, view, prompt };
}

/** Resident memory of the workbench's extension host (descendant of the server with --type=extensionHost). */
export function extHostRss(serverPid) {
  const parent = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try { parent.set(Number(p), Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1])); } catch { /* gone */ }
  }
  const under = pid => { for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === serverPid) return true; return false; };
  for (const pid of parent.keys()) {
    if (!under(pid)) continue;
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmd.includes('extensionHost')) continue;
    const kib = Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0);
    return kib * 1024;
  }
  return 0;
}


/**
 * CPU time (user + system, ms) used so far by this process and each of its descendants (the
 * workbench server and everything under it, Chromium, the bare client's agent), summed by role:
 * `host` (extension host), `agent` (the scripted agent under the server), `bareAgent` (the one this
 * process spawned for the bare client), `renderer` (Chromium's renderers: the workbench and its
 * webviews), `server` (the rest of the server's tree), `browser` (Chromium's other processes), `bench`
 * (this process: the bare client itself, and playwright). Two snapshots' difference is what a round
 * cost each side, whatever else loads the machine.
 */
export function cpuByRole() {
  const tick = 1000 / 100; // ms per clock tick (CLK_TCK is 100 on Linux)
  const procs = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      procs.set(Number(p), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) * tick });
    } catch { /* gone */ }
  }
  const roles = { bench: 0, bareAgent: 0, host: 0, agent: 0, server: 0, renderer: 0, browser: 0 };
  for (const [pid, p] of procs) {
    const chain = [];
    for (let q = pid; q > 1 && chain.length < 30; q = procs.get(q)?.ppid ?? 0) chain.push(q);
    if (!chain.includes(process.pid)) continue;
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    const underServer = chain.some(q => q !== pid && /server-main|code-server|--connection-token|--without-connection-token/.test(safeCmd(q)));
    const role = pid === process.pid ? 'bench'
      : cmd.includes('extensionHost') ? 'host'
      : cmd.includes('scripted-agent') ? (underServer ? 'agent' : 'bareAgent')
      : /chrom/i.test(cmd) ? (cmd.includes('--type=renderer') ? 'renderer' : 'browser')
      : 'server';
    roles[role] += p.cpu;
  }
  return roles;
}

function safeCmd(pid) {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return ''; }
}

/** `after - before`, role by role, rounded to ms. */
export function cpuSpent(before, after) {
  return Object.fromEntries(Object.keys(after).map(k => [k, Math.round(after[k] - (before[k] ?? 0))]));
}
