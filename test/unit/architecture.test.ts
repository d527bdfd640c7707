// docs/architecture.md stays true (rust-analyzer's tidy checks): every folder of src/, webview/,
// test/ and bench/ is on its code map, and the import rules it states hold. The layer order of
// src/ itself is test/unit/layers.test.ts. Decision records keep their form and their index.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const map = fs.readFileSync('docs/architecture.md', 'utf8');
const dirs = (root: string) => fs.readdirSync(root, { withFileTypes: true }).filter(d => d.isDirectory()).map(d => d.name).sort();
const files = (root: string, suffix: RegExp) => fs.readdirSync(root, { recursive: true }).map(String).filter(f => suffix.test(f)).map(f => path.join(root, f));
/** The text of the code map's section for a folder (`### \`src/host/\``), up to the next heading. */
const section = (folder: string) => map.split(/^#{2,3} /m).find(s => s.startsWith(`\`${folder}\``)) ?? '';
/** What a source file imports or requires (module specifiers). */
const importsOf = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/(?:^\s*(?:import|export)\b[^'"]*?from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/gm)].map(m => m[1]);

describe('architecture map', () => {
  it('has a section for every folder of src/ and names each of its sub-folders there', () => {
    const missing: string[] = [];
    for (const d of dirs('src')) {
      const text = section(`src/${d}/`);
      if (!text) { missing.push(`src/${d}/`); continue; }
      for (const sub of dirs(path.join('src', d))) if (!text.includes(`\`${sub}/`)) missing.push(`src/${d}/${sub}/`);
    }
    assert.deepEqual(missing, []);
  });

  it('names every folder of test/ and bench/ in their sections, and has webview/ and scripts/', () => {
    const missing = [
      ...dirs('test').filter(d => d !== 'fixtures').map(d => `${d}/`).filter(d => !section('test/').includes(`\`${d}`)),
      ...dirs('test/fixtures').map(d => `fixtures/${d}/`).filter(d => !section('test/').includes(`\`${d}`)),
      ...dirs('bench').filter(d => !section('bench/').includes(`\`${d}\``)),
      ...['webview/', 'scripts/', 'src/extension.ts'].filter(f => !section(f)),
    ];
    assert.deepEqual(missing, []);
  });

  it('src/common never imports vscode', () => {
    const wrong = files('src/common', /\.ts$/).filter(f => importsOf(f).includes('vscode'));
    assert.deepEqual(wrong, []);
  });

  it('webview/ imports only itself, src/common and browser packages', () => {
    const wrong: string[] = [];
    for (const f of files('webview', /\.ts$/)) {
      for (const m of importsOf(f)) {
        const local = m.startsWith('.');
        const inCommon = local && path.resolve(path.dirname(f), m).startsWith(path.resolve('src/common') + path.sep);
        const inWebview = local && path.resolve(path.dirname(f), m).startsWith(path.resolve('webview') + path.sep);
        if (m === 'vscode' || m.startsWith('node:') || (local && !inCommon && !inWebview)) wrong.push(`${f} -> ${m}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('the scripted agent shares no code with src/', () => {
    const wrong = files('test/fixtures/agent', /\.m?js$/).flatMap(f => importsOf(f).filter(m => m.includes('src/')).map(m => `${f} -> ${m}`));
    assert.deepEqual(wrong, []);
  });
});

describe('decision records', () => {
  const dir = 'docs/decisions';
  const records = fs.readdirSync(dir).filter(f => f !== 'README.md').sort();

  it('are numbered NNNN-title.md from 0001 without gaps, each with context, decision and consequences', () => {
    const problems: string[] = [];
    records.forEach((f, i) => {
      if (!f.startsWith(`${String(i + 1).padStart(4, '0')}-`) || !/^\d{4}-[a-z0-9-]+\.md$/.test(f)) problems.push(`${f}: expected ${String(i + 1).padStart(4, '0')}-<title>.md`);
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      for (const h of ['## Context', '## Decision', '## Consequences']) if (!text.includes(`\n${h}\n`)) problems.push(`${f}: no "${h}"`);
    });
    assert.ok(records.length > 0);
    assert.deepEqual(problems, []);
  });

  it('are all listed in docs/decisions/README.md', () => {
    const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert.deepEqual(records.filter(f => !index.includes(`(${f})`)), []);
  });
});
