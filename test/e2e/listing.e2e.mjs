// The Marketplace listing's screenshots, taken from a real session in Light+ and Dark+:
//   listing-chat-{light,dark}.png        a streamed answer with thinking, plan and tool cards
//   listing-review-{light,dark}.png      the agent's write waiting in the diff editor (Accept / Reject)
//   listing-terminal-{light,dark}.png    a command the agent ran, on its terminal card
//   listing-permission-{light,dark}.png  the agent asking before it pushes; nothing pre-selected
//   listing-changes-{light,dark}.png     the turn's changed files, in the chat and the Agent Changes view
// `npm run screenshots` runs this module and copies the images to media/screenshots/ (README).
// Each scene is also a test: it asserts what the picture is meant to show.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openChat, quickOpen, scriptedAgentSettings } from './support.mjs';

const AGENT = 'Demo Agent';
const GREET_BEFORE = fs.readFileSync(new URL('../fixtures/workspace/src/hello.ts', import.meta.url), 'utf8');
const GREET_AFTER = GREET_BEFORE.replace("export const DEFAULT_NAME = 'world';\n", "export const DEFAULT_NAME = process.argv[2] ?? 'world';\n");
const TEST_FILE = `// Prints what a test runner prints; the listing's terminal card shows it.
const lines = ['', '  greet', '    \\u2714 greets the world', '    \\u2714 greets by name', '    \\u2714 is excited on request', '', '  3 passing (4ms)', ''];
for (const l of lines) console.log(l);
`;

export const workspaceFiles = { 'test/greet.test.mjs': TEST_FILE };
// A hard ceiling against a hang, not a speed check: the session is played twice (one per theme);
// 150 s is usual on 2 busy cores, but one run passed 240 s still progressing (load average 13).
export const timeout = 900;

export const settings = ({ repoRoot, node24 }) => {
  const script = {
    agentInfo: { name: 'demo-agent', version: '1.0.0' },
    modes: { currentModeId: 'code', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
    turns: [{ steps: [
      { type: 'thought', text: 'The name is hard-coded in `src/hello.ts`; read it first, then make it an argument.' },
      { type: 'plan', entries: [
        { content: 'Read src/hello.ts', priority: 'high', status: 'completed' },
        { content: 'Take the name from the command line', priority: 'high', status: 'in_progress' },
        { content: 'Run the tests', priority: 'medium', status: 'pending' },
      ] },
      { type: 'toolCall', toolCall: { toolCallId: 'read-1', title: 'Read src/hello.ts', kind: 'read', status: 'completed', locations: [{ path: '{{cwd}}/src/hello.ts' }] } },
      { type: 'read', path: '{{cwd}}/src/hello.ts', quiet: true },
      { type: 'text', text: '`hello.ts` greets a fixed name. ' },
      { type: 'text', text: 'I will read it from the first argument and keep `world` as the default:\n\n' },
      { type: 'text', text: '```ts\nexport const DEFAULT_NAME = process.argv[2] ?? \'world\';\n```\n' },
      { type: 'toolCall', toolCall: { toolCallId: 'edit-1', title: 'Edit src/hello.ts', kind: 'edit', status: 'in_progress',
        content: [{ type: 'diff', path: '{{cwd}}/src/hello.ts', oldText: GREET_BEFORE, newText: GREET_AFTER }], locations: [{ path: '{{cwd}}/src/hello.ts' }] } },
      { type: 'write', path: '{{cwd}}/src/hello.ts', content: GREET_AFTER, quiet: true },
      { type: 'toolCallUpdate', update: { toolCallId: 'edit-1', status: 'completed' } },
      { type: 'terminal', command: 'node test/greet.test.mjs', terminalToolCall: true, toolCallId: 'test-1', title: 'Run the tests', quiet: true },
      { type: 'plan', entries: [
        { content: 'Read src/hello.ts', priority: 'high', status: 'completed' },
        { content: 'Take the name from the command line', priority: 'high', status: 'completed' },
        { content: 'Run the tests', priority: 'medium', status: 'completed' },
      ] },
      { type: 'text', text: 'The tests pass. ' },
      { type: 'text', text: 'Shall I push the branch?' },
      { type: 'permission', toolCall: { toolCallId: 'push-1', title: 'git push origin greet-by-name', kind: 'execute' }, options: [
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'always', name: 'Always allow git push', kind: 'allow_always' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ], quiet: true },
      { type: 'text', text: 'Not pushed: the change is yours to review.' },
    ] }],
  };
  return {
    ...scriptedAgentSettings({ repoRoot, node24 }, script, AGENT),
    // The listing shows the agent's own flow; a confirmation of its test run would be another picture.
    'switchboard.terminal.confirmCommands': false,
    'workbench.colorTheme': 'Default Light+',
    'editor.minimap.enabled': false,
    'workbench.tips.enabled': false,
    'editor.cursorBlinking': 'solid',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
};

const THEMES = [['Default Light+', 'light', 'vs', /^(Default )?Light\+$/], ['Default Dark+', 'dark', 'vs-dark', /^(Default )?Dark\+$/]];

/** Switches the colour theme with the theme picker and waits until workbench and webview show it. */
async function setTheme(page, view, [, , cls, label]) {
  if (await page.locator(`.monaco-workbench.${cls}`).count()) return;
  // Keys typed while the webview has focus stay in its iframe: focus the workbench (title bar) first.
  await page.locator('.part.titlebar').click({ position: { x: 200, y: 15 } });
  const input = await quickOpen(page, 'F1');
  await input.fill('>Preferences: Color Theme');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Browse Additional Color Themes' }).waitFor({ timeout: 30_000 });
  await page.keyboard.type(label.source.includes('Light') ? 'Light+' : 'Dark+', { delay: 20 });
  await page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: label }).first().click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
  await page.locator(`.monaco-workbench.${cls}`).waitFor({ timeout: 15_000 });
  await view.locator(`body.${cls === 'vs' ? 'vscode-light' : 'vscode-dark'}`).waitFor({ timeout: 15_000 });
  // Let the webview repaint with the new colours before the picture.
  await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(300);
}

export default async function ({ page, log, shotsDir, workspace }) {
  await page.setViewportSize({ width: 1280, height: 860 });
  const { view, prompt } = await openChat(page);
  const sidebar = page.locator('.part.sidebar');
  // A wider chat than the default side bar: drag the sash between side bar and editor.
  const box = await sidebar.boundingBox();
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 460, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const hello = path.join(workspace, 'src/hello.ts');
  // A new window: the chat alone in Switchboard's side bar. Agent Changes joins it with the first
  // listed change, Agents with a second conversation (decision 0040).
  const secondary = page.locator('.part.sidebar .pane-header', { hasText: /^(Agent Changes|Agents)/ });
  assert.equal(await secondary.count(), 0, 'no Agent Changes or Agents pane before there is something to show');

  // The same session is played once per theme (switching themes once is much faster than per scene).
  for (const theme of THEMES) {
    await setTheme(page, view, theme);
    const shoot = async (scene, what) => {
      const file = path.join(shotsDir, `listing-${scene}-${theme[1]}.png`);
      if (what === 'window') {
        const { width, height } = page.viewportSize();
        await page.screenshot({ path: file, clip: { x: 0, y: 35, width, height: height - 35 } }); // below the title bar
      } else {
        await what.screenshot({ path: file });
      }
      log(path.basename(file));
    };

    await prompt.fill('Greet the name given on the command line, and run the tests');
    await prompt.press('Enter');

    // The write waits for review in the diff editor.
    const card = view.locator('#writes .write-review');
    await card.waitFor({ timeout: 60_000 });
    await card.locator('.write-title', { hasText: new RegExp(`${AGENT} wants to edit hello\\.ts`) }).waitFor({ timeout: 30_000 });
    await page.locator('.editor-actions [aria-label^="Accept Agent Edit"]').first().waitFor({ timeout: 15_000 });
    await view.locator('.message.agent', { hasText: 'as the default' }).first().waitFor({ timeout: 15_000 });
    await shoot('review', 'window');
    await card.getByRole('button', { name: 'Accept', exact: true }).click();

    // The tests run in a terminal; the card shows the output. Then the agent asks before pushing.
    const permission = view.locator('.permission:not(.answered)');
    await permission.waitFor({ timeout: 60_000 });
    const terminalCard = view.locator('.tool', { has: view.locator('.terminal') }).first();
    await terminalCard.locator('.terminal-tail', { hasText: '3 passing' }).waitFor({ timeout: 30_000 });
    assert.equal(await permission.locator('button.selected, button[aria-pressed="true"]').count(), 0, 'no option is pre-selected');
    await permission.scrollIntoViewIfNeeded();
    await shoot('permission', sidebar);
    await terminalCard.scrollIntoViewIfNeeded();
    await shoot('terminal', terminalCard);
    await permission.getByRole('button', { name: /Reject/ }).click();

    // The turn ends: the chat lists the changed file; the Agent Changes view too.
    await view.locator('.turn-end').waitFor({ timeout: 30_000 });
    const changes = view.locator('#changes');
    await changes.locator('.changes-title', { hasText: '1 file changed' }).waitFor({ timeout: 15_000 });
    const pane = page.locator('.pane-header', { hasText: 'Agent Changes' });
    await pane.click();
    await page.locator('.monaco-list-row', { hasText: 'hello.ts' }).first().waitFor({ timeout: 15_000 });
    await shoot('changes', sidebar);
    await pane.click(); // collapsed again

    // The whole conversation from its start: thinking, tool cards, the streamed answer.
    await view.locator('#transcript').evaluate(el => { el.scrollTop = 0; });
    await shoot('chat', sidebar);
    assert.equal(fs.readFileSync(hello, 'utf8'), GREET_AFTER);

    // Ready for the next theme: keep the change, put the file back, close the conversation.
    await changes.getByRole('button', { name: 'Keep all' }).click();
    await changes.waitFor({ state: 'hidden', timeout: 30_000 });
    assert.equal(await page.locator('.part.sidebar .pane-header', { hasText: 'Agent Changes' }).count(), 1, 'Agent Changes stays in the side bar once shown, its changes kept');
    fs.writeFileSync(hello, GREET_BEFORE);
    await view.locator('.tab-close').first().click();
    await view.locator('.message').first().waitFor({ state: 'detached', timeout: 30_000 });
  }
}
