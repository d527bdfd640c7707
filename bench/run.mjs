#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other (each prints its own ratios against a
// baseline measured in the same run). Run one with `npm run bench:<name>`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const name of ['activation', 'stream', 'fs-read', 'terminal']) {
  console.log(`\n==> bench/${name}`);
  const r = spawnSync(process.execPath, [path.join(here, name, 'run.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.log(`bench/${name} failed (exit ${r.status ?? r.signal})`); }
}
process.exit(failed ? 1 : 0);
