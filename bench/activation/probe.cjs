// Runs inside the extension host of each bench/activation round (as the workbench's
// extensionTestsPath). It checks the extension under test is NOT active yet (nothing activated it
// at start-up), then times `activate()` (loading the bundle + its activate function), opens the
// extension's view, and reports `{ start, activateMs }`; the bench then waits for the view to be
// ready in the page and writes `<out>.done`, which ends the session.
const fs = require('node:fs');
const vscode = require('vscode');

exports.run = async function run() {
  const { BENCH_EXT_ID: id, BENCH_VIEW: view, BENCH_OUT: out } = process.env;
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`extension ${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} was activated at start-up, before its view was opened`);
  // With --trace the bench starts Chromium's trace first, then says go.
  for (const go = process.env.BENCH_GO; go && !fs.existsSync(go);) await new Promise(r => setTimeout(r, 20));
  const start = Date.now();
  const t0 = performance.now();
  await ext.activate();
  const activateMs = performance.now() - t0;
  await vscode.commands.executeCommand(`${view}.focus`);
  fs.writeFileSync(out, JSON.stringify({ start, activateMs }));
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(`${out}.done`) && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
};
