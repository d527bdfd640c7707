// What the chat says while it waits is true, and what was typed is never lost (issue 22, point 2):
//  - while the agent picker is open, the status line says it waits for a choice (not "Starting…");
//  - a prompt typed before an agent is chosen comes back in the prompt box, whatever ends the wait
//    (Escape, a window reload);
//  - the first start of an agent through a package runner (`npx`, played by a fake npx that never
//    finishes: no network) says it downloads, and its Cancel ends the start and its process. The
//    fake is named by its path: the server takes PATH from the login shell, not from the test;
//  - a start that takes longer than a few seconds says what it waits for, with the seconds;
//  - a failed start is shown once, in words (the agent's error line, not its stack trace).
// Every part is checked and every failure listed, so one run against older code shows all that fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, reopenChat } from './support.mjs';

export const timeout = 600;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-honest-'));
const bin = path.join(tmp, 'bin');
const pidFile = path.join(tmp, 'npx.pid');
const PROMPT = 'Explain how this project is built';

// A fake `npx`: records its process id, says on stderr that it installs the package (as npm does on a
// first run), then runs the scripted agent, which never answers initialize: a download that takes forever.
function fakeNpx({ repoRoot, node24 }) {
  fs.mkdirSync(bin, { recursive: true });
  const hang = path.join(tmp, 'hang.json');
  fs.writeFileSync(hang, JSON.stringify({ hangOnInitialize: true }));
  const npx = path.join(bin, 'npx');
  fs.writeFileSync(npx, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\necho "npm warn exec The following package was not found and will be installed: $2" >&2\nexec ${JSON.stringify(node24)} ${JSON.stringify(path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'))} ${JSON.stringify(hang)}\n`);
  fs.chmodSync(npx, 0o755);
  return npx;
}

export const settings = ({ repoRoot, node24 }) => {
  const agent = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
  const script = (name, value) => { const f = path.join(tmp, `${name}.json`); fs.writeFileSync(f, JSON.stringify(value)); return f; };
  return {
    'switchboard.agents': {
      'Scripted': { command: node24, args: [agent, script('ok', { turns: [{ steps: [{ type: 'text', text: 'Built with esbuild.' }] }] })] },
      'Slow starter': { command: node24, args: [agent, script('slow', { hangOnInitialize: true })] },
      'Fake npx agent': { command: fakeNpx({ repoRoot, node24 }), args: ['-y', '@example/fake-acp-agent'] },
      // Dies at start with an error and its stack trace on stderr, as a Node.js agent does.
      'Broken': { command: node24, args: ['-e', "throw new Error('The API key is not set')"] },
    },
    // Older code cannot cancel a start: it then gives up after this long and the test goes on
    // (long enough for a loaded machine to show the start's status and click Cancel in time).
    'switchboard.initializeTimeoutSeconds': 90,
  };
};

export default async function ({ page, log, shotsDir }) {
  let { view, prompt } = await openChat(page);
  const status = view.locator('#status');
  const failures = [];
  const check = async (name, fn) => {
    try { await fn(); log(`ok: ${name}`); } catch (e) { failures.push(`${name}: ${e.message.split('\n')[0]}`); log(`FAILED: ${name}: ${e.message}`); }
  };
  const picker = page.locator('.quick-input-widget');
  const pick = async name => {
    // The list is long (every preset): filter it first.
    await picker.locator('input').fill(name);
    await picker.locator('.monaco-list-row .label-name', { hasText: new RegExp(`^${name}$`) }).first().click();
    await picker.waitFor({ state: 'hidden', timeout: 30_000 });
  };

  // A prompt with no agent chosen yet: the picker opens and the status says it waits for a choice.
  await prompt.fill(PROMPT);
  await prompt.press('Enter');
  await picker.waitFor({ timeout: 20_000 });
  await check('while the picker is open the status says it waits for a choice', async () => {
    await waitForText(status, /Waiting for you to choose an agent/, 5_000);
    assert.doesNotMatch(await status.innerText(), /Starting/);
  });
  await page.screenshot({ path: path.join(shotsDir, 'honest-picker-open.png') });

  // Escape: the prompt is back in the box.
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'hidden', timeout: 30_000 });
  await check('Escape in the picker gives the prompt back', () => waitForValue(prompt, PROMPT));

  // Sent again, and the window reloads while the picker is open: the prompt is back after the reload.
  await prompt.fill(PROMPT);
  await prompt.press('Enter');
  await picker.waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1000); // the page's own draft messages (at most one per 250 ms) have all gone out
  await page.reload();
  ({ view, prompt } = await reopenChat(page));
  await check('a window reload while the picker is open gives the prompt back', () => waitForValue(prompt, PROMPT));
  await page.screenshot({ path: path.join(shotsDir, 'honest-after-reload.png') });
  await prompt.fill('');

  // Another view chosen while the picker is open (the chat's page is thrown away): the prompt is back
  // in the box when the chat is shown again.
  await prompt.fill(PROMPT);
  await prompt.press('Enter');
  await picker.waitFor({ timeout: 20_000 });
  await page.getByRole('tab', { name: /Explorer/ }).click();
  await picker.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => page.keyboard.press('Escape'));
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
  await check('another view chosen while the picker is open: the prompt is back', () => waitForValue(prompt, PROMPT));
  await prompt.fill('');
  const status2 = view.locator('#status');

  // The first start through a package runner: "Downloading … (first start)", and Cancel ends it.
  await prompt.fill(PROMPT);
  await prompt.press('Enter');
  await picker.waitFor({ timeout: 20_000 });
  await pick('Fake npx agent');
  await check('the first start through npx says it downloads the package', () => waitForText(status2, /Downloading @example\/fake-acp-agent \(first start(, \d+ s)?\)…/, 30_000));
  await page.screenshot({ path: path.join(shotsDir, 'honest-downloading.png') });
  await check('Cancel ends the start and its process, and gives the prompt back', async () => {
    const cancel = view.getByRole('button', { name: /^Cancel/ });
    await cancel.click({ timeout: 30_000 });
    await waitFor(() => !alive(pidFile), 10_000, 'the npx process ended');
    await waitFor(async () => !/Downloading|Starting/.test(await status2.innerText()), 10_000, 'the status no longer says it starts');
    await waitForValue(prompt, PROMPT);
  });
  await settle(view, status2);

  // A start that takes longer than a few seconds says what it waits for.
  await chooseAgent(page, view, 'Slow starter', pick);
  await check('a slow start says what it waits for, with the seconds', () => waitForText(status2, /Waiting for Slow starter to answer initialize \(\d+ s\)/, 30_000));
  await page.screenshot({ path: path.join(shotsDir, 'honest-waiting-initialize.png') });
  await view.getByRole('button', { name: /^Cancel/ }).click({ timeout: 5_000 }).catch(() => {});
  await settle(view, status2);

  // A failed start: one error in the conversation, in words, no stack trace, no second notification.
  const errorsBefore = await view.locator('.error').count();
  await chooseAgent(page, view, 'Broken', pick);
  await view.locator('.error').nth(errorsBefore).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1000); // a second report would come right after the first
  await check('a failed start is shown once, in words, without its stack trace', async () => {
    const errors = view.locator('.error', { hasText: 'Broken' });
    assert.equal(await errors.count(), 1, 'one error in the conversation');
    const text = await errors.first().innerText();
    assert.match(text, /The API key is not set/, 'the agent\'s own words');
    assert.doesNotMatch(text, /^\s+at /m, 'no stack frame');
    assert.doesNotMatch(await status2.innerText(), /API key/, 'the status line does not repeat it');
  });
  await check('no notification repeats the failed start', async () => {
    await page.locator('[id="status.notifications"]').click();
    await page.locator('.notifications-center').waitFor({ timeout: 5_000 });
    assert.equal(await page.locator('.notifications-center .notification-list-item-message', { hasText: 'Broken' }).count(), 0);
    await page.keyboard.press('Escape');
  });
  await page.screenshot({ path: path.join(shotsDir, 'honest-failed-start.png') });


  assert.deepEqual(failures, [], failures.join('\n'));
}

/** The agent button ("Choose agent" or the agent's name) opens the picker; `name` is chosen. */
async function chooseAgent(page, view, name, pick) {
  await view.locator('#agent').click();
  await page.locator('.quick-input-widget').waitFor({ timeout: 20_000 });
  await pick(name);
}

/** Waits until no start is under way (older code: until the initialize timeout gave up). */
async function settle(view, status) {
  await waitFor(async () => !/Downloading|Starting|Waiting for/.test(await status.innerText()), 100_000, 'the start ended');
}

function alive(file) {
  try { process.kill(Number(fs.readFileSync(file, 'utf8').trim()), 0); return true; } catch { return false; }
}

async function waitFor(condition, ms, what) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await condition()) return;
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting: ${what}`);
}

async function waitForText(locator, re, ms) {
  let last = '';
  for (const end = Date.now() + ms; Date.now() < end;) {
    last = await locator.innerText();
    if (re.test(last)) return;
    await new Promise(r => setTimeout(r, 200));
  }
  assert.match(last, re);
}

async function waitForValue(prompt, expected) {
  for (const end = Date.now() + 10_000; Date.now() < end;) {
    if (await prompt.inputValue() === expected) return;
    await new Promise(r => setTimeout(r, 100));
  }
  assert.equal(await prompt.inputValue(), expected, 'the prompt is back in the prompt box');
}
