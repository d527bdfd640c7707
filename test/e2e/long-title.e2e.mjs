// A tool call whose title is 1 MiB (and is sent again in its updates) is cut in the host before it
// reaches the chat: the card shows the beginning and a count, and the turn shows as done at once
// (before the cut, the chat took minutes to show that turn done while the host had long answered).
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const TITLE = `Read ${'x'.repeat(1024 * 1024)}`;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'toolCall', toolCall: { toolCallId: 'huge', title: TITLE, kind: 'read', status: 'in_progress' } },
    { type: 'toolCallUpdate', update: { toolCallId: 'huge', title: TITLE } },
    { type: 'toolCallUpdate', update: { toolCallId: 'huge', title: TITLE, status: 'completed' } },
    { type: 'text', text: 'Read it.' },
  ] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('read the huge file');
  const start = Date.now();
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 60_000 })
    .catch(() => assert.fail('the turn with a 1 MiB tool-call title was not shown as done within 60 s'));
  log(`turn shown as done ${Date.now() - start} ms after Enter`);
  const title = await view.locator('.tool-title').first().evaluate(el => el.textContent ?? '');
  assert.ok(title.length < 10_000, `the card shows the beginning of the title (${title.length} characters)`);
  assert.match(title, /… \(\d+ more characters\)$/, 'and says how much was cut');
  await page.screenshot({ path: path.join(shotsDir, 'long-title.png') });
}
