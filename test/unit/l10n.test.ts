// Localization: the manifest's strings live in package.nls.json, the code's (host `vscode.l10n.t` and
// webview `@vscode/l10n` `l10n.t`) in l10n/bundle.l10n.json (written by `npm run l10n`); both must be current.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

describe('localization', () => {
  it('l10n/bundle.l10n.json holds exactly the strings of the l10n.t calls in src and webview (run `npm run l10n`)', function () {
    this.timeout(30_000);
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
