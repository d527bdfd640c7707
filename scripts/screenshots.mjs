#!/usr/bin/env node
// `npm run screenshots`: refreshes the README's pictures from a real session. Runs the e2e module
// test/e2e/listing.e2e.mjs (Light+ and Dark+, see its header), then copies its pictures from
// test-results/screenshots/listing-<scene>-<theme>.png to media/screenshots/<scene>-<theme>.png.
// Fails when a picture is missing or they add up to more than the budget (they are committed, and
// linked from the README on GitHub, not packaged: see .vscodeignore).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(root, 'test-results/screenshots');
const to = path.join(root, 'media/screenshots');
const SCENES = ['chat', 'review', 'terminal', 'permission', 'changes'];
const BUDGET = 1.5 * 1024 * 1024;

for (const f of fs.existsSync(from) ? fs.readdirSync(from) : []) if (f.startsWith('listing-')) fs.rmSync(path.join(from, f));
const r = spawnSync(process.execPath, [path.join(root, 'test/runner/run.mjs'), '--e2e', 'listing'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) { console.error('screenshots: the listing e2e module failed; media/screenshots/ is unchanged'); process.exit(1); }

const names = SCENES.flatMap(s => ['light', 'dark'].map(t => `${s}-${t}.png`));
const missing = names.filter(n => !fs.existsSync(path.join(from, `listing-${n}`)));
if (missing.length) { console.error(`screenshots: missing ${missing.join(', ')}`); process.exit(1); }
fs.mkdirSync(to, { recursive: true });
let total = 0;
for (const n of names) {
  fs.copyFileSync(path.join(from, `listing-${n}`), path.join(to, n));
  const size = fs.statSync(path.join(to, n)).size;
  total += size;
  console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB  media/screenshots/${n}`);
}
console.log(`  ${(total / 1024).toFixed(1).padStart(7)} KB  total (budget ${(BUDGET / 1024).toFixed(0)} KB)`);
if (total > BUDGET) { console.error('screenshots: over budget; crop the pictures in test/e2e/listing.e2e.mjs'); process.exit(1); }
