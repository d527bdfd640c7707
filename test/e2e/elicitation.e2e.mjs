// A question from the agent (elicitation/create, form mode) while the chat is hidden: the status bar
// says the agent is waiting; in the chat the card shows the form, the browser and then the host
// refuse wrong values with a message per field (nothing is sent), and Submit sends the typed content.
import assert from 'node:assert/strict';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

/** The agent asks once the test hid the chat. */
const hidden = gate('chat-hidden');

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ steps: [
    { type: 'waitFile', path: hidden.path },
    { type: 'elicit', message: 'How should I publish the release?', requestedSchema: {
      type: 'object',
      properties: {
        version: { type: 'string', title: 'Version', pattern: '^\\d+\\.\\d+\\.\\d+$', description: 'Like 1.2.3' },
        email: { type: 'string', title: 'Notify address', format: 'email' },
        channel: { type: 'string', title: 'Channel', oneOf: [{ const: 'beta', title: 'Beta' }, { const: 'stable', title: 'Stable' }], default: 'beta' },
        targets: { type: 'array', title: 'Platforms', items: { type: 'string', enum: ['linux', 'mac', 'win'] }, minItems: 1 },
        copies: { type: 'integer', title: 'Mirrors', minimum: 1, maximum: 5, default: 2 },
        draft: { type: 'boolean', title: 'Publish as draft', default: true },
      },
      required: ['version', 'email', 'targets'],
    } },
  ] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  await prompt.fill('publish');
  await prompt.press('Enter');
  await view.locator('.message.user').waitFor({ timeout: 30_000 });
  // Hidden chat: the status bar says so, and brings the chat back.
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  hidden.open();
  const alert = page.locator('.statusbar-item', { hasText: 'Scripted is waiting for you' });
  await alert.waitFor({ timeout: 30_000 });
  await alert.click();
  const card = view.locator('.question:not(.answered)');
  await card.waitFor({ timeout: 30_000 });
  assert.match(await card.textContent(), /How should I publish the release\?/);
  await page.screenshot({ path: path.join(shotsDir, 'elicitation-form.png') });
  log('form shown after the status bar alert');

  // Empty required fields: the browser's messages, nothing sent.
  await card.getByRole('button', { name: 'Submit' }).click();
  await card.locator('.field-error', { hasText: /./ }).first().waitFor({ timeout: 30_000 });
  assert.ok(await card.locator('[aria-invalid="true"]').count() >= 2);
  // A version that does not match the pattern: only the host (ajv) knows; its message comes back.
  await card.getByLabel('Version').fill('one');
  await card.getByLabel('Notify address').fill('me@example.com');
  await card.getByLabel('linux').check();
  await card.getByRole('button', { name: 'Submit' }).click();
  await view.locator('.question .field-error', { hasText: 'Does not have the expected form.' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'elicitation-invalid.png') });
  assert.equal(await view.locator('.message.agent').count(), 0, 'nothing reached the agent');
  log('invalid values refused with messages');

  const again = view.locator('.question:not(.answered)');
  assert.equal(await again.getByLabel('Notify address').inputValue(), 'me@example.com', 'typed values kept');
  await again.getByLabel('Version').fill('1.2.3');
  await again.getByLabel('Channel').selectOption('stable');
  await again.getByLabel('Mirrors').fill('3');
  await again.getByLabel('Publish as draft').uncheck();
  await again.getByRole('button', { name: 'Submit' }).click();
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  const said = await view.locator('.message.agent').last().textContent();
  assert.match(said, /elicit: \{"action":"accept","content":\{/);
  for (const part of ['"version":"1.2.3"', '"email":"me@example.com"', '"channel":"stable"', '"targets":["linux"]', '"copies":3', '"draft":false']) assert.ok(said.includes(part), `${part} in ${said}`);
  await view.locator('.question.answered .question-values').waitFor();
  await page.screenshot({ path: path.join(shotsDir, 'elicitation-submitted.png') });
  log('submitted; the agent got typed content');
}
