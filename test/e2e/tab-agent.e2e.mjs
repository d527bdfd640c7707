// A conversation stays with its agent, and says so: another agent picked from the agent button
// starts in a tab of its own, after asking (the first conversation has history), and runs beside the
// first one, which keeps its agent running (issue 19). Each tab shows its agent, and the status line
// is the shown conversation's agent's.
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

  // Another agent picked from the chat's agent button: asked first (this conversation has history),
  // then it starts in a tab of its own.
  await view.locator('#agent').click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('Agent B');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Agent B' }).first().click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.filter({ hasText: 'This conversation is with Agent A. Continue with Agent B in a new conversation?' }).waitFor({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Start a New Conversation' }).click();
  await view.locator('[role="tab"][aria-selected="true"]', { hasText: /Agent B/ }).waitFor({ timeout: 30_000 });
  await status.filter({ hasText: /^Agent B · running$/ }).waitFor({ timeout: 30_000 });
  await prompt.fill('hi B');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Agent B here.' }).waitFor({ timeout: 30_000 });

  // Back to the first conversation: its agent still runs, and the tab shows whose it is.
  const first = view.locator('[role="tab"]', { hasText: 'hello' });
  assert.equal((await first.locator('.tab-agent').textContent()).trim(), 'Agent A');
  assert.equal((await view.locator('[role="tab"]', { hasText: 'hi B' }).locator('.tab-agent').textContent()).trim(), 'Agent B');
  await first.click();
  await status.filter({ hasText: /^Agent A · running$/ }).waitFor({ timeout: 30_000 });
  await prompt.fill('again');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Agent A here.' }).nth(1).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'tab-agent.png') });
  log('two agents side by side, each tab names its agent, neither was stopped for the other');
}
