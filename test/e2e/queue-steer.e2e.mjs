// Sending while the agent works, in the real chat: typed during a turn, Enter queues the message
// (shown between the transcript and the prompt box, editable with the keyboard, kept when the view
// is hidden and shown again) and it is sent when the turn ends. With an agent that announced
// steering, Send now delivers a queued message into the running turn and the agent's reply to it
// follows in the same turn. The agent holds its turns open until the test releases them (a file)
// or steers a message: nothing here waits for a fixed time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  steering: true,
  turns: [
    { match: '^Plan the release$', steps: [
      { type: 'text', text: 'Reading the changelog…' }, { type: 'awaitFile', path: '{{cwd}}/.release-turn' }, { type: 'text', text: ' Planned.' },
    ] },
    { match: '^Refactor the parser$', steps: [
      { type: 'text', text: 'Refactoring the parser…' }, { type: 'awaitSteer', timeoutMs: 60_000 }, { type: 'text', text: ' Done, old API kept.' },
    ] },
  ],
});

export default async function ({ page, log, shotsDir, workspace }) {
  const { view, prompt } = await openChat(page);
  const queue = view.locator('#queue');
  const items = queue.locator('.queue-item');

  // ---- queued while the agent works, sent when its turn ends ------------------------------------
  await prompt.fill('Plan the release');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Reading the changelog…' }).waitFor({ timeout: 30_000 });
  assert.equal((await view.locator('#send').textContent()).trim(), 'Queue', 'the button says what Enter does now');
  await prompt.fill('Also update the READNE');
  await prompt.press('Enter');
  await items.first().waitFor({ timeout: 30_000 });
  assert.equal(await prompt.inputValue(), '', 'the prompt box is free again');
  assert.equal(await items.count(), 1);
  assert.equal(await items.first().locator('.queue-text').textContent(), 'Also update the READNE');
  assert.match(await queue.locator('.queue-title').textContent(), /Queued \(1\) · sent when the agent's turn ends/);
  assert.equal(await view.locator('.message.user').count(), 1, 'not in the conversation yet');

  // Edited with the keyboard: Edit, the editor has the focus, Enter saves.
  await items.first().getByRole('button', { name: /^Edit/ }).click();
  const editor = items.first().locator('textarea.queue-editor');
  await editor.waitFor({ timeout: 30_000 });
  assert.ok(await editor.evaluate(e => e === document.activeElement), 'the editor has the focus');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('ME too');
  await page.keyboard.press('Enter');
  await items.first().locator('.queue-text', { hasText: 'Also update the README too' }).waitFor({ timeout: 30_000 });
  assert.ok(await items.first().getByRole('button', { name: /^Edit/ }).evaluate(b => b === document.activeElement), 'the focus is back on Edit');

  // Hidden and shown again: the page is created anew; the host still has the queue and sends it again.
  await view.locator('body').evaluate(() => { window.beforeHiding = true; });
  await page.getByRole('tab', { name: /Explorer/ }).click();
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('body').evaluate(() => window.beforeHiding ?? false), false, 'a new page');
  await items.first().locator('.queue-text', { hasText: 'Also update the README too' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'queue-queued.png') });
  log('queued during the turn, edited, kept across hiding the view');

  fs.writeFileSync(path.join(workspace, '.release-turn'), '');
  await view.locator('.message.user', { hasText: 'Also update the README too' }).waitFor({ timeout: 30_000 });
  await view.locator('.message.agent', { hasText: 'echo: Also update the README too' }).waitFor({ timeout: 30_000 });
  await queue.waitFor({ state: 'hidden', timeout: 30_000 });
  const order = await view.locator('.message').allTextContents();
  assert.ok(order.findIndex(t => t.includes('Planned.')) < order.findIndex(t => t.includes('Also update the README too')), `sent after the turn: ${JSON.stringify(order)}`);
  await page.screenshot({ path: path.join(shotsDir, 'queue-sent.png') });
  log('sent as the next prompt when the turn ended');

  // ---- steered into the running turn ------------------------------------------------------------
  await view.locator('.turn-end').nth(1).waitFor({ timeout: 30_000 });
  await prompt.fill('Refactor the parser');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Refactoring the parser…' }).waitFor({ timeout: 30_000 });
  await prompt.fill('Keep the old API');
  await prompt.press('Enter');
  const sendNow = items.first().getByRole('button', { name: /^Send now/ });
  await sendNow.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'steer-queued.png') });
  await sendNow.click();
  await view.locator('.message.user', { hasText: 'Keep the old API' }).waitFor({ timeout: 30_000 });
  await view.locator('.message.agent', { hasText: 'steered: Keep the old API Done, old API kept.' }).waitFor({ timeout: 30_000 });
  await view.locator('.turn-end').nth(2).waitFor({ timeout: 30_000 });
  await queue.waitFor({ state: 'hidden', timeout: 30_000 });
  const messages = await view.locator('.message').allTextContents();
  const tail = messages.slice(-3).map(t => t.replace(/\s+/g, ' ').trim());
  assert.deepEqual(tail.map(t => t.includes('Refactoring the parser…') ? 'agent' : t.includes('Keep the old API') && !t.includes('steered') ? 'you' : t.includes('steered:') ? 'reply' : t),
    ['agent', 'you', 'reply'], `delivered into the turn, where it was sent: ${JSON.stringify(tail)}`);
  assert.equal(await view.locator('.turn-end').count(), 3, 'the steered message joined the turn (no turn of its own)');
  await page.screenshot({ path: path.join(shotsDir, 'steer-sent.png') });
  log('Send now: steered into the running turn, the reply followed in the same turn');
}
