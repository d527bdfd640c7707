// The welcome of an empty chat gets a new user to a first answer (issue 22, point 1): the agents found
// on this computer, in order, each started with one click and marked when it needs a sign-in; "Add an
// agent from the ACP registry"; example prompts that fit the workspace (a click fills the prompt box,
// never sends); one line on what Switchboard does differently, with the walkthrough one click away.
// Keyboard: Tab walks it top to bottom, then reaches the prompt box. axe finds no serious or
// critical violation in Light+, Dark+ and high contrast. Screenshots: welcome-two-found-{light,dark,hc}.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, themeShots } from './support.mjs';

export const timeout = 360;

// package.json beside the fixture's README.md and src/: three example prompts.
export const workspaceFiles = { 'package.json': '{ "name": "fixture", "scripts": { "test": "node --test" } }\n' };

export const settings = ({ repoRoot, node24 }) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-welcome-'));
  const agent = path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs');
  const script = path.join(tmp, 'script.json');
  fs.writeFileSync(script, JSON.stringify({ turns: [{ steps: [{ type: 'text', text: 'It is built with esbuild and tested with mocha.' }] }] }));
  // What `npm install -g @agentclientprotocol/claude-agent-acp` puts on the computer, by its path (the
  // server takes PATH from the login shell); no Claude credentials here, so it needs a sign-in.
  const claude = path.join(tmp, 'claude-agent-acp');
  fs.writeFileSync(claude, `#!/bin/sh\nexec ${JSON.stringify(node24)} ${JSON.stringify(agent)} ${JSON.stringify(script)}\n`);
  fs.chmodSync(claude, 0o755);
  return {
    'switchboard.agents': { 'Claude Code': { command: claude }, 'Scripted': { command: node24, args: [agent, script] } },
    'workbench.colorTheme': 'Default Light Modern',
  };
};

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  const welcome = view.locator('#welcome');
  await welcome.getByRole('heading', { name: 'Start with an agent' }).waitFor({ timeout: 30_000 });
  const failures = [];
  const check = async (name, fn) => {
    try { await fn(); log(`ok: ${name}`); } catch (e) { failures.push(`${name}: ${e.message.split('\n')[0]}`); log(`FAILED: ${name}: ${e.message}`); }
  };

  await check('the agents found, each a button, the one needing a sign-in marked', async () => {
    // The e2e workbench is served: its window is remote, and the welcome says where agents are looked for.
    const agents = welcome.getByRole('list', { name: /^Agents found (on this computer|on the remote side)/ }).getByRole('listitem');
    assert.equal(await agents.count(), 2);
    assert.match(await agents.nth(0).getByRole('button').innerText(), /Start Claude Code\s*needs a sign-in/);
    assert.equal((await agents.nth(1).getByRole('button').innerText()).trim(), 'Start Scripted');
  });
  const examples = welcome.getByRole('list', { name: 'Try asking' }).getByRole('button');
  await check('example prompts that fit the workspace (README, package.json, src/)', async () => {
    assert.deepEqual(await examples.allInnerTexts(), ['Summarize this repository', 'Explain how this project is built and tested', 'Where should a newcomer start reading the code?']);
  });
  await check('in order: agents, add from the registry, examples, what differs with the walkthrough link', async () => {
    const order = await welcome.evaluate(el => [...el.querySelectorAll('h2, h3, button, p')].map(n => n.tagName === 'BUTTON' ? `button:${n.textContent.trim()}` : n.tagName === 'P' ? `p:${n.textContent.slice(0, 24)}` : n.textContent.trim()));
    log(order.join(' | '));
    const at = re => order.findIndex(o => re.test(o));
    const steps = [/^Start with an agent$/, /^Agents found on (this computer|the remote side)/, /^button:Start Claude Code/, /^button:Start Scripted/, /^button:Add an agent from the ACP registry$/, /^Try asking$/, /^button:Summarize/, /^p:Every change an agent wa/, /^button:Open the walkthrough$/];
    const positions = steps.map(at);
    assert.ok(positions.every(p => p >= 0), `all present: ${positions}`);
    assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'in this order');
  });

  // Keyboard: from the first agent button, Tab goes through the welcome in order and on to the prompt box.
  await check('Tab walks the welcome top to bottom, then the prompt box', async () => {
    await welcome.getByRole('button', { name: /Start Claude Code/ }).focus();
    const stops = [];
    for (let i = 0; i < 12; i++) {
      stops.push(await view.locator('body').evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim()));
      if (stops.at(-1) === 'prompt') break;
      await page.keyboard.press('Tab');
    }
    log(`Tab stops: ${stops.join(' | ')}`);
    assert.deepEqual(stops, ['Start Claude Code needs a sign-in', 'Start Scripted', 'Add an agent from the ACP registry', 'Summarize this repository',
      'Explain how this project is built and tested', 'Where should a newcomer start reading the code?', 'Open the walkthrough', 'prompt'], 'the empty conversation is no stop');
  });

  // Light+, Dark+, high contrast: a screenshot and axe each.
  await check('no serious or critical axe violation in the welcome, in every theme', () => themeShots(page, view, shotsDir, 'welcome-two-found', log));

  // An example fills the prompt box and sends nothing.
  await examples.nth(1).click();
  await check('an example fills the prompt box, focused, and is not sent', async () => {
    assert.equal(await prompt.inputValue(), 'Explain how this project is built and tested');
    assert.equal(await view.locator('body').evaluate(() => document.activeElement?.id), 'prompt');
    assert.equal(await view.locator('.message.user').count(), 0);
    assert.equal(await welcome.isVisible(), true);
  });

  // One click starts an agent; Enter sends the example: the first answer.
  await welcome.getByRole('button', { name: 'Start Scripted' }).click();
  await view.locator('#status', { hasText: /Scripted · running/ }).waitFor({ timeout: 30_000 });
  await check('the running agent is marked in the welcome', () => welcome.getByRole('button', { name: 'Scripted (running)' }).waitFor({ timeout: 30_000 }));
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'built with esbuild' }).waitFor({ timeout: 30_000 });
  await check('the welcome leaves once the conversation has begun', async () => assert.equal(await welcome.isVisible(), false));
  await page.screenshot({ path: path.join(shotsDir, 'welcome-first-answer.png') });

  // The walkthrough, one click away (last: its editor holds webviews of its own). A new conversation shows the welcome again.
  await view.getByRole('button', { name: 'New conversation' }).click();
  await welcome.getByRole('button', { name: 'Open the walkthrough' }).click();
  await check('the walkthrough opens', () => page.locator('.gettingStartedContainer h2', { hasText: 'Get Started with Switchboard' }).first().waitFor({ timeout: 30_000 }));

  assert.deepEqual(failures, [], failures.join('\n'));
}
