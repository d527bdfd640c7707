// A turn of 200 tool calls and 400 chunks (test/fixtures/agent/burst.mjs) keeps only the cards
// in view in the DOM while it is the live turn, and the first card, updated late by the agent
// (after all the others), shows its new output when the user scrolls back to it. Then two more
// turns (one of 1.1 MB) move that turn out of the host's memory (to disk, docs/decisions/0017); after
// a window reload the chat's search (Ctrl+F) finds a word of one of its tool outputs, and opens
// that output in full.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, reopenChat, scriptedAgentSettings } from './support.mjs';

const CALLS = 200; // the window starts at 80 items (webview/itemWindow.ts); 200 calls are 400 items
const WORD_AT = 150;
const WORD = 'Quetzalcoatl';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ match: '^run every step', steps: [
    { type: 'burst', kind: 'tools', count: CALLS, word: WORD, wordAt: WORD_AT },
    { type: 'toolCallUpdate', update: { toolCallId: 'call-0', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'finished late: 3 tests failed' } }] } },
    { type: 'text', text: 'All steps done.' },
  ] },
  { match: '^dump', steps: [{ type: 'bigText', bytes: 1_100_000, char: 'log line\n' }] },
  { match: '^thanks', steps: [{ type: 'text', text: 'You are welcome.' }] }],
});

export default async function ({ page, log, shotsDir }) {
  let { view, prompt } = await openChat(page);
  await prompt.fill('run every step');
  await prompt.press('Enter');
  const live = view.locator('.turn.live');
  await live.locator('.turn-end').waitFor({ timeout: 120_000 });
  await live.locator('.tool', { hasText: `Run step ${CALLS - 1}` }).waitFor({ timeout: 10_000 });
  const cards = await live.locator('.tool').count();
  const elements = await view.locator('body').evaluate(() => document.getElementsByTagName('*').length);
  log(`${cards} of ${CALLS} cards in the DOM, ${elements} elements in the page`);
  assert.ok(cards < 100, `only the cards in view are in the DOM: ${cards} of ${CALLS}`);

  // Back to the start of the turn: the first card is rendered from its latest state.
  await view.locator('#transcript').evaluate(el => { el.scrollTop = 0; });
  const first = live.locator('.tool', { has: view.locator('.tool-title', { hasText: /^Run step 0$/ }) });
  await first.filter({ hasText: 'finished late: 3 tests failed' }).waitFor({ timeout: 10_000 })
    .catch(async () => assert.fail(`the first card shows its late output: ${await first.innerText().catch(() => 'not rendered')}`));
  assert.ok(await live.locator('.tool').count() < 100, 'still only the cards in view');
  await page.screenshot({ path: path.join(shotsDir, 'long-turn-top.png') });

  // Typing in the prompt box still works at once.
  await prompt.fill('');
  await prompt.pressSequentially('still here');
  assert.equal(await prompt.inputValue(), 'still here');

  // Two more turns: the first leaves the host's memory (the second is over its 1M-character bound).
  for (const text of ['dump the log', 'thanks']) {
    await prompt.fill(text);
    await prompt.press('Enter');
    await view.locator('.turn.live', { has: view.locator('.message.user', { hasText: text }) }).locator('.turn-end').waitFor({ timeout: 60_000 });
  }
  await page.reload();
  ({ view } = await reopenChat(page));
  await view.locator('#transcript').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+f');
  const input = view.getByRole('searchbox', { name: 'Search this conversation' });
  await input.fill(WORD.toLowerCase());
  const hit = view.locator('.chat-search-hit', { hasText: WORD });
  await hit.waitFor({ timeout: 20_000 });
  assert.equal(await view.locator(`.tool:has-text("${WORD}")`).count(), 0, 'the card holding the word is not rendered');
  await page.screenshot({ path: path.join(shotsDir, 'long-turn-search.png') });
  await hit.click();
  const editor = page.locator('.editor-instance .view-lines').first();
  await editor.filter({ hasText: WORD }).waitFor({ timeout: 20_000 })
    .catch(async () => assert.fail(`the output opens in an editor: ${await editor.innerText().catch(() => 'no editor')}`));
  assert.match(await editor.innerText(), new RegExp(`line\\s3\\sof\\scall\\s${WORD_AT}`), 'in full');
  await page.screenshot({ path: path.join(shotsDir, 'long-turn-output.png') });
  log('after a reload, the search found a word of a tool output on disk and opened the output in full');
}
