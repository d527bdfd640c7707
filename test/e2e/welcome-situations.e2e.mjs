// The welcome where nothing is found, and where nothing can start (issue 22, points 1 and 6).
// Here no agent is found on this computer (no user agents; the presets' programs are not installed):
// the welcome says so and leads to the ACP registry. Screenshots: welcome-none-found-{light,dark,hc}.png.
// The untrusted workspace is welcome-untrusted.e2e.mjs (workspace trust is a server flag).
import assert from 'node:assert/strict';
import { openChat, themeShots } from './support.mjs';

export const timeout = 300;

export const settings = { 'workbench.colorTheme': 'Default Light Modern' };

export default async function ({ page, log, shotsDir }) {
  const { view } = await openChat(page);
  const welcome = view.locator('#welcome');
  await welcome.getByRole('heading', { name: 'Start with an agent' }).waitFor({ timeout: 30_000 });
  await welcome.getByText(/No agent was found (on this computer|on the remote side)/).waitFor({ timeout: 30_000 });
  assert.equal(await welcome.getByRole('list', { name: /^Agents found/ }).count(), 0, 'no empty list');
  await welcome.getByRole('button', { name: 'Add an agent from the ACP registry' }).waitFor();
  assert.ok(await welcome.getByRole('list', { name: 'Try asking' }).getByRole('button').count() >= 2, 'example prompts');
  await themeShots(page, view, shotsDir, 'welcome-none-found', log);
}
