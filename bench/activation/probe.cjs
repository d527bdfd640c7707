// Runs inside the extension host of each bench/activation round (as the workbench's
// extensionTestsPath). It checks the extension under test is NOT active yet (nothing activated it
// at start-up), waits for the window to settle (below), opens the extension's view, which activates
// it, and reports `{ start, activateMs }` (`activateMs` with BENCH_ACTIVATE_FIRST: activate() timed
// on its own before the view opens); the bench then waits for the view to be ready in the page and
// writes `<out>.done`, which ends the session.
const fs = require('node:fs');
const vscode = require('vscode');

exports.run = async function run() {
  const { BENCH_EXT_ID: id, BENCH_VIEW: view, BENCH_OUT: out } = process.env;
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error(`extension ${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} was activated at start-up, before its view was opened`);
  // Unless the bench runs --at-startup: wait for this extension host to finish its start-up (the
  // built-in extensions that activate at start-up), three 100 ms windows in a row using under 8 ms
  // of CPU, at most 30 s; the bench then waits for the workbench page to settle and says go.
  if (process.env.BENCH_SETTLED) {
    const since = Date.now();
    let quiet = 0;
    while (quiet < 3 && Date.now() < since + 30_000) {
      const before = process.cpuUsage();
      await new Promise(r => setTimeout(r, 100));
      const used = process.cpuUsage(before);
      quiet = (used.user + used.system) / 1000 < 8 ? quiet + 1 : 0;
    }
    // Whole or not at all: the bench reads it as soon as the name exists.
    fs.writeFileSync(`${process.env.BENCH_SETTLED}.tmp`, JSON.stringify({ waitedMs: Date.now() - since, quiet: quiet === 3 }));
    fs.renameSync(`${process.env.BENCH_SETTLED}.tmp`, process.env.BENCH_SETTLED);
  }
  // The bench says go once the workbench page has settled too (and, with --trace, its trace runs).
  for (const go = process.env.BENCH_GO; go && !fs.existsSync(go);) await new Promise(r => setTimeout(r, 20));
  if (ext.isActive) throw new Error(`${id} was activated while the window settled, before its view was opened`);
  const start = Date.now();
  let activateMs;
  if (process.env.BENCH_ACTIVATE_FIRST) {
    // activate() on its own first, timed, then the view opened: the two one after the other.
    const t0 = performance.now();
    await ext.activate();
    activateMs = performance.now() - t0;
  }
  // As a user opens it (the activity bar's icon): VS Code opens the view and, on it, activates the
  // extension (its view's implicit activation event), so the two overlap.
  await vscode.commands.executeCommand(`${view}.focus`);
  fs.writeFileSync(out, JSON.stringify({ start, activateMs }));
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(`${out}.done`) && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
  if (!ext.isActive) throw new Error(`${id} is not active after its view was shown`);
};
