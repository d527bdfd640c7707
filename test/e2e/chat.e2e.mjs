// Through the real chat webview: type a prompt, press Enter, watch the scripted agent's answer
// stream in, see the turn end. Screenshots go to test-results/screenshots/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

/** The agent sends the rest of its answer once this file exists: after the test saw the first chunk. */
const gate = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-chat-')), 'first-chunk-seen');

export const settings = ({ repoRoot, node24 }) => {
  return scriptedAgentSettings({ repoRoot, node24 }, {
    turns: [{
      steps: [
        { type: 'thought', text: 'The user wants a greeting.' },
        { type: 'text', text: 'Hello' },
        { type: 'waitFile', path: gate },
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
  // Every state the answer shows on screen, recorded in the webview as it changes (polling from
  // here could miss a short-lived one on a loaded machine).
  // Installed (awaited) before Enter: a recorder installed late misses the first state.
  await view.locator('#transcript').evaluate(el => {
    const states = [];
    window.__answerStates = new Promise(resolve => {
      const obs = new MutationObserver(() => {
        const text = el.querySelector('.message.agent .body')?.textContent.trim();
        if (text && states[states.length - 1] !== text) states.push(text);
        if (text?.includes('Hello from the scripted agent.')) { obs.disconnect(); resolve(states); }
      });
      obs.observe(el, { childList: true, subtree: true, characterData: true });
    });
  });
  const shown = view.locator('#transcript').evaluate(() => window.__answerStates);
  await prompt.press('Enter');
  await view.locator('.message.user .body', { hasText: 'Say hello' }).waitFor({ timeout: 30_000 });
  // The first chunk is on screen alone; only then does the agent send the second: the answer streams in.
  await view.locator('.message.agent .body', { hasText: /^\s*Hello\s*$/ }).waitFor({ timeout: 30_000 });
  fs.writeFileSync(gate, '');
  const states = await shown;
  assert.equal(states[0], 'Hello', `states seen: ${JSON.stringify(states)}`);
  log('first chunk was shown alone, then the rest');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('.tool .tool-title').textContent(), 'Read README.md');
  assert.equal(await view.locator('.message.agent').count(), 2, 'text after the tool card is a new message');
  assert.equal((await prompt.inputValue()), '', 'the prompt box was cleared');
  await page.screenshot({ path: path.join(shotsDir, 'chat-streamed-answer.png') });
  log('streamed answer and turn end visible');
  // Every icon on the page has its glyph: the page's codicon stylesheet holds only the glyphs its
  // sources name (scripts/codicons.mjs); one left out is drawn as nothing.
  const blank = await view.locator('body').evaluate(() => [...document.querySelectorAll('.codicon')]
    .filter(e => !/^".+"$/u.test(getComputedStyle(e, '::before').content)).map(e => e.className));
  assert.deepEqual(blank, [], 'icons without a glyph');
}
