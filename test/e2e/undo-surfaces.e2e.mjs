// Undo all asks first from every surface, and every change says whether it is held for the user or
// already written by the agent. An agent that edits in its own process (like claude-agent-acp)
// changes plan.txt twice: once after a permission card that says the agent writes the change itself
// (and, once the edit is done, that the agent wrote it), once in "accept edits" mode, whose tool card
// then says the agent wrote it. Undo all from the Agent
// Changes view (its title action, and the turn's inline Undo) asks in a modal; Cancel and Escape
// leave the file's bytes as the agent left them. The command palette's Undo All asks too, and
// confirming restores the original bytes. A write through fs/write_text_file is held: its card says
// nothing is written until Accept, and the file is untouched until then.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, quickOpen, scriptedAgentSettings } from './support.mjs';

// Mixed CRLF / LF line ends, non-ASCII text, no final newline: "exact bytes" means all of them (a
// text document has one line ending; undo through one alone wrote CRLF for the LF after "step 2").
const ORIGINAL = Buffer.from('Plan — étape 1\r\nstep 2\nstep 3 ✓\r\nend', 'utf8');
const EDITED = Buffer.from('Plan — étape 1\r\nstep two (agent)\nstep three ✓ (agent)\r\nend', 'utf8');
const WRITTEN = 'rewritten through fs/write_text_file\n';

export const workspaceFiles = { 'plan.txt': ORIGINAL.toString('utf8') };

export const settings = ({ workspace, repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [
    { match: '^edit', steps: [
      { type: 'claudeEdit', path: path.join(workspace, 'plan.txt'), old: 'step 2', new: 'step two (agent)', quiet: true },
      // The user then switched the agent to "accept edits": no permission card, the tool card has the diff.
      { type: 'claudeEdit', path: path.join(workspace, 'plan.txt'), old: 'step 3 ✓', new: 'step three ✓ (agent)', permission: false, quiet: true },
      { type: 'text', text: 'Renamed steps 2 and 3.' },
    ] },
    { match: '^write', steps: [{ type: 'write', path: '{{cwd}}/notes.txt', content: WRITTEN }] },
  ],
}, 'Claude (scripted)');

export default async function ({ page, log, shotsDir, workspace }) {
  const plan = path.join(workspace, 'plan.txt');
  const notes = path.join(workspace, 'notes.txt');
  const shot = name => page.screenshot({ path: path.join(shotsDir, `undo-surfaces-${name}.png`) });
  // The workspace copy is written as text: check it holds the bytes the assertions compare with.
  assert.deepEqual(fs.readFileSync(plan), ORIGINAL);
  const { view, prompt } = await openChat(page);

  // (1) The agent edits plan.txt in its own process once allowed.
  await prompt.fill('edit the plan');
  await prompt.press('Enter');
  const permission = view.locator('article.permission');
  await permission.waitFor({ timeout: 30_000 });
  assert.match(await permission.locator('.diff-state').innerText(), /^Not written yet: if you allow it, the agent writes this change itself/);
  assert.deepEqual(fs.readFileSync(plan), ORIGINAL, 'nothing is written before the answer');
  await permission.getByRole('button', { name: /^\d+\. Allow:/ }).click();
  await view.locator('.message.agent', { hasText: 'Renamed steps 2 and 3.' }).waitFor({ timeout: 30_000 });
  assert.deepEqual(fs.readFileSync(plan), EDITED, 'the agent wrote the disk itself');
  // Once the agent reports the edit done, the permission card (the only card with its diff) says it is written.
  await permission.locator('.diff-state', { hasText: /^Written by the agent/ }).waitFor({ timeout: 30_000 })
    .catch(async () => assert.fail(`the permission card still says: ${await permission.locator('.diff-state').innerText()}`));
  assert.equal(await permission.locator('.diff-state').innerText(), 'Written by the agent: keep or undo it under the changed files.');
  const tool = view.locator('article.tool.status-completed', { has: view.locator('.diff') });
  await tool.waitFor({ timeout: 30_000 });
  assert.equal(await tool.locator('.diff-state').innerText(), 'Written by the agent: keep or undo it under the changed files.');
  const changes = view.locator('#changes');
  await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 15_000 });
  assert.match(await changes.locator('.changes-head .diff-state').innerText(), /written, undoable/);
  await shot('written');
  log('in-process edit written; the tool card says so');

  const dialog = page.locator('.monaco-dialog-box');
  const expectDialog = async (surface) => {
    await dialog.waitFor({ timeout: 15_000 });
    const text = await dialog.innerText();
    assert.match(text, /Undo the agent's changes to 1 file\?/, `${surface}: ${text}`);
    assert.match(text, /Each file goes back to its text before the agent changed it/, `${surface}: ${text}`);
    await shot(`confirm-${surface}`);
  };
  const stillChanged = async (surface) => {
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    assert.deepEqual(fs.readFileSync(plan), EDITED, `${surface}: nothing undone without a yes`);
    await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
  };

  // (2) The Agent Changes view: its title action asks first; Cancel changes nothing.
  const paneHeader = page.locator('.pane-header', { hasText: 'Agent Changes' });
  await paneHeader.click();
  await page.locator('.pane-header.expanded', { hasText: 'Agent Changes' }).waitFor({ timeout: 30_000 });
  const turnRow = page.locator('.monaco-list-row', { hasText: 'Claude (scripted): 1 file' });
  await turnRow.waitFor({ timeout: 15_000 });
  await paneHeader.hover();
  await paneHeader.getByRole('button', { name: 'Undo All Agent Changes…' }).click();
  await expectDialog('view-title');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await stillChanged('view-title');
  log('Agent Changes title action asked; Cancel kept the bytes');

  // The turn's inline Undo in the same tree asks too; Escape dismisses it.
  await turnRow.hover();
  await turnRow.getByRole('button', { name: 'Undo', exact: true }).click();
  await expectDialog('view-turn');
  await page.keyboard.press('Escape');
  await stillChanged('view-turn');
  log('the turn row\'s Undo asked; Escape kept the bytes');

  // (3) The command palette asks too; confirming restores the original bytes.
  await (await quickOpen(page, 'Control+Shift+P')).fill('>Switchboard: Undo All Agent Changes');
  const palette = page.locator('.quick-input-widget');
  await palette.locator('.monaco-list-row', { hasText: 'Switchboard: Undo All Agent Changes' }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await expectDialog('palette');
  await dialog.getByRole('button', { name: 'Undo All' }).click();
  await changes.waitFor({ state: 'hidden', timeout: 15_000 });
  await turnRow.waitFor({ state: 'detached', timeout: 30_000 });
  assert.deepEqual(fs.readFileSync(plan), ORIGINAL, 'the original bytes are back');
  log('palette asked; confirmed; exact bytes restored');

  // (4) A write through fs/write_text_file is held until the user accepts it.
  const notesBefore = fs.readFileSync(notes);
  await prompt.fill('write the notes');
  await prompt.press('Enter');
  const card = view.locator('#writes .write-review');
  await card.waitFor({ timeout: 30_000 });
  assert.equal(await card.locator('.diff-state').innerText(), 'Held: nothing is written until you accept.');
  assert.deepEqual(fs.readFileSync(notes), notesBefore, 'a held write is not on disk');
  await shot('held');
  await card.getByRole('button', { name: 'Accept', exact: true }).click();
  await view.locator('.message.agent', { hasText: 'write: ok' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(notes, 'utf8'), WRITTEN);
  log('held write: untouched until Accept, then written');
}
