// Through the real chat webview: type a prompt, press Enter, watch the scripted agent's answer
// stream in, see the turn end. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => {
  return scriptedAgentSettings({ repoRoot, node24 }, {
    turns: [{
      steps: [
        { type: 'thought', text: 'The user wants a greeting.' },
        { type: 'text', text: 'Hello' },
        { type: 'sleep', ms: 300 },
        { type: 'text', text: ' from the scripted agent.' },
        { type: 'toolCall', toolCall: { toolCallId: 't1', title: 'Read README.md', kind: 'read', status: 'completed' } },
        { type: 'text', text: '\nAll done.' },
      ],
    }],
  });
};

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  log('chat view is up');

  await prompt.fill('Say hello');
  await prompt.press('Enter');
  await view.locator('.message.user .body', { hasText: 'Say hello' }).waitFor({ timeout: 10_000 });
  // The first chunk arrives before the second: the answer streams in.
  await view.locator('.message.agent .body', { hasText: /^\s*Hello\s*$/ }).waitFor({ timeout: 30_000 });
  log('first chunk visible');
  await view.locator('.message.agent .body', { hasText: 'Hello from the scripted agent.' }).waitFor({ timeout: 10_000 });
  await view.locator('.turn-end').waitFor({ timeout: 10_000 });
  assert.equal(await view.locator('.tool .tool-title').textContent(), 'Read README.md');
  assert.equal(await view.locator('.message.agent').count(), 2, 'text after the tool card is a new message');
  assert.equal((await prompt.inputValue()), '', 'the prompt box was cleared');
  await page.screenshot({ path: path.join(shotsDir, 'chat-streamed-answer.png') });
  log('streamed answer and turn end visible');
}
