// Accessibility of the chat, through the real webview:
//  - axe-core (through playwright, inside the webview's inner frame) finds no serious or critical
//    violation in a conversation holding an answer, tool cards, a permission card and the
//    changed-files list, in the dark and in both high-contrast themes. Report: test-results/a11y-axe.json.
//  - A screen reader hears each answer once, when it is complete (not per chunk): the live region
//    gets one entry per finished message, counted by a MutationObserver inside the webview.
//  - Keyboard alone: Tab goes from the tabs to Send in document order, through every card action.
//  - Focus never jumps: typing while the agent streams stays in the prompt box; a card that updates
//    keeps the focus on the same control; the arrow keys move through the conversation tabs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gate, openChat, runAxe, scriptedAgentSettings, setTheme } from './support.mjs';

/** The agent completes its edit once the test put the focus in the edit's card. */
const diffFocused = gate('open-diff-focused');

const BEFORE = 'alpha\nbeta\ngamma\n';
const AFTER = 'alpha\nBETA\ngamma\ndelta\n';
const NOTES = 'first\nsecond\n';
const CHANGED_NOTES = 'first\nSECOND\n';

export const workspaceFiles = { 'list.txt': BEFORE, 'notes.txt': NOTES };

const FIRST = 'The first part of the answer, with **bold** text and `code`. It ends here.';
// Two paragraphs and a list: read apart ("edit.one item.two" would be read as run-together words).
const SECOND = 'Second message, after the edit.\n\n- one item.\n- two';

export const settings = ({ workspace, repoRoot, node24 }) => {
  const list = path.join(workspace, 'list.txt');
  const notes = path.join(workspace, 'notes.txt');
  const script = {
    turns: [
      { match: 'edit', steps: [
        { type: 'toolCall', toolCall: { toolCallId: 'e1', title: 'Edit `{{cwd}}/list.txt`', kind: 'edit', status: 'in_progress',
          content: [{ type: 'diff', path: list, oldText: BEFORE, newText: AFTER }] } },
        { type: 'diskWrite', path: list, content: AFTER },
        { type: 'toolCallUpdate', update: { toolCallId: 'e1', status: 'completed' } },
        { type: 'text', text: 'I changed the list.' },
      ] },
      { match: 'explain', steps: [
        { type: 'thought', text: 'Looking at the **notes**.' },
        // One message in many chunks, some of them frames apart.
        { type: 'text', text: 'The first part ' }, { type: 'sleep', ms: 150 },
        { type: 'text', text: 'of the answer, with **bold** ' }, { type: 'sleep', ms: 150 },
        { type: 'text', text: 'text and `code`.' }, { type: 'sleep', ms: 150 },
        { type: 'text', text: ' It ends here.' },
        { type: 'plan', entries: [{ content: 'Read', priority: 'high', status: 'completed' }, { content: 'Edit', priority: 'medium', status: 'in_progress' }] },
        { type: 'toolCall', toolCall: { toolCallId: 'e2', title: 'Edit `{{cwd}}/notes.txt`', kind: 'edit', status: 'in_progress',
          content: [{ type: 'diff', path: notes, oldText: NOTES, newText: CHANGED_NOTES }], locations: [{ path: notes, line: 2 }] } },
        { type: 'permission', quiet: true, toolCall: { toolCallId: 'e2', title: 'Edit `{{cwd}}/notes.txt`' } },
        { type: 'waitFile', path: diffFocused.path },
        { type: 'diskWrite', path: notes, content: CHANGED_NOTES },
        { type: 'toolCallUpdate', update: { toolCallId: 'e2', status: 'completed', rawOutput: { ok: true } } },
        { type: 'text', text: SECOND },
        { type: 'toolCall', toolCall: { toolCallId: 'r1', title: 'Run `npm test`', kind: 'execute', status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: '1 test failed' } }] } },
        { type: 'permission', toolCall: { toolCallId: 'r2', title: 'Run `npm test -- --watch`' }, options: [
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' }, { optionId: 'always', name: 'Allow always', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ] },
      ] },
    ],
  };
  return { ...scriptedAgentSettings({ repoRoot, node24 }, script), 'workbench.colorTheme': 'Default Dark Modern' };
};

export default async function ({ page, log, shotsDir, repoRoot }) {
  const { view, prompt } = await openChat(page);
  // Every part is checked and every failure listed (one run shows all that is wrong).
  const failures = [];
  const check = async (name, fn) => {
    try { await fn(); log(`ok: ${name}`); } catch (e) { failures.push(`${name}: ${e.message}`); log(`FAILED: ${name}: ${e.message}`); }
  };

  // Turn 1: an edit, so the changed-files list is on screen.
  await prompt.fill('edit the list');
  await prompt.press('Enter');
  await view.locator('#changes .changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });

  // ---- Turn 2: announcements counted in the webview, typing while the agent streams ---------------
  await check('the transcript is not a live region (it would read every chunk)', async () => {
    assert.equal(await view.locator('#transcript').getAttribute('aria-live'), 'off');
  });
  await check('a polite live region for announcements', async () => {
    assert.equal(await view.locator('#announcer').getAttribute('aria-live', { timeout: 30_000 }), 'polite');
  });
  await view.locator('body').evaluate(() => {
    window.__announced = [];
    const el = document.getElementById('announcer');
    if (!el) return;
    new MutationObserver(records => {
      for (const r of records) for (const n of r.addedNodes) window.__announced.push({ kind: n.dataset?.kind, text: n.textContent });
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
  await prompt.fill('explain the notes');
  await prompt.press('Enter');
  // The user keeps typing while the answer streams in and cards arrive.
  await view.locator('.message.agent').nth(1).waitFor({ timeout: 30_000 });
  await page.keyboard.type('a draft I keep typing', { delay: 15 });
  const firstPermission = view.locator('.permission:not(.answered)');
  await firstPermission.waitFor({ timeout: 30_000 });
  await check('typing while the agent streams', async () => {
    assert.equal(await prompt.inputValue(), 'a draft I keep typing', 'every key typed during the turn is in the prompt box');
    assert.equal(await view.locator('body').evaluate(() => document.activeElement?.id), 'prompt', 'focus stayed in the prompt box');
  });

  // Answer with the keyboard: focus the card, press its number key; the answered card keeps the focus.
  await firstPermission.focus();
  await page.keyboard.press('1');
  await view.locator('.permission.answered').waitFor({ timeout: 30_000 });
  await check('the answered permission card keeps the focus', async () => {
    assert.equal(await view.locator('body').evaluate(() => document.activeElement?.classList.contains('permission')), true);
  });
  // A card that updates keeps the keyboard focus: focus "Open diff" of the edit still in progress;
  // the card turns "completed" and the focus is still there.
  const editCard = view.locator('.tool', { hasText: 'notes.txt' });
  await editCard.getByRole('button', { name: 'Open diff' }).focus();
  diffFocused.open();
  await view.locator('.tool.status-completed', { hasText: 'notes.txt' }).waitFor({ timeout: 30_000 });
  const focused = await view.locator('body').evaluate(() => {
    const a = document.activeElement;
    return { text: a?.textContent, inCompletedCard: !!a?.closest('.tool.status-completed') };
  });
  await check('focus stays on "Open diff" when its card updates', async () => {
    assert.deepEqual(focused, { text: 'Open diff', inCompletedCard: true });
  });

  const lastPermission = view.locator('.permission:not(.answered)', { hasText: 'npm test' });
  await lastPermission.waitFor({ timeout: 30_000 });
  await view.locator('.tool.status-failed').waitFor({ timeout: 30_000 });
  const announced = await view.locator('body').evaluate(() => window.__announced);
  log(`announced: ${JSON.stringify(announced)}`);
  await check('each finished message is announced once, in full', async () => {
    const messages = announced.filter(a => a.kind === 'message').map(a => a.text);
    assert.deepEqual(messages, [`Agent: ${FIRST.replace(/\*\*|`/g, '')}`, 'Agent: Second message, after the edit. one item. two']);
  });
  await check('each permission request is announced', async () => {
    const permissions = announced.filter(a => a.kind === 'permission').map(a => a.text);
    assert.equal(permissions.length, 2, JSON.stringify(permissions));
    assert.match(permissions[1], /npm test -- --watch\. Options 1: Allow once, 2: Allow always, 3: Reject/);
  });

  // ---- keyboard alone: Tab walks the chat from the tabs to Send, in document order, through the
  // cards' actions (a pending permission card, "Open diff"), the changed-files list and the prompt.
  await view.locator('[role="tab"][aria-selected="true"]').focus();
  const stops = [];
  for (let i = 0; i < 100; i++) {
    await page.keyboard.press('Tab');
    const stop = await view.locator('body').evaluate(n => {
      const a = document.activeElement;
      if (!a || a === document.body) return null;
      a.dataset.tabStop = String(n);
      return { id: a.id, text: (a.getAttribute('aria-label') || a.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50),
        permission: a.classList.contains('permission') || !!a.closest('.permission:not(.answered)'), region: a.closest('main, section, form, header')?.id || a.closest('main, section, form, header')?.tagName };
    }, i);
    if (!stop) break;
    stops.push(stop);
    if (stop.id === 'send') break;
  }
  log(`Tab stops: ${stops.map(s => `${s.region}:${s.id || s.text}`).join(' | ')}`);
  await check('Tab reaches every card action, top to bottom, and ends at Send', async () => {
    assert.equal(stops.at(-1)?.id, 'send', 'Tab reaches the Send button');
    const inOrder = await view.locator('body').evaluate(() => {
      const els = [...document.querySelectorAll('[data-tab-stop]')].sort((a, b) => Number(a.dataset.tabStop) - Number(b.dataset.tabStop));
      return els.every((el, i) => i === 0 || !!(els[i - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
    });
    assert.ok(inOrder, 'the Tab order follows the document (no jump back up)');
    assert.ok(stops.some(s => s.permission), 'the pending permission card (or its options) is reachable');
    assert.ok(stops.filter(s => /^Open diff/.test(s.text)).length >= 2, 'each edit card\'s "Open diff" is reachable');
    assert.ok(stops.some(s => s.region === 'changes' && /Keep all/.test(s.text)), '"Keep all" of the changed files is reachable');
    assert.ok(stops.some(s => s.id === 'prompt'), 'the prompt box is reachable');
  });

  // ---- axe: dark, high contrast dark, high contrast light -----------------------------------------
  await view.locator('#changes .changes-title', { hasText: '2 files changed' }).waitFor({ timeout: 15_000 }).catch(() => {});
  assert.ok(await view.locator('#changes .change-file').count() >= 1, 'the changed-files list is on screen');
  const report = {};
  const themes = [['Dark Modern', 'dark'], ['Dark High Contrast', 'hc-dark'], ['Light High Contrast', 'hc-light']];
  for (const [theme, name] of themes) {
    if (name !== 'dark') await setTheme(page, theme);
    await view.locator(`body.${name === 'dark' ? 'vscode-dark' : name === 'hc-dark' ? 'vscode-high-contrast' : 'vscode-high-contrast-light'}`).waitFor({ timeout: 30_000 });
    // The theme's colours have reached the webview (its style variables follow the body class).
    await page.waitForTimeout(300);
    report[name] = await runAxe(page);
    await page.screenshot({ path: path.join(shotsDir, `a11y-${name}.png`) });
    log(`${theme}: ${report[name].violations.length} violation(s), ${report[name].passes} rules passed`);
  }
  const out = path.join(repoRoot, 'test-results', 'a11y-axe.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(report, null, 2));
  log(`axe report: ${out}`);

  // High contrast: the borders VS Code's high-contrast themes rely on are drawn.
  const hc = await view.locator('body').evaluate(() => {
    const border = sel => getComputedStyle(document.querySelector(sel)).borderTopColor;
    const active = getComputedStyle(document.querySelector('.tab.active'));
    return { card: border('.tool'), permission: border('.permission'), activeTab: `${active.outlineStyle} ${active.outlineColor}`,
      contrast: getComputedStyle(document.body).getPropertyValue('--vscode-contrastActiveBorder').trim() };
  });
  log(`high contrast light: ${JSON.stringify(hc)}`);
  await check('high contrast: borders and the active tab outline', async () => {
    assert.ok(hc.contrast, 'the high-contrast theme defines contrastActiveBorder');
    assert.ok(!/rgba\(0, 0, 0, 0\)/.test(hc.card) && !/rgba\(0, 0, 0, 0\)/.test(hc.permission), `cards have a visible border: ${JSON.stringify(hc)}`);
    assert.ok(!hc.activeTab.startsWith('none'), `the active tab is outlined in high contrast: ${hc.activeTab}`);
  });
  await check('axe analysed the chat in every theme', async () => {
    for (const [theme, r] of Object.entries(report)) assert.ok(r.passes >= 10, `${theme}: only ${r.passes} rules passed (the chat was not analysed)`);
  });
  await check('axe: no serious or critical violation', async () => {
    const serious = Object.entries(report).flatMap(([theme, r]) =>
      r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${theme}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map(n => n.target.join(' ')).join(', ')}`));
    assert.deepEqual(serious, [], `axe found serious/critical violations:\n${serious.join('\n')}`);
  });

  // ---- keyboard: the arrow keys move between conversation tabs, and the focus follows -------------
  await view.getByRole('button', { name: 'New conversation' }).click();
  await view.locator('[role="tab"]').nth(1).waitFor({ timeout: 30_000 });
  await view.locator('[role="tab"][aria-selected="true"]').focus();
  await page.keyboard.press('ArrowLeft');
  await view.locator('[role="tab"]').first().and(view.locator('[aria-selected="true"]')).waitFor({ timeout: 30_000 });
  const tabFocus = await view.locator('body').evaluate(() => {
    const a = document.activeElement;
    return { role: a?.getAttribute('role'), selected: a?.getAttribute('aria-selected') };
  });
  await check('after ArrowLeft the focus is on the newly selected tab', async () => {
    assert.deepEqual(tabFocus, { role: 'tab', selected: 'true' });
  });
  assert.deepEqual(failures, [], failures.join('\n'));
}
