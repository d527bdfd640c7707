// The chat webview's texts come from the bundle the host passes. In the real workbench (English) the
// host passes no bundle and sets <html lang="en">; then the same webview code, given a pseudo
// translation of l10n/bundle.l10n.json (every text wrapped in «»), shows that translation, with the
// placeholders filled, in the texts it builds itself (status line, tab tooltips, buttons).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, { turns: [] });

export default async function ({ page, log, repoRoot }) {
  const { view } = await openChat(page);

  // English: no bundle, the language on <html>, the shell's texts as before.
  assert.equal(await view.locator('html').getAttribute('lang'), 'en');
  const data = JSON.parse(await view.locator('script#l10n').evaluate(e => e.textContent));
  assert.deepEqual(data, { lang: 'en' });
  assert.equal((await view.locator('#send').textContent()).trim(), 'Send');
  assert.equal(await view.locator('#prompt').getAttribute('placeholder'), 'Ask the agent… (Enter to send, Shift+Enter for a new line, / for commands, @ for files)');
  assert.equal(await view.locator('#tab-actions button').first().getAttribute('aria-label'), 'New conversation');
  log('English view: no bundle, lang="en", texts unchanged');

  // The shell as the host rendered it, emptied of what the webview fills in, without scripts.
  const body = await view.locator('body').evaluate(b => {
    const c = b.cloneNode(true);
    for (const id of ['tabs', 'tab-actions', 'status', 'transcript', 'announcer', 'writes', 'changes', 'plan', 'completions', 'attachments', 'config', 'usage']) c.querySelector(`#${id}`)?.replaceChildren();
    c.querySelectorAll('script').forEach(s => s.remove());
    return c.innerHTML;
  });
  const source = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n/bundle.l10n.json'), 'utf8'));
  const bundle = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, `«${typeof v === 'string' ? v : v.message}»`]));
  const json = JSON.stringify({ lang: 'de', bundle }).replace(/</g, '\\u003c');

  const p = await page.context().newPage();
  try {
    // chat.js loads ./markdown.js (relative to its own URL) on first need: served from dist/webview at a test origin.
    const html = `<!DOCTYPE html><html lang="de"><head><script type="application/json" id="l10n">${json}</script>
<script>window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return undefined; }, setState() {} });</script></head><body>${body}<script src="chat.js"></script></body></html>`;
    await p.route('http://switchboard.test/**', route => {
      const name = path.basename(new URL(route.request().url()).pathname);
      if (name === 'index.html') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: html });
      return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: fs.readFileSync(path.join(repoRoot, 'dist/webview', name)) });
    });
    await p.goto('http://switchboard.test/index.html');
    const post = m => p.evaluate(msg => window.postMessage(msg, '*'), m);
    const abilities = { image: false, embeddedContext: false };

    assert.deepEqual(await p.locator('#tab-actions button').evaluateAll(bs => bs.map(b => b.getAttribute('aria-label'))),
      ['«New conversation»', '«The agent\'s sessions»']);
    await post({ type: 'status', status: { agentName: undefined, status: 'stopped', detail: '' }, abilities });
    await p.locator('#status', { hasText: '«No agent running»' }).waitFor({ timeout: 30_000 });
    assert.equal(await p.locator('#agent').textContent(), '«Choose agent»');

    await post({ type: 'tabs', tabs: [{ id: 't1', title: 'Chat', agentName: 'Scripted', state: 'idle' }], activeTab: 't1' });
    await post({ type: 'status', status: { agentName: 'Scripted', status: 'ready', detail: '' }, abilities });
    await p.locator('#status', { hasText: '«Scripted · «running»»' }).waitFor({ timeout: 30_000 });
    assert.equal(await p.locator('[role="tab"]').getAttribute('title'), '«Chat — Scripted («idle»). Delete closes it.»');
    assert.equal(await p.locator('.tab-close').getAttribute('title'), '«Close Chat»');
    log('pseudo-translated bundle: the webview shows its texts');
  } finally {
    await p.close();
  }
}
