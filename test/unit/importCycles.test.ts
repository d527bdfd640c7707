// No import circles in src/ (issue 19.6): a module never needs, through others, a module that needs
// it. A circle makes the load order decide what is initialized (an `undefined` at activation) and
// ties modules that should be apart (the session and its queue, the session and its saving).
// Type-only imports (`import type`) are erased at build time and do not count; one such circle is
// known and listed below, to be removed, never added to.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const src = path.resolve('src');
const files = fs.readdirSync(src, { recursive: true }).map(String).filter(f => f.endsWith('.ts')).map(f => path.join(src, f));

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts')].find(f => fs.existsSync(f));
}

/** The local modules `file` imports; `withTypes`: `import type` too. */
function importsOf(file: string, withTypes: boolean): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(import|export)(\s+type)?\b[^'"]*?from\s+'(\.[^']+)'|\b(?:import|require)\s*\(\s*'(\.[^']+)'/gm)]
    .filter(m => withTypes || !m[2])
    .map(m => m[3] ?? m[4]);
  return specs.map(s => resolve(file, s)).filter((f): f is string => !!f);
}

/** The import circles (strongly connected components of more than one module, or a module importing itself). */
function circles(withTypes: boolean): string[][] {
  const graph = new Map(files.map(f => [f, importsOf(f, withTypes)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next++); stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); scc.push(path.relative(src, w).split(path.sep).join('/')); } while (w !== v);
    if (scc.length > 1 || graph.get(v)?.includes(v)) found.push(scc.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

describe('import circles', () => {
  it('src/ has none', () => {
    assert.deepEqual(circles(false), []);
  });

  it('counting type-only imports, only the known one (transcript types used by turns)', () => {
    assert.deepEqual(circles(true), [['common/transcript.ts', 'common/turns.ts']]);
  });
});
