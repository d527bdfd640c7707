// A command the agent runs in its own process and reports on its tool call (`_meta.terminal_info` /
// `terminal_output_delta` / `terminal_exit`, as claude-agent-acp and codex-acp do): the card shows the
// command line and a live, coloured tail while it runs, then its exit; "Show in terminal" opens a
// read-only integrated terminal with the same output. Also a notice and a compaction entry.
import assert from 'node:assert/strict';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

/** The command exits once the test saw it running with its output. */
const seenRunning = gate('seen-running');

export const timeout = 900;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'notice', severity: 'warning', title: 'Rate limit at 80%', description: 'Resets in 2 hours' },
    { type: 'compaction', compactionId: 'c1', chunks: ['The user asked to run the tests; ', 'unit tests pass, e2e fails.'] },
    {
      type: 'agentCommand', command: 'npm test', intervalMs: 500, holdFile: seenRunning.path, exitCode: 1,
      chunks: ['\x1b[1m> npm test\x1b[0m\n', '\x1b[32m✓\x1b[0m unit: 185 passing\n', '\x1b[31m✗\x1b[0m e2e: 1 failing\n'],
    },
  ] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('run the tests');
  await prompt.press('Enter');

  const card = view.locator('.tool .agent-terminal');
  await card.locator('.terminal-command', { hasText: 'npm test' }).waitFor({ timeout: 20_000 });
  const tail = card.locator('.terminal-tail');
  // Output and "running" on screen at the same moment: the tail is live.
  await card.filter({ has: view.locator('.terminal-head', { hasText: 'running' }) })
    .filter({ has: view.locator('.terminal-tail', { hasText: 'unit: 185 passing' }) }).waitFor({ timeout: 20_000 });
  const green = tail.locator('.ansi-fg-2', { hasText: '✓' });
  await green.waitFor({ timeout: 30_000 });
  const color = await green.evaluate(el => getComputedStyle(el).color);
  const plain = await tail.evaluate(el => getComputedStyle(el).color);
  assert.notEqual(color, plain, 'the green check keeps its colour');
  await page.screenshot({ path: path.join(shotsDir, 'agent-command-live.png') });
  log('live coloured tail while running');
  seenRunning.open();

  await tail.filter({ hasText: 'e2e: 1 failing' }).waitFor({ timeout: 20_000 });
  await card.locator('.terminal-head', { hasText: 'exit code 1' }).waitFor({ timeout: 20_000 });
  assert.equal(await view.locator('.tool .terminal:not(.agent-terminal)').count(), 0, 'no empty client-terminal box');
  // The notice and the compaction entry of the same turn.
  await view.locator('.agent-notice.severity-warning', { hasText: 'Rate limit at 80%' }).waitFor({ timeout: 30_000 });
  const compaction = view.locator('details.compaction');
  assert.match(await compaction.locator('summary').textContent(), /Context compacted/);
  await compaction.locator('summary').click();
  await compaction.locator('.compaction-summary', { hasText: 'unit tests pass, e2e fails.' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'agent-command-done.png') });
  log('exit code, notice and compaction summary shown');

  await card.locator('button', { hasText: 'Show in terminal' }).click();
  const terminalTab = page.locator('.terminal-tabs-entry, .single-terminal-tab, .terminal-tab', { hasText: 'Scripted: npm test' }).first();
  await terminalTab.or(page.locator('.panel', { hasText: 'Scripted: npm test' })).first().waitFor({ timeout: 30_000 });
  // xterm draws on a canvas: what the terminal was sent is checked by the integration test
  // ("… a read-only \"Show in terminal\""); here, that it opened under the command's name.
  await page.waitForTimeout(500); // let xterm paint before the screenshot
  await page.screenshot({ path: path.join(shotsDir, 'agent-command-terminal.png') });
  log('read-only integrated terminal shows the same output');
}
