// The agent's mode in the real webview (issue 24 point 2, issue 22 point 2): Claude's adapter sends
// its mode twice (legacy `modes` and a `mode` config option); the chat shows one picker, marks the
// modes that write without asking, and while the conversation is in such a mode says so above the
// prompt box. A permission that grants for good is never styled like the one-time allow.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const CLAUDE_MODES = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'auto', name: 'Auto', description: 'Claude handles permission decisions' },
];

export const settings = ({ repoRoot, node24 }) => ({
  ...scriptedAgentSettings({ repoRoot, node24 }, {
    modes: { currentModeId: 'auto', availableModes: CLAUDE_MODES },
    configOptions: [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'auto', options: CLAUDE_MODES.map(m => ({ value: m.id, name: m.name, description: m.description })) },
      { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] },
    ],
    turns: [
      { match: 'hello', steps: [{ type: 'text', text: 'Hi.' }] },
      { match: 'run', steps: [
        { type: 'permission', toolCall: { toolCallId: 'run-1', title: 'Run make' }, options: [
          { optionId: 'always', name: 'Always allow make', kind: 'allow_always' },
          { optionId: 'once', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ] },
      ] },
    ],
  }, 'Claude-like'),
  // The user turned the asking start off: the conversation stays in the agent's own mode (Auto).
  'switchboard.startInAskingMode': false,
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('hello');
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });

  // One mode picker, holding the agent's modes; the model picker is still there.
  const modePickers = view.locator('select[aria-label="Mode"]');
  assert.equal(await modePickers.count(), 1, 'the mode appears once');
  const picker = modePickers.first();
  assert.equal(await picker.isVisible(), true);
  assert.equal(await picker.inputValue(), 'auto');
  assert.equal(await view.locator('select[aria-label="Model"]').count(), 1);
  const labels = await picker.locator('option').allTextContents();
  assert.equal(labels.length, CLAUDE_MODES.length);
  // The modes that write without asking are marked; the asking ones are not.
  const marked = labels.filter(l => /without asking/i.test(l));
  assert.deepEqual(marked.map(l => l.split(' ')[0]), ['Accept', 'Auto'], `marked: ${JSON.stringify(labels)}`);

  // Near the prompt box: what holds in this mode.
  const note = view.locator('#mode-note');
  await note.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await note.textContent(), /Edits are written first, then listed for Keep \/ Undo/);
  await page.screenshot({ path: path.join(shotsDir, 'modes-writes-without-asking.png') });
  log('one picker, marked, note shown');

  // The user picks Manual: the note goes away.
  await picker.selectOption('default');
  await note.waitFor({ state: 'hidden', timeout: 30_000 });
  assert.equal(await view.locator('select[aria-label="Mode"]').first().inputValue(), 'default');
  log('Manual picked, note hidden');

  // A permission that grants for good is not styled like the one-time allow (the primary button).
  await prompt.fill('run make');
  await prompt.press('Enter');
  const card = view.locator('.permission:not(.answered)');
  await card.waitFor({ timeout: 30_000 });
  const classOf = async name => (await card.getByRole('button', { name }).getAttribute('class')) ?? '';
  const once = await classOf(/^\d\. Allow:/);
  const always = await classOf(/Always allow make/);
  assert.doesNotMatch(once, /secondary/, `allow once is the primary button (${once})`);
  assert.match(always, /secondary/, `always allow is a secondary button (${always})`);
  await page.screenshot({ path: path.join(shotsDir, 'modes-permission-always.png') });
  await card.getByRole('button', { name: /Reject/ }).click();
  await view.locator('.turn-end').nth(1).waitFor({ timeout: 15_000 });
}
