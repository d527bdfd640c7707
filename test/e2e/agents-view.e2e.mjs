// The Agents view with two agents: A waits on a permission in one conversation while B has answered
// in another. The view lists each agent with its conversation and what it does, the status bar
// counts the one waiting; a click on the count opens A's conversation, the answer makes it done, and
// the inline Close action closes a conversation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, quickOpen } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-agents-'));
  const agent = (name, script) => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(script));
    return { command: node24, args: [path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), file] };
  };
  return {
    'switchboard.agents': {
      'Scripted A': agent('a', { turns: [{ steps: [{ type: 'permission', toolCall: { toolCallId: 'rm', title: 'Delete the build folder' }, options: [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ] }] }] }),
      'Scripted B': agent('b', { turns: [{ steps: [{ type: 'text', text: 'B answered.' }] }] }),
    },
    'switchboard.defaultAgent': 'Scripted A',
  };
};

async function command(page, title) {
  await (await quickOpen(page, 'F1')).fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().click();
}

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('clean up');
  await prompt.press('Enter');
  await view.locator('.permission:not(.answered)').waitFor({ timeout: 30_000 });
  // A second conversation, with B (the first has history: a new one opens).
  await command(page, 'Switchboard: Choose Agent');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Scripted B' }).first().click();
  await page.getByRole('button', { name: 'Start a New Conversation' }).click({ timeout: 30_000 });
  await view.locator('#tabs > .tab:nth-child(2).active').waitFor({ timeout: 30_000 });
  await prompt.fill('hello B');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'B answered.' }).waitFor({ timeout: 30_000 });
  log('A waits in conversation 1, B answered in conversation 2');

  await command(page, 'Focus on Agents View');
  const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^Agents/ }) }).locator('.monaco-list');
  const row = text => tree.locator('.monaco-list-row', { hasText: text });
  await row('waiting for you: permission').waitFor({ timeout: 30_000 });
  assert.match(await row('waiting for you: permission').textContent(), /clean up/);
  assert.match(await row('Scripted A').first().textContent(), /running · 1 waiting for you/);
  assert.match(await row('hello B').textContent(), /done/);
  const alert = page.locator('.statusbar-item', { hasText: 'Scripted A is waiting for you' });
  await alert.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'agents-view.png') });
  log('the view shows both agents and what each conversation does; the status bar counts one');

  await alert.click();
  await view.locator('#tabs > .tab:nth-child(1).active').waitFor({ timeout: 30_000 });
  await view.locator('.permission:not(.answered)').getByRole('button', { name: /Reject/ }).click();
  await alert.waitFor({ state: 'hidden', timeout: 30_000 });
  await row('clean up').filter({ hasText: 'done' }).waitFor({ timeout: 30_000 });
  log('the count opened A\'s conversation; answered, it is done and the count is gone');

  await row('hello B').hover();
  await row('hello B').getByRole('button', { name: 'Close Conversation' }).click();
  await row('hello B').waitFor({ state: 'detached', timeout: 30_000 });
  assert.equal(await view.locator('#tabs > .tab').count(), 1);
  log('Close in the view closed the conversation');
}
