// Runs INSIDE the extension host (extensionTestsPath of bench/fuzz/run.mjs): configures the scripted
// agent with a `fuzz` step of FUZZ_COUNT messages from FUZZ_SEED, sends the prompt through the
// extension's API, measures the time to the end of the turn and the extension host's memory, then
// checks what must hold afterwards. Writes JSON to $SB_BENCH_OUT.
const vscode = require('vscode');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

/** A GC, when the host lets us ask for one (flags set at runtime; without it the heap is read as found). */
function gcNow() {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    gc();
    return true;
  } catch {
    return false;
  }
}

function hashTree(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), e.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'other');
    }
  };
  walk(dir);
  return out;
}

async function main() {
  const ext = vscode.extensions.getExtension('switchboard-acp.switchboard-acp');
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const ws = vscode.workspace.workspaceFolders[0].uri.fsPath;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-fuzz-host-'));
  const log = path.join(tmp, 'agent.jsonl');
  const script = path.join(tmp, 'script.json');
  const seed = Number(process.env.FUZZ_SEED);
  const count = Number(process.env.FUZZ_COUNT);
  fs.writeFileSync(script, JSON.stringify({ log, turns: [
    { match: '^fuzz$', steps: [{ type: 'fuzz', seed, count }] },
    { match: '^ping$', steps: [{ type: 'text', text: 'pong' }] },
    { steps: [{ type: 'text', text: 'warm' }] },
  ] }));
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Fuzz: { command: process.env.SB_NODE || process.execPath, args: [process.env.SB_AGENT, script] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Fuzz', vscode.ConfigurationTarget.Global);
  await config.update('fs.outsideWorkspace', 'deny', vscode.ConfigurationTarget.Global);
  await sb.chat.sendPrompt('warm up'); // the agent's start-up is not measured
  const before = hashTree(ws);
  const gc = gcNow();
  const maps0 = smaps();
  const rss0 = process.memoryUsage.rss();
  const heap0 = process.memoryUsage().heapUsed;
  let rssPeak = rss0;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage.rss()); }, 50);
  const profiler = process.env.SB_HEAP_PROFILE ? await startHeapSampling() : undefined;
  const t0 = performance.now();
  await sb.chat.sendPrompt('fuzz');
  const ms = performance.now() - t0;
  if (profiler) fs.writeFileSync(process.env.SB_HEAP_PROFILE, JSON.stringify(await profiler.stop()));
  clearInterval(sampler);
  await sb.review.settled();
  await sb.chat.sendPrompt('ping');
  const items = sb.chat.items;
  const pong = [...items].reverse().find(i => i.kind === 'agent')?.text === 'pong';
  gcNow();
  const rss1 = process.memoryUsage.rss();
  const heap1 = process.memoryUsage().heapUsed;
  const after = hashTree(ws);
  const unchanged = [...new Set([...before.keys(), ...after.keys()])].filter(k => before.get(k) !== after.get(k));
  const listed = sb.review.views().flatMap(v => v.files.map(f => `${f.path} (${f.kind})`));
  const fuzzed = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)).find(e => e.event === 'fuzz') ?? {};
  await new Promise(r => setTimeout(r, 1500)); // the log channel's file is flushed on a timer
  const logDir = sb.logUri.fsPath;
  const lines = fs.existsSync(logDir) ? fs.readdirSync(logDir).filter(f => f.endsWith('.log')).flatMap(f => fs.readFileSync(path.join(logDir, f), 'utf8').split('\n')) : [];
  await sb.chat.stop();
  // The allocator gives freed memory back to the system over time, not at once: RSS again, with a GC
  // every 5 s, until it no longer falls (at most 75 s: what the "75 s later" measured).
  let rssLater = process.memoryUsage.rss();
  const settleStart = Date.now();
  for (let last = Infinity; Date.now() - settleStart < 75_000 && rssLater < last - 1048576 * 4;) {
    last = rssLater;
    await new Promise(r => setTimeout(r, 5000));
    gcNow();
    rssLater = Math.min(rssLater, process.memoryUsage.rss());
  }
  const { heapTotal, external, arrayBuffers } = process.memoryUsage();
  const grown = smapsGrowth(maps0, smaps());
  return {
    grown,
    later: { heapTotal, external, arrayBuffers }, rssLater, rssLaterS: Math.round((Date.now() - settleStart) / 1000),
    lines: fuzzed.lines ?? count, bytes: fuzzed.bytes ?? 0, ms, rss: [rss0, rss1], rssPeak, heap: [heap0, heap1], gc, items: items.length, pong,
    unchanged, listed, refusals: lines.filter(l => /was refused|not an ACP message/.test(l)).length,
    failures: lines.filter(l => /could not handle a message/.test(l)).length,
  };
}

/** Samples every allocation (also what GCs collected) from now to stop(): a .heapprofile of where the
 * turn allocated (`--heap-profile <file>`; open it in Chrome's DevTools, Memory tab). */
async function startHeapSampling() {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, r) => err ? reject(err) : resolve(r)));
  await post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return { stop: async () => { const { profile } = await post('HeapProfiler.stopSampling'); session.disconnect(); return profile; } };
}

/** The process's mappings (Linux): start address → { name, size, rss } in bytes; {} elsewhere. */
function smaps() {
  const maps = {};
  let text;
  try { text = fs.readFileSync('/proc/self/smaps', 'utf8'); } catch { return maps; }
  let cur;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { name: head[4] || '', perms: head[3], size: parseInt(head[2], 16) - parseInt(head[1], 16), rss: 0 };
      maps[head[1]] = cur;
    } else if (cur && line.startsWith('Rss:')) cur.rss = Number(line.split(/\s+/)[1]) * 1024;
  }
  return maps;
}

/** Where RSS grew between two smaps(): by kind of mapping (glibc's main heap, anonymous mappings by
 * size, files), largest first. */
function smapsGrowth(before, after) {
  const kinds = new Map();
  for (const [start, m] of Object.entries(after)) {
    const d = m.rss - (before[start]?.rss ?? 0);
    if (Math.abs(d) < 65536) continue;
    const kind = m.name === '[heap]' ? 'glibc main heap ([heap])'
      : m.name === '' ? (m.size >= 60 * 1048576 && m.size <= 64 * 1048576 ? 'anonymous 60-64 MiB (glibc thread arenas)' : m.size > 64 * 1048576 ? 'anonymous > 64 MiB (V8 cage/reservations)' : 'anonymous < 60 MiB (V8 pages, mmap\'d blocks)')
      : m.name.startsWith('/') ? 'files' : m.name;
    const k = kinds.get(kind) ?? { kind, bytes: 0, mappings: 0 };
    k.bytes += d; k.mappings++;
    kinds.set(kind, k);
  }
  return [...kinds.values()].sort((a, b) => b.bytes - a.bytes);
}

exports.run = async function run() {
  let result;
  try {
    result = await main();
  } catch (e) {
    result = { error: String(e && e.stack || e) };
  }
  fs.writeFileSync(process.env.SB_BENCH_OUT, JSON.stringify(result));
};
