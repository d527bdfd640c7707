#!/usr/bin/env node
// bench/activation: what activating Switchboard costs, from opening its view (which is what
// activates it: no `*`, no onStartupFinished) to the chat being ready for input, against an empty
// extension that contributes one webview view and nothing else (bench/activation/empty-ext).
//
// Each round starts a fresh workbench (VS Code server + Chromium) with one extension and
// bench/activation/probe.cjs running in its extension host, and waits for a settled window (decision
// 0037): the probe until the extension host has done its start-up (the built-in extensions that
// activate at start-up), the bench until the workbench page draws 30 quiet frames. The probe fails
// the round if the extension is already active (something activated it before its view opened),
// then opens the view as the activity bar does (VS Code activates the extension on it); the page
// then waits for the view's webview to report ready (`body[data-ready="true"]`: page loaded, its first state shown: Switchboard's is
// written into its page, the empty extension's is the answer to its `ready`). Rounds
// alternate (empty, Switchboard, empty, …) so both see the same machine load. Switchboard is
// measured as users get it: the production build (`--production`, built into a temporary copy of
// the repository); each --ext adds another extension folder to the rounds (e.g. an older
// production build, to compare before and after in the same run).
//
// Prints the medians, the ratios to the empty extension (`ratio activation: <x>`, view ready over the
// empty extension's, is the line `npm run bench` sums up; "paired": the median of each round's own
// ratio, which load changing between rounds moves less), and the size and require() time of the
// bundle activation loads (and of the SDK file loaded with the first agent). Also each page's first
// contentful paint by the same clock (VS Code keeps a webview's frame hidden until the page's load
// event, which waits for the fonts it asked for by then): what the user sees, reported beside it.
// `--at-startup` times as before 0037: at once when the probe runs, while the workbench and the
// built-in extensions still start. `--activate-first` times activate() on its own (`activate`
// below), then opens the view: the two one after the other instead of overlapping.
// `--timeline` also prints, per round, where each page's time went by its own clock (from opening
// the view): its frame's navigation start, the HTML received, the script's first line (the
// `script-start` mark, Switchboard's page only), the DOM parsed, `view-ready`, the load event.
// `--trace <dir>` writes a Chromium trace of each side's second round, the first when there is one
// (the first makes the bundle's code cache) (`<dir>/<side>.json`, the page's `bench-go` mark where
// the probe is told to go; BENCH_TRACE_JS=1 adds JS samples; the probe waits for the trace to start) and prints the webview renderer's main-thread time
// by kind (HTML parse, script compile/run, style, layout) between its frame's start and view ready.
// `--profile <dir>` writes a CPU profile of the extension host for the same round
// (`<dir>/<side>.cpuprofile`, from the settled window to view ready) and prints its heaviest
// functions by self time.
// Usage: node bench/activation/run.mjs [--runs 9] [--ext <extension folder>]… [--at-startup] [--activate-first] [--timeline] [--trace <dir>] [--profile <dir>]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ensureTools, repoRoot, startWorkbench } from '../../test/runner/workbench.mjs';
import { freePort, hostProfiler, saveProfile } from '../profile.mjs';

const { values } = parseArgs({ options: { 'at-startup': { type: 'boolean' }, 'activate-first': { type: 'boolean' }, runs: { type: 'string', default: '9' }, ext: { type: 'string', multiple: true }, timeline: { type: 'boolean' }, trace: { type: 'string' }, profile: { type: 'string' } } });
const RUNS = Number(values.runs);
const here = path.dirname(fileURLToPath(import.meta.url));
const empty = path.join(here, 'empty-ext');
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tools = ensureTools();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-activation-'));

/** A production build of the working tree, in a copy (the dev build in dist/ stays as it is). */
function productionBuild() {
  const dir = path.join(tmp, 'switchboard');
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist', 'dist-vsix', 'test-results']);
  fs.cpSync(repoRoot, dir, { recursive: true, filter: src => !skip.has(path.relative(repoRoot, src)) });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('production build failed');
  return dir;
}

/**
 * One round: a fresh workbench with `extensionPath` and probe.cjs in its extension host. Returns
 * `{ activateMs, readyMs }`: activate() as timed in the host (--activate-first only), and from the
 * probe's start (opening the view; with --activate-first, activating) by the host's clock, the same
 * machine's, to the view's `body[data-ready]` in the page, as the page marked it (`view-ready`; a build without the mark: when the attribute was seen, "(polled)").
 */
async function round(extensionPath, { id, view }, { traceFile, profileName } = {}) {
  const settle = !values['at-startup'];
  const out = path.join(tmp, `probe-${Date.now()}.json`);
  const inspect = profileName ? await freePort() : undefined;
  const wb = await startWorkbench({
    tools, extensionDevelopmentPath: extensionPath, extensionTestsPath: path.join(here, 'probe.cjs'),
    workspace: path.join(repoRoot, 'test/fixtures/workspace'), inspectExtensions: inspect,
    env: { BENCH_EXT_ID: id, BENCH_VIEW: view, BENCH_OUT: out, ...(traceFile || profileName || settle ? { BENCH_GO: `${out}.go` } : {}), ...(settle ? { BENCH_SETTLED: `${out}.settled` } : {}), ...(values['activate-first'] ? { BENCH_ACTIVATE_FIRST: '1' } : {}) },
  });
  let profiler;
  try {
    if (settle) {
      // A settled window: the extension host has finished its start-up (the built-in extensions that
      // activate at start-up: git, the JSON and npm support…, which the probe waits out), then the
      // workbench page draws 30 frames in a row within 25 ms of each other.
      while (!fs.existsSync(`${out}.settled`)) {
        await Promise.race([new Promise(r => setTimeout(r, 50)), wb.failed, wb.exitCode.then(c => { throw new Error(`probe ended first (exit ${c})`); })]);
      }
      const { waitedMs, quiet } = JSON.parse(fs.readFileSync(`${out}.settled`, 'utf8'));
      if (!quiet) console.log(`    ${id}: the extension host was still busy after ${waitedMs} ms; activating anyway`);
    }
    if (profileName) {
      profiler = await hostProfiler(inspect);
      await profiler.start();
    }
    if (traceFile) {
      const browser = wb.page.context().browser();
      await browser.startTracing(wb.page, { path: traceFile, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'blink.user_timing', 'toplevel', 'loading', ...(process.env.BENCH_TRACE_JS ? ['disabled-by-default-v8.cpu_profiler'] : [])] });
    }
    if (settle) {
      const calm = await Promise.race([wb.page.evaluate(() => new Promise(resolve => {
        let quiet = 0, last = performance.now();
        const until = last + 10_000;
        const tick = now => { quiet = now - last < 25 ? quiet + 1 : 0; last = now; if (quiet >= 30 || now > until) resolve(quiet >= 30); else requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
      })), wb.failed, wb.exitCode.then(c => { throw new Error(`probe ended first (exit ${c})`); })]);
      if (!calm) console.log(`    ${id}: the workbench page drew no 30 quiet frames in a row in 10 s; opening the view anyway`);
    }
    // The workbench page marks the go in its own trace: the anchor of the renderer's time before the
    // webview's frame (the probe opens the view within its 20 ms poll).
    if (traceFile) await wb.page.evaluate(() => performance.mark('bench-go'));
    if (traceFile || profileName || settle) fs.writeFileSync(`${out}.go`, '');
    const frame = wb.page.frameLocator('iframe.webview').frameLocator('#active-frame');
    const ready = frame.locator('body[data-ready="true"]').waitFor({ timeout: 120_000 }).then(() => Date.now());
    const seenAt = await Promise.race([ready, wb.failed, wb.exitCode.then(c => { throw new Error(`probe ended first (exit ${c})`); })]);
    // The page's own record of the moment (Date.now() in the page, the same machine's clock): what
    // polling for the attribute adds (100-300 ms under load) is not the extension's.
    const marked = await frame.locator('body').evaluate(() => performance.getEntriesByName('view-ready')[0]?.detail).catch(() => undefined);
    const readyAt = typeof marked === 'number' ? marked : seenAt;
    // The page's first contentful paint (its frame stays hidden until its load event, which waits
    // for the fonts asked for by then): what the user sees, by the same clock.
    const painted = await frame.locator('body').evaluate(() => new Promise(resolve => {
      const at = e => resolve(e ? performance.timeOrigin + e.startTime : undefined);
      const seen = performance.getEntriesByName('first-contentful-paint')[0];
      if (seen) { at(seen); return; }
      new PerformanceObserver(list => at(list.getEntriesByName('first-contentful-paint')[0])).observe({ type: 'paint' });
      setTimeout(() => at(undefined), 5000);
    })).catch(() => undefined);
    const timeline = values.timeline ? await frame.locator('body').evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const mark = n => performance.getEntriesByName(n)[0]?.startTime;
      return { origin: performance.timeOrigin, html: nav?.responseEnd, dom: nav?.domInteractive, load: nav?.loadEventStart, script: mark('script-start'), ready: mark('view-ready') };
    }).catch(() => undefined) : undefined;
    if (traceFile) await wb.page.context().browser().stopTracing();
    if (profiler) saveProfile(values.profile, profileName, await profiler.stop(), 30);
    for (let i = 0; !fs.existsSync(out) && i < 100; i++) await new Promise(r => setTimeout(r, 50));
    const { start, activateMs } = JSON.parse(fs.readFileSync(out, 'utf8'));
    if (timeline) {
      const at = t => (t === undefined ? '–' : `+${Math.round(timeline.origin + t - start)}`);
      console.log(`    ${id}: ${activateMs === undefined ? '' : `activate ${activateMs.toFixed(0)} ms; `}its page: frame ${at(0)}, HTML ${at(timeline.html)}, script ${at(timeline.script)}, DOM ${at(timeline.dom)}, view ready ${at(timeline.ready)}, load ${at(timeline.load)} ms`);
    }
    if (traceFile) console.log(`    ${id}: ${traceSummary(traceFile)}`);
    fs.writeFileSync(`${out}.done`, '');
    const code = await wb.exitCode;
    if (code !== 0) throw new Error(`probe failed (exit ${code}): see the extension host output above`);
    return { activateMs, readyMs: readyAt - start, marked: typeof marked === 'number', paintMs: typeof painted === 'number' ? Math.round(painted - start) : undefined };
  } finally {
    profiler?.close();
    await wb.close();
  }
}

/**
 * The webview renderer's main-thread time in a trace, by kind, from VS Code's webview frame starting
 * to write the page's content to the page's view-ready mark.
 */
function traceSummary(file) {
  const events = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  const ready = events.find(e => e.name === 'view-ready' && e.ph !== 'M');
  if (!ready) return 'no view-ready mark in the trace';
  const main = events.filter(e => e.pid === ready.pid && e.tid === ready.tid && e.ph === 'X' && e.dur);
  // From VS Code's webview index.html starting to write the content (its own mark); the renderer is
  // the workbench's too, so "busy" holds the workbench's work meanwhile.
  const from = Math.min(...events.filter(e => e.pid === ready.pid && e.name === 'webview/index.html/content/started').map(e => e.ts));
  if (!Number.isFinite(from)) return 'no webview/index.html/content/started mark in the trace';
  const kinds = { 'HTML parse': /^ParseHTML$/, 'style sheets': /^(ParseAuthorStyleSheet|CSSParserImpl::parseStyleSheet)/, 'script compile': /^(v8\.compile|V8\.CompileCode|v8\.parseOnBackground|CompileScript)/, 'script run': /^(EvaluateScript|v8\.run|FunctionCall|V8\.Execute)$/, 'style recalc': /^(UpdateLayoutTree|RecalculateStyles)$/, layout: /^(Layout|UpdateLayout)$/, paint: /^(Paint|PrePaint|Layerize|UpdateLayer)/ };
  const self = new Map();
  const list = main.filter(e => e.ts >= from && e.ts < ready.ts).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  let busy = 0;
  for (const e of list) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const kind = Object.keys(kinds).find(k => kinds[k].test(e.name));
    const parentKind = stack.findLast(p => p.kind)?.kind;
    if (!stack.length) busy += e.dur;
    if (kind) {
      self.set(kind, (self.get(kind) ?? 0) + e.dur);
      if (parentKind) self.set(parentKind, self.get(parentKind) - e.dur);
    }
    stack.push({ ...e, kind: kind ?? parentKind });
  }
  const ms = us => (us / 1000).toFixed(1);
  return `renderer main thread from the webview's content started to view ready: ${ms(ready.ts - from)} ms, busy ${ms(busy)} ms (${[...self].map(([k, v]) => `${k} ${ms(v)}`).join(', ')})`;
}

const kb = f => (fs.existsSync(f) ? `${(fs.statSync(f).size / 1024).toFixed(1)} KB` : 'missing');

/** ms to require() a bundle that needs no `vscode` (the lazily loaded SDK) in a fresh Node 24. The
 * extension's own bundle is timed where it runs, in the extension host ("activate" above). */
function requireMs(file) {
  const code = `const t0 = process.hrtime.bigint(); require(${JSON.stringify(file)}); console.log(Number(process.hrtime.bigint() - t0) / 1e6);`;
  const r = spawnSync(tools.node24, ['-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`require(${file}) failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}
try {
  const exts = [productionBuild(), ...(values.ext ?? []).map(e => path.resolve(e))];
  const label = e => (e.startsWith(tmp) ? 'Switchboard (this tree, production build)' : `Switchboard (${e})`);
  const EMPTY = { id: 'bench.empty-baseline', view: 'emptyBaseline.view' };
  const SWITCHBOARD = { id: 'switchboard-acp.switchboard-acp', view: 'switchboard.chat' };
  const emptyRuns = [];
  const runs = exts.map(() => []);
  const fmt = r => `${r.activateMs === undefined ? '' : `activate ${r.activateMs.toFixed(1)} ms, `}view ready ${r.readyMs} ms${r.marked ? '' : ' (polled)'}, first paint ${r.paintMs ?? '?'} ms`;
  if (values.trace) fs.mkdirSync(values.trace, { recursive: true });
  // Traced or profiled: the second round when there is one (the first makes the bundle's code cache).
  const traced = RUNS > 1 ? 1 : 0;
  for (let r = 0; r < RUNS; r++) {
    // Each round starts with another side (a side run right after another pays its leftovers).
    const sides = [{ ext: empty, kind: EMPTY, into: emptyRuns, name: 'empty' }, ...exts.map((e, i) => ({ ext: e, kind: SWITCHBOARD, into: runs[i], name: i ? `ext${i}` : 'switchboard' }))];
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(k + r) % sides.length];
      side.into[r] = await round(side.ext, side.kind, {
        traceFile: values.trace && r === traced ? path.join(values.trace, `${side.name}.json`) : undefined,
        profileName: values.profile && r === traced ? side.name : undefined,
      });
    }
    console.log(`  round ${r + 1}/${RUNS}: empty ${fmt(emptyRuns[r])} | ${runs.map(t => fmt(t[r])).join(' | ')}`);
  }
  const med = (xs, k) => median(xs.map(x => x[k]));
  const first = values['activate-first'];
  const ea = first ? med(emptyRuns, 'activateMs') : undefined, er = med(emptyRuns, 'readyMs');
  console.log(`bench/activation: ${RUNS} alternating rounds, each started by another side, ${values['at-startup'] ? 'at start-up' : 'in a settled window'}, medians`);
  console.log(first
    ? `  (activate = bundle load + activate() in the extension host, timed on its own; view ready = from the start of activation, then the view opened, to the webview's first state, in the page)`
    : `  (view ready = from opening the view, which activates the extension, to the webview's first state, in the page)`);
  const paintOf = xs => (xs.every(x => x.paintMs !== undefined) ? med(xs, 'paintMs') : undefined);
  const ep = paintOf(emptyRuns);
  console.log(`  empty extension (one webview view):  ${first ? `activate ${ea.toFixed(1)} ms, ` : ''}view ready ${er} ms, first paint ${ep ?? '?'} ms`);
  for (const [i, ext] of exts.entries()) {
    const a = first ? med(runs[i], 'activateMs') : undefined, v = med(runs[i], 'readyMs');
    const main = path.join(ext, JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8')).main);
    const sdkFile = path.join(path.dirname(main), 'acp-sdk.js');
    console.log(`  ${label(ext)}: ${first ? `activate ${a.toFixed(1)} ms, ` : ''}view ready ${v} ms (rounds: ${runs[i].map(x => x.readyMs).join(', ')}; empty's: ${emptyRuns.map(x => x.readyMs).join(', ')})`);
    const paired = median(runs[i].map((x, r) => x.readyMs / emptyRuns[r].readyMs));
    console.log(`    ratio to the empty extension: view ready ${(v / er).toFixed(2)}x (+${v - er} ms; paired ${paired.toFixed(2)}x)${first ? `; activate ${(a / ea).toFixed(1)}x (+${(a - ea).toFixed(1)} ms)` : ''}`);
    // The line `npm run bench` collects: activation cost (bundle load to view ready) over the empty extension's.
    console.log(`ratio activation${i ? `-ext${i}` : ''}: ${(v / er).toFixed(2)}`);
    const p = paintOf(runs[i]);
    if (p !== undefined && ep !== undefined) console.log(`    first contentful paint ${p} ms: ${(p / ep).toFixed(2)}x the empty extension's (+${p - ep} ms)`);
    const bundle = path.join(path.dirname(main), 'extension.js');
    const cached = fs.readdirSync(path.dirname(main)).filter(n => n.startsWith('extension.js.') && n.endsWith('.cache'));
    console.log(`    activation loads ${path.basename(main)} (${kb(main)})${bundle !== main && fs.existsSync(bundle) ? `, then extension.js (${kb(bundle)}; code cache ${cached.length ? 'made' : 'none'})` : ''}`);
    if (fs.existsSync(sdkFile)) console.log(`    the first agent start loads acp-sdk.js (${kb(sdkFile)}): require() ${median(Array.from({ length: 9 }, () => requireMs(sdkFile))).toFixed(1)} ms`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
