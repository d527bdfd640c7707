// The Node.js the project is developed, tested and packaged with is one fact: the major in .nvmrc.
// package.json's engines.node, the README's and CONTRIBUTING's set-up lines and .ci/run (which
// installs that major on an older machine) must say the same, or `npm ci` warns on the Node one of
// them names. The test tools' own Node (test/runner/install-tools.sh, what code-server runs on) is
// another fact and is named only there and in test/e2e/README.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';

/** Every Node.js major a text names in prose ("Node 22", "Node.js 22 or later", "node@22", "Node.js >= 22"). */
function namedNodeMajors(text: string): number[] {
  return [...text.matchAll(/\bnode(?:\.js)?(?:@|\s+(?:v|>=\s*)?)(\d+)\b/gi)].map(m => Number(m[1]));
}

/** The major of an engines range we write: `>=22`, `>=22.0`, `>=22.0.0`; undefined for anything else. */
function engineFloor(range: unknown): number | undefined {
  const m = typeof range === 'string' ? /^>=\s*(\d+)(?:\.0){0,2}$/.exec(range.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

/** What each place says, and what disagrees with .nvmrc. */
function nodeVersionProblems(files: { nvmrc: string; packageJson: string; readme: string; contributing?: string; ciRun: string }): string[] {
  const problems: string[] = [];
  const nvmrc = /^\s*(\d+)\s*$/.exec(files.nvmrc)?.[1];
  if (!nvmrc) return [`.nvmrc: '${files.nvmrc.trim()}' is not a Node.js major (write e.g. 22)`];
  const want = Number(nvmrc);
  const range = (JSON.parse(files.packageJson) as { engines?: { node?: unknown } }).engines?.node;
  const floor = engineFloor(range);
  if (floor !== want) problems.push(`package.json engines.node: ${JSON.stringify(range)}, .nvmrc says ${want} (write ">=${want}")`);
  const prose = (name: string, text: string | undefined, required: boolean) => {
    if (text === undefined) return;
    const named = namedNodeMajors(text);
    if (required && !named.length) problems.push(`${name}: names no Node.js version (its set-up line should say Node.js ${want})`);
    for (const n of new Set(named.filter(n => n !== want))) problems.push(`${name}: names Node.js ${n}, .nvmrc says ${want}`);
  };
  prose('README.md', files.readme, true);
  prose('CONTRIBUTING.md', files.contributing, false);
  prose('.ci/run', files.ciRun, false);
  if (!files.ciRun.includes('.nvmrc')) problems.push('.ci/run: does not read .nvmrc (it must install the Node.js named there)');
  return problems;
}

const read = (f: string) => fs.readFileSync(f, 'utf8');

describe('Node.js version', () => {
  it('.nvmrc, engines.node, README, CONTRIBUTING and .ci/run name the same major', () => {
    assert.deepEqual(nodeVersionProblems({
      nvmrc: read('.nvmrc'), packageJson: read('package.json'), readme: read('README.md'),
      contributing: fs.existsSync('CONTRIBUTING.md') ? read('CONTRIBUTING.md') : undefined, ciRun: read('.ci/run'),
    }), []);
  });

  it('names each place that disagrees', () => {
    const ok = { nvmrc: '22\n', packageJson: '{"engines":{"node":">=22"}}', readme: 'Node.js 22 or later', ciRun: 'NODE_MAJOR="$(cat .nvmrc)"' };
    assert.deepEqual(nodeVersionProblems(ok), []);
    assert.deepEqual(nodeVersionProblems({ ...ok, packageJson: '{"engines":{"node":">=20"}}' }), ['package.json engines.node: ">=20", .nvmrc says 22 (write ">=22")']);
    assert.deepEqual(nodeVersionProblems({ ...ok, packageJson: '{"engines":{}}' }), ['package.json engines.node: undefined, .nvmrc says 22 (write ">=22")']);
    assert.deepEqual(nodeVersionProblems({ ...ok, readme: 'Node 20+ and npm' }), ['README.md: names Node.js 20, .nvmrc says 22']);
    assert.deepEqual(nodeVersionProblems({ ...ok, readme: 'any Node' }), ['README.md: names no Node.js version (its set-up line should say Node.js 22)']);
    assert.deepEqual(nodeVersionProblems({ ...ok, contributing: 'runs on node@24' }), ['CONTRIBUTING.md: names Node.js 24, .nvmrc says 22']);
    assert.deepEqual(nodeVersionProblems({ ...ok, ciRun: 'Node.js >= 20 is required' }), [
      '.ci/run: names Node.js 20, .nvmrc says 22', '.ci/run: does not read .nvmrc (it must install the Node.js named there)']);
    assert.deepEqual(nodeVersionProblems({ ...ok, nvmrc: 'lts/*' }), [".nvmrc: 'lts/*' is not a Node.js major (write e.g. 22)"]);
  });
});
