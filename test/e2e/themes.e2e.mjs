// The chat in light, dark and high-contrast themes, with every kind of card on screen, and a check
// that keyboard-only use reaches the controls. Screenshots: chat-theme-{light,dark,hc}.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => {
  const script = {
    modes: { currentModeId: 'code', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
    turns: [{
      steps: [
        { type: 'thought', text: 'Checking the **notes** first.' },
        { type: 'text', text: 'Here is a `snippet` and a [link](https://example.com):\n\n```ts\nconst x: number = 1;\n```\n' },
        { type: 'plan', entries: [
          { content: 'Read', priority: 'high', status: 'completed' },
          { content: 'Edit', priority: 'medium', status: 'in_progress' },
          { content: 'Test', priority: 'low', status: 'pending' },
        ] },
        { type: 'update', update: { sessionUpdate: 'usage_update', used: 150000, size: 200000 } },
        { type: 'toolCall', toolCall: { toolCallId: 'e', title: 'Edit notes.txt', kind: 'edit', status: 'completed',
          content: [{ type: 'diff', path: '{{cwd}}/notes.txt', oldText: 'a\nb\n', newText: 'a\nB\nc\n' }] } },
        { type: 'toolCall', toolCall: { toolCallId: 'f', title: 'Fetch the docs', kind: 'fetch', status: 'failed' } },
        { type: 'permission', toolCall: { toolCallId: 'r', title: 'Run npm test' }, options: [
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' }, { optionId: 'always', name: 'Allow always', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ] },
        { type: 'fail', code: -32603, message: 'Model overloaded', data: { retryAfter: 30 } },
      ],
    }],
  };
  return {
    ...scriptedAgentSettings({ repoRoot, node24 }, script),
    'workbench.colorTheme': 'Default Light Modern',
  };
};

async function setTheme(page, name) {
  // Keys typed while the webview has focus stay in its iframe: focus the workbench first.
  await page.locator('.part.editor').click();
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 30_000 });
  await input.fill('>Preferences: Color Theme');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  // The theme picker: filter, then click the row whose label is exactly the theme.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Browse Additional Color Themes' }).waitFor({ timeout: 30_000 });
  await page.keyboard.type(name, { delay: 20 });
  await page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: new RegExp(`^${name}$`) }).first().click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
  await page.waitForTimeout(800);
}

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);

  // Keyboard only: type, Enter to send.
  await prompt.focus();
  await page.keyboard.type('Show me everything');
  await page.keyboard.press('Enter');
  await view.locator('.permission:not(.answered)').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'chat-theme-light-permission.png') });
  // Answer with the keyboard: focus the card, then "3" = Reject (number keys answer the focused card).
  await view.locator('.permission:not(.answered)').focus();
  await page.keyboard.press('3');
  await view.locator('.error').waitFor({ timeout: 30_000 });
  assert.match(await view.locator('.error-message').textContent(), /Model overloaded/);
  assert.match(await view.locator('.error-details').textContent(), /retryAfter/);
  assert.equal(await view.locator('.error button', { hasText: 'Retry' }).count(), 1);
  // ARIA: the transcript is a log, tabs are tabs, status is live.
  assert.equal(await view.locator('[role="log"]').count(), 1);
  assert.ok(await view.locator('[role="tab"][aria-selected="true"]').count() >= 1);
  assert.equal(await view.locator('#usage').getAttribute('aria-valuenow'), '75');
  // Tab from the prompt reaches the composer's buttons.
  await prompt.focus();
  await page.keyboard.press('Tab');
  assert.equal(await view.locator('body').evaluate(() => document.activeElement?.id), 'agent');

  const shots = [['Light Modern', 'light'], ['Dark Modern', 'dark'], ['Dark High Contrast', 'hc']];
  for (const [theme, name] of shots) {
    if (name !== 'light') await setTheme(page, theme);
    // Readable: the message text colour differs from the background in every theme.
    const colors = await view.locator('.message.agent .body').first().evaluate(el => {
      const s = getComputedStyle(el); const b = getComputedStyle(document.body);
      return { fg: s.color, bg: b.backgroundColor };
    });
    assert.notEqual(colors.fg, colors.bg, `${name}: text colour differs from background`);
    await page.screenshot({ path: path.join(shotsDir, `chat-theme-${name}.png`) });
    log(`screenshot in ${theme}`);
  }
}
