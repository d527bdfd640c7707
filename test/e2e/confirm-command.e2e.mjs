// By default a command the agent never asked permission for waits for the user: the card shows the
// whole command line (verbatim, in a code block: a second command after a line break is not hidden)
// and its working folder; "Don't run" refuses it and nothing runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-confirm-'));
const agentLog = path.join(dir, 'agent.jsonl');
const canary = path.join(dir, 'canary.txt');
const pwned = path.join(dir, 'pwned');
fs.writeFileSync(canary, 'CANARY-e2e\n');
const COMMAND = `cat ${canary}\ntouch ${pwned}`;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  log: agentLog,
  turns: [{ steps: [{ type: 'terminal', command: COMMAND }] }],
});

const results = () => (fs.existsSync(agentLog) ? fs.readFileSync(agentLog, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : [])
  .filter(e => e.event === 'result');

export default async function ({ page, log, shotsDir, workspace }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('look around');
  await prompt.press('Enter');
  const card = view.locator('.permission');
  await card.waitFor({ timeout: 20_000 }).catch(() => assert.fail('no confirmation card: the command ran unasked'));
  assert.equal(results().length, 0, 'nothing ran before the answer');
  const title = await card.locator('.permission-title').textContent();
  assert.match(title, /without having asked permission for it in this turn/);
  assert.ok(title.includes(`Working directory: ${workspace}`), title);
  assert.equal(await card.locator('pre code, pre').first().textContent().then(t => t.replace(/\n$/, '')), COMMAND, 'the whole command line, verbatim');
  await page.screenshot({ path: path.join(shotsDir, 'confirm-command.png') });
  await card.getByRole('button', { name: /Don't run/ }).click();
  await view.locator('.turn-end').waitFor({ timeout: 20_000 });
  const refused = results().find(e => e.type === 'terminal');
  assert.equal(refused?.error?.data?.reason, 'userDenied', JSON.stringify(refused));
  assert.ok(!fs.existsSync(pwned), 'nothing ran');
  log('confirmation shown with the whole command; refused, nothing ran');
}
