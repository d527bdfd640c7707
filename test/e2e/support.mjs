// Shared by the e2e modules: configure the scripted agent, and open the chat webview ready for input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** User settings that make `name` (default "Scripted") the default agent, playing `script`. */
export function scriptedAgentSettings({ repoRoot, node24 }, script, name = 'Scripted') {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-')), 'script.json');
  fs.writeFileSync(file, JSON.stringify(script));
  return {
    'switchboard.agents': { [name]: { command: node24, args: [path.join(repoRoot, 'test/fixtures/agent/scripted-agent.mjs'), file] } },
    'switchboard.defaultAgent': name,
  };
}

/** Opens the Switchboard view and waits until its webview has its state (listeners attached). */
export async function openChat(page) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: /Switchboard/ }).click();
  // Webviews are nested iframes: the outer one hosts VS Code's frame, the inner one our page.
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await view.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
  return { view, prompt: view.locator('#prompt') };
}
