// Typing during a pending review, through the real UI: the agent's edit of line 1 waits in the diff;
// the user opens notes.txt and types on line 1 and adds a last line. The diff follows (a conflict
// between markers, the card counts it); Accept asks in a quick pick what to keep; "Keep both" puts
// both versions of line 1 and the user's last line on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, quickOpen, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'read', path: '{{cwd}}/notes.txt', quiet: true },
    { type: 'write', path: '{{cwd}}/notes.txt', content: 'Groceries (renamed by the agent)\n- milk\n- bread\n- coffee\n\nRemember: the meeting moved to Thursday.\n' },
  ] }],
});

export default async function ({ page, log, shotsDir, workspace }) {
  const notes = path.join(workspace, 'notes.txt');
  const original = fs.readFileSync(notes, 'utf8');
  const { view, prompt } = await openChat(page);
  await prompt.fill('rename the list');
  await prompt.press('Enter');
  const card = view.locator('#writes .write-review');
  await card.waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: /notes\.txt: Scripted wants to edit/ }).waitFor({ timeout: 30_000 });

  // The user opens the file and types while the review waits.
  // Typing before Quick Open is up would go to whatever had the focus (the chat's prompt box).
  await (await quickOpen(page)).fill('notes.txt');
  // The file itself, not the review's diff (Quick Open lists that too, as recently opened).
  const fileRow = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'notes.txt' }).filter({ hasNotText: 'wants to' }).first();
  await fileRow.waitFor({ timeout: 30_000 });
  await fileRow.click();
  // Quick Open leaves the keyboard focus in the opened file's editor.
  await page.locator('.monaco-editor.focused', { hasText: 'Shopping list' }).waitFor({ timeout: 30_000 });
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('MINE ');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('my last line'); // the file ends with a newline: the cursor is on the empty last line
  log('typed in notes.txt during the review');

  await card.locator('.write-conflicts', { hasText: '1 conflict' }).waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: /notes\.txt: Scripted wants to edit/ }).click();
  await page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: '<<<<<<< your edits' }).waitFor({ timeout: 30_000 });
  await page.locator('.editor-actions').getByRole('button', { name: /Resolve Conflicts/ }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'write-conflict-diff.png') });
  assert.equal(fs.readFileSync(notes, 'utf8'), original, 'nothing written yet');

  await card.getByRole('button', { name: 'Accept', exact: true }).click();
  const both = page.locator('.quick-input-widget .quick-input-list-row', { hasText: 'Keep both' });
  await both.waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'write-conflict-pick.png') });
  log('Accept asked what to keep');
  await both.click();
  await view.locator('.turn-end').waitFor({ timeout: 15_000 });
  // The agent is answered once the edit is in the open file's buffer; the save follows.
  const expected = 'MINE Shopping list\nGroceries (renamed by the agent)\n- milk\n- bread\n- coffee\n\nRemember: the meeting moved to Thursday.\nmy last line';
  for (const end = Date.now() + 15_000; Date.now() < end && fs.readFileSync(notes, 'utf8') !== expected;) await page.waitForTimeout(100);
  assert.equal(fs.readFileSync(notes, 'utf8'),
    'MINE Shopping list\nGroceries (renamed by the agent)\n- milk\n- bread\n- coffee\n\nRemember: the meeting moved to Thursday.\nmy last line',
    'both versions of line 1 and the user\'s last line');
  log('kept both; nothing the user typed was lost');
}
