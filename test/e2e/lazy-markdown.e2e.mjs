// The markdown renderer (markdown-it + DOMPurify, most of the webview's code) is not loaded with the
// chat: an empty chat runs without it, and it loads (dist/webview/markdown.js) when the first agent
// markdown needs it. Text that arrives before it is shown as plain text (never as HTML) and rendered
// when it arrives; a restored conversation (the view hidden and shown: a new page) renders as before,
// and that new page never shows the older state written into its HTML (the chat as it was first made).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

const ANSWER = 'Here is **bold** and `code`, and <b>raw</b> <img src=x onerror="document.title=1">.\n\n```js\nconst x = 1;\n```\n\nDone.';

export const settings = ({ repoRoot, node24 }) => scriptedAgentSettings({ repoRoot, node24 }, {
  turns: [{
    steps: [
      { type: 'toolCall', toolCall: { toolCallId: 't1', title: 'Read `README.md`', kind: 'read', status: 'completed' } },
      { type: 'text', text: ANSWER },
    ],
  }],
});

/** The scripts the webview page has loaded so far, by file name (dist/webview/<name>). */
const scriptsLoaded = view => view.locator('body').evaluate(() => performance.getEntriesByType('resource')
  .map(e => /dist\/webview\/([\w-]+\.js)(?:$|[?#])/.exec(decodeURIComponent(e.name))?.[1]).filter(Boolean));

/**
 * In every webview page from its start: whether agent text was ever shown plain (before the
 * renderer), rendered, or as live HTML it should never be (the agent's raw <b> and <img onerror>);
 * and whether it was ever ready (its state shown) without the answer.
 * VS Code writes the page into the frame after this runs (document.open drops observers and
 * listeners), so a timer attaches the observer to #transcript as soon as it exists.
 */
function watchTranscript() {
  if (window === window.top) return;
  const seen = window.mdSeen = { plain: false, rendered: false, unsafe: [], readyWithoutAnswer: false };
  const check = t => {
    if (document.body.dataset.ready === 'true' && !t.textContent.includes('Done.')) seen.readyWithoutAnswer = true;
    for (const el of t.querySelectorAll('.message.agent .md-plain')) if (el.textContent.includes('**bold**')) seen.plain = true;
    if (t.querySelector('.message.agent strong')) seen.rendered = true;
    for (const el of t.querySelectorAll('b, script, [onerror]')) seen.unsafe.push(el.outerHTML);
  };
  const timer = setInterval(() => {
    const t = document.getElementById('transcript');
    if (!t) return;
    clearInterval(timer);
    check(t);
    new MutationObserver(() => check(t)).observe(t, { childList: true, subtree: true, characterData: true });
    new MutationObserver(() => check(t)).observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  }, 0);
}

async function checkAnswer(view, what) {
  const answer = view.locator('.message.agent', { hasText: 'Done.' });
  await answer.locator('strong', { hasText: 'bold' }).waitFor({ timeout: 30_000 });
  assert.equal(await answer.locator('code', { hasText: /^code$/ }).count(), 1, `${what}: inline code is rendered`);
  assert.equal(await answer.locator('.code-block button.copy[aria-label="Copy code"]').count(), 1, `${what}: the code block has its copy button`);
  assert.match(await answer.textContent(), /<b>raw<\/b> <img src=x onerror="document.title=1">/, `${what}: raw HTML stays text`);
  assert.equal(await view.locator('.md-plain').count(), 0, `${what}: nothing is left as plain text`);
  assert.equal(await view.locator('.tool .tool-title code').textContent(), 'README.md', `${what}: the tool title is rendered`);
  assert.equal(await view.locator('.tool').getAttribute('aria-label'), 'Tool call Read README.md, completed', `${what}: the tool card's label is its title's text`);
}

export default async function ({ page, log, shotsDir, repoRoot }) {
  await page.addInitScript(watchTranscript);
  const { view, prompt } = await openChat(page, { patient: true });
  // A new chat, nothing said yet (the agent starts with the first prompt): no renderer.
  const first = await scriptsLoaded(view);
  assert.ok(!first.includes('markdown.js'), `an empty chat does not load the markdown renderer: ${first}`);
  // The chat's own script is written into the page (src/views/pageHtml.ts): it does not hold the
  // renderer either.
  const inline = await view.locator('body').evaluate(() => [...document.scripts].filter(s => !s.src && s.type !== 'application/json').map(s => s.text).join('\n'));
  assert.ok(inline.includes('view/ready'), `the chat's script is in the page (${inline.length} characters of inline script)`);
  assert.ok(!/SAFE_FOR_TEMPLATES|linkify/.test(inline), 'the chat\'s script holds DOMPurify or markdown-it');
  // Codicons are in the page too, their font named by its webview URL: the icons are drawn.
  const codicon = await view.locator('body').evaluate(async () => {
    await document.fonts.ready;
    const icon = document.querySelector('#parallel .codicon');
    return { loaded: [...document.fonts].some(f => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'), width: icon?.getBoundingClientRect().width ?? 0 };
  });
  assert.ok(codicon.loaded && codicon.width > 0, `the codicon font is loaded and the Run in Parallel icon drawn: ${JSON.stringify(codicon)}`);
  for (const f of first) {
    const text = fs.readFileSync(path.join(repoRoot, 'dist/webview', f), 'utf8');
    assert.ok(!/SAFE_FOR_TEMPLATES|linkify/.test(text), `${f}, loaded by an empty chat, holds DOMPurify or markdown-it`);
  }
  log(`empty chat loaded ${first.join(', ')}: no markdown renderer`);

  await prompt.fill('Show me some markdown');
  await prompt.press('Enter');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });
  await checkAnswer(view, 'streamed answer');
  const after = await scriptsLoaded(view);
  assert.ok(after.includes('markdown.js'), `the answer loaded the markdown renderer: ${after}`);
  await page.screenshot({ path: path.join(shotsDir, 'lazy-markdown-answer.png') });
  log(`after the answer: ${after.join(', ')}`);

  // Hidden and shown: a new page gets the conversation back, shows it plain at once, then rendered.
  await view.locator('body').evaluate(() => { window.beforeHiding = true; });
  await page.getByRole('tab', { name: /Explorer/ }).click();
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  assert.equal(await view.locator('body').evaluate(() => window.beforeHiding ?? false), false, 'a new page');
  await checkAnswer(view, 'restored conversation');
  const seen = await view.locator('body').evaluate(() => window.mdSeen);
  assert.ok(seen, 'the transcript watcher ran in the new page');
  assert.ok(seen.plain && seen.rendered, `restored text was shown plain first, then rendered: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen.unsafe, [], 'no agent HTML was ever live in the page');
  assert.equal(seen.readyWithoutAnswer, false, 'the new page never showed the empty chat its HTML was first written with');
  await page.screenshot({ path: path.join(shotsDir, 'lazy-markdown-restored.png') });
  log('restored conversation: plain at once, then rendered; no agent HTML ever live');
}
