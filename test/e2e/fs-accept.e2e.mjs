// An agent's write reviewed through the real UI: the scripted agent writes notes.txt, VS Code's
// diff editor opens with Accept / Reject in its title bar, we click Accept, and the file on disk
// and the chat both show the result. Then a read outside the workspace asks in a modal that names
// the agent and the path; we click Allow and the agent gets the content.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-outside-')), 'outside.txt');
const NEW_NOTES = 'Shopping list\n- milk\n- bread\n- coffee\n- tea (added by the agent)\n\nRemember: the meeting moved to Thursday.\n';

export const settings = ({ repoRoot, node24 }) => {
  fs.writeFileSync(outside, 'outside the workspace\n');
  const script = {
    turns: [
      { match: '^edit', steps: [
        { type: 'read', path: '{{cwd}}/notes.txt', quiet: true },
        { type: 'write', path: '{{cwd}}/notes.txt', content: NEW_NOTES },
        { type: 'text', text: 'Done editing.' },
      ] },
      { match: '^outside', steps: [{ type: 'read', path: outside }] },
    ],
  };
  return {
    ...scriptedAgentSettings({ repoRoot, node24 }, script, 'Scripted FS'),
    'switchboard.fs.outsideWorkspace': 'ask',
  };
};

export default async function ({ page, log, shotsDir, workspace }) {
  const notes = path.join(workspace, 'notes.txt');
  const original = fs.readFileSync(notes, 'utf8');
  const { view, prompt } = await openChat(page);

  await send(view, 'edit the notes');
  // The diff editor: its tab is titled with the file and the agent.
  const diffTab = page.getByRole('tab', { name: /notes\.txt: Scripted FS wants to edit/ });
  await diffTab.waitFor({ timeout: 30_000 });
  log('review diff open');
  const accept = page.locator('.editor-actions').getByRole('button', { name: /^Accept Agent Edit/ });
  await accept.waitFor({ timeout: 30_000 });
  await page.locator('.editor-actions').getByRole('button', { name: /^Reject Agent Edit/ }).waitFor();
  // The proposed side shows the agent's line.
  await page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'tea (added by the agent)' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(notes, 'utf8'), original, 'nothing is written before Accept');
  await page.screenshot({ path: path.join(shotsDir, 'fs-review-diff.png') });

  await accept.click();
  log('clicked Accept');
  await view.locator('.message.agent', { hasText: 'write: ok' }).waitFor({ timeout: 30_000 });
  await view.locator('.message.agent', { hasText: 'Done editing.' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(notes, 'utf8'), NEW_NOTES, 'the accepted edit is on disk');
  await diffTab.waitFor({ state: 'detached', timeout: 30_000 });
  log('edit applied and saved; the diff closed');

  await send(view, 'outside please');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  const text = await dialog.innerText();
  assert.match(text, /Scripted FS wants to read a file outside the workspace/);
  assert.ok(text.includes(outside), `the dialog names ${outside}:\n${text}`);
  await page.screenshot({ path: path.join(shotsDir, 'fs-outside-modal.png') });
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await view.locator('.message.agent', { hasText: 'read: "outside the workspace\\n"' }).waitFor({ timeout: 30_000 });
  log('outside read allowed from the modal');
}

/** Types a prompt and sends it (Enter; the Send button if the composer did not take it). */
async function send(view, text) {
  const prompt = view.locator('#prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await new Promise(r => setTimeout(r, 500));
  if ((await prompt.inputValue()) === text) await view.getByRole('button', { name: 'Send' }).click();
}
