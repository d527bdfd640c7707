#!/usr/bin/env node
// bench/stream: 10,000 agent_message_chunk updates from the scripted agent, rendered in the real
// chat webview (VS Code server + Chromium), against a bare SDK client that only receives them.
// Both sides are measured in this run, from the prompt to the last chunk (on screen, for the
// extension), after a warm-up turn so neither includes the agent's start-up. Prints the ratio
// (target ≤ 1.5×) and the webview's JS heap after the run.
//
// Usage: node bench/stream/run.mjs [--chunks 10000] [--runs 3]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as acp from '@agentclientprotocol/sdk';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' } } });
const CHUNKS = Number(values.chunks);
const RUNS = Number(values.runs);
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-stream-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^go', steps: [{ type: 'chunks', count: CHUNKS }] }] }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tools = ensureTools();

/** The bare client: counts updates, nothing else. Same Node as the extension host. */
async function bare() {
  const child = spawn(tools.node24, [agentJs, script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let received = 0;
  let onAll;
  const conn = acp.client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, () => { if (++received === CHUNKS) onAll?.(); })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: tmp, mcpServers: [] });
  await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'warm up' }] });
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    received = 0;
    const all = new Promise(res => (onAll = res));
    const t0 = performance.now();
    await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    await all;
    times.push(performance.now() - t0);
  }
  conn.close();
  child.stdin.end();
  child.kill();
  return times;
}

/** The extension: type the prompt in the chat webview, wait until the last chunk is rendered. */
async function extension() {
  const wb = await startWorkbench({
    tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
    userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench' },
  });
  try {
    const page = wb.page;
    await waitForWorkbench(page);
    await page.getByRole('tab', { name: /Switchboard/ }).click();
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const prompt = view.locator('#prompt');
    await view.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
    const send = async (text, turn) => {
      await prompt.fill(text);
      await prompt.press('Enter');
      await view.locator('.turn-end').nth(turn).waitFor({ timeout: 120_000 });
    };
    await send('warm up', 0);
    const heapOf = () => view.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
    const heapBefore = await heapOf();
    const times = [];
    const last = `${CHUNKS - 1} `.trim();
    for (let r = 0; r < RUNS; r++) {
      await prompt.fill('go');
      const t0 = performance.now();
      await prompt.press('Enter');
      // Done when the last chunk is on screen, rendered in the answer of this turn.
      await view.locator('.message.agent').nth(r + 1).filter({ hasText: new RegExp(`\\b${last}\\s*$`) }).waitFor({ timeout: 300_000 });
      times.push(performance.now() - t0);
      await view.locator('.turn-end').nth(r + 1).waitFor({ timeout: 60_000 });
    }
    // Let the renderer settle (idle-time GC) before reading the heap.
    await page.waitForTimeout(3000);
    const heap = { before: heapBefore, after: await heapOf() };
    const text = await view.locator('.message.agent').nth(1).textContent();
    if (text.trim().split(/\s+/).length !== CHUNKS) throw new Error(`rendered ${text.trim().split(/\s+/).length} chunks, expected ${CHUNKS}`);
    return { times, heap };
  } finally {
    await wb.close();
  }
}

const baseTimes = await bare();
const ext = await extension();
const b = median(baseTimes);
const e = median(ext.times);
console.log(`bench/stream: ${CHUNKS} chunks, median of ${RUNS} runs`);
console.log(`  bare SDK client (receive only): ${b.toFixed(0)} ms   [${baseTimes.map(t => t.toFixed(0)).join(', ')}]`);
console.log(`  Switchboard (rendered in the webview): ${e.toFixed(0)} ms   [${ext.times.map(t => t.toFixed(0)).join(', ')}]`);
console.log(`  ratio: ${(e / b).toFixed(2)}x (target <= 1.5x)`);
const mib = n => (n / 1048576).toFixed(1);
console.log(`  webview JS heap (used): ${mib(ext.heap.before)} MiB after the warm-up turn, ${mib(ext.heap.after)} MiB after ${RUNS} x ${CHUNKS} chunks`);
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(0);
