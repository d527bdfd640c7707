// Smoke test of the packaged VSIX, installed into a workbench the way a user installs it
// (run by test/runner/run.mjs --only vsix; no extensionDevelopmentPath, no SWITCHBOARD_TEST).
// It proves the production bundle activates and the chat webview renders.
import path from 'node:path';

export default async function ({ page, log, shotsDir }) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const tab = page.getByRole('tab', { name: /Switchboard/ });
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  log('opened the Switchboard view');
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await view.locator('#prompt').waitFor({ timeout: 30_000 });
  log('chat webview rendered (#prompt present)');
  await page.screenshot({ path: path.join(shotsDir, 'vsix-smoke.png') });
}
