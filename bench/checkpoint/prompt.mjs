#!/usr/bin/env node
// bench/checkpoint/prompt.mjs: what the checkpoint before each prompt costs the prompt, as the user
// and the agent see it. The time runs from the user's Enter in the chat (stamped here just before
// playwright presses it) to the scripted agent receiving `session/prompt` (stamped by the agent in
// its log, `at`; both are this machine's epoch clock in ms). Three workbenches run side by side on
// the same workspace, their rounds interleaved in rotating order so each sees the same load:
//   off     switchboard.checkpoints.enabled false: what a bare ACP client does (sends at once)
//   direct  checkpoints on, git forked from the extension host (SWITCHBOARD_CHECKPOINTS_GIT=direct: as before)
//   helper  checkpoints on, git started by the helper process (gitRunner.ts: what runs now)
// on the fixture workspace, then on a 10,000-file workspace (BENCH_FILES). Between rounds it waits
// as a user reading the answer would (1.5 s), so the previous turn's own checkpoint has ended.
//
//   node bench/checkpoint/prompt.mjs [--rounds 9] [--files 10000]
//
// Prints each workspace's medians and `ratio checkpoint-prompt: <helper − off> / <direct − off>`
// (what the checkpoint adds to the prompt now, against before), with the extension host's memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';
import { openChat } from '../../test/e2e/support.mjs';
import { extHostRss } from '../chatWorkbench.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '9' }, files: { type: 'string', default: '10000' } } });
const ROUNDS = Number(values.rounds);
const FILES = Number(values.files);
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = x => x.toFixed(1);
const load = () => os.loadavg().map(x => x.toFixed(1)).join(' ');
const now = () => performance.timeOrigin + performance.now();
const tools = ensureTools();
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-cp-prompt-'));
const MODES = {
  off: { settings: { 'switchboard.checkpoints.enabled': false } },
  direct: { env: { SWITCHBOARD_CHECKPOINTS_GIT: 'direct' } },
  helper: {},
};

/** The agent's log: `session/prompt` arrivals by their text. */
function arrivals(logFile) {
  const out = new Map();
  const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.event === 'prompt') out.set(e.params.prompt.map(b => b.text ?? '').join(''), e.at);
  }
  return out;
}

async function measure(name, workspace) {
  const wbs = {};
  try {
    for (const [mode, { settings = {}, env = {} }] of Object.entries(MODES)) {
      const log = path.join(tmp, `${name}-${mode}.jsonl`);
      const script = path.join(tmp, `${name}-${mode}.json`);
      fs.writeFileSync(script, JSON.stringify({ log, turns: [] }));
      const wb = await startWorkbench({
        tools, extensionDevelopmentPath: repoRoot, workspace, env,
        userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench', ...settings },
      });
      wbs[mode] = { wb, log };
      await waitForWorkbench(wb.page);
      Object.assign(wbs[mode], await openChat(wb.page, { patient: true }));
    }
    // The agent starts, the session opens, the first (cold) checkpoint is taken: not timed.
    for (const w of Object.values(wbs)) {
      await w.prompt.fill('warm up');
      await w.prompt.press('Enter');
      await w.view.locator('.message.agent', { hasText: 'echo: warm up' }).waitFor({ timeout: 300_000 });
    }
    const times = Object.fromEntries(Object.keys(MODES).map(m => [m, []]));
    const order = Object.keys(MODES);
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < order.length; k++) {
        const mode = order[(r + k) % order.length];
        const w = wbs[mode];
        const text = `round ${r}`;
        await w.view.locator('#send:not([disabled])').waitFor({ timeout: 60_000 });
        await new Promise(res => setTimeout(res, 1500)); // the user reads the answer
        await w.prompt.fill(text);
        const t0 = now();
        await w.prompt.press('Enter');
        await w.view.locator('.message.agent', { hasText: `echo: ${text}` }).waitFor({ timeout: 120_000 });
        const at = arrivals(w.log).get(text);
        if (at === undefined) throw new Error(`${name}/${mode}: the agent logged no prompt "${text}"`);
        times[mode].push(at - t0);
      }
    }
    const m = Object.fromEntries(order.map(k => [k, median(times[k])]));
    const rss = Object.fromEntries(order.map(k => [k, extHostRss(wbs[k].wb.serverPid) / 1048576]));
    console.log(`[checkpoint-prompt] ${name}: Enter → session/prompt, median of ${ROUNDS}: off ${ms(m.off)} ms, checkpoint direct ${ms(m.direct)} ms, helper ${ms(m.helper)} ms ` +
      `(each: ${order.map(k => `${k} [${times[k].map(ms).join(', ')}]`).join('; ')}); extension host RSS ${order.map(k => `${k} ${rss[k].toFixed(0)}`).join(', ')} MiB; load ${load()}`);
    return m;
  } finally {
    for (const w of Object.values(wbs)) await w.wb.close().catch(() => undefined);
  }
}

try {
  console.log(`[checkpoint-prompt] load before ${load()}`);
  const fixture = await measure('fixture workspace', path.join(repoRoot, 'test/fixtures/workspace'));
  const big = path.join(tmp, 'ws');
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(big, `src${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `file${i % 100}.ts`), `// file ${i}\nexport const value${i} = ${i};\n`.repeat(1 + (i % 20)));
  }
  const large = await measure(`${FILES} files`, big);
  const added = m => `${ms(m.helper - m.off)} ms (was ${ms(m.direct - m.off)} ms)`;
  console.log(`[checkpoint-prompt] what the checkpoint adds to the prompt: fixture workspace ${added(fixture)}, ${FILES} files ${added(large)}`);
  console.log(`ratio checkpoint-prompt: ${((large.helper - large.off) / Math.max(1, large.direct - large.off)).toFixed(2)} (${FILES} files; fixture workspace ${((fixture.helper - fixture.off) / Math.max(1, fixture.direct - fixture.off)).toFixed(2)}; helper over off: ${(large.helper / large.off).toFixed(2)}, direct over off: ${(large.direct / large.off).toFixed(2)})`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
