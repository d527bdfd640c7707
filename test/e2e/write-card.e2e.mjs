// An agent write reviewed from the chat: the card names the agent and the file, nothing is chosen
// for the user, and Accept on the card applies the write exactly as the diff editor's Accept does.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const NEW_TEXT = 'rewritten by the agent\n';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [{ type: 'write', path: '{{cwd}}/notes.txt', content: NEW_TEXT }] }],
});

export default async function ({ page, log, shotsDir, workspace }) {
  const notes = path.join(workspace, 'notes.txt');
  const original = fs.readFileSync(notes, 'utf8');
  const { view, prompt } = await openChat(page);
  await prompt.fill('rewrite the notes');
  await prompt.press('Enter');
  const card = view.locator('#writes .write-review');
  await card.waitFor({ timeout: 30_000 });
  assert.match(await card.locator('.write-title').textContent(), /Scripted wants to edit notes\.txt/);
  assert.equal(fs.readFileSync(notes, 'utf8'), original, 'nothing is written before the user decides');
  await page.screenshot({ path: path.join(shotsDir, 'write-card-pending.png') });
  await card.getByRole('button', { name: 'Accept', exact: true }).click();
  await view.locator('.turn-end').waitFor({ timeout: 15_000 });
  assert.match(await view.locator('.message.agent').last().textContent(), /write: ok/);
  assert.equal(fs.readFileSync(notes, 'utf8'), NEW_TEXT);
  await view.locator('#writes').waitFor({ state: 'hidden', timeout: 30_000 });
  log('accepted from the chat card; file written');
}
