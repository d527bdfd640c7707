#!/usr/bin/env node
// bench/inspector: the protocol inspector's memory after 100,000 messages. The scripted agent sends
// 100,000 extension notifications in a turn (a real exchange around them: initialize, session/new,
// session/prompt), once with no inspector open (nothing recorded: the baseline, what the traffic
// alone costs), then again with the inspector open (recording). Prints the extension host's resident
// memory (RSS, from /proc) across each flood, the renderer's JS heap (shared by the workbench and its
// webviews: Chromium reports no per-frame heap) and the time until every message was in the view.
//
// Usage: node bench/inspector/run.mjs [--messages 100000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTools, repoRoot, startWorkbench, waitForWorkbench } from '../../test/runner/workbench.mjs';
import { openChat } from '../../test/e2e/support.mjs';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' } } });
const COUNT = Number(values.messages);
const tools = ensureTools();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-inspector-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^flood', steps: [{ type: 'notifications', count: COUNT }, { type: 'text', text: 'flooded' }] }] }));
const agentJs = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
const mib = n => (n / 1048576).toFixed(1);

/** The extension host: the process under the server whose command line says so. */
function extHostPid(serverPid) {
  const children = pid => {
    try { return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number); } catch { return []; }
  };
  const queue = [serverPid];
  while (queue.length) {
    const pid = queue.shift();
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (/extensionHost/.test(cmd) || /--type=extensionHost/.test(cmd)) return pid;
    queue.push(...children(pid));
  }
  throw new Error('no extension host process found');
}
const rss = pid => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m)[1]) * 1024;

async function frameWith(page, selector) {
  for (let i = 0; i < 600; i++) {
    for (const f of page.frames()) if (await f.$(selector).catch(() => null)) return f;
    await page.waitForTimeout(100);
  }
  throw new Error(`no webview with ${selector}`);
}

const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, workspace: path.join(repoRoot, 'test/fixtures/workspace'),
  userSettings: { 'switchboard.agents': { Bench: { command: tools.node24, args: [agentJs, script] } }, 'switchboard.defaultAgent': 'Bench' },
});
try {
  const page = wb.page;
  await waitForWorkbench(page);
  await openChat(page, { patient: true });
  const chat = await frameWith(page, '#prompt');
  const send = async (text, until) => {
    await chat.locator('#prompt').fill(text);
    await chat.locator('#prompt').press('Enter');
    await chat.locator('.turn.live .message.agent', { hasText: until }).waitFor({ timeout: 600_000 });
    await chat.locator('.turn.live .turn-end').waitFor({ timeout: 60_000 });
  };
  // A warm-up turn: the agent runs, the SDK is loaded, before the first reading.
  await send('warm up', 'echo: warm up');
  const host = extHostPid(wb.serverPid);
  const settle = () => new Promise(r => setTimeout(r, 3000));
  await settle();
  const start = rss(host);
  // The same flood with no inspector open (nothing recorded): what the traffic alone costs the host.
  await send('flood 1', 'flooded');
  await settle();
  const closed = rss(host);
  await page.locator('.part.editor').click();
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Switchboard: Open Protocol Inspector');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open Protocol Inspector' }).first().click();
  const inspector = await frameWith(page, '#scroller');
  await inspector.locator('#count').filter({ hasText: /messages/ }).waitFor({ timeout: 60_000 });
  const heap = () => inspector.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  await settle();
  const opened = { host: rss(host), view: await heap() };
  const t0 = Date.now();
  await send('flood 2', 'flooded');
  let shown = 0;
  while (shown < COUNT) {
    shown = Number((await inspector.locator('#count').textContent()).match(/\d+/)?.[0] ?? 0);
    if (shown < COUNT) await page.waitForTimeout(200);
  }
  const ms = Date.now() - t0;
  await settle();
  const after = { host: rss(host), view: await heap() };
  console.log(`bench/inspector: ${COUNT} messages (extension notifications of a real scripted-agent turn)`);
  console.log(`  inspector closed (not recording): extension host RSS ${mib(start)} -> ${mib(closed)} MiB (+${mib(closed - start)} MiB)`);
  console.log(`  inspector open (recording):       extension host RSS ${mib(opened.host)} -> ${mib(after.host)} MiB (+${mib(after.host - opened.host)} MiB); all ${shown} rows in the view after ${ms} ms`);
  console.log(`  renderer JS heap (the workbench's and its webviews', read in the inspector): ${mib(opened.view)} -> ${mib(after.view)} MiB (+${mib(after.view - opened.view)} MiB)`);
  console.log(`  load ${os.loadavg().map(x => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
} finally {
  await wb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
