// Runs INSIDE the extension host (extensionTestsPath of bench/inspector/run.mjs): the scripted agent
// floods a turn with BENCH_COUNT extension notifications, once with no inspector open (nothing
// recorded) and once with the inspector open (recording); the JS heap after a GC is read before and
// after each. Once the inspector's view holds every row, it writes `$SB_BENCH_OUT.flooded` and
// waits for `$SB_BENCH_OUT.read` (run.mjs reads the webview's heap meanwhile). Writes JSON to $SB_BENCH_OUT.
const vscode = require('vscode');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

function gcNow() {
  try { v8.setFlagsFromString('--expose-gc'); vm.runInNewContext('gc')(); return true; } catch { return false; }
}
const heap = () => { gcNow(); return process.memoryUsage().heapUsed; };
const waitFile = async (file, ms = 600_000) => {
  for (const end = Date.now() + ms; !fs.existsSync(file);) { if (Date.now() > end) throw new Error(`timed out waiting for ${file}`); await new Promise(r => setTimeout(r, 100)); }
};

async function main() {
  const ext = vscode.extensions.getExtension('switchboard-acp.switchboard-acp');
  const sb = ext.isActive ? ext.exports : await ext.activate();
  const count = Number(process.env.BENCH_COUNT);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-inspector-host-'));
  const script = path.join(tmp, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ turns: [{ match: '^flood', steps: [{ type: 'notifications', count }, { type: 'text', text: 'flooded' }] }] }));
  const config = vscode.workspace.getConfiguration('switchboard');
  await config.update('agents', { Bench: { command: process.env.SB_NODE || process.execPath, args: [process.env.SB_AGENT, script] } }, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', 'Bench', vscode.ConfigurationTarget.Global);
  await sb.chat.sendPrompt('warm up'); // the agent's start-up is not measured
  const h0 = heap();
  await sb.chat.sendPrompt('flood 1');
  const h1 = heap();
  await vscode.commands.executeCommand('switchboard.openInspector');
  const h2 = heap();
  const t0 = performance.now();
  await sb.chat.sendPrompt('flood 2');
  const recordMs = performance.now() - t0;
  const h3 = heap();
  fs.writeFileSync(`${process.env.SB_BENCH_OUT}.flooded`, String(sb.traffic.log.size));
  await waitFile(`${process.env.SB_BENCH_OUT}.read`);
  await sb.chat.stop();
  return { heap: [h0, h1, h2, h3], gc: gcNow(), recordMs, kept: sb.traffic.log.size, chars: sb.traffic.log.totalChars };
}

exports.run = async function run() {
  let result;
  try { result = await main(); } catch (e) { result = { error: String(e && e.stack || e) }; }
  fs.writeFileSync(process.env.SB_BENCH_OUT, JSON.stringify(result));
};
