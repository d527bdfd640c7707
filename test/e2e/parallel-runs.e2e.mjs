// Run in Parallel through the UI: the button by the prompt box runs the command, which asks for two agents and the prompt; each run works
// in its own git worktree; the panel shows them side by side (status, files with +/− counts, time);
// "Apply this result" brings the chosen run's change into the workspace, listed in Agent Changes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat } from './support.mjs';

const NOTES = 'alpha\nbeta\ngamma\n';

export const workspaceFiles = { 'notes.txt': NOTES };

export const settings = ({ repoRoot, node24 }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-'));
  const agent = (name, steps) => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify({ turns: [{ steps }] }));
    return { command: node24, args: [path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), file] };
  };
  return {
    'switchboard.agents': {
      'Agent One': agent('one', [
        { type: 'write', path: '{{cwd}}/notes.txt', content: 'alpha\nBETA\ngamma\ndelta\n', quiet: true },
        { type: 'text', text: 'I capitalized beta and added delta.' },
      ]),
      'Agent Two': agent('two', [
        { type: 'claudeWrite', path: '{{cwd}}/todo.md', content: '# Todo\n\n- beta\n', permission: false },
        { type: 'text', text: 'I wrote a todo list instead.' },
      ]),
    },
    'switchboard.defaultAgent': 'Agent One',
  };
};

export default async function ({ page, log, shotsDir, workspace }) {
  const git = (...args) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first');
  await page.setViewportSize({ width: 1400, height: 900 });
  const { view } = await openChat(page);

  // The button next to the prompt box runs the command: two agents (a multi-select pick), then the prompt.
  await view.getByRole('button', { name: 'Run in Parallel…' }).click();
  const input = page.locator('.quick-input-widget input');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Agent Two' }).first().waitFor({ timeout: 30_000 });
  await input.fill('Agent ');
  for (const name of ['Agent One', 'Agent Two']) {
    await rows.filter({ hasText: name }).filter({ hasNotText: 'second run' }).first().locator('input[type=checkbox], .monaco-custom-toggle, .quick-input-list-checkbox').first().click();
  }
  await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
  await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run in Parallel: prompt' }).waitFor({ timeout: 15_000 });
  await input.fill('Improve the notes');
  await input.press('Enter');
  log('runs started');

  const panel = page.frameLocator('iframe.webview.ready:not([src*="purpose=webviewView"])').frameLocator('#active-frame');
  const one = panel.locator('section.run', { hasText: 'Agent One' });
  const two = panel.locator('section.run', { hasText: 'Agent Two' });
  await panel.locator('.phase', { hasText: 'All runs ended' }).waitFor({ timeout: 60_000 });
  assert.match(await one.locator('.status').textContent(), /Done/);
  assert.match(await one.locator('.files').textContent(), /notes\.txt\s*\+2\s*−1/);
  assert.match(await two.locator('.files').textContent(), /todo\.md\s*\+3\s*−0/);
  assert.match(await one.locator('.meta').textContent(), /Time: \d+s/);
  assert.equal(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8'), NOTES, 'the workspace is untouched until a run is applied');
  await page.screenshot({ path: path.join(shotsDir, 'parallel-runs-side-by-side.png') });

  await one.getByRole('button', { name: 'Apply this result' }).click();
  await panel.locator('.phase', { hasText: 'Applied' }).waitFor({ timeout: 30_000 });
  assert.match(await panel.locator('.message').textContent(), /Applied 1 file\(s\) from Agent One/);
  assert.equal(fs.readFileSync(path.join(workspace, 'notes.txt'), 'utf8'), 'alpha\nBETA\ngamma\ndelta\n');
  assert.ok(!fs.existsSync(path.join(workspace, 'todo.md')), 'the other run is not applied');
  // The panel says "Applied" as the files land; the worktrees go right after (the model's next effect).
  const worktrees = () => git('worktree', 'list', '--porcelain').split('\n').filter(l => l.startsWith('worktree ')).length;
  for (const until = Date.now() + 15_000; worktrees() > 1 && Date.now() < until;) await new Promise(r => setTimeout(r, 100));
  assert.equal(worktrees(), 1, 'no worktree left');
  // Reviewable: the Agent Changes view lists the file.
  const header = page.locator('.pane-header', { hasText: 'Agent Changes' });
  if (!(await header.isVisible())) await page.getByRole('tab', { name: /Switchboard/ }).click();
  // Each header by its title: a click on its middle can land on one of its actions (the chat's
  // New Conversation button took it once in CI, and the chat stayed open).
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.locator('.title').click();
  // The chat above it may leave the view room for one row only (its turn's): the chat's section is
  // collapsed so that the file's row is drawn (the tree draws only the rows in view).
  const chatHeader = page.locator('.pane-header', { hasText: /^Chat/ }).first();
  if ((await chatHeader.getAttribute('aria-expanded')) === 'true') await chatHeader.locator('.title').click();
  await page.locator('.pane-header[aria-expanded="false"]', { hasText: /^Chat/ }).first().waitFor({ timeout: 30_000 });
  await page.locator('.monaco-list-row', { hasText: 'notes.txt' }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'parallel-runs-applied.png') });
  log('applied one run; its change is listed for review; worktrees gone');
}
