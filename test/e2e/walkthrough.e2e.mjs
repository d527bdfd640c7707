// The first-run walkthrough in the real workbench: "Switchboard: Get Started" opens it with four
// unchecked steps; its "Choose Agent" button opens the agent picker, where the scripted agent (its
// program exists on this computer) is listed as installed, before any agent that is not; picking it
// starts it (steps 1 and 2 check themselves). A prompt whose turn writes a file, accepted on its
// review card, checks steps 3 and 4. Each step is checked by what the user did, never by a click on it.
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { quickOpen, scriptedAgentSettings } from './support.mjs';

export const timeout = 900;

const NEW_NOTES = 'Shopping list\n- milk\n- bread\n- coffee\n\nWritten during the walkthrough.\n';
const STEPS = ['chooseAgent', 'signIn', 'firstPrompt', 'reviewChange'];

export const settings = ({ repoRoot, node24 }) => ({
  ...scriptedAgentSettings({ repoRoot, node24 }, {
    turns: [{ match: '^edit', steps: [
      { type: 'write', path: '{{cwd}}/notes.txt', content: NEW_NOTES },
      { type: 'text', text: 'Done editing.' },
    ] }],
  }),
  // No default agent yet: the walkthrough's first step is to choose one.
  'switchboard.defaultAgent': '',
  // Room for the steps' pictures (media/walkthrough/*.md) beside them.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
});

export default async function ({ page, log, shotsDir, workspace }) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The extension's contributions are in once its view container is.
  await page.getByRole('tab', { name: /Switchboard/ }).waitFor({ timeout: 60_000 });
  await runCommand(page, 'Switchboard: Get Started');
  const walkthrough = page.locator('.gettingStartedContainer');
  await walkthrough.locator('h2', { hasText: 'Get Started with Switchboard' }).first().waitFor({ timeout: 30_000 });
  const checkbox = id => walkthrough.locator(`[data-done-step-id$="#${id}"]`).first();
  for (const id of STEPS) await onScreen(page, walkthrough.locator(`[data-done-step-id$="#${id}"][aria-checked="false"]`));
  await page.screenshot({ path: path.join(shotsDir, 'walkthrough-open.png') });
  log('walkthrough open, four unchecked steps');

  // Step 1: its button opens the agent picker; the scripted agent is installed (its program exists).
  await walkthrough.getByRole('button', { name: 'Choose Agent' }).click();
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const scripted = rows.filter({ hasText: 'Scripted' }).first();
  await scripted.waitFor({ timeout: 15_000 });
  const texts = await rows.allInnerTexts();
  const at = texts.findIndex(t => t.includes('Scripted'));
  assert.match(texts[at], /installed/, `the scripted agent is marked installed:\n${texts.join('\n---\n')}`);
  assert.ok(texts.slice(0, at).every(t => /installed/.test(t)), `only installed agents come before it:\n${texts.slice(0, at + 1).join('\n---\n')}`);
  assert.ok(texts.slice(at + 1).some(t => !/installed/.test(t)), 'agents that are not installed follow');
  await page.screenshot({ path: path.join(shotsDir, 'walkthrough-picker.png') });
  await scripted.click();
  log('picked the installed scripted agent');

  // Choosing starts the agent and opens its session: steps 1 and 2 check themselves.
  await onScreen(page, walkthrough.locator(`[data-done-step-id$="#chooseAgent"][aria-checked="true"]`), 30_000);
  await onScreen(page, walkthrough.locator(`[data-done-step-id$="#signIn"][aria-checked="true"]`), 30_000);
  await page.screenshot({ path: path.join(shotsDir, 'walkthrough-agent-started.png') });
  assert.equal(await checkbox('firstPrompt').getAttribute('aria-checked'), 'false');
  log('steps 1 and 2 checked');

  // Step 3: a prompt in the chat (the side bar shows it since the agent started).
  const chat = page.frameLocator('iframe.webview.ready[src*="purpose=webviewView"]').frameLocator('#active-frame');
  await chat.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  const prompt = chat.locator('#prompt');
  await prompt.fill('edit the notes');
  await prompt.press('Enter');
  const diffTab = page.getByRole('tab', { name: /notes\.txt: Scripted wants to edit/ });
  await diffTab.waitFor({ timeout: 30_000 });
  log('prompt sent, the agent\'s write waits in a diff');

  // Step 4: the write accepted, from its card in the chat (the diff's title bar has the same button).
  await chat.getByRole('button', { name: 'Accept', exact: true }).click();
  await chat.locator('.message.agent', { hasText: 'Done editing.' }).waitFor({ timeout: 30_000 });
  assert.equal(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8'), NEW_NOTES, 'the accepted edit is on disk');
  log('edit accepted');

  // Reopened, the walkthrough shows every step checked (VS Code keeps a completed step completed).
  await runCommand(page, 'Switchboard: Get Started');
  for (const id of STEPS) await onScreen(page, walkthrough.locator(`[data-done-step-id$="#${id}"][aria-checked="true"]`));
  await page.screenshot({ path: path.join(shotsDir, 'walkthrough-done.png') });
  log('all four steps checked');
}

/** Waits until one of the elements is shown inside the window (the walkthrough keeps its other slide off screen). */
async function onScreen(page, locator, timeout = 30_000) {
  const { width, height } = page.viewportSize();
  const end = Date.now() + timeout;
  for (;;) {
    for (const el of await locator.all()) {
      const box = await el.boundingBox();
      if (box && box.width > 0 && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height) return;
    }
    if (Date.now() > end) throw new Error(`not shown on screen within ${timeout} ms: ${locator}`);
    await page.waitForTimeout(100);
  }
}

async function runCommand(page, title) {
  await (await quickOpen(page, 'F1')).fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}
