// Localization: the manifest's strings live in package.nls.json, the code's (host `vscode.l10n.t` and
// webview `@vscode/l10n` `l10n.t`) in l10n/bundle.l10n.json (written by `npm run l10n`); both must be current.
// src/common (no `vscode`) uses `@vscode/l10n` too; the host hands it VS Code's bundle (src/host/l10n.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as l10n from '@vscode/l10n';
import ts from 'typescript';
import { describeAgentEnd } from '../../src/common/connectionLoss';
import { contentFromValues } from '../../src/common/elicitation';
import { describeExit } from '../../src/common/terminal';

const sources = (...dirs: string[]) => dirs.flatMap(d => fs.readdirSync(d, { recursive: true }).map(f => path.join(d, String(f)))).filter(f => f.endsWith('.ts'));

/** Every node of a file, with the name of the top-level declaration it is in ('' for none). */
function* nodesOf(file: string): Generator<{ node: ts.Node; top: string; src: ts.SourceFile }> {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const stmt of src.statements) {
    const top = ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt) || ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt)
      ? stmt.name?.text ?? '' : ts.isVariableStatement(stmt) ? stmt.declarationList.declarations.map(d => d.name.getText(src)).join(',') : '';
    const walk = function* (node: ts.Node): Generator<{ node: ts.Node; top: string; src: ts.SourceFile }> {
      yield { node, top, src };
      for (const child of node.getChildren(src)) yield* walk(child);
    };
    yield* walk(stmt);
  }
}

const isL10nCall = (n: ts.Node): n is ts.CallExpression => ts.isCallExpression(n) && /^(vscode\.)?l10n\.t$/.test(n.expression.getText());
const within = (n: ts.Node, test: (a: ts.Node) => boolean): boolean => { for (let a = n.parent; a; a = a.parent) if (test(a)) return true; return false; };

describe('localization', () => {
  it('l10n/bundle.l10n.json holds exactly the strings of the l10n.t calls in src and webview (run `npm run l10n`)', function () {
    this.timeout(120_000);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-l10n-'));
    const r = spawnSync(process.execPath, ['node_modules/@vscode/l10n-dev/dist/cli.js', 'export', '--outDir', out, 'src', 'webview'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const fresh = JSON.parse(fs.readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8'));
    const committed = JSON.parse(fs.readFileSync('l10n/bundle.l10n.json', 'utf8'));
    assert.deepEqual(committed, fresh);
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('the host passes no raw text to what the user sees (vscode.l10n.t instead)', () => {
    // Literal text as a notification, an editor tab title, a start error shown in the chat, or a
    // title / placeholder / tooltip / label of a quick pick, tree item or status bar item.
    const rules = [
      /show(Information|Warning|Error)Message\(\s*['"`]/,
      /createWebviewPanel\([^,]+,\s*['"`]/,
      /new AgentStartError\(\s*['"`]/,
      /\b(title|placeholder|placeHolder|prompt|tooltip|label|detail|description)\s*[:=]\s*['"`][A-Z]/,
    ];
    const raw: string[] = [];
    const files = ['src/acp', 'src/host', 'src/session', 'src/views'].flatMap(d => fs.readdirSync(d, { recursive: true }).map(f => path.join(d, String(f))))
      .concat('src/extension.ts').filter(f => f.endsWith('.ts'));
    for (const f of files) {
      fs.readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
        if (rules.some(r => r.test(line)) && !/CLIENT_INFO/.test(line)) raw.push(`${f}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
    }
    assert.deepEqual(raw, []);
  });

  // Text that src/common builds stays English only where the user never reads it: each entry says why.
  const ENGLISH_ON_PURPOSE: Record<string, string> = {
    'src/common/agentConfig.ts#AGENT_PRESETS': 'product names',
    'src/common/agentDetect.ts#INSTALLED_LAUNCHES': 'product names',
    'src/common/welcome.ts#SIGN_IN_EVIDENCE': 'product names',
    'src/common/connectionLoss.ts#describeConnectionLoss': 'compared with the SDK\'s own message (what is shown is l10n.t)',
    ...Object.fromEntries(['formFromSchema', 'parseSchema', 'parseField', 'plainOptions', 'titledOptions', 'optCount', 'optText', 'urlTarget']
      .map(f => [`src/common/elicitation.ts#${f}`, 'JSON-RPC error for the agent (a refused elicitation/create)'])),
    'src/common/fs/errors.ts#FsErrors': 'JSON-RPC error for the agent (fs/*)',
    'src/common/fs/errors.ts#fromNodeError': 'JSON-RPC error for the agent (fs/*)',
    'src/common/requestGuard.ts#pathProblem': 'JSON-RPC error for the agent',
    'src/common/requestGuard.ts#envProblem': 'JSON-RPC error for the agent',
    'src/common/requestGuard.ts#commandProblem': 'JSON-RPC error for the agent',
    'src/common/terminal/spawnPlan.ts#GROUP_LAUNCHER_SCRIPT': 'a Perl program; its "Could not start" line is terminal output the agent reads',
    'src/common/terminal/outputBuffer.ts#OutputBuffer': 'a programming error (RangeError)',
    'src/common/parallel/panelHtml.ts#button': 'HTML markup (its text is l10n.t)',
    'src/common/parallel/panelHtml.ts#renderRun': 'HTML markup (its text is l10n.t)',
    'src/common/parallel/panelHtml.ts#renderQuestion': 'HTML markup and class names (its text is l10n.t)',
    // Left for now: these are parts of the English errors of src/host/registry (DownloadError,
    // ArchiveError); that chain is to be localized as a whole, in one change.
    ...Object.fromEntries(['safeEntryPath', 'linkStaysInside', 'relativeCommand'].map(f => [`src/common/registry/archive.ts#${f}`, 'registry errors (left)'])),
    ...Object.fromEntries(['describe', 'parseRegistry', 'usableDistribution'].map(f => [`src/common/registry/schema.ts#${f}`, 'registry errors (left)'])),
  };

  it('src/common builds no English text the user reads outside l10n.t (@vscode/l10n)', () => {
    const english = (text: string) => /[A-Za-z]{2,} [A-Za-z]{2,}/.test(text) || /^[A-Z][a-z]+\.$/.test(text);
    const raw: string[] = [];
    for (const file of sources('src/common')) {
      for (const { node, top, src } of nodesOf(file)) {
        const text = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text
          : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map(t => t.literal.text)].join(' x ') : undefined;
        if (text === undefined || !english(text) || within(node, a => ts.isImportDeclaration(a) || ts.isTemplateExpression(a) || isL10nCall(a))) continue;
        if (`${file}#${top}` in ENGLISH_ON_PURPOSE) continue;
        raw.push(`${file}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1} (${top}): ${node.getText().slice(0, 80)}`);
      }
    }
    assert.deepEqual(raw, []);
  });

  it('l10n.t runs when text is built, not at module load (the host configures the bundle at activation), with literal comments', () => {
    const wrong: string[] = [];
    for (const file of sources('src', 'webview')) {
      for (const { node, src } of nodesOf(file)) {
        if (!isL10nCall(node)) continue;
        const where = `${file}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (file.startsWith(path.join('src', 'common')) && !within(node, ts.isFunctionLike)) wrong.push(`${where}: at module load`);
        // The bundle's key is message + comment: a comment l10n-dev cannot read is a key no translation matches.
        const options = node.arguments[0];
        const comment = options && ts.isObjectLiteralExpression(options)
          ? options.properties.find(p => ts.isPropertyAssignment(p) && p.name.getText() === 'comment') as ts.PropertyAssignment | undefined : undefined;
        if (comment && !(ts.isStringLiteral(comment.initializer) || ts.isArrayLiteralExpression(comment.initializer) && comment.initializer.elements.every(ts.isStringLiteral))) {
          wrong.push(`${where}: comment is not literal`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('a configured bundle reaches the text src/common builds (English without one)', () => {
    const bundle = JSON.parse(fs.readFileSync('l10n/bundle.l10n.json', 'utf8')) as Record<string, string | { message: string; comment: string[] }>;
    const pseudo = Object.fromEntries(Object.entries(bundle).map(([k, v]) => [k, `«${typeof v === 'string' ? v : v.message}»`]));
    const sample = () => [
      describeExit({ exitCode: 2, signal: null }, false),
      describeAgentEnd('Codex', { code: 1, signal: null }),
      contentFromValues({ fields: [{ kind: 'number', name: 'n', title: 'N', required: true, integer: true }] }, { n: 'many' }).errors.n,
    ];
    assert.deepEqual(sample(), ['process exited with code 2', 'Codex crashed (exit code 1).', 'Enter a whole number.']);
    try {
      l10n.config({ contents: pseudo });
      assert.deepEqual(sample(), ['«process exited with code 2»', '«Codex crashed (exit code 1).»', '«Enter a whole number.»']);
    } finally {
      l10n.config({ contents: {} });
    }
  });

  it('user-facing manifest strings are %placeholders%', () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
    const literal: string[] = [];
    const check = (where: string, v: unknown) => { if (typeof v === 'string' && !/^%[^%]+%$/.test(v)) literal.push(`${where}: ${v.slice(0, 40)}`); };
    check('displayName', manifest.displayName);
    check('description', manifest.description);
    for (const c of manifest.contributes.commands) { check(c.command, c.title); check(`${c.command} category`, c.category); }
    for (const views of Object.values<{ id: string; name: string }[]>(manifest.contributes.views)) for (const v of views) check(v.id, v.name);
    const walk = (key: string, s: Record<string, any>) => {
      check(key, s.description); check(key, s.markdownDescription);
      (s.enumDescriptions ?? []).forEach((d: string) => check(key, d));
      for (const [k, p] of Object.entries<Record<string, any>>(s.properties ?? {})) walk(`${key}.${k}`, p);
      for (const a of s.additionalProperties?.anyOf ?? []) walk(key, a);
    };
    for (const [k, s] of Object.entries<Record<string, any>>(manifest.contributes.configuration.properties)) walk(k, s);
    assert.deepEqual(literal, []);
  });
});
