// Runs INSIDE the extension host (loaded as extensionTestsPath by run.mjs). The headline pair: the
// same 100 MB command run by one ACP agent (terminal-agent.mjs: terminal/create → tool call showing
// it → wait_for_exit → output → release, timed from the agent's side) through Switchboard with its
// default settings (the chat card shown; no integrated terminal made: the command ends within the
// second after which a running command gets one) and through
// a bare SDK client serving it with a plain child process (bareClient.mjs, in this same process),
// alternating. The second pair: the extension's terminal handlers called directly against a bare
// child_process reader (no transport). The third: the headline pair with the integrated terminal
// shown as it starts (`switchboard.terminal.reveal`: the workbench draws it). Each run also records
// the extension host's CPU time and peak extra memory. Then the full-flow pair again with the other
// core busy (`yes > /dev/null` in its own session, as another program would be).
// Writes JSON to $SB_BENCH_OUT.
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { PerformanceObserver, constants: perf } = require('node:perf_hooks');
const os = require('node:os');
const path = require('node:path');

const BYTES = Number(process.env.SB_BENCH_BYTES || 100 * 1024 * 1024);
const LIMIT = 1024 * 1024;
const ROUNDS = Number(process.env.SB_BENCH_ROUNDS || 7);
const SHOWN = process.env.SB_BENCH_SHOWN !== '0';
const BUSY = process.env.SB_BENCH_BUSY !== '0';
const COMMAND = `yes 'switchboard terminal bench: a line of output 0123456789' | head -c ${BYTES}`;

const status = () => fs.readFileSync('/proc/self/status', 'utf8');
const kib = (key, text = status()) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)[1]);

/**
 * CPU time (ms) of every process of this workbench: the descendants of the bench's own process
 * (server, extension host, renderer, the commands) including the children they reaped. Another
 * program's load on the machine does not count, so it compares the two clients' whole cost.
 */
const ROOT = Number(process.env.SB_BENCH_ROOT_PID || 0);
const TICK_MS = 1000 / 100;
function workbenchCpuMs(detail) {
  if (!ROOT || process.platform !== 'linux') return NaN;
  const procs = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try { stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1'); } catch { continue; }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.push({ pid: Number(name), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
  }
  const children = new Map();
  for (const p of procs) (children.get(p.ppid) ?? children.set(p.ppid, []).get(p.ppid)).push(p);
  let ticks = 0;
  const stack = [...(children.get(ROOT) ?? [])];
  while (stack.length) {
    const p = stack.pop();
    ticks += p.ticks;
    if (detail) detail[`${p.pid} ${p.comm}`] = p.ticks * TICK_MS;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return ticks * TICK_MS;
}

/** Peak RSS above the level before `work` (VmHWM reset through clear_refs, plus 5 ms sampling), CPU times and GC pauses. */
async function measure(work) {
  await new Promise(r => setTimeout(r, 300)); // let the previous run's garbage settle
  let hwmReset = true;
  try { fs.writeFileSync('/proc/self/clear_refs', '5'); } catch { hwmReset = false; }
  const before = kib('VmRSS');
  let sampled = before;
  const timer = setInterval(() => { sampled = Math.max(sampled, process.memoryUsage.rss() / 1024); }, 5);
  // The extension host's garbage collection pauses during the work, ms by kind.
  const gc = { major: 0, minor: 0, incremental: 0, weak: 0, n: 0 };
  const kinds = { [perf.NODE_PERFORMANCE_GC_MINOR]: 'minor', [perf.NODE_PERFORMANCE_GC_MAJOR]: 'major', [perf.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [perf.NODE_PERFORMANCE_GC_WEAKCB]: 'weak' };
  const obs = new PerformanceObserver(list => { for (const e of list.getEntries()) { gc[kinds[e.detail?.kind] ?? 'major'] += e.duration; gc.n++; } });
  obs.observe({ entryTypes: ['gc'] });
  const cpu0 = process.cpuUsage();
  const d0 = {};
  const wb0 = workbenchCpuMs(d0);
  const t0 = performance.now();
  const detail = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // The work's own processes are reaped by now; what the renderer still does for it settles shortly.
  await new Promise(r => setTimeout(r, 200));
  const d1 = {};
  const workbenchCpu = workbenchCpuMs(d1) - wb0;
  // Which processes spent it (SB_BENCH_CPU_DETAIL=1).
  const byProcess = process.env.SB_BENCH_CPU_DETAIL ? Object.fromEntries(Object.entries(d1).map(([k, v]) => [k, v - (d0[k] ?? 0)]).filter(([, v]) => v > 0)) : undefined;
  clearInterval(timer);
  obs.disconnect();
  const peak = hwmReset ? Math.max(kib('VmHWM'), sampled) : sampled;
  return { ms, extraKiB: Math.round(peak - before), hostCpuMs: (cpu.user + cpu.system) / 1000, workbenchCpuMs: workbenchCpu, byProcess, gc, ...detail };
}

// The same shell Switchboard picks for a shell string.
const SHELL = /\/(ba|z|da|k)?sh$/.test(process.env.SHELL || '') && fs.existsSync(process.env.SHELL) ? process.env.SHELL : '/bin/sh';

/** The other core busy: a CPU-bound program in its own session, as one the user started elsewhere. */
function busyLoop() {
  return spawn('/bin/sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore', detached: true });
}

/** The bare reader: spawn the command, keep the last 1 MB of stdout in a trimmed chunk list. */
function bare() {
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    let kept = 0;
    let total = 0;
    child.stdout.on('data', c => {
      total += c.length;
      chunks.push(c);
      kept += c.length;
      while (kept - chunks[0].length >= LIMIT) kept -= chunks.shift().length;
    });
    child.on('error', reject);
    child.on('close', code => resolve({ bytes: total, exitCode: code }));
  });
}

exports.run = async function run() {
  const out = process.env.SB_BENCH_OUT;
  const ext = vscode.extensions.getExtension('switchboard-acp.switchboard-acp');
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  const agentPath = path.join(__dirname, 'terminal-agent.mjs');
  const ws = vscode.workspace.workspaceFolders[0].uri.fsPath;
  // The same Node runs the agent on both sides.
  const node = process.execPath;
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: node, args: [agentPath] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  // The headline runs with the default (the terminal not shown); the `shown` pair turns it on.
  const reveal = (on) => vscode.workspace.getConfiguration('switchboard.terminal').update('reveal', on, vscode.ConfigurationTarget.Global);
  const card = process.env.SB_BENCH_CARD !== '0';
  await reveal(false);
  // The bench measures the terminal, not the confirmation of a command nobody asked about.
  await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', false, vscode.ConfigurationTarget.Global);

  const { startBare } = await import(path.join(__dirname, 'bareClient.mjs'));
  const bareClient = await startBare({ node, agentPath, cwd: ws, shell: SHELL });
  let jobs = 0;
  /** One prompt to the agent; its own timing of the flow (ms of the last run). */
  const flow = (send, command = COMMAND) => async () => {
    const file = path.join(tmp, `job-${jobs++}.json`);
    await send({ command, limit: LIMIT, n: 1, card, out: file });
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { agentMs: r.ms[r.ms.length - 1], steps: r.steps, got: { outputBytes: r.outputBytes, truncated: r.truncated, exitCode: r.exitCode } };
  };
  const viaSwitchboard = flow(job => sb.chat.sendPrompt(JSON.stringify(job)));
  const viaBareClient = flow(job => bareClient.run(job));
  // The extension's side alone: the very handlers the ACP connection calls, same flow, no transport.
  const conn = sb.terminals.connect({ agentName: 'Bench', cwd: ws });
  const never = new AbortController().signal;
  let last;
  const viaService = async () => {
    const ids = { sessionId: 'bench', terminalId: (await conn.create({ sessionId: 'bench', command: COMMAND, outputByteLimit: LIMIT }, never)).terminalId };
    const exit = await conn.waitForExit(ids, never);
    const out = await conn.output(ids);
    await conn.release(ids);
    last = { outputBytes: Buffer.byteLength(out.output), truncated: out.truncated, exitCode: exit.exitCode, terminal: sb.terminals.getInfo(ids.terminalId).name };
    return {};
  };

  const results = { bytes: BYTES, limit: LIMIT, command: COMMAND, shown: SHOWN, card, busy: BUSY, rounds: [], overhead: [] };
  try {
    await sb.chat.start();
    // Warm-up: agents, shell, code paths, JIT.
    await flow(job => sb.chat.sendPrompt(JSON.stringify(job)), 'true')();
    await flow(job => bareClient.run(job), 'true')();
    await bare();
    await viaService();
    await viaSwitchboard();
    await viaBareClient();
    // The fixed cost of one flow (command `true`), alternating.
    for (let i = 0; i < 5; i++) {
      const s = await flow(job => sb.chat.sendPrompt(JSON.stringify(job)), 'true')();
      const b = await flow(job => bareClient.run(job), 'true')();
      results.overhead.push({ extension: s.agentMs, bare: b.agentMs, extensionSteps: s.steps, bareSteps: b.steps });
    }
    if (process.env.SB_BENCH_PROFILE) {
      // CPU and allocation profiles of the extension host during one bare and one Switchboard full
      // flow (.cpuprofile, .heapprofile: open in Chrome DevTools or VS Code), next to the results file.
      results.heap = [await heapProfile(viaBareClient, `${out}.bare.heapprofile`), await heapProfile(viaSwitchboard, `${out}.extension.heapprofile`)];
      results.profiles = [await profile(viaBareClient, `${out}.bare.cpuprofile`), await profile(viaSwitchboard, `${out}.extension.cpuprofile`)];
      const tiny = flow(job => sb.chat.sendPrompt(JSON.stringify(job)), 'true');
      results.profiles.push(await profile(async () => { for (let i = 0; i < 10; i++) await tiny(); }, `${out}.extension-true.cpuprofile`));
    }
    // Odd rounds run the baseline first, even rounds Switchboard: neither always gets the
    // machine as the other left it.
    const pair = async ([k1, f1], [k2, f2]) => {
      const r = { [k1]: await measure(f1) };
      r[k2] = await measure(f2);
      return r;
    };
    for (let i = 0; i < ROUNDS; i++) {
      const order = (a, b) => (i % 2 ? [b, a] : [a, b]);
      const round = {
        ...await pair(...order(['bareFlow', viaBareClient], ['agent', viaSwitchboard])),
        ...await pair(...order(['bare', () => bare()], ['extension', viaService])),
      };
      if (SHOWN) {
        await reveal(true);
        try {
          Object.assign(round, await pair(...order(['bareFlowShown', viaBareClient], ['agentShown', viaSwitchboard])));
        } finally { await reveal(false); }
      }
      if (BUSY) {
        const busy = busyLoop();
        try {
          Object.assign(round, await pair(...order(['bareFlowBusy', viaBareClient], ['agentBusy', viaSwitchboard])));
        } finally { busy.kill('SIGKILL'); }
      }
      results.rounds.push(round);
    }
    results.agentGot = results.rounds[results.rounds.length - 1].agent.got;
    results.bareGot = results.rounds[results.rounds.length - 1].bareFlow.got;
    results.serviceGot = last;
    results.shell = SHELL;
    // How Switchboard's commands were grouped (TerminalProcess.groupLauncher): a new session is a
    // scheduling group of its own on Linux, which changes how a flood shares the CPU.
    results.grouping = (() => {
      try { fs.closeSync(fs.openSync('/dev/tty', 'r')); return 'a new session (the extension host has a controlling terminal)'; } catch { /* none: the launcher */ }
      return fs.existsSync('/usr/bin/perl') ? "the extension host's session (the setpgid launcher)" : 'a new session (no /usr/bin/perl)';
    })();
    conn.dispose();
  } catch (err) {
    results.error = String(err && err.stack || err);
  } finally {
    bareClient.close();
    await sb.chat.stop();
    fs.writeFileSync(out, JSON.stringify(results, null, 2));
  }
};

async function profile(work, file) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  await work();
  const { profile: p } = await post('Profiler.stop');
  session.disconnect();
  fs.writeFileSync(file, JSON.stringify(p));
  return file;
}

async function heapProfile(work, file) {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await work();
  const { profile: p } = await post('HeapProfiler.stopSampling');
  session.disconnect();
  fs.writeFileSync(file, JSON.stringify(p));
  return file;
}

