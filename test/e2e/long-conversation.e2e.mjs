// A long conversation stays bounded in the chat view, and all of it stays readable:
//  - after 40 turns (each a few paragraphs, a list, a code block and a tool call) the webview's
//    DOM holds fewer than DOM_BOUND elements (every turn in full would be several times that);
//  - old turns are collapsed to a one-line summary; the user scrolls to the top with the keyboard,
//    opens the first turn (which the host no longer keeps in memory: it comes back from disk) and
//    reads it, then goes back to the end;
//  - axe finds no violation in the view with collapsed and opened turns.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, runAxe, scriptedAgentSettings } from './support.mjs';

const TURNS = 40;
/** Elements in the whole webview document after 40 turns (the chrome around the transcript included). */
const DOM_BOUND = 700;

const answer = n => [
  `Answer ${n}: here is what I found about part ${n}.`,
  '',
  `The module **part${n}.ts** reads its input, checks it and hands it on. ${'It keeps the work small. '.repeat(12)}`,
  '',
  '- it validates the input', '- it logs what it refused', `- it returns ${n} values`,
  '',
  '```ts', `export function part${n}(input: string): number {`, '  return input.length;', '}', '```',
  '',
  `That is all for part ${n}.`,
].join('\n');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: Array.from({ length: TURNS }, (_, i) => ({
    match: `^question ${i + 1}$`,
    steps: [
      { type: 'toolCall', toolCall: { toolCallId: `read-${i + 1}`, title: `Read part${i + 1}.ts`, kind: 'read', status: 'completed' } },
      { type: 'text', text: answer(i + 1) },
    ],
  })),
});

export const timeout = 900;

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  const domSize = () => view.locator('body').evaluate(() => document.getElementsByTagName('*').length);
  for (let n = 1; n <= TURNS; n++) {
    await prompt.fill(`question ${n}`);
    await prompt.press('Enter');
    await view.locator('.turn.live .message.agent', { hasText: `That is all for part ${n}.` }).waitFor({ timeout: 30_000 });
    await view.locator('.turn.live .turn-end').waitFor({ timeout: 30_000 });
    await view.locator('#send:not([disabled])').waitFor({ timeout: 30_000 });
  }
  log(`${TURNS} turns done`);

  // The end of the conversation is on screen, in full; older turns are summaries; the DOM is bounded.
  const atEnd = await view.locator('#transcript').evaluate(el => el.scrollHeight - el.scrollTop - el.clientHeight);
  assert.ok(atEnd <= 2, `the transcript is at its end (${atEnd}px above it)`);
  await view.locator('.message.agent', { hasText: `That is all for part ${TURNS}.` }).waitFor({ state: 'visible' });
  const dom = await domSize();
  const turnsInDom = await view.locator('.turn').count();
  log(`after ${TURNS} turns: ${dom} DOM elements, ${turnsInDom} turns in the DOM`);
  assert.ok(dom < DOM_BOUND, `the webview holds ${dom} elements (bound ${DOM_BOUND})`);
  assert.ok(turnsInDom < TURNS / 2, `${turnsInDom} of ${TURNS} turns are in the DOM`);
  await page.screenshot({ path: path.join(shotsDir, 'long-conversation-end.png') });

  // Scroll to the top with the keyboard: the first turn is there, collapsed to its summary.
  await view.locator('#transcript').focus();
  await page.keyboard.press('Home');
  const first = view.getByRole('button', { name: /question 1\b/ });
  await first.waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await first.getAttribute('aria-expanded'), 'false');
  assert.match(await first.textContent(), /Answer 1: here is what I found about part 1\./);
  assert.match(await first.textContent(), /1 tool call · Done/);
  // Opened, it shows the whole turn: the host reads it back from disk (it keeps only the last turns).
  await first.click();
  const opened = view.locator('.turn', { has: view.locator('.turn-summary[aria-expanded="true"]') });
  await opened.locator('.message.agent', { hasText: 'That is all for part 1.' }).waitFor({ state: 'visible', timeout: 30_000 });
  await opened.locator('.message.agent code', { hasText: 'export function part1' }).waitFor({ state: 'visible' });
  await opened.locator('.tool', { hasText: 'Read part1.ts' }).waitFor({ state: 'visible' });
  assert.equal(await opened.locator('.message.user').textContent().then(t => t.includes('question 1')), true);
  await page.screenshot({ path: path.join(shotsDir, 'long-conversation-first-turn.png') });
  const domTop = await domSize();
  log(`first turn opened at the top: ${domTop} DOM elements`);
  assert.ok(domTop < DOM_BOUND, `the webview holds ${domTop} elements at the top (bound ${DOM_BOUND})`);

  const axe = await runAxe(page);
  log(`axe: ${axe.violations.length} violation(s), ${axe.passes} rules passed`);
  assert.deepEqual(axe.violations, [], JSON.stringify(axe.violations, null, 2));

  // Collapsed again by its summary, and the keyboard takes the user back to the end.
  await opened.locator('.turn-summary').click();
  await view.getByRole('button', { name: /question 1\b/, expanded: false }).waitFor({ timeout: 30_000 });
  await view.locator('#transcript').focus();
  await page.keyboard.press('End');
  await view.locator('.message.agent', { hasText: `That is all for part ${TURNS}.` }).waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok(await domSize() < DOM_BOUND);
  log('back at the end');
}
