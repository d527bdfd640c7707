// A conversation stays with its agent, and says so: after another agent was picked (it runs in a
// tab of its own), the first conversation's status line names its own agent as not running, never
// the running one as if it were this conversation's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-'));
  const agent = name => {
    const file = path.join(dir, `${name.replace(/\W/g, '')}.json`);
    fs.writeFileSync(file, JSON.stringify({ turns: [{ steps: [{ type: 'text', text: `${name} here.` }] }] }));
    return { command: node24, args: [path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), file] };
  };
  return { 'switchboard.agents': { 'Agent A': agent('Agent A'), 'Agent B': agent('Agent B') }, 'switchboard.defaultAgent': 'Agent A' };
};

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  const status = view.locator('#status');
  await prompt.fill('hello');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Agent A here.' }).waitFor({ timeout: 30_000 });
  assert.match(await status.textContent(), /^Agent A · running$/);

  // Another agent picked from the chat's agent button: it starts in a tab of its own.
  await view.locator('#agent').click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('Agent B');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Agent B' }).first().click();
  await view.locator('[role="tab"][aria-selected="true"]', { hasText: /Agent B/ }).waitFor({ timeout: 30_000 });
  await status.filter({ hasText: /^Agent B · running$/ }).waitFor({ timeout: 30_000 });

  // Back to the first conversation: it says whose it is.
  await view.locator('[role="tab"]', { hasText: 'hello' }).click();
  await status.filter({ hasText: 'This conversation is with Agent A (not running; Agent B is running)' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'tab-agent.png') });
  log('the first conversation names its own agent while another runs');
}
