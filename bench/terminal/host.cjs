// Runs INSIDE the extension host (loaded as extensionTestsPath by run.mjs): the same 100 MB command
// through Switchboard (scripted ACP agent → terminal/create → wait_for_exit → output → release,
// integrated terminal mirrored) and through a bare child_process reader, alternating, measuring
// wall time, CPU time and the extension host's memory; then the same pair again with the other core
// busy (`yes > /dev/null` in its own session, as another program would be). Writes JSON to $SB_BENCH_OUT.
const vscode = require('vscode');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const BYTES = Number(process.env.SB_BENCH_BYTES || 100 * 1024 * 1024);
const LIMIT = 1024 * 1024;
const ROUNDS = Number(process.env.SB_BENCH_ROUNDS || 3);
const BUSY = process.env.SB_BENCH_BUSY !== '0';
const COMMAND = `yes 'switchboard terminal bench: a line of output 0123456789' | head -c ${BYTES}`;

const status = () => fs.readFileSync('/proc/self/status', 'utf8');
const kib = (key, text = status()) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)[1]);

/** Peak RSS above the level before `work`: VmHWM reset through clear_refs, plus 5 ms sampling. */
async function measure(work) {
  await new Promise(r => setTimeout(r, 300)); // let the previous run's garbage settle
  let hwmReset = true;
  try { fs.writeFileSync('/proc/self/clear_refs', '5'); } catch { hwmReset = false; }
  const before = kib('VmRSS');
  let sampled = before;
  const timer = setInterval(() => { sampled = Math.max(sampled, process.memoryUsage.rss() / 1024); }, 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const detail = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  const peak = hwmReset ? Math.max(kib('VmHWM'), sampled) : sampled;
  return { ms, extraKiB: Math.round(peak - before), hostCpuMs: (cpu.user + cpu.system) / 1000, ...detail };
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
  const log = path.join(tmp, 'agent.jsonl');
  const script = path.join(tmp, 'script.json');
  fs.writeFileSync(script, JSON.stringify({
    log,
    turns: [
      { match: 'big', steps: [{ type: 'terminal', command: COMMAND, outputByteLimit: LIMIT, quiet: true }] },
      { match: 'small', steps: [{ type: 'terminal', command: 'true', outputByteLimit: LIMIT, quiet: true }] },
    ],
  }));
  const agentScript = path.join(ext.extensionPath, 'test/fixtures/agent/scripted-agent.mjs');
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: process.execPath, args: [agentScript, script] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  const reveal = process.env.SB_BENCH_REVEAL !== '0';
  await vscode.workspace.getConfiguration('switchboard.terminal').update('reveal', reveal, vscode.ConfigurationTarget.Global);
  // The bench measures the terminal, not the confirmation of a command nobody asked about.
  await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', false, vscode.ConfigurationTarget.Global);

  const lastResult = () => {
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n').map(l => JSON.parse(l)).filter(e => e.event === 'result' && e.type === 'terminal');
    return lines[lines.length - 1];
  };
  // The whole ACP flow: the scripted agent's create → wait_for_exit → output → release, so the
  // time includes JSON-RPC and the agent's own handling of the 1 MB answer.
  const viaAgent = async () => {
    await sb.chat.sendPrompt('big');
    return {};
  };
  // The extension's side alone: the very handlers the ACP connection calls, same flow, no transport.
  const conn = sb.terminals.connect({ agentName: 'Bench', cwd: vscode.workspace.workspaceFolders[0].uri.fsPath });
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

  const results = { bytes: BYTES, limit: LIMIT, command: COMMAND, reveal, busy: BUSY, rounds: [], overheadMs: [] };
  try {
    await sb.chat.start();
    // Warm-up: agent, shell, code paths, JIT.
    await sendAndTime(sb, 'small');
    await bare();
    await viaService();
    await viaAgent();
    for (let i = 0; i < 3; i++) results.overheadMs.push(await sendAndTime(sb, 'small'));
    if (process.env.SB_BENCH_PROFILE) {
      // CPU and allocation profiles of the extension host during one bare and one extension run
      // (.cpuprofile, .heapprofile: open in Chrome DevTools or VS Code), next to the results file.
      results.heap = [await heapProfile(() => bare(), `${out}.bare.heapprofile`), await heapProfile(viaService, `${out}.extension.heapprofile`)];
      results.profiles = [await profile(() => bare(), `${out}.bare.cpuprofile`), await profile(viaService, `${out}.extension.cpuprofile`)];
    }
    // Odd rounds run the bare reader first, even rounds the extension: neither always gets the
    // machine as the other left it.
    const pair = async ([k1, f1], [k2, f2]) => {
      const r = { [k1]: await measure(f1) };
      r[k2] = await measure(f2);
      return r;
    };
    for (let i = 0; i < ROUNDS; i++) {
      const order = (a, b) => (i % 2 ? [b, a] : [a, b]);
      const round = {
        ...await pair(...order(['bare', () => bare()], ['extension', viaService])),
        agent: await measure(viaAgent),
      };
      if (BUSY) {
        const busy = busyLoop();
        try {
          Object.assign(round, await pair(...order(['bareBusy', () => bare()], ['extensionBusy', viaService])));
        } finally { busy.kill('SIGKILL'); }
      }
      results.rounds.push(round);
    }
    const r = lastResult();
    if (!r?.result) throw new Error(`terminal step failed: ${JSON.stringify(r)}`);
    results.agentGot = { outputBytes: Buffer.byteLength(r.result.output), truncated: r.result.truncated, exitCode: r.result.exitStatus?.exitCode };
    results.serviceGot = last;
    results.shell = SHELL;
    conn.dispose();
    results.heap = process.memoryUsage();
  } catch (err) {
    results.error = String(err && err.stack || err);
  } finally {
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

async function sendAndTime(sb, text) {
  const t0 = performance.now();
  await sb.chat.sendPrompt(text);
  return performance.now() - t0;
}
