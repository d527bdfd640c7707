// Shared by the benches that drive the chat webview: a workbench whose default agent is the scripted
// agent playing `script`, the chat open, and one warm-up turn done (so no round includes the agent's start).
import path from 'node:path';
import { repoRoot, startWorkbench, waitForWorkbench } from '../test/runner/workbench.mjs';
import { openChat } from '../test/e2e/support.mjs';

export async function warmChat(tools, script) {
  const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
  const wb = await startWorkbench({
    tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
    userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench' },
  });
  await waitForWorkbench(wb.page);
  const { view, prompt } = await openChat(wb.page, { patient: true });
  await prompt.fill('warm up');
  await prompt.press('Enter');
  await view.locator('.turn.live .turn-end').waitFor({ timeout: 120_000 });
  return { wb, view, prompt };
}
