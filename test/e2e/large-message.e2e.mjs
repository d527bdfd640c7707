// A very large agent message (3 MB in one chunk) is shown truncated, with the full text one click
// away in an editor; the chat stays responsive.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const SIZE = 3_000_000;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [{ type: 'text', text: 'Here is the log:\n\n' }, { type: 'bigText', bytes: SIZE, char: 'line of log output\n' }] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('dump the log');
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 60_000 });
  const note = view.locator('.message.agent .message-cut');
  await note.waitFor({ timeout: 30_000 });
  const shown = await view.locator('.message.agent .body').evaluate(el => el.textContent.length);
  assert.ok(shown < 200_000, `the chat shows only the beginning (${shown} characters)`);
  assert.ok(shown > 50_000, `and a good part of it (${shown} characters)`);
  await page.screenshot({ path: path.join(shotsDir, 'large-message.png') });
  log(`${shown} characters shown of ${SIZE}`);

  await note.getByRole('button', { name: 'Open the full message' }).click();
  const tab = page.locator('.tabs-container .tab.active');
  await tab.filter({ hasText: /Untitled/ }).waitFor({ timeout: 20_000 });
  // The editor holds the whole message: go to its end and read the line number there.
  await page.locator('.editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+End');
  const status = page.locator('[id="status.editor.selection"]');
  const expected = Math.ceil(SIZE / 'line of log output\n'.length) + 2;
  await status.filter({ hasText: new RegExp(`Ln ${expected}\\b`) }).waitFor({ timeout: 30_000 })
    .catch(async () => assert.fail(`the editor has every line of the message: ${await status.textContent()}, expected Ln ${expected}`));
  log('full text opened in an editor');
}
