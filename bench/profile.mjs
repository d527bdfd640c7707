// CPU profiles for the benches that drive the chat (opt-in: `--profile <dir>`): the extension host
// through its inspector (the server started with --inspect-extensions=<port>), the chat webview
// through Chromium's DevTools protocol (playwright's CDP session on the webview's frame). Each
// profile is written as a .cpuprofile (open it in Chrome DevTools' Performance panel or VS Code),
// and its heaviest functions by self time are printed.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/** A minimal CDP client over a WebSocket (playwright's bundled `ws`). */
async function cdp(url) {
  const { ws: WebSocket } = require('playwright-core/lib/utilsBundle');
  const sock = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => { sock.once('open', resolve); sock.once('error', reject); });
  let next = 1;
  const waiting = new Map();
  sock.on('message', data => {
    const m = JSON.parse(String(data));
    const w = m.id && waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(m.error.message)); else w.resolve(m.result);
  });
  return {
    send: (method, params = {}) => new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      sock.send(JSON.stringify({ id, method, params }));
    }),
    close: () => sock.close(),
  };
}

/** The extension host's profiler (its inspector listens on `port`). */
export async function hostProfiler(port) {
  let list;
  for (let i = 0; i < 100 && !list?.length; i++) {
    try { list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json(); } catch { await new Promise(r => setTimeout(r, 300)); }
  }
  if (!list?.length) throw new Error(`no inspector on port ${port}`);
  const client = await cdp(list[0].webSocketDebuggerUrl);
  await client.send('Profiler.enable');
  await client.send('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => client.send('Profiler.start'),
    stop: async () => (await client.send('Profiler.stop')).profile,
    close: () => client.close(),
  };
}

/** The chat webview's profiler: `frame` is the webview's own frame (a playwright Frame). */
export async function viewProfiler(page, frame) {
  let session;
  try { session = await page.context().newCDPSession(frame); } catch { session = await page.context().newCDPSession(page); }
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => session.send('Profiler.start'),
    stop: async () => (await session.send('Profiler.stop')).profile,
    close: () => session.detach().catch(() => {}),
  };
}

/** The frame of the chat webview (the inner frame holding #transcript). */
export async function chatFrame(page) {
  for (const f of page.frames()) if (await f.$('#transcript').catch(() => null)) return f;
  throw new Error('no chat frame');
}

/** Writes `profile` to dir/name.cpuprofile and prints its heaviest functions by self time. */
export function saveProfile(dir, name, profile, top = 25) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url || '')}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`  profile ${file}: ${Math.round(total)} ms sampled; heaviest by self time:`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${ms.toFixed(0).padStart(7)} ms  ${k}`);
}
