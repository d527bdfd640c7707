// The editor-area panel of a set of parallel runs: the runs side by side (common/parallel/panelHtml
// renders them), with Apply this result, Discard all, Stop, a permission's answers and each file's
// diff. Strict CSP: its one small script and its style carry a per-load nonce; every message from
// the panel is checked before anything runs.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';
import { renderRunSet } from '../common/parallel/panelHtml';
import { isOpen } from '../common/parallel/runSet';
import type { ParallelRuns } from '../session/parallel/parallelRuns';

const ACTIONS = new Set(['ready', 'apply', 'discard', 'stop', 'diff', 'answer']);

interface PanelMessage { action: string; run?: string; path?: string; item?: string; option?: string }

function parseMessage(raw: unknown): PanelMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (typeof m.action !== 'string' || !ACTIONS.has(m.action)) return undefined;
  for (const k of ['run', 'path', 'item', 'option']) if (m[k] !== undefined && (typeof m[k] !== 'string' || (m[k] as string).length > 4096)) return undefined;
  return m as unknown as PanelMessage;
}

export class ParallelPanels extends Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly runs: ParallelRuns) {
    super();
    this.register(runs.onDidChange(state => this.render(state.id)));
  }

  /** True when the panel of set `setId` is on screen. */
  isShown(setId: string): boolean {
    return this.panels.get(setId)?.visible === true;
  }

  /** Shows the panel of set `setId` (creates it the first time). */
  show(setId: string): vscode.WebviewPanel {
    const existing = this.panels.get(setId);
    if (existing) { existing.reveal(); return existing; }
    const panel = vscode.window.createWebviewPanel('switchboard.parallelRuns', vscode.l10n.t('Parallel runs'), vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true });
    panel.webview.html = shell(panel.webview);
    this.panels.set(setId, panel);
    panel.onDidDispose(() => { this.panels.delete(setId); void this.closedWhileOpen(setId); });
    panel.webview.onDidReceiveMessage(raw => void this.onMessage(setId, raw));
    this.render(setId);
    return panel;
  }

  /**
   * "Switchboard: Show Parallel Runs": the panel of the latest set whose runs still hold worktrees
   * (running or finished), else of the latest set; false when there is none.
   */
  showLatest(): boolean {
    const sets = this.runs.all;
    const set = [...sets].reverse().find(isOpen) ?? sets[sets.length - 1];
    if (set) this.show(set.id);
    return !!set;
  }

  /** The panel was closed while its runs still hold worktrees: they go on; the user can come back or discard them. */
  private async closedWhileOpen(setId: string): Promise<void> {
    const state = this.runs.state(setId);
    if (this.isDisposed || !state || !isOpen(state) || state.phase === 'applying') return;
    const show = vscode.l10n.t('Show the Runs');
    const discard = vscode.l10n.t('Discard Them');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('The parallel runs go on in their worktrees until you apply one or discard them.'), show, discard);
    if (choice === show) this.show(setId);
    else if (choice === discard) await this.runs.discard(setId);
  }

  private async onMessage(setId: string, raw: unknown): Promise<void> {
    const msg = parseMessage(raw);
    if (!msg) return;
    const run = msg.run ?? '';
    switch (msg.action) {
      case 'ready': this.render(setId); break;
      case 'apply': await this.runs.apply(setId, run); break;
      case 'discard': await this.runs.discard(setId); break;
      case 'stop': this.runs.stopRun(setId, run); break;
      case 'diff': if (msg.path) await this.runs.openDiff(setId, run, msg.path); break;
      case 'answer': if (msg.item && msg.option) this.runs.answer(setId, run, msg.item, msg.option); break;
    }
  }

  /** Renders the set into its panel; while runs work, once a second (their times count on). */
  private render(setId: string): void {
    const panel = this.panels.get(setId);
    const state = this.runs.state(setId);
    if (!panel || !state) return;
    const questions = Object.fromEntries(state.runs.map(r => [r.id, this.runs.question(setId, r.id)]));
    const answers = Object.fromEntries(state.runs.map(r => [r.id, this.runs.lastAnswer(setId, r.id)]));
    void panel.webview.postMessage({ type: 'render', html: renderRunSet({ state, now: Date.now(), questions, answers }) });
    const working = this.runs.all.some(s => s.phase === 'running' || s.phase === 'preparing');
    if (working && !this.ticker) this.ticker = setInterval(() => { for (const id of this.panels.keys()) this.render(id); }, 1000);
    if (!working && this.ticker) { clearInterval(this.ticker); this.ticker = undefined; }
  }

  override dispose(): void {
    clearInterval(this.ticker);
    for (const panel of this.panels.values()) panel.dispose();
    super.dispose();
  }
}

function shell(webview: vscode.Webview): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language.replace(/[^\w-]/g, '')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 12px; }
.runs { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.run { border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); border-radius: 4px; padding: 8px 12px; min-width: 0; }
.run h2 { font-size: 1.1em; margin: 4px 0; }
.run.waiting .status { color: var(--vscode-editorWarning-foreground); }
.run.failed .status { color: var(--vscode-errorForeground); }
.run.done .status { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
.meta, .phase { color: var(--vscode-descriptionForeground); }
.message { padding: 6px 8px; background: var(--vscode-textBlockQuote-background); border-left: 3px solid var(--vscode-textLink-foreground); }
.files { list-style: none; padding: 0; margin: 4px 0; font-family: var(--vscode-editor-font-family); font-size: 0.95em; }
.files li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.files .added a::after { content: " (new)"; color: var(--vscode-descriptionForeground); }
.files .deleted a { text-decoration: line-through; }
.add { color: var(--vscode-gitDecoration-addedResourceForeground); }
.del { color: var(--vscode-gitDecoration-deletedResourceForeground); }
.answer { white-space: pre-wrap; max-height: 12em; overflow: auto; background: var(--vscode-textCodeBlock-background); padding: 6px; font-family: var(--vscode-editor-font-family); }
.badge { font-size: 0.8em; padding: 1px 6px; border-radius: 8px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
a { color: var(--vscode-textLink-foreground); }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; cursor: pointer; margin: 2px 0; }
button.primary { background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
button.secondary { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
button:focus-visible, a:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
</style>
<title>${vscode.l10n.t('Parallel runs')}</title>
</head>
<body>
<main id="root" aria-live="polite"></main>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const root = document.getElementById('root');
const key = el => (el && el.dataset && el.dataset.action ? [el.dataset.action, el.dataset.run, el.dataset.path, el.dataset.option].join('|') : '');
let shown = '';
window.addEventListener('message', e => {
  if (!e.data || e.data.type !== 'render' || e.data.html === shown) return;
  // Re-rendered (a run's time counts on): the focused button keeps the focus.
  const focused = key(document.activeElement);
  root.innerHTML = shown = e.data.html;
  if (focused) for (const el of root.querySelectorAll('[data-action]')) if (key(el) === focused) { el.focus(); break; }
});
document.addEventListener('click', e => {
  const el = e.target instanceof Element ? e.target.closest('[data-action]') : null;
  if (!el) return;
  e.preventDefault();
  const d = el.dataset;
  vscode.postMessage({ action: d.action, run: d.run, path: d.path, item: d.item, option: d.option });
});
vscode.postMessage({ action: 'ready' });
</script>
</body>
</html>`;
}
