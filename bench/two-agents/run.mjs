#!/usr/bin/env node
// bench/two-agents: two agents streaming 10,000 agent_message_chunk updates each into two
// conversations at once, against one agent alone, in the same workbench and the same run (their
// rounds alternate: alone, both, alone, …, so both see the same machine load). The chat is open in
// the side bar and in an editor tab, each showing its own conversation: conversation 2 (agent
// "Bench B") in the editor tab, prompted there, its answer held back by a gate file, then
// conversation 1 (agent "Bench A") in the side bar, and the gate opened as A is prompted, so both
// stream at once, each on screen in its own surface. A round runs from A's prompt to the moment both
// are done: each answer's last chunk on screen (a MutationObserver in each surface's webview stamps
// it). Each round checks that the side bar never showed B's prompt and the editor tab never showed
// A's (with one shown conversation for both surfaces they did). Prints `ratio two-agents: <x>`, the ratio
// of medians (target ≤ 2.2), what it is made of (A's own time with B alongside, the switch from
// one conversation to the other), and the webviews' JS heap (both surfaces live in one renderer
// process here, so they report the same isolate).
//
// Usage: node bench/two-agents/run.mjs [--chunks 10000] [--runs 5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';
import { openChat } from '../../test/e2e/support.mjs';

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } } });
const CHUNKS = Number(values.chunks);
const RUNS = Number(values.runs);
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-two-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^go', steps: [{ type: 'chunks', count: CHUNKS }] }] }));
// B's answer waits for this file: prompted first, it starts streaming at the moment A is prompted.
const gate = path.join(tmp, 'go-b');
const scriptB = path.join(tmp, 'script-b.json');
fs.writeFileSync(scriptB, JSON.stringify({ turns: [{ match: '^go', steps: [{ type: 'waitFile', path: gate }, { type: 'chunks', count: CHUNKS }] }] }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = n => (n / 1048576).toFixed(1);
const tools = ensureTools();
const LAST = String(CHUNKS - 1);
const agent = { command: tools.node24, args: [agentJs, script] };
const agentB = { command: tools.node24, args: [agentJs, scriptB] };

const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
  userSettings: { 'switchboard.agents': { 'Bench A': agent, 'Bench B': agentB }, 'switchboard.defaultAgent': 'Bench A' },
});
const page = wb.page;

/** Runs a command from the command palette. */
async function command(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().click();
}

/** Sends `text` in the surface `view` and waits until the shown turn ended. */
async function warmUp(view, text) {
  await view.locator('#prompt').fill(text);
  await view.locator('#prompt').press('Enter');
  await view.locator('.turn.live', { has: view.locator('.message.user .body', { hasText: text }) }).locator('.turn-end').waitFor({ timeout: 120_000 });
}

try {
  await waitForWorkbench(page);
  const { view: first } = await openChat(page, { patient: true });
  await warmUp(first, 'warm up A');
  // Conversation 2, with agent B: Choose Agent; the first conversation has history, so a new one opens.
  await command('Switchboard: Choose Agent');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Bench B' }).first().click();
  await page.getByRole('button', { name: 'Start a New Conversation' }).click({ timeout: 60_000 });
  await first.locator('#tabs > .tab:nth-child(2).active').waitFor({ timeout: 120_000 });
  fs.writeFileSync(gate, '');
  await warmUp(first, 'warm up B');
  fs.rmSync(gate);
  // The chat in an editor tab too: the webview to the right is the editor's (each known by its frame name).
  await command('Switchboard: Open Chat in Editor');
  const frames = page.locator('iframe.webview.ready');
  for (let i = 0; i < 600 && (await frames.count()) < 2; i++) await page.waitForTimeout(100);
  const named = await Promise.all([0, 1].map(async i => ({ name: await frames.nth(i).getAttribute('name'), x: (await frames.nth(i).boundingBox())?.x ?? 0 })));
  named.sort((a, b) => a.x - b.x);
  const surface = name => page.frameLocator(`iframe.webview.ready[name="${name}"]`).frameLocator('#active-frame');
  const side = surface(named[0].name);
  const editor = surface(named[1].name);
  await editor.locator('body[data-ready="true"]').waitFor({ timeout: 120_000 });
  const heaps = () => Promise.all([side, editor].map(v => v.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0)));

  let n = 0;
  /** In surface `view`: the time at which the answer to `prompt` shows its last chunk. */
  const rendered = (prompt, view = side) => view.locator('#transcript').evaluate((el, { last, prompt }) => new Promise(resolve => {
    const re = new RegExp(`\\b${last}\\s*$`);
    const live = () => [...el.querySelectorAll('.turn.live')].find(t => t.querySelector('.message.user .body')?.textContent === prompt);
    const check = () => { const msg = live()?.querySelector('.message.agent'); return msg && re.test(msg.textContent); };
    if (check()) { resolve(Date.now()); return; }
    const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); resolve(Date.now()); } });
    obs.observe(el, { childList: true, subtree: true, characterData: true });
  }), { last: LAST, prompt });
  const select = async (view, nth) => {
    await view.locator(`#tabs > .tab:nth-child(${nth})`).click();
    await view.locator(`#tabs > .tab:nth-child(${nth}).active`).waitFor({ timeout: 60_000 });
  };

  /** A alone, in conversation 1. */
  async function alone() {
    await select(side, 1);
    const text = `go ${++n}`;
    await side.locator('#prompt').fill(text);
    const done = rendered(text);
    const t0 = Date.now();
    await side.locator('#prompt').press('Enter');
    const ms = (await done) - t0;
    await side.locator('#tabs > .tab:nth-child(1).state-idle').waitFor({ timeout: 120_000 });
    return ms;
  }

  /**
   * B prompted from the editor tab (conversation 2; its answer waits), then A from the side bar
   * (conversation 1), and B let go at that moment: from there until both are done.
   */
  async function both() {
    await select(editor, 2);
    const textB = `go ${++n}`;
    await editor.locator('#prompt').fill(textB);
    const doneB = rendered(textB, editor);
    await editor.locator('#prompt').press('Enter');
    // Sent: its prompt is in conversation 2, shown in the editor tab.
    await editor.locator('.message.user .body', { hasText: new RegExp(`^${textB}$`) }).waitFor({ timeout: 60_000 });
    await select(side, 1);
    const textA = `go ${++n}`;
    await side.locator('#prompt').fill(textA);
    const doneA = rendered(textA);
    const t0 = Date.now();
    fs.writeFileSync(gate, '');
    await side.locator('#prompt').press('Enter');
    const [endA, endB] = await Promise.all([doneA, doneB]);
    const ms = Math.max(endA, endB) - t0;
    await side.locator('#tabs > .tab:nth-child(1).state-idle').waitFor({ timeout: 120_000 });
    await editor.locator('#tabs > .tab:nth-child(2).state-idle').waitFor({ timeout: 120_000 });
    fs.rmSync(gate);
    // Each surface showed its own conversation all along.
    for (const [view, own, other] of [[side, textA, textB], [editor, textB, textA]]) {
      if (await view.locator('.message.user .body', { hasText: new RegExp(`^${other}$`) }).count()) throw new Error(`a surface showed the other conversation's prompt ${other}`);
      if (!(await view.locator('.message.user .body', { hasText: new RegExp(`^${own}$`) }).count())) throw new Error(`a surface lost its own conversation's prompt ${own}`);
    }
    aWithB.push(endA - t0);
    return ms;
  }

  const heapBefore = await heaps();
  const aloneTimes = [];
  /** In each two-agent round: A's time to its last chunk on screen, B alongside. */
  const aWithB = [];
  const bothTimes = [];
  for (let r = 0; r < RUNS; r++) {
    aloneTimes.push(await alone());
    bothTimes.push(await both());
  }
  // B's answers reached its conversation whole, in the editor tab.
  const words = (await editor.locator('.turn.live .message.agent').last().textContent()).trim().split(/\s+/).length;
  if (words !== CHUNKS) throw new Error(`conversation 2 shows ${words} chunks, expected ${CHUNKS}`);
  await page.waitForTimeout(3000); // let the renderers settle before reading the heaps
  const heapAfter = await heaps();
  const a = median(aloneTimes);
  const b = median(bothTimes);
  console.log(`bench/two-agents: ${CHUNKS} chunks per agent, ${RUNS} alternating rounds, medians`);
  console.log(`  one agent alone (A, shown):               ${a} ms   [${aloneTimes.join(', ')}]`);
  console.log(`  two agents at once (A in the side bar, B in the editor tab, both on screen): ${b} ms   [${bothTimes.join(', ')}]`);
  console.log(`    of which A to its last chunk on screen: ${median(aWithB)} ms [${aWithB.join(', ')}]`);
  console.log(`ratio two-agents: ${(b / a).toFixed(2)}  (target ≤ 2.2)`);
  console.log(`  webview JS heap (used), side bar / editor tab: ${heapBefore.map(mib).join(' / ')} MiB after the warm-up turns, ${heapAfter.map(mib).join(' / ')} MiB after ${RUNS} rounds of each`);
} catch (err) {
  await page.screenshot({ path: path.join(os.tmpdir(), 'two-agents-failure.png') }).catch(() => undefined);
  throw err;
} finally {
  await wb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
