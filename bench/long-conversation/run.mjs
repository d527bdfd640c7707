#!/usr/bin/env node
// bench/long-conversation: does a 10,000-chunk answer cost the chat UI more late in a long
// conversation than early? One conversation of 40 turns, each a 10,000-chunk answer from the
// scripted agent, rendered in the real chat webview (VS Code server + Chromium). The time of a turn
// runs from the prompt's Enter to the moment its answer shows its last chunk (stamped in the
// webview by a MutationObserver). The baseline is turn 1 of a fresh conversation; the case is
// turn 40 of the same conversation. The answers are markdown (paragraphs, code blocks), so a turn adds what a real one adds
// to the DOM. Rounds (a new conversation each) give the 1st and 12th turns side by side, so both
// see the same machine load; the ratio is the median of turn 12 over the median of turn 1.
// After turn 40 it also reads what the webview holds (its DOM element count and JS heap) and the
// extension host's resident memory (the host keeps 20 turns at most, the others on disk).
//
// Prints `ratio long-conversation: <x>` (target ≤ 1.2).
// Usage: node bench/long-conversation/run.mjs [--chunks 10000] [--turns 40] [--rounds 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';
import { openChat } from '../../test/e2e/support.mjs';
import { extHostRss } from '../chatWorkbench.mjs';

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' }, turns: { type: 'string', default: '40' }, rounds: { type: 'string', default: '3' } } });
const CHUNKS = Number(values.chunks);
const TURNS = Number(values.turns);
const ROUNDS = Number(values.rounds);
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-longconv-'));
const script = path.join(tmp, 'script.json');
// Answers shaped like real ones: a paragraph every 25 chunks, a code block every 200 (a 10k-chunk
// answer is about 400 paragraphs and 50 code blocks); the last chunk ends with its number.
const texts = Array.from({ length: 200 }, (_, i) => (i === 100 ? '\n\n```js\nconst x{{n}} = {{n}};\n```\n\n{{n}} ' : i % 25 === 24 ? '{{n}}\n\n' : '{{n}} '));
fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^go', steps: [{ type: 'chunks', count: CHUNKS, texts }] }] }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = n => (n / 1048576).toFixed(1);
const tools = ensureTools();

const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
  userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench' },
});

/**
 * In the webview: resolves with the wall-clock time at which the answer that follows the user
 * message `prompt` shows its last chunk, and then with the time its turn ended. Only the live turn
 * is looked at (it is always rendered, however the older turns are shown).
 */
function watchTurn(view, prompt) {
  return view.locator('#transcript').evaluate((el, { prompt, last }) => new Promise(resolve => {
    const re = new RegExp(`\\b${last}\\s*$`);
    let shown = 0;
    const check = () => {
      const user = [...el.querySelectorAll('.message.user')].reverse().find(u => u.querySelector('.body')?.textContent === prompt);
      if (!user) return;
      const after = n => user.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (!shown) {
        const answer = [...el.querySelectorAll('.message.agent')].find(after);
        if (answer && re.test(answer.textContent)) shown = Date.now();
      }
      if (shown && [...el.querySelectorAll('.turn-end')].some(after)) { obs.disconnect(); resolve(shown); }
    };
    const obs = new MutationObserver(check);
    obs.observe(el, { childList: true, subtree: true, characterData: true });
  }), { prompt, last: String(CHUNKS - 1) });
}

try {
  const page = wb.page;
  await waitForWorkbench(page);
  const { view, prompt } = await openChat(page, { patient: true });
  const send = async text => { await prompt.fill(text); await prompt.press('Enter'); };
  const first = [];
  const last = [];
  const all = [];
  let dom = 0;
  let heap = 0;
  let rss = 0;
  // Warm-up: the agent starts, and one 10k-chunk answer is rendered (JIT, caches) in a conversation
  // of its own, so that turn 1 of the first round is not the first answer the view ever renders.
  await prompt.fill('go warm');
  const warm = watchTurn(view, 'go warm');
  await prompt.press('Enter');
  await warm;
  await view.locator('#send:not([disabled])').waitFor({ timeout: 60_000 });
  for (let round = 0; round < ROUNDS; round++) {
    await view.getByRole('button', { name: 'New conversation' }).click();
    await view.locator('#transcript .message').first().waitFor({ state: 'detached', timeout: 30_000 });
    // The session opens on the first prompt: not part of any timed turn.
    await send('warm up');
    await view.locator('.message.agent', { hasText: 'echo: warm up' }).waitFor({ timeout: 120_000 });
    await view.locator('#send:not([disabled])').waitFor({ timeout: 60_000 });
    const times = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const text = `go ${round}.${turn}`;
      await prompt.fill(text);
      const shown = watchTurn(view, text);
      const t0 = Date.now();
      await prompt.press('Enter');
      times.push((await shown) - t0);
      await view.locator('#send:not([disabled])').waitFor({ timeout: 60_000 });
    }
    first.push(times[0]);
    last.push(times[TURNS - 1]);
    all.push(times);
    await new Promise(r => setTimeout(r, 3000)); // let the renderer settle before reading the heap
    dom = await view.locator('body').evaluate(() => document.getElementsByTagName('*').length);
    heap = await view.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
    rss = extHostRss(wb.serverPid);
    console.log(`  round ${round + 1}: turns 1..${TURNS} ${times.join(', ')} ms; after turn ${TURNS}: ${dom} DOM elements, ${mib(heap)} MiB JS heap, extension host RSS ${mib(rss)} MiB`);
  }
  const a = median(first);
  const b = median(last);
  console.log(`bench/long-conversation: ${TURNS} turns of ${CHUNKS} chunks in one conversation, ${ROUNDS} rounds, medians`);
  console.log(`  turn 1:  ${a} ms   [${first.join(', ')}]`);
  console.log(`  turn ${TURNS}: ${b} ms   [${last.join(', ')}]`);
  console.log(`  webview after turn ${TURNS} (last round): ${dom} DOM elements, ${mib(heap)} MiB JS heap (used); extension host RSS ${mib(rss)} MiB`);
  console.log(`ratio long-conversation: ${(b / a).toFixed(2)}  (target ≤ 1.2; turn ${TURNS} against turn 1 of a fresh conversation; DOM ${dom} elements, heap ${mib(heap)} MiB, host RSS ${mib(rss)} MiB)`);
} finally {
  await wb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
