#!/usr/bin/env node
// bench/long-turn: turns as long tasks produce them, shown in the real chat webview (VS Code server
// + Chromium) against a bare SDK client that receives the same updates (the scripted agent's
// `burst` step, test/fixtures/agent/burst.mjs), rounds alternating (bare, extension, …) so both see
// the same load. A round runs from the prompt to the turn's end (on screen, for the extension: a
// MutationObserver in the webview stamps the moment its end mark appears in the live turn).
//  - `tools`: 5,000 tool calls (announced, then completed with output and a location) and 10,000
//    chunks of text: prints `ratio tool-calls-5k` (target ≤ 1.3) and `ratio long-turn-frame`, the
//    longest frame of the webview while the turn streams (a requestAnimationFrame loop) / 50 ms
//    (target ≤ 1);
//  - `varied`: 20,000 updates mixing tool cards (some updated late), odd unicode, messageId
//    switches and 4–64 KB strings: prints `ratio burst` (target ≤ 1.5).
// Each case first runs a warm-up round on both sides (--warmup, not counted: printed apart).
// Each case also prints the webview's DOM element count and JS heap, and the extension host's
// resident memory (from /proc: the workbench server's child run with --type=extensionHost), and the CPU
// time each side's processes used per round, by role (agent, extension host, Chromium's renderer…).
//
// `--profile <dir>` also takes a CPU profile of the extension host and of the webview during each
// extension round (bench/profile.mjs) and prints the heaviest functions of each case's first round.
// `--trace <dir>` writes a Chromium trace (open it in DevTools' Performance panel) of each case's
// first round, and of 1.5 s after it, and prints the most main-thread CPU time one frame held. `--messages` prints how many messages the view received per
// round, and how many transcript operations they held.
//
// Usage: node bench/long-turn/run.mjs [--runs 3] [--warmup 1] [--calls 5000] [--updates 20000] [--cases tools,varied] [--profile dir] [--trace dir] [--messages]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as acp from '@agentclientprotocol/sdk';
import { ensureTools, repoRoot } from '../../test/runner/workbench.mjs';
import { cpuByRole, cpuSpent, extHostRss, warmChat } from '../chatWorkbench.mjs';
import { chatFrame, freePort, hostProfiler, saveProfile, viewProfiler } from '../profile.mjs';

const { values } = parseArgs({ options: {
  runs: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' }, calls: { type: 'string', default: '5000' }, updates: { type: 'string', default: '20000' },
  cases: { type: 'string', default: 'tools,varied' }, profile: { type: 'string' }, messages: { type: 'boolean' }, trace: { type: 'string' },
} });
const RUNS = Number(values.runs);
/** Rounds of each case run first and not counted (both sides' code still being compiled): printed apart. */
const WARMUP = Number(values.warmup);
const CASES = {
  tools: { step: { type: 'burst', kind: 'tools', count: Number(values.calls) }, updates: 4 * Number(values.calls) },
  varied: { step: { type: 'burst', kind: 'varied', count: Number(values.updates) }, updates: 0 },
};
const cases = values.cases.split(',').filter(c => CASES[c]);
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-longturn-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: cases.map(name => ({ match: `^${name}`, steps: [CASES[name].step] })) }));
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = n => (n / 1048576).toFixed(1);
const tools = ensureTools();

/** The bare client: receives the updates, nothing else; a round ends with the prompt's answer. */
async function bareClient() {
  const child = spawn(tools.node24, [agentJs, script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let received = 0;
  const conn = acp.client({ name: 'bench' })
    .onNotification(acp.methods.client.session.update, () => { received++; })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: tmp, mcpServers: [] });
  await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'warm up' }] });
  return {
    async round(name) {
      received = 0;
      const t0 = Date.now();
      await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: name }] });
      return { ms: Date.now() - t0, received };
    },
    close() { conn.close(); child.stdin.end(); child.kill(); },
  };
}

/** The extension: the prompt typed in the chat webview; done when the turn's end is on screen. */
async function extensionClient() {
  const inspectPort = values.profile ? await freePort() : 0;
  const { wb, view, prompt } = await warmChat(tools, script, {}, inspectPort);
  const profilers = inspectPort ? { host: await hostProfiler(inspectPort), view: await viewProfiler(wb.page, await chatFrame(wb.page)) } : undefined;
  let turns = 1;
  const inView = () => view.locator('body').evaluate(() => ({ dom: document.getElementsByTagName('*').length, heap: performance.memory?.usedJSHeapSize ?? 0 }));
  return {
    inView,
    hostRss: () => extHostRss(wb.serverPid),
    async round(name, r) {
      const text = `${name} ${turns}`;
      await prompt.fill(text);
      // In the webview: when this turn's end shows, and the longest frame until then.
      // Installed before the prompt is sent (else the new turn could already be the live one).
      await view.locator('#transcript').evaluate((el, countBytes) => { window.sbTurnDone = new Promise(resolve => {
        // The host's messages to the view while the turn streams: how many, how many operations each
        // (and with --messages their size as JSON, which costs the page the time to measure it).
        const messages = { count: 0, ops: 0, most: 0, first: 0, last: 0, bytes: 0 };
        const onMessage = e => {
          // Transcript operations come as UTF-8 JSON bytes (`packed`, decision 0032): decoded here only
          // with --messages (it costs the page a second parse).
          const packed = e.data?.type === 'packed';
          const data = packed && countBytes ? JSON.parse(new TextDecoder().decode(e.data.json)) : e.data;
          if (packed ? countBytes && data.type !== 'transcript/ops' : data?.type !== 'transcript/ops') return;
          const ops = packed && !countBytes ? 0 : data.ops.length;
          messages.count++; messages.ops += ops; messages.most = Math.max(messages.most, ops);
          if (countBytes) messages.bytes += packed ? e.data.json.length : JSON.stringify(e.data).length;
          messages.last = Date.now(); messages.first ||= messages.last;
        };
        window.addEventListener('message', onMessage);
        let last = performance.now();
        let longest = 0;
        let running = true;
        const tick = () => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; if (running) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
        // This turn: the live one once it is no longer the turn live now (its prompt may have left
        // the DOM by the end: a long turn keeps only the items in view).
        const before = el.querySelector('.turn.live');
        const mine = () => { const live = el.querySelector('.turn.live'); return live !== before ? live : undefined; };
        const obs = new MutationObserver(() => {
          if (!mine()?.querySelector('.turn-end')) return;
          obs.disconnect();
          running = false;
          window.removeEventListener('message', onMessage);
          resolve({ at: Date.now(), longest: Math.round(longest), messages });
        });
        obs.observe(el, { childList: true, subtree: true });
      }); }, !!values.messages);
      const done = view.locator('#transcript').evaluate(() => window.sbTurnDone);
      if (profilers) await Promise.all([profilers.host.start(), profilers.view.start()]);
      const tracing = values.trace && r === 0 ? wb.page.context().browser() : undefined;
      if (tracing) await tracing.startTracing(wb.page, { path: path.join(values.trace, `${name}.json`), categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel'] });
      const t0 = Date.now();
      await prompt.press('Enter');
      // A turn whose end never shows would wait forever: say what the view shows meanwhile.
      const stuck = setTimeout(() => view.locator('#transcript').evaluate(el => JSON.stringify({
        items: el.querySelectorAll('.turn.live [data-item-index]').length, scroll: [el.scrollTop, el.scrollHeight, el.clientHeight],
      })).then(state => console.log(`  ${name} round ${r}: no end on screen after 60 s (${state})`), () => {}), 60_000);
      const { at, longest, messages } = await done;
      clearTimeout(stuck);
      if (tracing) {
        await tracing.stopTracing();
        console.log(`  ${name} round ${r}: ${frameCpu(path.join(values.trace, `${name}.json`))}`);
        // And a moment after the turn: the chat does nothing once it has shown everything.
        await new Promise(res => setTimeout(res, 1000));
        await tracing.startTracing(wb.page, { path: path.join(values.trace, `${name}-idle.json`), categories: ['devtools.timeline', 'toplevel'] });
        await new Promise(res => setTimeout(res, 1500));
        await tracing.stopTracing();
      }
      if (values.messages) console.log(`  ${name} round ${r}: the view received ${messages.count} messages of ${messages.ops} operations (at most ${messages.most} in one; ${(messages.bytes / 1048576).toFixed(1)} MiB as JSON), the first ${messages.first - t0} ms after the prompt, the last ${messages.last - t0} ms; the turn's end on screen ${at - t0} ms`);
      turns++;
      if (profilers) {
        const [host, webview] = await Promise.all([profilers.host.stop(), profilers.view.stop()]);
        saveProfile(values.profile, `${name}-${r}-host`, host, r === 0 ? 25 : 0);
        saveProfile(values.profile, `${name}-${r}-webview`, webview, r === 0 ? 25 : 0);
      }
      return { ms: at - t0, longest };
    },
    close: () => wb.close(),
  };
}

/**
 * The chat's frames in a trace (between two ticks of the round's requestAnimationFrame loop): the
 * longest in wall time, and the most main-thread CPU time one held (its tasks' thread time). On a
 * loaded machine the two differ by the time the renderer waited for a CPU.
 */
function frameCpu(file) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  const names = new Map(events.filter(e => e.ph === 'M' && e.name === 'thread_name').map(e => [`${e.pid}:${e.tid}`, e.args.name]));
  const main = events.filter(e => e.ph === 'X' && names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain').sort((a, b) => a.ts - b.ts);
  const ticks = main.filter(e => e.name === 'FunctionCall' && e.args?.data?.functionName === 'tick');
  const tasks = main.filter(e => e.name === 'ThreadControllerImpl::RunTask');
  let wall = 0, cpu = 0, k = 0;
  for (let i = 1; i < ticks.length; i++) {
    const [a, b] = [ticks[i - 1].ts, ticks[i].ts];
    let used = 0;
    while (k < tasks.length && tasks[k].ts + tasks[k].dur < a) k++;
    for (let j = k; j < tasks.length && tasks[j].ts < b; j++) {
      const t = tasks[j];
      used += (t.tdur ?? t.dur) * Math.max(0, Math.min(b, t.ts + t.dur) - Math.max(a, t.ts)) / (t.dur || 1);
    }
    wall = Math.max(wall, b - a);
    cpu = Math.max(cpu, used);
  }
  return `${ticks.length - 1} frames in the trace: the longest ${Math.round(wall / 1000)} ms; at most ${Math.round(cpu / 1000)} ms of main-thread CPU in one`;
}

const bare = await bareClient();
const ext = await extensionClient();
const lines = [];
try {
  console.log(`bench/long-turn: ${RUNS} alternating rounds per case, medians (load ${os.loadavg().map(x => x.toFixed(1)).join(' ')})`);
  const start = { ...(await ext.inView()), rss: ext.hostRss() };
  console.log(`  at the start: webview ${start.dom} DOM elements, ${mib(start.heap)} MiB JS heap; extension host RSS ${mib(start.rss)} MiB`);
  for (const name of cases) {
    const b = [];
    const e = [];
    const frames = [];
    let received = 0;
    const cpu = { bare: [], ext: [] };
    for (let w = 0; w < WARMUP; w++) {
      const br = await bare.round(name);
      const er = await ext.round(name, -1 - w);
      console.log(`  ${name}: warm-up round ${w + 1} (not counted): bare SDK client ${br.ms} ms, Switchboard ${er.ms} ms`);
    }
    for (let r = 0; r < RUNS; r++) {
      let before = cpuByRole();
      const br = await bare.round(name);
      cpu.bare.push(cpuSpent(before, cpuByRole()));
      b.push(br.ms);
      received = br.received;
      before = cpuByRole();
      const er = await ext.round(name, r);
      cpu.ext.push(cpuSpent(before, cpuByRole()));
      e.push(er.ms);
      frames.push(er.longest);
    }
    await new Promise(r => setTimeout(r, 3000)); // let the renderer settle before reading the heap
    const after = { ...(await ext.inView()), rss: ext.hostRss() };
    const ratio = median(e) / median(b);
    console.log(`  ${name}: ${received} updates per turn`);
    console.log(`    bare SDK client (receive only):        ${median(b)} ms   [${b.join(', ')}]`);
    console.log(`    Switchboard (turn end on screen):      ${median(e)} ms   [${e.join(', ')}]`);
    console.log(`    longest webview frame while streaming: ${median(frames)} ms   [${frames.join(', ')}]`);
    // CPU time each side's processes used in a round (medians by role): what the wall-clock ratio
    // costs on a machine of few cores, whatever else loads it.
    const used = (rounds, roles) => roles.map(k => `${k} ${median(rounds.map(x => x[k]))}`).join(', ');
        console.log(`    CPU per round (ms): bare: ${used(cpu.bare, ['bareAgent', 'bench'])}; Switchboard: ${used(cpu.ext, ['agent', 'host', 'renderer', 'browser', 'server', 'bench'])}`);
    console.log(`    after ${RUNS + WARMUP} such turns: webview ${after.dom} DOM elements, ${mib(after.heap)} MiB JS heap; extension host RSS ${mib(after.rss)} MiB (${after.rss >= start.rss ? '+' : ''}${mib(after.rss - start.rss)} MiB since the start)`);
    if (name === 'tools') {
      lines.push(`ratio tool-calls-5k: ${ratio.toFixed(2)}  (target ≤ 1.3; DOM ${after.dom} elements, heap ${mib(after.heap)} MiB, host RSS ${mib(after.rss)} MiB)`);
      lines.push(`ratio long-turn-frame: ${(median(frames) / 50).toFixed(2)}  (target ≤ 1; longest frame ${median(frames)} ms / 50 ms)`);
    } else {
      lines.push(`ratio burst: ${ratio.toFixed(2)}  (target ≤ 1.5; DOM ${after.dom} elements, heap ${mib(after.heap)} MiB, host RSS ${mib(after.rss)} MiB)`);
    }
  }
  for (const line of lines) console.log(line);
} finally {
  bare.close();
  await ext.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
