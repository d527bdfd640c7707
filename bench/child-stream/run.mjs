#!/usr/bin/env node
// bench/child-stream: does an answer streamed by child agents (ACP `subagents`) cost the chat more
// than the same answer streamed by the agent itself? One conversation in the real chat webview
// (VS Code server + Chromium) with the scripted agent; rounds alternate two turns of 10,000
// agent_message_chunk updates in total: the parent alone (baseline), and two child sessions in
// parallel, 5,000 each, announced with subagent_update and closed with their idle state (case). A
// turn runs from the prompt's Enter to its end on screen (stamped in the webview by a
// MutationObserver); both see the same machine load. Prints `ratio child-stream: <x>`, the ratio of
// medians (target ≤ 1.3).
//
// Usage: node bench/child-stream/run.mjs [--chunks 10000] [--runs 5]
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
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-child-stream-'));
const script = path.join(tmp, 'script.json');
const half = Math.floor(CHUNKS / 2);
const child = (id, count) => ({ type: 'child', child: id, title: `Helper ${id}`, description: 'Stream', steps: [{ type: 'chunks', count }] });
fs.writeFileSync(script, JSON.stringify({ turns: [
  { match: '^parent', steps: [{ type: 'chunks', count: CHUNKS }] },
  // Child ids are reused across rounds, as an agent may reuse a child for later work.
  { match: '^children', steps: [{ type: 'parallel', branches: [[child('a', half)], [child('b', CHUNKS - half)]] }] },
] }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tools = ensureTools();

const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
  userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench' },
});
try {
  await waitForWorkbench(wb.page);
  const { view, prompt } = await openChat(wb.page, { patient: true });
  let n = 0;
  /** One turn: from Enter to its turn end on screen. */
  const turn = async kind => {
    const text = `${kind} ${n++}`;
    await prompt.fill(text);
    const ended = view.locator('#transcript').evaluate((el, sent) => new Promise(resolve => {
      const done = () => [...el.querySelectorAll('.turn.live')].some(t => t.querySelector('.message.user .body')?.textContent === sent && t.querySelector('.turn-end'));
      const obs = new MutationObserver(() => { if (done()) { obs.disconnect(); resolve(Date.now()); } });
      obs.observe(el, { childList: true, subtree: true });
    }), text);
    const t0 = Date.now();
    await prompt.press('Enter');
    return (await ended) - t0;
  };
  await turn('parent'); // warm-up: the agent's start, the renderer's load
  await turn('children');
  const parentTimes = [];
  const childTimes = [];
  for (let r = 0; r < RUNS; r++) {
    parentTimes.push(await turn('parent'));
    childTimes.push(await turn('children'));
  }
  const p = median(parentTimes);
  const c = median(childTimes);
  console.log(`bench/child-stream: ${CHUNKS} chunks per turn, ${RUNS} alternating rounds, medians`);
  console.log(`  in the parent alone:            ${p} ms   [${parentTimes.join(', ')}]`);
  console.log(`  in two child sessions (${half} each): ${c} ms   [${childTimes.join(', ')}]`);
  console.log(`ratio child-stream: ${(c / p).toFixed(2)}  (target ≤ 1.3)`);
} finally {
  await wb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
