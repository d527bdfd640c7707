#!/usr/bin/env node
// `npm run bench:inspector`: the protocol inspector's memory after 100,000 messages. In a real VS
// Code extension host (bench/inspector/host.cjs runs there) the scripted agent floods a turn with
// 100,000 extension notifications (a real exchange around them: initialize, session/new,
// session/prompt), first with no inspector open (nothing recorded: the baseline), then with the
// inspector open (recording). Prints the extension host's JS heap after a GC across each flood, and
// the renderer's JS heap (the workbench's and its webviews': Chromium reports no per-frame heap)
// before and after the inspector's view got every row.
//   Usage: node bench/inspector/run.mjs [--messages 100000] [--no-build]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureTools, repoRoot, startWorkbench } from '../../test/runner/workbench.mjs';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, 'no-build': { type: 'boolean', default: false } } });
const COUNT = Number(values.messages);
if (!values['no-build']) {
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-inspector-')), 'result.json');
const tools = ensureTools({ log: () => {} });
const wb = await startWorkbench({
  tools, extensionDevelopmentPath: repoRoot, extensionTestsPath: path.join(repoRoot, 'bench/inspector/host.cjs'),
  workspace: path.join(repoRoot, 'test/fixtures/workspace'), timeoutSec: 1200,
  env: { SB_BENCH_OUT: out, BENCH_COUNT: String(COUNT), SB_AGENT: path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), SB_NODE: tools.node24 },
  onOutput: () => {},
});
const mib = b => (b / 1048576).toFixed(1);
const plus = (a, b) => `${b >= a ? '+' : ''}${mib(b - a)} MiB`;
try {
  const page = wb.page;
  /** The inspector's page, once it exists. */
  const inspectorFrame = async () => {
    for (;;) {
      for (const f of page.frames()) if (await f.$('#scroller').catch(() => null)) return f;
      if (fs.existsSync(out)) return undefined;
      await page.waitForTimeout(200);
    }
  };
  const inspector = await inspectorFrame();
  const rendererHeap = () => inspector.locator('body').evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  const viewBefore = inspector ? await rendererHeap() : 0;
  for (; !fs.existsSync(`${out}.flooded`) && !fs.existsSync(out);) await page.waitForTimeout(200);
  const kept = Number(fs.readFileSync(`${out}.flooded`, 'utf8'));
  const t0 = Date.now();
  let shown = 0;
  while (inspector && shown < kept) {
    shown = Number((await inspector.locator('#count').textContent()).match(/\d+ messages/)?.[0].replace(/\D/g, '') ?? 0);
    if (shown < kept) await page.waitForTimeout(200);
  }
  const viewMs = Date.now() - t0;
  const viewAfter = inspector ? await rendererHeap() : 0;
  fs.writeFileSync(`${out}.read`, '');
  await wb.exitCode;
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  if (r.error) { console.error(`bench/inspector failed: ${r.error}`); process.exit(1); }
  console.log(`bench/inspector: ${COUNT} messages (extension notifications in a real scripted-agent turn)`);
  console.log(`  ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load ${os.loadavg().map(x => x.toFixed(1)).join(' ')}`);
  console.log(`  extension host JS heap after GC${r.gc ? '' : ' (no GC exposed: as found)'}:`);
  console.log(`    inspector closed (nothing recorded): ${mib(r.heap[0])} -> ${mib(r.heap[1])} MiB (${plus(r.heap[0], r.heap[1])})`);
  console.log(`    inspector open (recording):          ${mib(r.heap[2])} -> ${mib(r.heap[3])} MiB (${plus(r.heap[2], r.heap[3])}); ${r.kept} messages kept, ${mib(r.chars)} M characters of JSON`);
  console.log(`  the recorded turn took ${r.recordMs.toFixed(0)} ms; the view had every row ${viewMs} ms after it ended`);
  console.log(`  renderer JS heap (workbench and webviews), read in the inspector: ${mib(viewBefore)} -> ${mib(viewAfter)} MiB (${plus(viewBefore, viewAfter)})`);
} finally {
  await wb.close();
}
process.exit(0);
