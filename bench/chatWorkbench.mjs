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

