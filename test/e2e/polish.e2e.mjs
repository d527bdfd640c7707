// What a new user notices first with a real agent, through the real webview:
//  - tool and permission titles arrive as markdown with absolute paths: their inline code is
//    rendered, paths are workspace-relative, and nothing overflows the card;
//  - while `session/new` is still opening (real adapters take seconds) the status says the session is
//    starting and the prompt is held, never "running";
//  - the transcript stays scrolled to the end when the changed-files list appears below it;
//  - the Agent Changes tree (collapsed by default) lists the changes made while it was collapsed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gate, openChat, scriptedAgentSettings } from './support.mjs';

/** The agent edits other.txt once the test showed another view in the side bar. */
const explorerShown = gate('explorer-shown');

const LONG_DIR = 'a-rather-long-folder-name-without-any-spaces/and-another-one-that-keeps-going-on-and-on';
const BEFORE = 'one\ntwo\nthree\n';
const AFTER = 'one\nTWO\nthree\n';

export const workspaceFiles = { 'notes.txt': BEFORE, 'other.txt': BEFORE, [`${LONG_DIR}/deep-file-name-that-is-long.txt`]: 'x\n' };

export const settings = ({ workspace, repoRoot, node24 }) => {
  const notes = path.join(workspace, 'notes.txt');
  const other = path.join(workspace, 'other.txt');
  const script = {
    delays: { 'session/new': 2500 },
    turns: [
      { match: 'titles', steps: [
        { type: 'toolCall', toolCall: { toolCallId: 't1', title: 'Edit `{{cwd}}/src/hello.txt`', kind: 'edit', status: 'completed' } },
        { type: 'toolCall', toolCall: { toolCallId: 't2', title: `Read \`{{cwd}}/${LONG_DIR}/deep-file-name-that-is-long.txt\``, kind: 'read', status: 'completed' } },
        { type: 'permission', quiet: true, toolCall: { toolCallId: 't3', title: `Write \`{{cwd}}/${LONG_DIR}/deep-file-name-that-is-long.txt\`` } },
      ] },
      { match: 'long', steps: [
        { type: 'text', text: Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n') },
        { type: 'toolCall', toolCall: { toolCallId: 'e', title: 'Edit `{{cwd}}/notes.txt`', kind: 'edit', status: 'in_progress',
          content: [{ type: 'diff', path: notes, oldText: BEFORE, newText: AFTER }] } },
        { type: 'diskWrite', path: notes, content: AFTER },
        { type: 'toolCallUpdate', update: { toolCallId: 'e', status: 'completed' } },
      ] },
      { match: 'later', steps: [
        { type: 'waitFile', path: explorerShown.path },
        { type: 'toolCall', toolCall: { toolCallId: 'o', title: 'Edit other.txt', kind: 'edit', status: 'in_progress',
          content: [{ type: 'diff', path: other, oldText: BEFORE, newText: AFTER }] } },
        { type: 'diskWrite', path: other, content: AFTER },
        { type: 'toolCallUpdate', update: { toolCallId: 'o', status: 'completed' } },
        { type: 'text', text: 'Edited other.txt.' },
      ] },
    ],
  };
  return scriptedAgentSettings({ repoRoot, node24 }, script);
};

export default async function ({ page, log, shotsDir, workspace }) {
  const { view, prompt } = await openChat(page);
  const failures = [];
  const check = async (name, fn) => {
    try { await fn(); log(`ok: ${name}`); } catch (e) { failures.push(`${name}: ${e.message}`); log(`FAILED: ${name}: ${e.message}`); }
  };

  // ---- starting: every status text shown from Enter until the prompt reached the agent ----------
  await prompt.fill('titles please');
  // The recorder is in place before Enter is pressed (an evaluate not awaited may run after it).
  await view.locator('body').evaluate(() => { window.__statuses = new Promise(resolve => {
    const status = document.getElementById('status');
    const seen = [];
    // Only what shows once Enter was pressed: before it the line may still say "No agent running"
    // (a mutation elsewhere in the page before the key arrives recorded it, and failed a full run).
    let armed = false;
    document.addEventListener('keydown', e => { if (e.key === 'Enter') armed = true; }, true);
    const record = () => {
      if (!armed) return;
      const send = document.getElementById('send');
      // The line's class names the agent's state (status-ready is "running"), whatever the words.
      const entry = `${status.textContent} (${status.className}) [send ${send.disabled ? 'disabled' : send.textContent.trim()}]`;
      if (seen[seen.length - 1] !== entry) seen.push(entry);
    };
    const obs = new MutationObserver(() => {
      // Until session/new answered: the status leaves "starting a session", or (where it never
      // said so) the user's message is added, which happens when the prompt is sent.
      const opening = seen.some(s => /starting a session/i.test(s));
      if (document.querySelector('.message.user') || (opening && !/starting a session/i.test(status.textContent))) {
        obs.disconnect(); resolve(seen);
      } else record();
    });
    obs.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  }); });
  await prompt.press('Enter');
  await check('status while the session starts', async () => {
    const seen = await view.locator('body').evaluate(() => window.__statuses);
    log(`statuses before the prompt was sent: ${JSON.stringify(seen)}`);
    assert.ok(!seen.some(s => /\(status-ready\)|· running/i.test(s)), `"running" shown before session/new answered: ${JSON.stringify(seen)}`);
    // The prompt waits for the session; what is typed meanwhile is queued (the button says so).
    assert.ok(seen.some(s => /starting a session/i.test(s) && /send Queue/.test(s)),
      `no "starting a session" status with the prompt held: ${JSON.stringify(seen)}`);
  });
  await view.locator('.permission:not(.answered)').waitFor({ timeout: 30_000 });
  await check('status once the session is open', async () => {
    assert.match(await view.locator('#status').textContent(), /running/);
  });

  // ---- titles: inline code rendered, workspace-relative, never overflowing ----------------------
  await check('tool title: inline code, relative path', async () => {
    const title = view.locator('.tool .tool-title').first();
    assert.equal(await title.locator('code').count(), 1, `no <code> in the title: ${await title.innerHTML()}`);
    assert.equal(await title.locator('code').textContent(), 'src/hello.txt');
    assert.equal(await title.textContent(), 'Edit src/hello.txt');
  });
  await check('permission title: inline code, relative path', async () => {
    const title = view.locator('.permission .permission-title');
    assert.equal(await title.locator('code').textContent(), `${LONG_DIR}/deep-file-name-that-is-long.txt`);
    assert.ok(!(await title.textContent()).includes(workspace), 'the workspace path is not shown');
  });
  await check('long titles stay inside their cards', async () => {
    for (const card of ['.tool >> nth=1', '.permission']) {
      const { scroll, client, title, titleRight, cardRight } = await view.locator(card).evaluate(el => {
        const t = el.querySelector('.tool-title, .permission-title');
        return { scroll: el.scrollWidth, client: el.clientWidth, title: t.scrollWidth > t.clientWidth,
          titleRight: t.getBoundingClientRect().right, cardRight: el.getBoundingClientRect().right };
      });
      assert.ok(scroll <= client && titleRight <= cardRight, `${card} overflows: scrollWidth ${scroll} > clientWidth ${client}, title right ${titleRight} > card ${cardRight}`);
      assert.ok(!title, `${card}: the title is cut (its text is wider than its box)`);
    }
  });
  await page.screenshot({ path: path.join(shotsDir, 'polish-titles.png') });
  await view.locator('.permission:not(.answered)').focus();
  await page.keyboard.press('1');
  await view.locator('.turn-end').waitFor({ timeout: 30_000 });

  // ---- scrolled to the end when the changed-files list appears -----------------------------------
  await prompt.fill('long answer with an edit');
  await prompt.press('Enter');
  await view.locator('.turn-end').nth(1).waitFor({ timeout: 30_000 });
  await view.locator('#changes .changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 30_000 });
  await check('transcript at the end after the changed-files list appeared', async () => {
    // Two frames: layout and any scroll adjustment are done.
    const gap = await view.locator('#transcript').evaluate(el => new Promise(resolve =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.scrollHeight - el.scrollTop - el.clientHeight)))));
    assert.ok(gap <= 2, `the transcript is ${gap}px above its end`);
  });
  await page.screenshot({ path: path.join(shotsDir, 'polish-changes-scrolled.png') });

  // ---- Agent Changes tree: filled while collapsed, shown when opened ----------------------------
  await check('Agent Changes tree lists the change made while it was collapsed', async () => {
    const header = page.locator('.pane-header', { hasText: 'Agent Changes' });
    assert.equal(await header.getAttribute('aria-expanded'), 'false', 'the view starts collapsed');
    await header.click();
    await page.getByRole('treeitem', { name: /notes\.txt/ }).waitFor({ timeout: 30_000 });
    assert.ok(await page.getByRole('treeitem', { name: /Scripted: 1 file/ }).count() >= 1, 'the turn row is listed');
  });
  await page.screenshot({ path: path.join(shotsDir, 'polish-agent-changes.png') });

  // ---- … and while the whole Switchboard side bar is hidden ------------------------------------
  await check('Agent Changes tree lists the change made while the side bar showed another view', async () => {
    await prompt.fill('later: edit other.txt');
    await prompt.press('Enter');
    await page.getByRole('tab', { name: /Explorer/ }).click();
    explorerShown.open();
    const other = path.join(workspace, 'other.txt');
    for (let i = 0; i < 600 && fs.readFileSync(other, 'utf8') !== AFTER; i++) await new Promise(r => setTimeout(r, 100));
    assert.equal(fs.readFileSync(other, 'utf8'), AFTER, 'the agent edited other.txt');
    await page.getByRole('tab', { name: /Switchboard/ }).click();
    await page.getByRole('treeitem', { name: /other\.txt/ }).waitFor({ timeout: 30_000 });
  });
  await check('shown again, the transcript is at its end', async () => {
    await view.locator('.turn-end').nth(2).waitFor({ timeout: 30_000 });
    const gap = await view.locator('#transcript').evaluate(el => new Promise(resolve =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.scrollHeight - el.scrollTop - el.clientHeight)))));
    assert.ok(gap <= 2, `the transcript is ${gap}px above its end`);
  });
  await page.screenshot({ path: path.join(shotsDir, 'polish-agent-changes-hidden.png') });

  assert.deepEqual(failures, [], failures.join('\n'));
}
