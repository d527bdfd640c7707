// A turn of 1,500 tool calls and 3,000 chunks (test/fixtures/agent/burst.mjs) keeps only the cards
// in view in the DOM while it is the live turn, and the first card, updated late by the agent
// (after all the others), shows its new output when the user scrolls back to it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const CALLS = 1500;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'burst', kind: 'tools', count: CALLS },
    { type: 'toolCallUpdate', update: { toolCallId: 'call-0', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'finished late: 3 tests failed' } }] } },
    { type: 'text', text: 'All steps done.' },
  ] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('run every step');
  await prompt.press('Enter');
  const live = view.locator('.turn.live');
  await live.locator('.turn-end').waitFor({ timeout: 120_000 });
  await live.locator('.tool', { hasText: `Run step ${CALLS - 1}` }).waitFor({ timeout: 10_000 });
  const cards = await live.locator('.tool').count();
  const elements = await view.locator('body').evaluate(() => document.getElementsByTagName('*').length);
  log(`${cards} of ${CALLS} cards in the DOM, ${elements} elements in the page`);
  assert.ok(cards < 120, `only the cards in view are in the DOM: ${cards} of ${CALLS}`);

  // Back to the start of the turn: the first card is rendered from its latest state.
  await view.locator('#transcript').evaluate(el => { el.scrollTop = 0; });
  const first = live.locator('.tool', { has: view.locator('.tool-title', { hasText: /^Run step 0$/ }) });
  await first.filter({ hasText: 'finished late: 3 tests failed' }).waitFor({ timeout: 10_000 })
    .catch(async () => assert.fail(`the first card shows its late output: ${await first.innerText().catch(() => 'not rendered')}`));
  assert.ok(await live.locator('.tool').count() < 120, 'still only the cards in view');
  await page.screenshot({ path: path.join(shotsDir, 'long-turn-top.png') });

  // Typing in the prompt box still works at once.
  await prompt.fill('');
  await prompt.pressSequentially('still here');
  assert.equal(await prompt.inputValue(), 'still here');
}
