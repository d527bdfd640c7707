// The welcome in an untrusted workspace (Restricted Mode): no agent can start, and it says so and how
// to trust the folder; no agent is offered. Screenshots: welcome-untrusted-{light,dark,hc}.png.
import assert from 'node:assert/strict';
import { openChat, themeShots } from './support.mjs';

export const timeout = 300;

// Workspace trust on, and never asked at startup: the workspace opens in Restricted Mode.
export const workspaceTrust = true;
export const settings = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'workbench.colorTheme': 'Default Light Modern',
};

export default async function ({ page, log, shotsDir }) {
  const { view } = await openChat(page);
  const welcome = view.locator('#welcome');
  await welcome.getByRole('heading', { name: 'Start with an agent' }).waitFor({ timeout: 30_000 });
  await welcome.getByText(/Restricted Mode: Switchboard does not start agents/).waitFor({ timeout: 30_000 });
  await welcome.getByRole('button', { name: 'Trust this workspace…' }).waitFor();
  assert.equal(await welcome.getByRole('button', { name: /^Start / }).count(), 0, 'no agent to start');
  await themeShots(page, view, shotsDir, 'welcome-untrusted', log);
  // The button leads to VS Code's trust editor.
  await welcome.getByRole('button', { name: 'Trust this workspace…' }).click();
  await page.locator('.workspace-trust-editor').waitFor({ timeout: 15_000 });
  log('the trust button opens the Workspace Trust editor');
}
