// A command the agent runs through terminal/*: its tool card shows the live tail of the output,
// keeps it after the terminal is released, and "Show terminal" reveals the integrated terminal.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => ({
  // Commands run without a confirmation here: this module is about the terminal, not the question.
  'switchboard.terminal.confirmCommands': false,
  ...scriptedAgentSettings({ repoRoot, node24 }, {
    turns: [{ steps: [
      { type: 'terminal', command: "printf 'step one\\n'; sleep 1; printf 'step two\\n'", terminalToolCall: true, title: 'Run the build' },
    ] }],
  }),
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('build it');
  await prompt.press('Enter');
  const tail = view.locator('.tool .terminal .terminal-tail');
  await tail.filter({ hasText: 'step one' }).waitFor({ timeout: 20_000 });
  log('first line of output live in the card');
  await view.locator('.turn-end').waitFor({ timeout: 20_000 });
  await tail.filter({ hasText: /step one\s+step two/ }).waitFor({ timeout: 30_000 });
  assert.match(await view.locator('.tool .terminal-head').textContent(), /finished/);
  await page.screenshot({ path: path.join(shotsDir, 'terminal-card.png') });
  await view.locator('.tool .terminal button', { hasText: 'Show terminal' }).click();
  await page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab, .panel', { hasText: 'Scripted:' }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'terminal-card-revealed.png') });
  log('integrated terminal revealed');
}
