// bench/fuzz's baseline: a bare SDK client (the same Node as the extension host, run with
// --expose-gc) receiving the same seeded messages from the scripted agent and doing nothing with
// them (requests refused). Measures its RSS and JS heap as host.cjs measures the extension host's:
// before the prompt, after the turn, and later (a GC every 5 s until RSS stops falling, at most 75 s).
// Prints one JSON line. Usage: node --expose-gc bareClient.mjs <agent.mjs> <seed> <count>
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const [agentJs, seed, count] = process.argv.slice(2);
// The SDK logs each invalid message it drops (thousands here): not part of what is measured.
console.error = () => {};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-fuzz-bare-'));
const script = path.join(tmp, 'script.json');
fs.writeFileSync(script, JSON.stringify({ turns: [
  { match: '^fuzz$', steps: [{ type: 'fuzz', seed: Number(seed), count: Number(count) }] },
  { steps: [{ type: 'text', text: 'warm' }] },
] }));
const child = spawn(process.execPath, [agentJs, script], { stdio: ['pipe', 'pipe', 'ignore'] });
let received = 0;
const conn = acp.client({ name: 'bench' })
  .onNotification(acp.methods.client.session.update, () => { received++; })
  .onNotification('*', () => {})
  .onRequest('*', ({ method }) => { throw acp.RequestError.methodNotFound(String(method)); })
  .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: tmp, mcpServers: [] });
await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'warm up' }] });
globalThis.gc();
const rss0 = process.memoryUsage.rss();
const heap0 = process.memoryUsage().heapUsed;
let rssPeak = rss0;
const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage.rss()); }, 50);
const t0 = performance.now();
await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'fuzz' }] }).catch(() => {});
const ms = performance.now() - t0;
clearInterval(sampler);
globalThis.gc();
const rss1 = process.memoryUsage.rss();
const heap1 = process.memoryUsage().heapUsed;
conn.close();
child.stdin.end();
child.kill();
let rssLater = process.memoryUsage.rss();
const settleStart = Date.now();
for (let last = Infinity; Date.now() - settleStart < 75_000 && rssLater < last - 1048576 * 4;) {
  last = rssLater;
  await new Promise(r => setTimeout(r, 5000));
  globalThis.gc();
  rssLater = Math.min(rssLater, process.memoryUsage.rss());
}
console.log(JSON.stringify({ received, ms, rss: [rss0, rss1], rssPeak, rssLater, rssLaterS: Math.round((Date.now() - settleStart) / 1000), heap: [heap0, heap1], heapTotal: process.memoryUsage().heapTotal }));
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(0);
