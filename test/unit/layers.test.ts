// The layers of src/: imports point down only (acp and host are siblings and may use each other's types).
//   common (pure) < acp, host (VS Code adapters) < session < views < extension.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const src = path.resolve('src');
const rank: Record<string, number> = { common: 0, acp: 1, host: 1, session: 2, views: 3 };
const layerOf = (file: string) => path.relative(src, file).split(path.sep)[0];

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)].map(m => path.resolve(path.dirname(file), m[1]));
}

describe('source layers', () => {
  const files = fs.readdirSync(src, { recursive: true }).map(String).filter(f => f.endsWith('.ts')).map(f => path.join(src, f));

  it('finds the sources', () => assert.ok(files.length > 20, `${files.length} files under ${src}`));

  it('no module imports from a layer above its own', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (!(from in rank)) continue; // extension.ts: the composition root may import anything
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (!(to in rank)) { wrong.push(`${path.relative(src, file)} -> ${path.relative(src, target)}`); continue; }
        if (rank[to] > rank[from]) wrong.push(`${path.relative(src, file)} -> ${path.relative(src, target)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('src/common and src/acp never import `vscode` (bare module names count, type-only imports and require too)', () => {
    const bare = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/(?:^\s*(?:import|export)\b[^'"]*?from\s+|^\s*import\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'".][^'"]*)['"]/gm)].map(m => m[1]);
    const wrong = files.filter(f => ['common', 'acp'].includes(layerOf(f))).filter(f => bare(f).some(m => m === 'vscode' || m.startsWith('vscode/')))
      .map(f => path.relative(src, f));
    assert.deepEqual(wrong, []);
  });
});
