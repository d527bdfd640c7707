// Issue 24, point 1, with a real activation: the user opens a file and types in it before
// Switchboard has started (nothing activates it until its view opens); then a Codex-shaped agent
// in "Auto review" mode writes the file in its own process before its tool call goes out, and the
// agent holds until the file watcher's report is listed (the order that lost the user's line).
// The tab keeps the user's line, unsaved; the list counts only the agent's line; Undo all restores
// the disk byte for byte and never saves the user's line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings, typeAtStartOf } from './support.mjs';

const BEFORE = Array.from({ length: 24 }, (_, i) => `entry ${i + 1}`).join('\n') + '\n';
const AGENT = BEFORE.replace('entry 18\n', 'entry eighteen (agent)\n');
const gate = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-gate-')), 'go');

export const workspaceFiles = { 'ledger.txt': BEFORE };

export const settings = ({ workspace, repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'codexEdit', path: path.join(workspace, 'ledger.txt'), content: AGENT, permission: false, writeFirst: true, awaitAfterWrite: gate, quiet: true },
    { type: 'text', text: 'Renamed entry 18.' },
  ] }],
}, 'Codex (scripted)');

export default async function ({ page, log, shotsDir, workspace }) {
  const file = path.join(workspace, 'ledger.txt');
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });

  // Before Switchboard starts: the user opens ledger.txt and types in it without saving.
  await typeAtStartOf(page, 'ledger.txt', 'USER ');
  log('ledger.txt has unsaved edits; Switchboard not opened yet');

  // Switchboard activates now, the tab already dirty.
  const { view, prompt } = await openChat(page);
  await prompt.fill('rename entry 18');
  await prompt.press('Enter');
  const changes = view.locator('#changes');
  try {
    // The agent wrote the disk and waits: only the file watcher can have listed the change.
    await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
  } finally {
    fs.writeFileSync(gate, '');
  }
  await view.locator('.message.agent', { hasText: 'Renamed entry 18.' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(file, 'utf8'), AGENT, 'the agent wrote the disk itself');

  // The tab holds the user's line and the agent's, still unsaved.
  await page.locator('.editor-instance .view-lines', { hasText: 'entry eighteen (agent)' }).first().waitFor({ timeout: 15_000 });
  await page.locator('.editor-instance .view-lines', { hasText: 'USER entry 1' }).first().waitFor({ timeout: 30_000 });
  await page.locator('.tabs-container .tab.dirty', { hasText: 'ledger.txt' }).waitFor({ timeout: 30_000 });
  // Only the agent's line is counted: +1 -1, not the user's line as deleted by the agent.
  const counts = async () => (await changes.locator('.change-toggle').first().innerText()).replace(/\s+/g, ' ');
  await Promise.all([
    changes.locator('.change-toggle .diff-added', { hasText: /^\+1$/ }).waitFor({ timeout: 30_000 }),
    changes.locator('.change-toggle .diff-removed', { hasText: /^-1$/ }).waitFor({ timeout: 30_000 }),
  ]).catch(async () => assert.fail(`only the agent's line should be listed (the list says: ${await counts()})`));
  await page.screenshot({ path: path.join(shotsDir, 'unsaved-activation-merged.png') });
  log(`tab holds both; listed: ${await counts()}`);

  // Undo all: the disk as before the turn, the user's line never saved; the tab keeps it, unsaved.
  await changes.getByRole('button', { name: 'Undo all' }).click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Undo All' }).click();
  await changes.waitFor({ state: 'hidden', timeout: 15_000 });
  assert.equal(fs.readFileSync(file, 'utf8'), BEFORE, "Undo all restores the disk byte for byte: the user's unsaved line is never saved");
  await page.locator('.editor-instance .view-lines', { hasText: 'USER entry 1' }).first().waitFor({ timeout: 30_000 });
  await page.locator('.tabs-container .tab.dirty', { hasText: 'ledger.txt' }).waitFor({ timeout: 30_000 });
  log('undo all: disk exact, the user line still unsaved in the tab');
}
