#!/usr/bin/env node
// `npm run bench:fuzz`: 100,000 seeded agent messages (test/fixtures/agent/fuzz.mjs: valid updates,
// mutated ones, odd unicode, 64 KB strings, broken envelopes, refused requests) from the scripted
// agent into Switchboard in a real VS Code extension host (bench/fuzz/host.cjs runs there). Prints
// the seed, messages/s from the prompt to the end of the turn, the extension host's memory (RSS and
// JS heap after a GC, before and after) and what came out: the workspace unchanged, Agent Changes
// empty, the refusals logged, the agent still answering. Exits non-zero if any of those fails.
// Then the same messages into a bare SDK client in the same Node (bareClient.mjs): its memory is the
// baseline (Node 24's V8 keeps freed heap pages resident: RSS stays near its peak after a GC).
//   Env: FUZZ_SEED (replays a run; default 0x2409), FUZZ_COUNT (100000); --no-build skips the build;
//   --heap-profile <file> writes where the turn allocated (sampled, also what GCs collected).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureTools, repoRoot, startWorkbench } from '../../test/runner/workbench.mjs';
import { seedFrom } from '../../test/fixtures/agent/fuzz.mjs';

const seed = seedFrom(process.env.FUZZ_SEED, 0x2409);
const count = Number(process.env.FUZZ_COUNT || 100_000);
const at = process.argv.indexOf('--heap-profile');
const heapProfile = at > 0 ? path.resolve(process.argv[at + 1]) : '';
if (!process.argv.includes('--no-build')) {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
console.log(`bench/fuzz: seed ${seed} (replay: FUZZ_SEED=${seed}), ${count} messages`);
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-fuzz-')), 'result.json');
const tools = ensureTools({ log: () => {} });
const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, extensionTestsPath: path.join(repoRoot, 'bench/fuzz/host.cjs'),
  workspace: path.join(repoRoot, 'test/fixtures/workspace'), timeoutSec: 1800,
  env: { SB_BENCH_OUT: out, SB_HEAP_PROFILE: heapProfile, FUZZ_SEED: String(seed), FUZZ_COUNT: String(count), SB_AGENT: path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), SB_NODE: tools.node24 },
  onOutput: () => {},
});
try { await wb.exitCode; } finally { await wb.close(); }
const r = JSON.parse(fs.readFileSync(out, 'utf8'));
if (r.error) { console.error(`bench/fuzz failed: ${r.error}`); process.exit(1); }
const mib = (b) => (b / 1048576).toFixed(1);
console.log(`  ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
console.log(`  the agent wrote ${r.lines} lines, ${mib(r.bytes)} MiB`);
console.log(`  ${r.ms.toFixed(0)} ms from the prompt to the end of the turn: ${Math.round(r.lines / (r.ms / 1000))} messages/s`);
console.log(`  extension host RSS: ${mib(r.rss[0])} MiB before, ${mib(r.rss[1])} MiB after (${r.rss[1] >= r.rss[0] ? '+' : ''}${mib(r.rss[1] - r.rss[0])} MiB); peak ${mib(r.rssPeak)} MiB`);
console.log(`  extension host RSS ${r.rssLaterS} s later (the agent stopped, a GC every 5 s, until it stops falling): ${mib(r.rssLater)} MiB (${r.rssLater >= r.rss[0] ? '+' : ''}${mib(r.rssLater - r.rss[0])} MiB against before; V8 heap reserved ${mib(r.later.heapTotal)} MiB, external ${mib(r.later.external)} MiB of which array buffers ${mib(r.later.arrayBuffers)} MiB)`);
if (r.grown?.length) console.log(`  where the RSS grew (/proc/self/smaps, before the prompt → later): ${r.grown.map(g => `${g.kind} ${g.bytes >= 0 ? '+' : ''}${mib(g.bytes)} MiB in ${g.mappings}`).join('; ')}`);
console.log(`  extension host JS heap after GC: ${mib(r.heap[0])} MiB before, ${mib(r.heap[1])} MiB after (${r.heap[1] >= r.heap[0] ? '+' : ''}${mib(r.heap[1] - r.heap[0])} MiB)${r.gc ? '' : ' (no GC exposed: heap as found)'}`);
console.log(`  transcript: ${r.items} items; refusal lines logged: ${r.refusals}; handler failures logged: ${r.failures}`);
console.log(`  workspace unchanged: ${r.unchanged.length === 0 ? 'yes' : r.unchanged.join(', ')}; Agent Changes: ${r.listed.length === 0 ? 'empty' : r.listed.join(', ')}; answered "ping": ${r.pong ? 'yes' : 'no'}`);
// The baseline: a bare SDK client in the same Node receiving the same messages (bareClient.mjs).
const bareRun = spawnSync(tools.node24, ['--expose-gc', path.join(repoRoot, 'bench/fuzz/bareClient.mjs'), path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), String(seed), String(count)], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000, stdio: ['ignore', 'pipe', 'pipe'] });
if (bareRun.status === 0) {
  const b = JSON.parse(bareRun.stdout.trim().split('\n').pop());
  console.log(`  bare SDK client (Node ${spawnSync(tools.node24, ['-v'], { encoding: 'utf8' }).stdout.trim()}, the extension host's; same messages, received and dropped): ${b.received} updates in ${b.ms.toFixed(0)} ms; RSS ${mib(b.rss[0])} MiB before, ${mib(b.rss[1])} after, peak ${mib(b.rssPeak)}, ${b.rssLaterS} s later ${mib(b.rssLater)} MiB (${b.rssLater >= b.rss[0] ? '+' : ''}${mib(b.rssLater - b.rss[0])} MiB; V8 heap reserved ${mib(b.heapTotal)} MiB); JS heap after GC ${b.heap[1] >= b.heap[0] ? '+' : ''}${mib(b.heap[1] - b.heap[0])} MiB`);
  console.log(`  RSS kept later, extension host over bare client: ${mib(r.rssLater - r.rss[0])} / ${mib(b.rssLater - b.rss[0])} MiB`);
} else {
  console.log(`  bare SDK client failed (exit ${bareRun.status}): ${(bareRun.stderr || '').slice(-400)}`);
}
const ok = r.unchanged.length === 0 && r.listed.length === 0 && r.pong && r.failures === 0;
console.log(ok ? 'bench/fuzz: OK' : 'bench/fuzz: FAILED');
process.exit(ok ? 0 : 1);
