// Through the real chat webview: type a prompt, press Enter, watch the scripted agent's answer
// stream in, see the turn end. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const settings = ({ repoRoot, node24 }) => {
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-')), 'chat.json');
  fs.writeFileSync(script, JSON.stringify({
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
  }));
  return {
    'switchboard.agents': { Scripted: { command: node24, args: [path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), script] } },
    'switchboard.defaultAgent': 'Scripted',
  };
};

export default async function ({ page, log, shotsDir }) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const prompt = view.locator('#prompt');
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
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
