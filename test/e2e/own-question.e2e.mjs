// A question the agent asks with no session (elicitation/create scoped to a request, not a
// conversation) is the agent's own: it opens in a tab named for the agent, marked waiting, never in
// the conversation that happens to be shown; answered there, the agent gets the answer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const agentLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-ownq-')), 'agent.jsonl');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  log: agentLog,
  turns: [
    { match: 'ask', steps: [{ type: 'elicit', requestScoped: true, message: 'Which account should I use?' }] },
    { steps: [{ type: 'text', text: 'Hello.' }] },
  ],
}, 'Agent Q');

const answers = () => (fs.existsSync(agentLog) ? fs.readFileSync(agentLog, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : [])
  .filter(e => e.event === 'result' && e.type === 'elicit');

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('hi');
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  await view.getByRole('button', { name: 'New conversation' }).click();
  await view.locator('.tab:nth-child(2).active').waitFor({ timeout: 30_000 });
  await prompt.fill('ask');
  await prompt.press('Enter');

  const own = view.locator('.tab', { hasText: 'Questions from Agent Q' });
  await own.waitFor({ timeout: 20_000 }).catch(async () => assert.fail(
    `no tab names the agent; the shown conversation has ${await view.locator('.question').count()} question card(s)`));
  await view.locator('.tab.state-waiting', { hasText: 'Questions from Agent Q' }).waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('.question').count(), 0, 'the shown conversation shows no question it did not ask');
  assert.ok(!(await own.evaluate(el => el.classList.contains('active'))), 'the shown conversation stays shown');
  log('the question waits in a tab of its own, named for the agent');

  await own.click();
  const card = view.locator('.question');
  await card.waitFor({ timeout: 30_000 });
  assert.equal(await card.locator('.question-message').textContent(), 'Which account should I use?');
  assert.match(await view.locator('.notice').first().textContent(), /Agent Q asks this itself/);
  await page.screenshot({ path: path.join(shotsDir, 'own-question.png') });
  await card.getByRole('button', { name: 'Submit' }).click();
  await view.locator('.question.answered').waitFor({ timeout: 30_000 });
  const deadline = Date.now() + 10_000;
  while (!answers().length && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
  assert.deepEqual(answers()[0]?.result, { action: 'accept', content: {} });
  log('answered from its tab; the agent got the answer');
}
