// Shared by the e2e modules: configure the scripted agent, and open the chat webview ready for input.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
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

/**
 * Quick Open's input (or the command palette's: `key` F1 or Control+Shift+P), shown. A key pressed
 * while a webview's frame has the focus may never reach the workbench (the frame forwards its keys
 * to it asynchronously): pressed again while the input is not up.
 */
export async function quickOpen(page, key = 'Control+P') {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await input.waitFor({ timeout: attempt < 3 ? 5_000 : 30_000 });
      return input;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Opens a workspace file by Quick Open and types `text` at its very start, leaving the tab unsaved. */
export async function typeAtStartOf(page, name, text) {
  await (await quickOpen(page)).fill(name);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first().click();
  const editorLines = page.locator('.editor-instance .view-lines').first();
  await editorLines.waitFor({ timeout: 15_000 });
  await editorLines.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type(text);
  await page.locator('.tabs-container .tab.dirty', { hasText: name }).waitFor({ timeout: 30_000 });
}

/**
 * Opens the Switchboard view and waits until its webview has its state (listeners attached).
 * `patient`: the benches' longer waits, for a loaded machine that is slow to show the view.
 */
export async function openChat(page, { patient = false } = {}) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: /Switchboard/ }).click({ timeout: patient ? 120_000 : 60_000 });
  // Webviews are nested iframes: the outer one hosts VS Code's frame, the inner one our page.
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await view.locator('body[data-ready="true"]').waitFor({ timeout: patient ? 60_000 : 30_000 });
  return { view, prompt: view.locator('#prompt') };
}

/**
 * After a reload the side bar may already show Switchboard, or be about to: a click on its tab then
 * closes it. Click only while the chat has not come up, and again if that click closed it.
 */
export async function reopenChat(page) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const ready = view.locator('body[data-ready="true"]');
  for (let attempt = 0; ; attempt++) {
    try {
      await ready.waitFor({ timeout: 20_000 });
      return { view, prompt: view.locator('#prompt') };
    } catch (err) {
      if (attempt === 4) throw err;
      await page.getByRole('tab', { name: /Switchboard/ }).click();
    }
  }
}

/** Switches the colour theme through the command palette (`name` as the theme picker lists it, e.g. "Dark High Contrast"). */
export async function setTheme(page, name) {
  // Keys typed while the webview has focus stay in its iframe: focus the workbench first.
  await page.locator('.part.editor').click();
  const input = await quickOpen(page, 'F1');
  await input.fill('>Preferences: Color Theme');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  await page.locator('.quick-input-widget input[placeholder^="Select Color Theme"]').waitFor({ timeout: 30_000 });
  await page.keyboard.type(name, { delay: 20 });
  // "Light+" is listed as "Light+" or "Default Light+" depending on the VS Code version.
  await page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: new RegExp(`^(Default )?${name.replace(/[+()]/g, '\\$&')}$`) }).first().click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** The body class of the webview in each theme kind setTheme can reach. */
export const THEME_CLASSES = { 'Light Modern': 'vscode-light', 'Dark Modern': 'vscode-dark', 'Dark High Contrast': 'vscode-high-contrast', 'Light High Contrast': 'vscode-high-contrast-light' };

/**
 * @axe-core/playwright gives each frame one second to load axe-core and silently skips a frame that
 * takes longer; on a loaded machine that is our webview, and the run then "passes" having checked
 * nothing. This builder waits for the injection instead (the guard below still fails a run that
 * analysed nothing).
 */
class PatientAxeBuilder extends AxeBuilder {
  async inject(frames, shouldThrow) {
    for (const frame of frames) {
      try {
        await frame.evaluate(this.script());
        await frame.evaluate(await this.axeConfigure());
      } catch (err) {
        if (shouldThrow) throw err;
      }
    }
  }
}

/** axe-core on the chat's own page only (the webview's inner frame), not the workbench around it. */
export async function runAxe(page) {
  let results;
  // An analysis that reached no element (the frame was being swapped) passes no rule: try again.
  for (let attempt = 0; attempt < 3 && !results?.passes.length; attempt++) {
    if (attempt) await page.waitForTimeout(1000);
    results = await new PatientAxeBuilder({ page })
      .include({ fromFrames: ['iframe.webview.ready', '#active-frame', 'body'] })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
  }
  const brief = v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({ target: n.target, summary: n.failureSummary })) });
  return { violations: results.violations.map(brief), passes: results.passes.length, incomplete: results.incomplete.map(v => v.id) };
}

/** Light+, Dark+ and high contrast: a screenshot each, and no serious or critical axe violation. */
export async function themeShots(page, view, shotsDir, prefix, log) {
  for (const [theme, name] of [['Light Modern', 'light'], ['Dark Modern', 'dark'], ['Dark High Contrast', 'hc']]) {
    if (name !== 'light') await setTheme(page, theme);
    await view.locator(`body.${THEME_CLASSES[theme]}`).waitFor({ timeout: 30_000 });
    await page.mouse.move(700, 450); // no hover tooltip over the picture
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shotsDir, `${prefix}-${name}.png`) });
    const axe = await runAxe(page);
    assert.ok(axe.passes > 0, 'axe analysed the page');
    assert.deepEqual(axe.violations.filter(v => v.impact === 'serious' || v.impact === 'critical'), [], `${theme}`);
    log(`${theme}: screenshot, ${axe.violations.length} minor axe finding(s)`);
  }
}

/** A file not created yet: the scripted agent's `waitFile` step waits until the test calls open() (after it saw what it waits for). */
export function gate(name) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-gate-')), name);
  return { path: file, open: () => fs.writeFileSync(file, '') };
}

/**
 * Closes the workbench's hovers (an activity-bar badge's or a status-bar item's tooltip) that would
 * cover what the test clicks next: the pointer leaves for the editor area; a hover the pointer is
 * over keeps itself open, so the pointer passes over it and leaves again.
 */
export async function dismissHovers(page) {
  const hover = page.locator('.context-view .hover-contents');
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.mouse.move(700, 450, { steps: 5 });
    if (await hover.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false)) return;
    const box = await hover.boundingBox().catch(() => null);
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
  }
  await hover.waitFor({ state: 'hidden', timeout: 5_000 });
}

/**
 * Runs a command through the command palette. The workbench takes the keys only when it has the
 * focus (a webview keeps them, and an editor tab's click focuses its webview): the side bar's title
 * is clicked first, and the palette is opened again if its input does not take the text.
 */
export async function runCommand(page, label) {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; ; attempt++) {
    // The side bar's title text, not the middle of its bar: with one view in the container (the
    // chat alone), the view's buttons (New Conversation…) are in that bar.
    await page.locator('.part.sidebar .composite.title .title-label').click();
    await page.keyboard.press('F1');
    try {
      await input.fill(`>${label}`, { timeout: 10_000 });
      break;
    } catch (err) {
      if (attempt === 2) throw err;
      await page.keyboard.press('Escape');
    }
  }
  await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().click();
}
