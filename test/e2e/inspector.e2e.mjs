// The protocol inspector (issue 21 point 3) with 100,000 messages: a real scripted-agent exchange
// (initialize, session/new, session/prompt and its answer) with 100,000 extension notifications in
// its turn. The timeline keeps only the rows in view in the DOM and scrolls; the filters by method
// and by text find the exchange and one notification; a row expands to its JSON; the export writes
// every message as JSON Lines.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, quickOpen, scriptedAgentSettings } from './support.mjs';

const COUNT = 100_000;

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{ match: '^flood', steps: [{ type: 'notifications', count: COUNT }, { type: 'text', text: 'flooded' }] }],
});

export const timeout = 300;

/** The frame (webview page) that has `selector`: the chat and the inspector are both webviews. */
async function frameWith(page, selector, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) if (await f.$(selector).catch(() => null)) return f;
    if (Date.now() > end) throw new Error(`no webview with ${selector}`);
    await page.waitForTimeout(100);
  }
}

const countOf = async inspector => Number((await inspector.locator('#count').textContent()).replace(/[^\d]+of.*$/, '').replace(/\D/g, ''));

export default async function ({ page, log, shotsDir, workspace }) {
  await openChat(page);
  // Recording runs while an inspector is open: open it first, from the command palette.
  await page.locator('.part.editor').click();
  await (await quickOpen(page, 'F1')).fill('>Switchboard: Open Protocol Inspector');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open Protocol Inspector' }).first().click();
  const inspector = await frameWith(page, '#scroller');
  const chat = await frameWith(page, '#prompt');

  const t0 = Date.now();
  await chat.locator('#prompt').fill('flood');
  await chat.locator('#prompt').press('Enter');
  await chat.locator('.turn.live .turn-end').waitFor({ timeout: 180_000 });
  // Everything recorded reaches the view (batches of 100 ms): the exchange's last message, the answer.
  await inspector.locator('#count').filter({ hasText: /^\d[\d,.\s]* messages$/ }).waitFor({ timeout: 30_000 });
  let total = 0;
  for (const end = Date.now() + 60_000; total < COUNT + 5 && Date.now() < end;) { total = await countOf(inspector); if (total < COUNT + 5) await page.waitForTimeout(200); }
  log(`${total} messages recorded in ${Date.now() - t0} ms`);
  assert.ok(total >= COUNT + 5, `the turn's ${COUNT} notifications and the exchange around them: ${total}`);

  // Only the rows in view are in the DOM, wherever the timeline is scrolled.
  const scroller = inspector.locator('#scroller');
  const domRows = () => inspector.locator('#rows > .row').count();
  assert.ok(await domRows() < 200, `rows in the DOM at the end: ${await domRows()}`);
  const scrollStart = Date.now();
  // The top, the end and a quarter (the middle is checked below): each draws its own rows.
  for (const fraction of [0, 1, 0.25]) {
    await scroller.evaluate((el, f) => { el.scrollTop = (el.scrollHeight - el.clientHeight) * f; }, fraction);
    await inspector.locator('#rows > .row').first().waitFor();
    await page.waitForFunction(() => true); // one task: the next frame renders the rows
  }
  const middle = await scroller.evaluate(el => { el.scrollTop = (el.scrollHeight - el.clientHeight) / 2; return el.scrollHeight; });
  await inspector.locator('#rows > .row .c-method', { hasText: '_scripted/tick' }).first().waitFor();
  assert.ok(middle > COUNT * 20, `the list is as tall as 100,000 rows: ${middle} px`);
  assert.ok(await domRows() < 200, `rows in the DOM in the middle: ${await domRows()}`);
  log(`scrolled through in ${Date.now() - scrollStart} ms, ${await domRows()} rows in the DOM`);

  // Filter by method: the prompt and its answer, paired (latency shown).
  await inspector.locator('#method').selectOption('session/prompt');
  await inspector.locator('#count').filter({ hasText: /^2 of / }).waitFor({ timeout: 30_000 });
  const answer = inspector.locator('#rows > .row', { hasText: 'session/prompt (response)' });
  await answer.locator('.c-lat', { hasText: / ms$/ }).waitFor();
  log('method filter: the prompt and its response');

  // Filter by text: one notification of the 100,000.
  await inspector.locator('#method').selectOption('');
  await inspector.locator('#text').fill('"n":99999}');
  await inspector.locator('#count').filter({ hasText: /^1 of / }).waitFor({ timeout: 30_000 });
  await inspector.locator('#rows > .row').first().click();
  await inspector.locator('#json', { hasText: '"n": 99999' }).waitFor({ timeout: 10_000 });
  assert.match(await inspector.locator('#json').textContent(), /"method": "_scripted\/tick"/);
  await page.screenshot({ path: path.join(shotsDir, 'inspector-100k.png') });
  log('text filter: one notification, expanded');

  // Export: every message as JSON Lines, through the save dialog.
  const file = path.join(workspace, 'switchboard-protocol.jsonl');
  await inspector.locator('#export').click();
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 30_000 });
  // The save dialog opens on the default file in the workspace: accept it once it shows that path.
  // (Filling the input while the dialog still populated it gave "…protocol.jsonl.json" in a folder
  // it then offered to create, and nothing was written: a full run at load 12.)
  await page.waitForFunction(name => document.querySelector('.quick-input-widget input')?.value.endsWith(name), path.basename(file), { timeout: 30_000 });
  await input.press('Enter');
  // The file is written in one piece: wait until its size stops changing (a stat per poll, not a
  // read of megabytes), then read it once (again if it is still short).
  let lines = [];
  for (let end = Date.now() + 60_000, last = -1; lines.length < total && Date.now() < end;) {
    await page.waitForTimeout(200);
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size === 0 || size !== last) { last = size; continue; }
    lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  }
  assert.equal(lines.length, total, 'every message recorded is exported, one line each');
  const records = [lines[0], lines.at(-1)].map(l => JSON.parse(l));
  assert.equal(records[0].direction, 'out');
  assert.equal(records[0].message.method, 'initialize');
  assert.ok(lines.some(l => l.includes('"method":"session/prompt"')), 'the prompt is in the export');
  log(`exported ${lines.length} lines`);
}
