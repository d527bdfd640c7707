// "Switchboard: Add Agent…" as the user sees it: the quick pick fills with the registry's agents
// (icon, version, how each installs here, "not available" for a build this platform lacks, "not
// installable" for a download with no published checksum),
// picking one installs it and says so, reopening shows it installed, and a newer registry shows
// "update available". The registry is a local file (switchboard.registry.url), icons beside it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openChat, quickOpen } from './support.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-registry-'));
const registryFile = path.join(dir, 'registry.json');
const icon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="2" width="12" height="12" rx="3" fill="currentColor"/></svg>';
const registry = version => ({
  version: '1.0.0',
  agents: [
    { id: 'npm-agent', name: 'Test npm agent', version, description: 'An agent from npm', icon: './npm-agent.svg', distribution: { npx: { package: '@test/npm-agent', args: ['--acp'] } } },
    { id: 'far-agent', name: 'Test far agent', version: '2.0.0', description: 'Built for another platform only', distribution: { binary: {
      'windows-aarch64': { archive: 'https://downloads.example/far.zip', cmd: './far.exe', sha256: 'a'.repeat(64) },
    } } },
    { id: 'nosum-agent', name: 'Test unverified agent', version: '0.3.0', description: 'Published without a checksum', distribution: { binary: {
      'linux-x86_64': { archive: 'https://downloads.example/nosum.tar.gz', cmd: './nosum' },
    } } },
  ],
});
fs.writeFileSync(path.join(dir, 'npm-agent.svg'), icon);
fs.writeFileSync(registryFile, JSON.stringify(registry('1.0.0')));

export const settings = { 'switchboard.registry.url': registryFile };
export const timeout = 900;

export default async function ({ page, log, shotsDir }) {
  // The extension's contributions are in once its view is up.
  await openChat(page);
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  const row = name => rows.filter({ hasText: name }).first();
  const openAddAgent = async () => {
    await (await quickOpen(page, 'Control+Shift+P')).fill('>Switchboard: Add Agent');
    await rows.filter({ hasText: 'Switchboard: Add Agent' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await row('Test npm agent').waitFor({ timeout: 30_000 });
  };

  await openAddAgent();
  const npmRow = row('Test npm agent');
  assert.match(await npmRow.innerText(), /1\.0\.0 · npx/);
  assert.match(await npmRow.innerText(), /An agent from npm/);
  assert.match(await row('Test far agent').innerText(), /2\.0\.0 · not available for linux-x86_64/);
  // A download with no published checksum: listed, not installable, and why (the setting that allows it).
  const nosum = await row('Test unverified agent').innerText();
  assert.match(nosum, /0\.3\.0 · not installable: no checksum published/);
  assert.match(nosum, /Published without a checksum — The registry publishes no SHA-256 checksum for this download: it cannot be verified\. Turn on switchboard\.registry\.allowUnverified to install it anyway\./);
  // The registry's monochrome icon, tinted for the theme, drawn beside the label.
  const iconStyle = await npmRow.locator('.quick-input-list-icon').getAttribute('style');
  assert.match(iconStyle ?? '', /npm-agent\.(dark|light)\.svg/);
  assert.match(await page.locator('.quick-input-widget .quick-input-title').innerText(), /Add an agent from the ACP registry/);
  await page.screenshot({ path: path.join(shotsDir, 'registry-picker.png') });
  log('picker shows the registry');

  await npmRow.click();
  await page.locator('[id="status.notifications"] .statusbar-item-label').click();
  await page.locator('.notifications-center .notification-list-item-message', { hasText: 'Test npm agent 1.0.0 is installed as "Test npm agent"' }).waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(shotsDir, 'registry-installed.png') });
  await page.locator('[id="status.notifications"] .statusbar-item-label').click();
  log('installed');

  await openAddAgent();
  assert.match(await row('Test npm agent').innerText(), /1\.0\.0 · installed/);
  await page.keyboard.press('Escape');

  fs.writeFileSync(registryFile, JSON.stringify(registry('1.1.0')));
  await openAddAgent();
  assert.match(await row('Test npm agent').innerText(), /1\.1\.0 · update available: 1\.0\.0 → 1\.1\.0/);
  await page.screenshot({ path: path.join(shotsDir, 'registry-update.png') });
  await page.keyboard.press('Escape');
  log('update available shown');
}
