#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other (each prints its own ratios against a
// baseline measured in the same run), then a summary of every `ratio <case>: <x>` line they printed.
// Run one with `npm run bench:<name>`; arguments are passed to each.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const names = ['activation', 'stream', 'two-agents', 'long-conversation', 'fs-read', 'terminal', 'fuzz', 'checkpoint', 'inspector']
  .filter(name => fs.existsSync(path.join(here, name, 'run.mjs')));

/** Runs one benchmark, its output shown as it comes; resolves its exit code and its `ratio` lines. */
function run(name) {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [path.join(here, name, 'run.mjs'), ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'] });
    const ratios = [];
    let rest = '';
    child.stdout.on('data', chunk => {
      process.stdout.write(chunk);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) if (/^ratio \S+: /.test(line)) ratios.push(line.trim());
    });
    child.on('close', (code, signal) => {
      if (/^ratio \S+: /.test(rest)) ratios.push(rest.trim());
      resolve({ code: code ?? signal, ratios });
    });
  });
}

const summary = [];
let failed = 0;
for (const name of names) {
  console.log(`\n==> bench/${name}`);
  const { code, ratios } = await run(name);
  if (code !== 0) { failed++; console.log(`bench/${name} failed (exit ${code})`); }
  summary.push({ name, code, ratios });
}

console.log(`\n==> summary (${os.cpus().length} CPUs, ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, load ${os.loadavg().map(x => x.toFixed(1)).join(' ')})`);
for (const { name, code, ratios } of summary) {
  if (code !== 0) console.log(`bench/${name}: failed (exit ${code})`);
  else if (!ratios.length) console.log(`bench/${name}: no ratio lines`);
  for (const line of ratios) console.log(line);
}
process.exit(failed ? 1 : 0);
