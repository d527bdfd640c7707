// The extension side of the fs-read benchmark, loaded by the extension host as extensionTestsPath
// (bundled by run.mjs into its temp dir). It drives read-agent.mjs through
// Switchboard's own chat, so reads go through the extension's real FsHandlers: one file open with an
// unsaved edit (served from the buffer), one only on disk. Rounds alternate with a bare SDK client
// (bareClient.mjs) running in this same process and reading the same file from disk, so both see
// the same machine load.
// Env: BENCH_OUT (results JSON), BENCH_ROUNDS, BENCH_N, BENCH_AGENT, SWITCHBOARD_NODE.
import fs from 'node:fs';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
// @ts-expect-error plain ESM module without types, bundled by esbuild
import { startBare } from './bareClient.mjs';

interface Series { ms: number[]; chars: number }
let progress = (_what: string): void => {};

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<SwitchboardApi>('switchboard-acp.switchboard-acp')!;
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const node = process.env.SWITCHBOARD_NODE || process.execPath;
  const agentPath = process.env.BENCH_AGENT!;
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: node, args: [agentPath] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const openFile = path.join(ws, 'open.txt');
  const diskFile = path.join(ws, 'disk.txt');
  const coldFile = path.join(ws, 'cold.txt');
  const touchedFile = path.join(ws, 'touched.txt');

  const doc = await vscode.workspace.openTextDocument(openFile);
  await vscode.window.showTextDocument(doc);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), '#');
  await vscode.workspace.applyEdit(edit);
  if (!doc.isDirty) throw new Error('the open buffer is not dirty');

  progress = (what: string) => fs.appendFileSync(`${process.env.BENCH_OUT}.progress`, `${new Date().toISOString()} ${what}\n`);
  const prompt = async (job: object): Promise<any> => {
    await sb.chat.sendPrompt(JSON.stringify(job));
    await new Promise(r => setImmediate(r));
    const last = [...sb.chat.items].reverse().find(i => i.kind === 'agent') as { text: string } | undefined;
    const m = /BENCH (\{.*\})/s.exec(last?.text ?? '');
    if (!m) throw new Error(`no BENCH result for ${JSON.stringify(job)}: ${(last?.text ?? '').slice(0, 300)}`);
    return JSON.parse(m[1]);
  };
  const viaExtension = (file: string, n: number, range: object = {}): Promise<Series> => prompt({ path: file, n, ...range });
  const bare = await startBare({ node, agentPath, cwd: ws });

  const rounds = Number(process.env.BENCH_ROUNDS || 5);
  const n = Number(process.env.BENCH_N || 20);
  const out: Record<string, Series> = {};
  const add = (key: string, s: Series) => {
    out[key] ??= { ms: [], chars: 0 };
    out[key].ms.push(...s.ms);
    out[key].chars = s.chars;
  };
  const ranged = { line: 1000, limit: 50 };
  // ranged-read-cold reads paths never read before: hard links to cold.txt (same bytes, same page
  // cache), made now, before any turn runs, so no read is also a disk change during the turn.
  let fresh = 0;
  const freshRange = (n: number) => { const at = fresh; fresh += n; return { ...ranged, fresh: at }; };
  const links = 2 * (3 + (Number(process.env.BENCH_ROUNDS || 5) + 1) * Number(process.env.BENCH_N || 20));
  for (let i = 0; i < links; i++) fs.linkSync(coldFile, `${coldFile}.${i}`);
  const only = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : undefined;
  const cases: Array<[string, string, object]> = ([
    ['tiny-read', path.join(ws, 'tiny.txt'), {}],
    ['ranged-read', diskFile, ranged],
    ['ranged-read-cold', coldFile, { ...ranged, fresh: true }],
    ['ranged-read-touched', touchedFile, { ...ranged, touch: true }],
    ['disk-read', diskFile, {}],
    ['dirty-read', openFile, {}],
  ] as Array<[string, string, object]>).filter(([name]) => !only || only.includes(name));
  const cacheCounts: Record<string, { hits: number; misses: number }> = {};
  try {
    for (const [name, file, range] of cases) {
      progress(name);
      // Each request of a `fresh` case gets paths of its own.
      const job = (k: number) => ('fresh' in range ? freshRange(k) : range);
      await viaExtension(file, 3, job(3)); // warm-up (also starts the agent)
      await bare.reads(file, 3, job(3));
      const before = sb.files.readCacheCounts;
      for (let r = 0; r < rounds; r++) {
        // Alternating: odd rounds start with the bare client.
        if (r % 2) add(`bare ${name}`, await gcDuring(`bare ${name}`, () => bare.reads(file, n, job(n))));
        add(name, await gcDuring(name, () => viaExtension(file, n, job(n))));
        if (!(r % 2)) add(`bare ${name}`, await gcDuring(`bare ${name}`, () => bare.reads(file, n, job(n))));
        await sb.chat.newConversation(); // keep the transcript small
      }
      if (process.env.BENCH_PROFILE) await profile(() => viaExtension(file, n, job(n)), `${process.env.BENCH_OUT}.${name}.cpuprofile`);
      const after = sb.files.readCacheCounts;
      cacheCounts[name] = { hits: after.hits - before.hits, misses: after.misses - before.misses };
    }
    (out as Record<string, unknown>).cacheCounts = cacheCounts;
    (out as Record<string, unknown>).gc = gcTotals;
    if (only && !only.includes('accept-latency')) return;
    // accept-latency: Accept in the review's diff → the agent has its write's answer, against the
    // user's answer to a permission request → the agent has that answer. Alternating rounds.
    const acceptFile = path.join(ws, 'accept.txt');
    const k = Number(process.env.BENCH_ACCEPTS || 5);
    const clicks: number[] = [];
    const acceptOne = async () => {
      const seen = new Set<string>();
      const sub = sb.files.onDidChangeReviews(reviews => {
        for (const r of reviews) {
          if (seen.has(r.id)) continue;
          seen.add(r.id);
          void (async () => {
            // The user clicks Accept in the diff: wait until it is on screen.
            for (let i = 0; i < 500 && !isDiffOf(vscode.window.tabGroups.activeTabGroup.activeTab, r.id); i++) await new Promise(res => setTimeout(res, 10));
            clicks.push(performance.timeOrigin + performance.now());
            await vscode.commands.executeCommand('switchboard.acceptWrite', r.id);
          })();
        }
      });
      try { return await prompt({ op: 'write', path: acceptFile, n: k }); } finally { sub.dispose(); }
    };
    const answerOne = async () => {
      const answered = new Set<string>();
      const sub = sb.chat.onOps(() => {
        for (const item of sb.chat.items) {
          if (item.kind !== 'permission' || item.permission.outcome || answered.has(item.id)) continue;
          answered.add(item.id);
          // After this event (the request is registered once its item is shown), as a click would be.
          setImmediate(() => {
            clicks.push(performance.timeOrigin + performance.now());
            sb.chat.answerPermission(item.id, 'allow');
          });
        }
      });
      try { return await prompt({ op: 'permission', n: k }); } finally { sub.dispose(); }
    };
    const latencies = async (run: () => Promise<{ answeredAt: number[] }>): Promise<Series> => {
      clicks.length = 0;
      const { answeredAt } = await run();
      if (answeredAt.length !== clicks.length) throw new Error(`${clicks.length} answers for ${answeredAt.length} requests`);
      return { ms: answeredAt.map((t, i) => t - clicks[i]), chars: 0 };
    };
    progress('accept-latency');
    await latencies(acceptOne); // warm-up
    progress('permission warm-up');
    await latencies(answerOne);
    for (let r = 0; r < rounds; r++) {
      add('accept-latency', await latencies(acceptOne));
      add('bare accept-latency', await latencies(answerOne));
      await sb.chat.newConversation();
    }
  } finally {
    bare.close();
    await sb.chat.stop();
    await vscode.commands.executeCommand('workbench.action.files.revert');
    fs.writeFileSync(process.env.BENCH_OUT!, JSON.stringify(out));
  }
}

function isDiffOf(tab: vscode.Tab | undefined, reviewId: string): boolean {
  const input = tab?.input;
  return input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'switchboard-diff' && input.modified.path.startsWith(`/${reviewId}/`);
}

/** A CPU profile of the extension host while `work` runs (BENCH_PROFILE=1), written to `file`. */
/** Garbage collection in the extension host (both sides run in it) while each case's rounds ran: count and ms, major (mark-compact) and all. */
const gcTotals: Record<string, { major: number; majorMs: number; all: number; allMs: number }> = {};
async function gcDuring<T>(key: string, work: () => Promise<T>): Promise<T> {
  const t = (gcTotals[key] ??= { major: 0, majorMs: 0, all: 0, allMs: 0 });
  const obs = new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      t.all++;
      t.allMs += e.duration;
      // node:perf_hooks constants.NODE_PERFORMANCE_GC_MAJOR = 4
      if (((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0) === 4) { t.major++; t.majorMs += e.duration; }
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  try { return await work(); } finally {
    // The observer is called asynchronously: let entries of the round's end arrive.
    await new Promise(r => setTimeout(r, 0));
    obs.disconnect();
  }
}

async function profile(work: () => Promise<unknown>, file: string): Promise<void> {
  const inspector = await import('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<any>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  await work();
  const { profile: p } = await post('Profiler.stop');
  session.disconnect();
  fs.writeFileSync(file, JSON.stringify(p));
  progress(`profile: ${file}`);
}
