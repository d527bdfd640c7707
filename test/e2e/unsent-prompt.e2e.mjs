// A prompt that never reached its agent is given back, and nothing typed meanwhile is lost: the
// user sends a prompt, types the next one while the agent's session opens, and the session fails.
// The box then holds both, the prompt first, and so does a new page (the view hidden and shown).
import assert from 'node:assert/strict';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

const opening = gate('session-new');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  // session/new waits until the test has typed the next prompt, then fails.
  gates: { 'session/new': opening.path },
  failures: { 'session/new': 'no room for a session' },
  turns: [],
});

const SENT = 'first: plan the release';
const TYPED = 'second: and the changelog';

export default async function ({ page, log, shotsDir }) {
  let { view, prompt } = await openChat(page);
  await prompt.fill(SENT);
  await prompt.press('Enter');
  assert.equal(await prompt.inputValue(), '', 'Enter empties the box');
  await prompt.fill(TYPED);
  opening.open();
  await view.locator('.error', { hasText: 'no room for a session' }).waitFor({ timeout: 30_000 });
  await waitForValue(prompt, `${SENT}\n\n${TYPED}`);
  await page.screenshot({ path: path.join(shotsDir, 'unsent-prompt-given-back.png') });
  log('the prompt that was not sent is back, before what was typed since');

  // The host kept both too: a new page (VS Code builds one when the view is shown again) gets them.
  await view.locator('body').evaluate(() => { window.beforeHiding = true; });
  await page.getByRole('tab', { name: /Explorer/ }).click();
  await page.locator('.explorer-viewlet').waitFor({ timeout: 30_000 });
  ({ view, prompt } = await openChat(page));
  assert.equal(await view.locator('body').evaluate(() => window.beforeHiding ?? false), false, 'a new page');
  await waitForValue(prompt, `${SENT}\n\n${TYPED}`);
  log('a new page gets both back');
}

async function waitForValue(prompt, expected) {
  for (const end = Date.now() + 15_000; Date.now() < end;) {
    if (await prompt.inputValue() === expected) return;
    await prompt.page().waitForTimeout(100);
  }
  assert.equal(await prompt.inputValue(), expected, 'the prompt box holds the prompt given back and what was typed since');
}
