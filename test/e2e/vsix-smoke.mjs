// Smoke test of the packaged VSIX, installed into a workbench the way a user installs it
// (run by test/runner/run.mjs --only vsix; no extensionDevelopmentPath, no SWITCHBOARD_TEST).
// It proves the production bundle activates, the chat webview renders, and an agent answers: the
// ACP SDK, which the bundle loads only when the first agent starts (dist/acp-sdk.js), is in the VSIX,
// and so is the webview's markdown renderer, loaded on first need (dist/webview/markdown.js).
import path from 'node:path';
import { openChat, scriptedAgentSettings } from './support.mjs';

export const settings = (ctx) => scriptedAgentSettings(ctx, {
  turns: [{ steps: [{ type: 'text', text: 'Hello from the **packaged** extension.' }] }],
});

export default async function ({ page, log, shotsDir }) {
  const { view, prompt } = await openChat(page);
  log('chat webview rendered');
  await prompt.fill('hi');
  await prompt.press('Enter');
  await view.locator('.message.agent', { hasText: 'Hello from the packaged extension.' }).waitFor({ timeout: 60_000 });
  log('the agent answered through the lazily loaded SDK');
  // Shown as plain text until the renderer loads: rendered means markdown.js loaded from the VSIX.
  await view.locator('.message.agent strong', { hasText: 'packaged' }).waitFor({ timeout: 30_000 });
  log('its markdown is rendered by the lazily loaded renderer');
  await page.screenshot({ path: path.join(shotsDir, 'vsix-smoke.png') });
}
