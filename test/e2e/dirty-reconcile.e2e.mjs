// An agent that edits in its own process (like claude-agent-acp: permission request with a snippet
// diff, then a temp file renamed over the original) changes a file whose tab has unsaved edits.
// The permission card shows the located edit with real line numbers and says the agent writes it
// itself; after Allow the tab holds both the user's edit and the agent's, the user is told, and the
// changed-files list says the change is written and undoable. Undo all asks first.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings, typeAtStartOf } from './support.mjs';

const BEFORE = Array.from({ length: 24 }, (_, i) => `entry ${i + 1}`).join('\n') + '\n';
const AGENT = BEFORE.replace('entry 18\n', 'entry eighteen (agent)\n');
const BOTH = AGENT.replace('entry 1\n', 'USER entry 1\n');
const USER_ONLY = BEFORE.replace('entry 1\n', 'USER entry 1\n');

export const workspaceFiles = { 'journal.txt': BEFORE };

export const settings = ({ workspace, repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ match: '^run', steps: [
    { type: 'codexExec', command: 'npm test', stdout: '> test\n12 passing\n', stderr: '1 deprecation warning\n', exitCode: 1, quiet: true },
  ] }, { steps: [
    { type: 'claudeEdit', path: path.join(workspace, 'journal.txt'), old: 'entry 18\n', new: 'entry eighteen (agent)\n', quiet: true },
    { type: 'text', text: 'Renamed entry 18.' },
  ] }],
}, 'Claude (scripted)');

export default async function ({ page, log, shotsDir, workspace }) {
  const file = path.join(workspace, 'journal.txt');
  const { view, prompt } = await openChat(page);

  // The user opens journal.txt and types in it without saving.
  await typeAtStartOf(page, 'journal.txt', 'USER ');
  log('journal.txt has unsaved edits');

  await prompt.fill('rename entry 18');
  await prompt.press('Enter');
  const card = view.locator('article.permission');
  await card.waitFor({ timeout: 30_000 });
  // The snippet is located: real line numbers with context, and the card says who writes it.
  await card.locator('.diff-lines .hunk', { hasText: '@@ -15,7 +15,7 @@' }).waitFor({ timeout: 30_000 });
  assert.match(await card.locator('.diff-state').innerText(), /agent writes this change itself/);
  await page.screenshot({ path: path.join(shotsDir, 'dirty-reconcile-permission.png') });
  assert.equal(fs.readFileSync(file, 'utf8'), BEFORE, 'nothing is written before the answer');

  await card.getByRole('button', { name: /^\d+\. Allow:/ }).click();
  await view.locator('.message.agent', { hasText: 'Renamed entry 18.' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(file, 'utf8'), AGENT, 'the agent wrote the disk itself');
  // The tool call completed: the card that holds the diff says it is written.
  await card.locator('.diff-state', { hasText: /^Written by the agent: keep or undo it under the changed files/ }).waitFor({ timeout: 30_000 });

  // The tab holds both edits, still unsaved; the user was told.
  await page.locator('.editor-instance .view-lines', { hasText: 'entry eighteen (agent)' }).first().waitFor({ timeout: 15_000 });
  await page.locator('.editor-instance .view-lines', { hasText: 'USER entry 1' }).first().waitFor({ timeout: 30_000 });
  await page.locator('.tabs-container .tab.dirty', { hasText: 'journal.txt' }).waitFor({ timeout: 30_000 });
  await page.locator('[id="status.notifications"] .statusbar-item-label').click();
  await page.locator('.notifications-center .notification-list-item-message', { hasText: 'while you had unsaved edits' }).waitFor({ timeout: 15_000 });
  const changes = view.locator('#changes');
  await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 15_000 });
  assert.match(await changes.locator('.changes-head .diff-state').innerText(), /written, undoable/);
  await page.screenshot({ path: path.join(shotsDir, 'dirty-reconcile-merged.png') });
  log('tab reconciled: both edits, user notified');

  // Saving keeps both (no save conflict, no silent revert).
  await page.locator('.editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+S');
  await page.locator('.tabs-container .tab.dirty', { hasText: 'journal.txt' }).waitFor({ state: 'detached', timeout: 30_000 });
  assert.equal(fs.readFileSync(file, 'utf8'), BOTH);

  // Undo all asks first.
  await changes.getByRole('button', { name: 'Undo all' }).click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 15_000 });
  assert.match(await dialog.innerText(), /Undo the agent's changes to 1 file\?/);
  await page.screenshot({ path: path.join(shotsDir, 'dirty-reconcile-undo-confirm.png') });
  await dialog.getByRole('button', { name: 'Undo All' }).click();
  await changes.waitFor({ state: 'hidden', timeout: 15_000 });
  assert.equal(fs.readFileSync(file, 'utf8'), USER_ONLY, "the agent's edit is gone, the user's stays");
  log('undo all confirmed; exact bytes on disk');

  // A command the agent ran itself, its output only in rawOutput: shown like terminal output.
  await prompt.fill('run the tests');
  await prompt.press('Enter');
  const output = view.locator('.command-output');
  await output.waitFor({ timeout: 30_000 });
  assert.match(await output.locator('.terminal-head').innerText(), /exit code 1/);
  assert.equal(await output.locator('pre').innerText(), '> test\n12 passing\n1 deprecation warning\n');
  await page.screenshot({ path: path.join(shotsDir, 'dirty-reconcile-command-output.png') });
  log('rawOutput shown as terminal output');
}
