// The chat in the side bar and in an editor tab, side by side, each showing its own conversation
// (issue 19): a prompt typed in each goes to the conversation that surface shows, picking a tab in
// one leaves the other alone, and after a window reload each surface shows its own conversation again.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, runCommand, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [
    { match: '^alpha', steps: [{ type: 'text', text: 'Answer for alpha.' }] },
    { match: '^beta', steps: [{ type: 'text', text: 'Answer for beta.' }] },
  ],
});

/** The two chat pages, the side bar's (to the left) and the editor tab's. */
async function surfaces(page) {
  const frames = page.locator('iframe.webview.ready');
  for (let i = 0; i < 600 && (await frames.count()) < 2; i++) await page.waitForTimeout(100);
  const named = await Promise.all([0, 1].map(async i => ({ name: await frames.nth(i).getAttribute('name'), x: (await frames.nth(i).boundingBox())?.x ?? 0 })));
  named.sort((a, b) => a.x - b.x);
  const surface = name => page.frameLocator(`iframe.webview.ready[name="${name}"]`).frameLocator('#active-frame');
  const [side, editor] = [surface(named[0].name), surface(named[1].name)];
  await side.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
  await editor.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
  return { side, editor };
}

/** The agent's answers a surface shows. */
const answers = view => view.locator('.message.agent').allTextContents().then(t => t.map(s => s.trim()).join(' | '));

export default async function ({ page, log, shotsDir }) {
  const { view: first } = await openChat(page);
  await first.locator('#prompt').fill('alpha question');
  await first.locator('#prompt').press('Enter');
  await first.locator('.message.agent', { hasText: 'Answer for alpha.' }).waitFor({ timeout: 30_000 });

  await runCommand(page, 'Switchboard: Open Chat in Editor');
  let { side, editor } = await surfaces(page);
  // A new conversation in the editor tab, and a prompt there.
  await editor.getByRole('button', { name: 'New conversation' }).click();
  await editor.locator('#tabs > .tab:nth-child(2).active').waitFor({ timeout: 30_000 });
  await editor.locator('#prompt').fill('beta question');
  await editor.locator('#prompt').press('Enter');
  await editor.locator('.message.agent', { hasText: 'Answer for beta.' }).waitFor({ timeout: 30_000 });
  log('a conversation in each surface');

  const check = async when => {
    assert.equal(await answers(side), 'Answer for alpha.', `the side bar shows its own conversation ${when}`);
    assert.equal(await answers(editor), 'Answer for beta.', `the editor tab shows its own conversation ${when}`);
    assert.equal(await side.locator('#tabs > .tab.active').textContent(), await side.locator('#tabs > .tab:nth-child(1)').textContent(), `the side bar's strip marks the first ${when}`);
    assert.equal(await editor.locator('#tabs > .tab:nth-child(2).active').count(), 1, `the editor tab's strip marks the second ${when}`);
  };
  await check('side by side');
  await page.screenshot({ path: path.join(shotsDir, 'surfaces-side-by-side.png') });

  // Picking the other tab in the editor tab, and back: the side bar stays on its conversation.
  await editor.locator('#tabs > .tab:nth-child(1)').click();
  await editor.locator('.message.agent', { hasText: 'Answer for alpha.' }).waitFor({ timeout: 30_000 });
  assert.equal(await answers(side), 'Answer for alpha.');
  await editor.locator('#tabs > .tab:nth-child(2)').click();
  await editor.locator('.message.agent', { hasText: 'Answer for beta.' }).waitFor({ timeout: 30_000 });
  log('picking a tab in one surface leaves the other alone');

  // What is typed and not sent belongs to the conversation it was typed for: each surface keeps its
  // own, a surface switching conversation shows that conversation's, and a reload brings each back.
  await side.locator('#prompt').fill('unsent for alpha');
  await editor.locator('#prompt').fill('unsent for beta');
  await editor.locator('#tabs > .tab:nth-child(1)').click();
  await valueIs(editor.locator('#prompt'), 'unsent for alpha', 'the editor tab on the first conversation shows its draft');
  await editor.locator('#tabs > .tab:nth-child(2)').click();
  await valueIs(editor.locator('#prompt'), 'unsent for beta', 'the editor tab back on the second shows its draft');
  assert.equal(await side.locator('#prompt').inputValue(), 'unsent for alpha', 'the side bar keeps its draft');
  log('each conversation keeps its own unsent text');

  // A window reload (Developer: Reload Window, which saves the workbench's state first): each
  // surface comes back with its own conversation.
  // The new page, not the old one still on screen while it unloads (its webviews' frames are not the new ones).
  const reloaded = page.waitForEvent('load', { timeout: 120_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  ({ side, editor } = await surfaces(page));
  await editor.locator('.message.agent', { hasText: 'Answer for beta.' }).waitFor({ timeout: 30_000 });
  await check('after a reload');
  log('after a reload, each surface shows its own conversation again');
  await valueIs(side.locator('#prompt'), 'unsent for alpha', 'the side bar\'s draft after a reload');
  await valueIs(editor.locator('#prompt'), 'unsent for beta', 'the editor tab\'s draft after a reload');
  log('after a reload, each surface has its own draft back');
}

/** Waits for a prompt box to hold `expected`. */
async function valueIs(prompt, expected, what) {
  for (const end = Date.now() + 30_000; Date.now() < end;) {
    if (await prompt.inputValue() === expected) return;
    await prompt.page().waitForTimeout(100);
  }
  assert.equal(await prompt.inputValue(), expected, what);
}
