// A permission request while the chat is hidden: the status bar says the agent is waiting, and a
// click on it brings the chat back with the request still unanswered (nothing was allowed); the
// status bar item goes once it is answered.
import assert from 'node:assert/strict';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

/** The agent asks once the test hid the chat. */
const hidden = gate('chat-hidden');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'waitFile', path: hidden.path },
    { type: 'permission', toolCall: { toolCallId: 'rm', title: 'Delete the build folder' }, options: [
      { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ] },
  ] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('clean up');
  await prompt.press('Enter');
  await view.locator('.message.user').waitFor({ timeout: 30_000 });
  // Hide the side bar (the activity bar entry toggles it) before the request arrives.
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  hidden.open();
  const alert = page.locator('.statusbar-item', { hasText: 'Scripted is waiting for you' });
  await alert.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'permission-alert-statusbar.png') });
  log('status bar says the agent is waiting');
  await alert.click();
  const card = view.locator('.permission:not(.answered)');
  await card.waitFor({ timeout: 30_000 });
  assert.match(await card.textContent(), /Delete the build folder/);
  await card.getByRole('button', { name: /Reject/ }).click();
  // The count goes when nothing waits any more.
  await alert.waitFor({ state: 'hidden', timeout: 30_000 });
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  assert.match(await view.locator('.message.agent').last().textContent(), /permission: no/);
  log('request answered from the chat after the alert');
}
