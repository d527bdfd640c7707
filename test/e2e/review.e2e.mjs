// Reviewing the agent's changes through the UI: the agent edits a file on disk itself and reports
// the diff (like current Claude and Codex). In the chat's changed-files list the user undoes one
// hunk and keeps the other; the tree view and the editor's CodeLens show the same changes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const BEFORE = Array.from({ length: 12 }, (_, i) => `item ${i + 1}`).join('\n') + '\n';
const AFTER = BEFORE.replace('item 2\n', 'item two\n').replace('item 11\n', 'item eleven\n');

export const workspaceFiles = { 'list.txt': BEFORE };

export const settings = ({ workspace, repoRoot, node24 }) => {
  const file = path.join(workspace, 'list.txt');
  const script = {
    turns: [{ steps: [
      { type: 'toolCall', toolCall: { toolCallId: 'e', title: 'Edit list.txt', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: file, oldText: BEFORE, newText: AFTER }] } },
      { type: 'diskWrite', path: file, content: AFTER },
      { type: 'toolCallUpdate', update: { toolCallId: 'e', status: 'completed' } },
      { type: 'text', text: 'I renamed two items.' },
    ] }],
  };
  return scriptedAgentSettings({ repoRoot, node24 }, script);
};

export default async function ({ page, log, shotsDir, workspace }) {
  const file = path.join(workspace, 'list.txt');
  const { view, prompt } = await openChat(page);
  await prompt.fill('rename items');
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });

  const changes = view.locator('#changes');
  await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 15_000 });
  const fileRow = changes.locator('.change-file');
  assert.match(await fileRow.locator('.change-toggle').textContent(), /list\.txt\s*\+2\s*-2/);
  await fileRow.locator('.change-toggle').click(); // expand the hunks
  await changes.locator('.hunk-row').nth(1).waitFor({ timeout: 30_000 });
  assert.equal(await changes.locator('.hunk-row').count(), 2);
  // The tree view in the Switchboard side bar lists the same file.
  await page.locator('.pane-header', { hasText: 'Agent Changes' }).click().catch(() => {});
  await page.screenshot({ path: path.join(shotsDir, 'review-changes-listed.png') });

  // Undo the change at line 11, keep the one at line 2.
  await changes.locator('.hunk-row', { hasText: 'Line 11' }).getByRole('button', { name: /Undo the change/ }).click();
  await changes.locator('.hunk-row', { hasText: 'Line 11' }).waitFor({ state: 'detached', timeout: 30_000 });
  await changes.locator('.hunk-row', { hasText: 'Line 2' }).getByRole('button', { name: /Keep the change/ }).click();
  await changes.waitFor({ state: 'hidden', timeout: 30_000 });
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(text, BEFORE.replace('item 2\n', 'item two\n'));
  await page.screenshot({ path: path.join(shotsDir, 'review-decided.png') });
  log('undid one hunk, kept the other; file content exact');
}
