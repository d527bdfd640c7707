// Child agents (ACP `subagents`) in the chat: a turn with two helpers running at once, one of them
// waiting for the user's permission. The card of each shows its title, task, state, elapsed time and
// tool calls; the permission card names the helper that asks; the tab says "waiting for you (in
// Writer)"; a card expands into the helper's own transcript. Screenshots in Light+ and Dark+. The
// turn's Markdown plan is not rendered again when only other session state (usage) changes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { gate, openChat, runCommand, scriptedAgentSettings, setTheme } from './support.mjs';

const hold = gate('child-agents');

export const settings = ({ repoRoot, node24 }) => ({
  ...scriptedAgentSettings({ repoRoot, node24 }, {
    turns: [{ steps: [
      { type: 'text', text: 'I will ask two helpers: one explores the tests, one writes the notes.' },
      { type: 'planUpdate', plan: { type: 'markdown', planId: 'design', content: '# Split\n\nExplore the **tests**, then write the notes.' } },
      { type: 'parallel', branches: [
        [{ type: 'child', child: 'explore', title: 'Explore', description: 'Find the parser tests', prompt: 'Find the tests of the parser.', steps: [
          { type: 'thought', text: 'Looking under test/ first.' },
          { type: 'toolCall', toolCall: { toolCallId: 'r1', title: 'Read test/parser.test.ts', kind: 'read', status: 'completed' } },
          { type: 'toolCall', toolCall: { toolCallId: 's1', title: 'grep -rn "describe(" test', kind: 'search', status: 'in_progress' } },
          { type: 'text', text: 'Found **3** test files so far.' },
          { type: 'waitFile', path: hold.path },
        ] }],
        [{ type: 'child', child: 'writer', title: 'Writer', description: 'Write NOTES.md', prompt: 'Write the notes.', steps: [
          { type: 'permission', toolCall: { toolCallId: 'w1', title: 'Write NOTES.md', kind: 'edit' } },
          { type: 'waitFile', path: hold.path },
        ] }],
      ] },
      { type: 'update', update: { sessionUpdate: 'usage_update', used: 5000, size: 200000 } },
      { type: 'text', text: 'Both helpers are done.' },
    ] }],
  }, 'Claude-like'),
  'workbench.colorTheme': 'Default Light+',
});

/** Light+ or Dark+, then a picture once the webview shows it. */
async function shot(page, view, theme, bodyCls, file) {
  if (!(await view.locator(`body.${bodyCls}`).count())) await setTheme(page, theme);
  await view.locator(`body.${bodyCls}`).waitFor({ timeout: 30_000 });
  await page.mouse.move(700, 450);
  await page.waitForTimeout(300);
  await page.screenshot({ path: file });
}

export default async function ({ page, log, shotsDir }) {
  await page.setViewportSize({ width: 1280, height: 860 });
  const { view, prompt } = await openChat(page);
  await prompt.fill('Split the work between helpers');
  await prompt.press('Enter');

  const permission = view.locator('.permission', { hasText: 'Write NOTES.md' });
  await permission.waitFor({ timeout: 30_000 });
  assert.match(await permission.locator('.permission-from').textContent(), /Writer \(Write NOTES\.md\)/);
  const explore = view.locator('.child-card', { hasText: 'Explore' });
  const writer = view.locator('.child-card', { hasText: 'Writer' });
  await explore.locator('.child-state', { hasText: 'running' }).waitFor({ timeout: 30_000 });
  await writer.locator('.child-state', { hasText: 'needs you' }).waitFor({ timeout: 30_000 });
  assert.match(await explore.locator('.child-task').textContent(), /Find the parser tests/);
  await view.locator('.tab.state-waiting').waitFor({ timeout: 30_000 });
  assert.match(await view.locator('#status').textContent(), /waiting for you \(in Writer\)/);
  log('two helpers run; the Writer waits for the permission asked in the parent, the tab says so');
  // The plan as first rendered, marked to tell whether a later meta change renders it again.
  const doc = view.locator('#plan .plan-document', { hasText: 'Explore the tests' });
  await doc.waitFor({ timeout: 30_000 });
  await doc.evaluate(el => { el.dataset.rendered = 'first'; });

  // The Explore card opens onto its own transcript, streamed under it.
  const own = view.locator('.in-child[data-in-child="explore"]');
  assert.equal(await own.first().isVisible(), false, 'a collapsed card hides its transcript');
  await explore.locator('button.child-toggle').click();
  await view.locator('.in-child[data-in-child="explore"].tool', { hasText: 'grep -rn' }).waitFor({ timeout: 30_000 }).catch(async () =>
    view.locator('.in-child[data-in-child="explore"]', { hasText: 'grep -rn' }).waitFor({ timeout: 30_000 }));
  await explore.locator('.child-facts', { hasText: '2 tool calls' }).waitFor({ timeout: 30_000 });
  log('expanded: its messages, thinking and tool calls; 2 tool calls on its card');

  await shot(page, view, 'Light+', 'vscode-light', path.join(shotsDir, 'child-agents-light.png'));
  await shot(page, view, 'Dark+', 'vscode-dark', path.join(shotsDir, 'child-agents-dark.png'));
  log('screenshots in Light+ and Dark+');

  await permission.getByRole('button', { name: /Allow/ }).first().click();
  await writer.locator('.child-state', { hasText: 'running' }).waitFor({ timeout: 30_000 });
  hold.open();
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  await view.locator('.child-card .child-state', { hasText: 'idle (done)' }).nth(1).waitFor({ timeout: 30_000 });
  log('both helpers done; the turn ended after them');
  await view.locator('#usage:not([hidden])').waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('#plan .plan-document[data-rendered="first"]').count(), 1, 'the unchanged plan was not rendered again on a usage change');
  log('the Markdown plan kept its first rendering across a usage change');

  // "Open in tab" on Explore's card: its work in an editor tab of its own, read-only, nothing of the parent's.
  await explore.getByRole('button', { name: /Open the work of Explore/ }).click();
  const childTab = async () => {
    const frames = page.locator('iframe.webview.ready');
    await page.waitForFunction(() => document.querySelectorAll('iframe.webview.ready').length >= 2, null, { timeout: 60_000 });
    // The new tab's page may still be loading in its frame: wait in each frame for the child tab's body.
    const count = await frames.count();
    return Promise.any(Array.from({ length: count }, async (_, i) => {
      const inner = frames.nth(i).contentFrame().locator('#active-frame').contentFrame();
      await inner.locator('body.child-tab').waitFor({ state: 'attached', timeout: 30_000 });
      return inner;
    })).catch(() => undefined);
  };
  let tab = await childTab();
  assert.ok(tab, 'a webview with the child\'s tab');
  await tab.locator('.message.agent', { hasText: 'Found 3 test files so far.' }).waitFor({ timeout: 30_000 });
  assert.match(await tab.locator('#child-note').textContent(), /Explore.*answered in the chat/);
  assert.equal(await tab.locator('.tool', { hasText: 'grep -rn' }).count(), 1, 'its tool calls are shown');
  assert.equal(await tab.getByText('I will ask two helpers').count(), 0, 'nothing of the parent\'s');
  assert.equal(await tab.locator('#composer').isVisible(), false, 'read-only: no prompt box');
  log('Open in tab: Explore\'s work in its own read-only tab, without the parent\'s');

  // A window reload (Developer: Reload Window, which saves the workbench's state first) brings the
  // helper's tab back, filled from the saved conversation (the agent is not running).
  await runCommand(page, 'Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  await page.getByRole('tab', { name: /Explore \(helper in/ }).waitFor({ timeout: 60_000 });
  tab = await childTab();
  assert.ok(tab, 'the child\'s tab came back after the reload');
  await tab.locator('.message.agent', { hasText: 'Found 3 test files so far.' }).waitFor({ timeout: 30_000 });
  assert.equal(await tab.locator('.tool', { hasText: 'grep -rn' }).count(), 1, 'its tool calls are shown again');
  assert.equal(await tab.getByText('I will ask two helpers').count(), 0, 'still nothing of the parent\'s');
  await page.screenshot({ path: path.join(shotsDir, 'child-tab-after-reload.png') });
  log('after a reload, Explore\'s tab is back with its work');
}
