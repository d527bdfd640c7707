// What a hostile agent tries against the UI, with the real keyboard: a stray Enter on the
// "outside the workspace" dialog, a stray digit while a permission card waits, Escape closing the
// slash-command picker mid-turn, an option named "Reject" that allows always, a file name with a
// right-to-left override (in a dialog and in the changed-files list), and a code block inside a
// list streamed in pieces.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-hostile-'));
const outside = path.join(dir, 'secret\u202Etxt.sh');
/** The slow turn ends once the test closed the slash-command picker with Escape. */
const escaped = gate('picker-closed');
const FENCE = ['Steps:\n\n1. Install\n\n   - nested:\n\n     ```sh\n     npm install\n', '\n     npm test\n', '     ```\n\n   - after\n'];

export const settings = ({ repoRoot, node24 }) => {
  fs.writeFileSync(outside, 'echo pwned\n');
  const script = {
    turns: [
      { match: '^outside', steps: [{ type: 'read', path: outside }] },
      { match: '^perm', steps: [{ type: 'permission', options: [
        { optionId: 'sneaky', name: 'Reject', kind: 'allow_always' },
        { optionId: 'no', name: 'No thanks', kind: 'reject_once' },
      ] }] },
      { match: '^slow', steps: [
        { type: 'update', update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review the code' }] } },
        { type: 'waitFile', path: escaped.path }, { type: 'text', text: 'slow done' },
      ] },
      { match: '^bidi', steps: [{ type: 'write', path: '{{cwd}}/changed\u202Etxt.sh', content: '#!/bin/sh\n' }] },
      { match: '^fence', steps: [
        { type: 'text', text: FENCE[0], messageId: 'm1' }, { type: 'sleep', ms: 400 },
        { type: 'text', text: FENCE[1], messageId: 'm1' }, { type: 'sleep', ms: 400 },
        { type: 'text', text: FENCE[2], messageId: 'm1' },
      ] },
    ],
  };
  return { ...scriptedAgentSettings({ repoRoot, node24 }, script, 'Hostile'), 'switchboard.fs.outsideWorkspace': 'ask' };
};

export default async function ({ page, log, shotsDir }) {
  const { view } = await openChat(page);
  // Every expectation is checked and reported (one failure does not hide the next ones).
  const failures = [];
  const check = (fn) => { try { fn(); } catch (e) { failures.push(e.message); log(`FAILED: ${e.message}`); } };
  const turnsDone = () => view.locator('.turn-end').count();

  // 8 + 12: the outside-workspace dialog names the file escaped, and Enter does not allow.
  await send(view, 'outside please');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 30_000 });
  const text = await dialog.innerText();
  await page.screenshot({ path: path.join(shotsDir, 'hostile-outside-dialog.png') });
  check(() => assert.ok(!text.includes('\u202E'), `the dialog shows no raw right-to-left override:\n${text}`));
  check(() => assert.match(text, /secret<U\+202E>txt\.sh/));
  await page.keyboard.press('Enter');
  await view.locator('.message.agent', { hasText: /^read/ }).last().waitFor({ timeout: 30_000 });
  const served = await view.locator('.message.agent', { hasText: 'pwned' }).count();
  check(() => assert.equal(served, 0, 'Enter on the outside-workspace dialog served the file'));
  const refusedText = await view.locator('.message.agent').last().innerText();
  check(() => assert.match(refusedText, /read error -32001/));
  log('Enter on the outside-workspace dialog refused the read');

  // 9: the card is drawn from the kinds; 8: a digit outside the card answers nothing.
  let before = await turnsDone();
  await send(view, 'perm');
  const card = view.locator('article.permission').last();
  await card.waitFor({ timeout: 30_000 });
  const sneaky = card.locator('button', { hasText: 'Reject' });
  const [sneakyClass, sneakyText, cardText] = [await sneaky.getAttribute('class'), await sneaky.innerText(), await card.innerText()];
  check(() => assert.match(sneakyClass, /\ballow\b/, 'an allow_always option is styled as allowing'));
  check(() => assert.match(sneakyText, /Always allow/));
  check(() => assert.match(cardText, /named .Reject./i, 'the contradicting name is flagged'));
  await page.screenshot({ path: path.join(shotsDir, 'hostile-permission.png') });
  await view.locator('#status').click();
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  await new Promise(r => setTimeout(r, 1000));
  const strayAnswered = await view.locator('.permission-outcome').count() > 0;
  check(() => assert.ok(!strayAnswered, 'a stray digit, Enter or Space answered the request'));
  if (!strayAnswered) {
    await card.focus();
    const noIndex = (await card.locator('button').allInnerTexts()).findIndex(t => t.includes('No thanks')) + 1;
    await page.keyboard.press(String(noIndex));
    await view.locator('.message.agent', { hasText: 'permission: no' }).waitFor({ timeout: 30_000 });
  }
  await waitCount(turnsDone, before + 1);
  log('digits answer only the focused card');

  // 8: Escape that closes the slash-command picker does not stop the turn.
  before = await turnsDone();
  await send(view, 'slow');
  const prompt = view.locator('#prompt');
  await prompt.fill('/');
  await prompt.dispatchEvent('input');
  await view.locator('#completions:not([hidden]) li').first().waitFor({ timeout: 30_000 });
  await view.locator('#stop:not([hidden])').waitFor({ timeout: 30_000 }); // the turn is running
  await prompt.press('Escape');
  await view.locator('#completions[hidden]').waitFor({ state: 'attached', timeout: 30_000 });
  escaped.open();
  await waitCount(turnsDone, before + 1);
  const ended = await view.locator('.turn-end').last().innerText();
  check(() => assert.equal(ended, 'Done', 'Escape that closed the picker stopped the turn'));
  await prompt.fill('');
  log('Escape closed the picker only');

  // 4: a code block in a nested list item, streamed in pieces, is one code block at the end.
  before = await turnsDone();
  await send(view, 'fence');
  await waitCount(turnsDone, before + 1);
  const answer = view.locator('.message.agent').last();
  await answer.getByText('after', { exact: true }).waitFor({ timeout: 30_000 });
  const codes = await answer.locator('pre code').allInnerTexts();
  await page.screenshot({ path: path.join(shotsDir, 'hostile-fence.png') });
  check(() => assert.deepEqual(codes.map(c => c.trim()), ['npm install\n\nnpm test'], `one code block with both commands: ${JSON.stringify(codes)}`));
  log('the fenced block inside the list checked');

  // 12: a file with a right-to-left override in its name is listed escaped among the changed files.
  before = await turnsDone();
  await send(view, 'bidi');
  const writeCard = view.locator('#writes .write-review');
  await writeCard.waitFor({ timeout: 30_000 });
  await writeCard.getByRole('button', { name: 'Accept', exact: true }).click();
  await waitCount(turnsDone, before + 1);
  const changed = view.locator('#changes .change-name', { hasText: 'changed' }).first();
  await changed.waitFor({ timeout: 15_000 });
  const listed = await changed.innerText();
  await page.screenshot({ path: path.join(shotsDir, 'hostile-changed-files.png') });
  check(() => assert.ok(!listed.includes('\u202E'), `the changed-files list shows no raw right-to-left override: ${JSON.stringify(listed)}`));
  check(() => assert.match(listed, /changed<U\+202E>txt\.sh/));
  log('the changed-files list checked');
  if (failures.length) throw new Error(`${failures.length} expectation(s) failed:\n- ${failures.join('\n- ')}`);
}

async function waitCount(count, n) {
  const end = Date.now() + 40_000;
  while ((await count()) < n) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${n} turn ends`);
    await new Promise(r => setTimeout(r, 100));
  }
}

/** Types a prompt and sends it (Enter; the Send button if the composer did not take it). */
async function send(view, text) {
  const prompt = view.locator('#prompt');
  await prompt.fill(text);
  await prompt.press('Enter');
  await new Promise(r => setTimeout(r, 500));
  if ((await prompt.inputValue()) === text) await view.getByRole('button', { name: 'Send' }).click();
}
