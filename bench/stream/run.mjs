#!/usr/bin/env node
// bench/stream: 10,000 agent_message_chunk updates from the scripted agent, rendered in the real
// chat webview (VS Code server + Chromium), against a bare SDK client that only receives them.
// Both run side by side in this process's lifetime and their rounds alternate (bare, extension,
// bare, …), so both see the same machine load. A round runs from the prompt (the bare client's
// request; the Enter key's event in the chat's page) to the last chunk (on screen, for the
// extension: a MutationObserver in the webview stamps the moment), after a warm-up
// turn so neither includes the agent's start-up. Prints `ratio stream-10k: <x>`, the ratio of
// medians (target ≤ 1.5), and the webview's JS heap. The answer is looked for in the live turn
// (the last one, always rendered; older turns may be out of the DOM, see webview/transcriptView.ts).
//
// Usage: node bench/stream/run.mjs [--chunks 10000] [--runs 7] [--record] [--profile <dir>]
// --profile: CPU profiles of the extension host and of the webview during each extension round
// (bench/profile.mjs); the first round's heaviest functions are printed.
// --record: the protocol inspector records all the time (switchboard.inspector.recordAlways), to
// measure what recording costs a streamed answer.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as acp from '@agentclientprotocol/sdk';
import { ensureTools, repoRoot } from '../../test/runner/workbench.mjs';
import { warmChat } from '../chatWorkbench.mjs';
import { chatFrame, freePort, hostProfiler, saveProfile, viewProfiler } from '../profile.mjs';

const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' }, runs: { type: 'string', default: '7' }, record: { type: 'boolean', default: false }, profile: { type: 'string' } } });
const CHUNKS = Number(values.chunks);
const RUNS = Number(values.runs);
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-stream-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^go', steps: [{ type: 'chunks', count: CHUNKS }] }] }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tools = ensureTools();
const LAST = String(CHUNKS - 1);

/** The bare client: counts updates, nothing else. Same Node as the extension host. */
async function bareClient() {
  const child = spawn(tools.node24, [agentJs, script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let received = 0;
  let onAll;
  const conn = acp.client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, () => { if (++received === CHUNKS) onAll?.(); })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: tmp, mcpServers: [] });
  await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'warm up' }] });
  return {
    async round() {
      received = 0;
      const all = new Promise(res => (onAll = res));
      const t0 = Date.now();
      await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'go' }] });
      await all;
      return Date.now() - t0;
    },
    close() { conn.close(); child.stdin.end(); child.kill(); },
  };
}

/** The extension: the prompt typed in the chat webview; done when the last chunk is on screen. */
async function extensionClient() {
  const inspectPort = values.profile ? await freePort() : 0;
  const { wb, view, prompt } = await warmChat(tools, script, values.record ? { 'switchboard.inspector.recordAlways': true } : {}, inspectPort);
  const profilers = inspectPort ? { host: await hostProfiler(inspectPort), view: await viewProfiler(wb.page, await chatFrame(wb.page)) } : undefined;
  let turns = 1;
  /** Each round from before playwright presses Enter (its protocol round trip included). */
  const pressed = [];
  const heap = () => view.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  return {
    heap,
    pressed,
    async round() {
      await prompt.fill(`go ${turns}`);
      // In the webview: the wall-clock time at which this turn's answer shows its last chunk.
      const rendered = view.locator('#transcript').evaluate((el, { last, turn }) => new Promise(resolve => {
        const re = new RegExp(`\\b${last}\\s*$`);
        // This turn's answer: in the live turn that starts with the prompt just sent.
        const live = () => [...el.querySelectorAll('.turn.live')].find(t => t.querySelector('.message.user .body')?.textContent === `go ${turn}`);
        const obs = new MutationObserver(() => {
          const msg = live()?.querySelector('.message.agent');
          if (msg && re.test(msg.textContent)) { obs.disconnect(); resolve(Date.now()); }
        });
        obs.observe(el, { childList: true, subtree: true, characterData: true });
      }), { last: LAST, turn: turns });
      if (profilers) await Promise.all([profilers.host.start(), profilers.view.start()]);
      // The Enter as the page gets it (its event's time, this machine's epoch clock): the clock starts
      // there, as the bare client's starts at its request; playwright's own way to the page (its
      // protocol round trip to the browser, ~20 ms here) is reported beside it.
      await prompt.evaluate(el => {
        delete el.dataset.enteredAt;
        el.addEventListener('keydown', e => { if (e.key === 'Enter') el.dataset.enteredAt = String(performance.timeOrigin + e.timeStamp); }, { capture: true, once: true });
      });
      const t0 = Date.now();
      await prompt.press('Enter');
      const at = await rendered;
      const ms = Math.round(at - Number(await prompt.evaluate(el => el.dataset.enteredAt)));
      pressed.push(Math.round(at - t0));
      if (profilers) {
        const [host, webview] = await Promise.all([profilers.host.stop(), profilers.view.stop()]);
        saveProfile(values.profile, `stream-${turns}-host`, host, turns === 1 ? 25 : 0);
        saveProfile(values.profile, `stream-${turns}-webview`, webview, turns === 1 ? 25 : 0);
      }
      const turn = view.locator('.turn.live', { has: view.locator('.message.user .body', { hasText: new RegExp(`^go ${turns}$`) }) });
      await turn.locator('.turn-end').waitFor({ timeout: 60_000 });
      const words = (await turn.locator('.message.agent').textContent()).trim().split(/\s+/).length;
      if (words !== CHUNKS) throw new Error(`rendered ${words} chunks, expected ${CHUNKS}`);
      turns++;
      return ms;
    },
    close: () => wb.close(),
  };
}

const bare = await bareClient();
const ext = await extensionClient();
try {
  const heapBefore = await ext.heap();
  // One round each first, not counted: the first 10,000-chunk turn pays both sides' JIT (the warm-up
  // turn above is a short answer), 1.5–2× the next ones.
  await bare.round();
  await ext.round();
  ext.pressed.length = 0;
  const bareTimes = [];
  const extTimes = [];
  for (let r = 0; r < RUNS; r++) {
    bareTimes.push(await bare.round());
    extTimes.push(await ext.round());
  }
  await new Promise(r => setTimeout(r, 3000)); // let the renderer settle before reading the heap
  const heapAfter = await ext.heap();
  const b = median(bareTimes);
  const e = median(extTimes);
  const mib = n => (n / 1048576).toFixed(1);
  console.log(`bench/stream: ${CHUNKS} chunks, ${RUNS} alternating rounds, medians`);
  console.log(`  bare SDK client (receive only):        ${b} ms   [${bareTimes.join(', ')}]`);
  console.log(`  Switchboard (rendered in the webview): ${e} ms   [${extTimes.join(', ')}]`);
  console.log(`  the same from before playwright's Enter:  ${median(ext.pressed)} ms   [${ext.pressed.join(', ')}] (ratio ${(median(ext.pressed) / b).toFixed(2)})`);
  console.log(`ratio stream-10k: ${(e / b).toFixed(2)}  (target ≤ 1.5; from the Enter in the page)`);
  console.log(`  webview JS heap (used; the renderer's isolate): ${mib(heapBefore)} MiB after the warm-up turn, ${mib(heapAfter)} MiB after ${RUNS} x ${CHUNKS} chunks`);
} finally {
  bare.close();
  await ext.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
