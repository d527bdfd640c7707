// What the user typed and has not sent is theirs. The prompt box keeps its text when the view is
// hidden (VS Code throws the page away and builds a new one) and across a window reload; messages
// queued while the agent worked survive the reload too, held until the user goes on.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, reopenChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  onNewSession: [{ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'changelog', description: 'Summarize the changes' }] }],
  turns: [
    { match: '^Plan the release$', steps: [{ type: 'text', text: 'Reading the changelog…' }, { type: 'awaitFile', path: '{{cwd}}/.never' }] },
    { steps: [{ type: 'text', text: 'Answered.' }] },
  ],
});

export default async function ({ page, log, shotsDir }) {
  let { view, prompt } = await openChat(page, { patient: true });

  // A message queued during a turn.
  await prompt.fill('Plan the release');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Reading the changelog…' }).waitFor({ timeout: 30_000 });
  // Typed: the text survives a new page; sent (queued): the box is empty, and stays empty on a new page.
  await prompt.fill('Also update the README');
  ({ view, prompt } = await hideAndShow(page));
  await waitForValue(prompt, 'Also update the README');
  await prompt.press('Enter');
  await view.locator('#queue .queue-item').first().waitFor({ timeout: 30_000 });
  ({ view, prompt } = await hideAndShow(page));
  await view.locator('#queue .queue-item').first().waitFor({ timeout: 30_000 });
  assert.equal(await prompt.inputValue(), '', 'a queued message is not restored into the prompt box');

  // Typed, not sent; the view is hidden and shown again: a new page, with the text back.
  // Typed key by key, as a user does, and the view hidden right after the last key.
  const draft = 'Rename the parser module and keep\nthe old name as an alias';
  await prompt.fill(draft.slice(0, -6));
  await prompt.pressSequentially(draft.slice(-6));
  ({ view, prompt } = await hideAndShow(page, { byKey: true }));
  await waitForValue(prompt, draft);
  await page.screenshot({ path: path.join(shotsDir, 'draft-kept.png') });
  log('an unsent draft survives hiding the view');

  // The window reloads: the draft and the queued message are back; the queue holds and says why.
  await page.reload();
  ({ view, prompt } = await reopenChat(page));
  await waitForValue(prompt, draft);
  await view.locator('#queue .queue-item .queue-text', { hasText: 'Also update the README' }).waitFor({ timeout: 30_000 });
  await view.getByText(/queued before the reload was not sent/).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'draft-after-reload.png') });
  log('the draft and the queued message survive a window reload; the queue is held');

  // Send now sends the queued message (a new session: the agent process of the old window is gone).
  await view.locator('#queue .queue-item').first().getByRole('button', { name: /^Send now/ }).click();
  await view.locator('.message.user', { hasText: 'Also update the README' }).waitFor({ timeout: 30_000 });
  await view.locator('.message.agent', { hasText: 'Answered.' }).last().waitFor({ timeout: 30_000 });
  assert.equal(await prompt.inputValue(), draft, 'the draft stays in the prompt box');
  log('the restored queued message is sent with Send now');

  // Sent: the prompt box is empty, and stays empty on a new page.
  await prompt.press('Enter');
  await view.locator('.message.user', { hasText: 'Rename the parser module' }).waitFor({ timeout: 30_000 });
  await view.locator('.message.agent', { hasText: 'Answered.' }).nth(1).waitFor({ timeout: 30_000 });
  ({ view, prompt } = await hideAndShow(page));
  assert.equal(await prompt.inputValue(), '', 'a sent message is not restored');

  // A slash command picked from the list is the draft at once: the view hidden right after keeps it.
  await prompt.pressSequentially('/chan');
  await view.locator('.completion', { hasText: '/changelog' }).waitFor({ timeout: 30_000 });
  await prompt.press('Tab');
  assert.equal(await prompt.inputValue(), '/changelog ');
  ({ view, prompt } = await hideAndShow(page, { byKey: true }));
  await waitForValue(prompt, '/changelog ');
  log('a slash command picked from the list survives hiding the view');
}

/** Hides the view and shows it again: VS Code throws the page away and builds a new one. */
async function hideAndShow(page, { byKey = false } = {}) {
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await view.locator('body').evaluate(() => { window.beforeHiding = true; });
  // By key: the keyboard focus is still in the prompt box when VS Code shows the Explorer instead.
  if (byKey) await page.keyboard.press('Control+Shift+E');
  else await page.getByRole('tab', { name: /Explorer/ }).click();
  await page.locator('.explorer-viewlet').waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('body').evaluate(() => window.beforeHiding ?? false), false, 'a new page');
  return { view, prompt: view.locator('#prompt') };
}

async function waitForValue(prompt, expected) {
  for (const end = Date.now() + 30_000; Date.now() < end;) {
    if (await prompt.inputValue() === expected) return;
    await prompt.page().waitForTimeout(100);
  }
  assert.equal(await prompt.inputValue(), expected, 'the unsent text is back in the prompt box');
}
