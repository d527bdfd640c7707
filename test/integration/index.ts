// Loaded by the VS Code extension host (extensionTestsPath): runs every *.test.js of this folder
// with mocha, inside the real editor. MOCHA_GREP narrows the run (test/runner/run.mjs --grep).
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, grep: process.env.MOCHA_GREP || undefined });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  return new Promise((resolve, reject) => {
    mocha.run(failures => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
