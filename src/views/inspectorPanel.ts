// The protocol inspector: an editor tab showing the JSON-RPC traffic the connections recorded
// (acp/protocolTap.ts) as a timeline. The rows (no JSON text) go to the webview in batches, at most
// one message per 100 ms; filtering runs here, where the text is; a row's JSON is sent when opened.
// Recording runs while an inspector is open, or always with `switchboard.inspector.recordAlways`.
import * as vscode from 'vscode';
import { ProtocolTraffic } from '../acp/protocolTap';
import { Disposable } from '../common/disposable';
import { isEmptyFilter, matcher, parseFilter, TrafficFilter } from '../common/inspector/filter';
import { InspectorHostMessage, parseInspectorMessage, PairUpdate } from '../common/inspector/messages';
import { jsonLine, prettyText, rowOf, TrafficEntry } from '../common/inspector/traffic';
import type { Logger } from '../common/logger';
import { readInspectorSettings } from '../host/config';
import { attr, pageHead } from './pageHtml';

export const INSPECTOR_VIEW_TYPE = 'switchboard.inspector';
const FLUSH_MS = 100;

export class InspectorPanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private filter: TrafficFilter = {};
  private pending: TrafficEntry[] = [];
  private pairs: TrafficEntry[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private alwaysToken: { dispose(): void } | undefined;

  constructor(private readonly extensionUri: vscode.Uri, private readonly traffic: ProtocolTraffic, private readonly log: Logger) {
    super();
    this.register(traffic.onEntry((entry, paired) => {
      // A hidden panel's page is gone (it replays everything on its next `ready`): nothing to send.
      if (!this.panel?.visible || !this.ready) return;
      this.pending.push(entry);
      if (paired) this.pairs.push(paired);
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
    }));
    this.applySettings();
    this.register(vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('switchboard.inspector')) this.applySettings(); }));
    this.register({ dispose: () => { clearTimeout(this.flushTimer); this.alwaysToken?.dispose(); this.panel?.dispose(); } });
  }

  /** Opens (or reveals) the inspector; `preset` filters it to one conversation's session. */
  open(preset?: TrafficFilter): void {
    if (preset) this.filter = preset;
    if (this.panel) {
      this.panel.reveal();
      if (preset && this.ready) this.postView();
      return;
    }
    const distUri = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, vscode.l10n.t('Protocol Inspector'), vscode.ViewColumn.Active, {
      enableScripts: true, localResourceRoots: [distUri],
    });
    this.panel = panel;
    this.ready = false;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const recording = this.traffic.recordWhile(panel);
    panel.webview.html = renderHtml(panel.webview, distUri);
    const subs = [
      panel.webview.onDidReceiveMessage(raw => void this.onMessage(raw).catch(err => this.log.error(`Protocol inspector: ${err instanceof Error ? err.message : String(err)}`))),
      panel.onDidDispose(() => {
        recording.dispose();
        subs.forEach(s => s.dispose());
        if (this.panel === panel) { this.panel = undefined; this.ready = false; this.pending = []; this.pairs = []; }
      }),
    ];
  }

  private applySettings(): void {
    const s = readInspectorSettings();
    this.traffic.log.setLimits({ maxMessages: s.maxMessages, maxChars: s.maxMegabytes * 1024 * 1024, maxMessageChars: 1024 * 1024 });
    if (s.recordAlways && !this.alwaysToken) this.alwaysToken = this.traffic.recordWhile(this);
    else if (!s.recordAlways && this.alwaysToken) { this.alwaysToken.dispose(); this.alwaysToken = undefined; }
    if (this.ready) this.post({ type: 'inspector/recording', recording: this.traffic.recording, note: this.note() });
  }

  private note(): string {
    return readInspectorSettings().recordAlways
      ? vscode.l10n.t('Recording all the time (switchboard.inspector.recordAlways).')
      : vscode.l10n.t('Recording while an inspector is open; messages from before it opened are not here (switchboard.inspector.recordAlways records all the time).');
  }

  private post(message: InspectorHostMessage): void {
    void this.panel?.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const msg = parseInspectorMessage(raw);
    if (!msg) { this.log.warn(`Ignored a malformed message from the protocol inspector: ${JSON.stringify(raw)?.slice(0, 200)}`); return; }
    const log = this.traffic.log;
    switch (msg.type) {
      case 'inspector/ready':
        this.ready = true;
        this.pending = [];
        this.pairs = [];
        this.post({ type: 'inspector/reset', rows: [...log.all()].map(rowOf), filter: this.filter, visible: this.visible(log.all()), recording: this.traffic.recording, note: this.note() });
        break;
      case 'inspector/filter':
        this.filter = parseFilter(msg.filter);
        this.flush();
        this.postView();
        break;
      case 'inspector/open': case 'inspector/copy': {
        const e = log.get(msg.seq);
        if (!e) { void vscode.window.showInformationMessage(vscode.l10n.t('That message is no longer kept (the oldest go first).')); break; }
        const text = prettyText(e);
        if (msg.type === 'inspector/copy') await vscode.env.clipboard.writeText(text);
        else this.post({ type: 'inspector/message', seq: e.seq, text, truncated: e.truncated, size: e.size });
        break;
      }
      case 'inspector/export': await this.export(); break;
      case 'inspector/clear':
        log.clear();
        this.post({ type: 'inspector/reset', rows: [], filter: this.filter, visible: this.visible([]), recording: this.traffic.recording, note: this.note() });
        break;
    }
  }

  /** Which of `entries` pass the filter (null: no filter, all of them). */
  private visible(entries: Iterable<TrafficEntry>): number[] | null {
    if (isEmptyFilter(this.filter)) return null;
    const keep = matcher(this.filter);
    const seqs: number[] = [];
    for (const e of entries) if (keep(e)) seqs.push(e.seq);
    return seqs;
  }

  private postView(): void {
    this.post({ type: 'inspector/view', filter: this.filter, visible: this.visible(this.traffic.log.all()) });
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pending.length && !this.pairs.length) return;
    const log = this.traffic.log;
    const first = log.firstSeq;
    const entries = this.pending.filter(e => e.seq >= first);
    const oldest = this.pending[0]?.seq ?? Infinity;
    const paired: PairUpdate[] = this.pairs.filter(p => p.seq < oldest && p.seq >= first && p.pair !== undefined)
      .map(p => ({ seq: p.seq, pair: p.pair!, latency: p.latency ?? 0 }));
    this.pending = [];
    this.pairs = [];
    this.post({ type: 'inspector/rows', rows: entries.map(rowOf), paired, first, visible: this.visible(entries) });
  }

  /** Every message kept, as JSON Lines, to a file the user picks. */
  private async export(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export protocol messages'),
      filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'switchboard-protocol.jsonl') } : {}),
    });
    if (!uri) return;
    const lines: string[] = [];
    for (const e of this.traffic.log.all()) lines.push(jsonLine(e));
    await vscode.workspace.fs.writeFile(uri, Buffer.from(lines.length ? lines.join('\n') + '\n' : ''));
    void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} messages to {1}.', lines.length, vscode.workspace.asRelativePath(uri)));
  }
}

function renderHtml(webview: vscode.Webview, distUri: vscode.Uri): string {
  const { head, script } = pageHead(webview, distUri, 'inspector', vscode.l10n.t('Protocol Inspector'));
  const t = attr;
  return `${head}
<body>
<header id="bar" role="toolbar" aria-label="${t(vscode.l10n.t('Filter and export'))}">
  <select id="method" aria-label="${t(vscode.l10n.t('Method'))}"></select>
  <select id="session" aria-label="${t(vscode.l10n.t('Session'))}"></select>
  <input id="text" type="search" placeholder="${t(vscode.l10n.t('Filter by text'))}" aria-label="${t(vscode.l10n.t('Filter by text'))}">
  <span id="count" role="status" aria-live="polite"></span>
  <span class="spacer"></span>
  <button type="button" id="export" class="secondary">${t(vscode.l10n.t('Export JSON Lines'))}</button>
  <button type="button" id="clear" class="secondary">${t(vscode.l10n.t('Clear'))}</button>
</header>
<p id="note"></p>
<div id="table" role="grid" aria-label="${t(vscode.l10n.t('Protocol messages'))}">
  <div class="row head" role="row"><span role="columnheader" class="c-time">${t(vscode.l10n.t('Time (UTC)'))}</span><span role="columnheader" class="c-dir">${t(vscode.l10n.t('Direction'))}</span><span role="columnheader" class="c-method">${t(vscode.l10n.t('Method'))}</span><span role="columnheader" class="c-id">${t(vscode.l10n.t('Id'))}</span><span role="columnheader" class="c-lat">${t(vscode.l10n.t('Latency'))}</span><span role="columnheader" class="c-size">${t(vscode.l10n.t('Size'))}</span><span role="columnheader" class="c-session">${t(vscode.l10n.t('Session'))}</span></div>
  <div id="scroller" tabindex="0"><div id="rows"></div></div>
</div>
<section id="detail" aria-label="${t(vscode.l10n.t('Message'))}" hidden>
  <header><span id="detail-title"></span><span class="spacer"></span>
  <button type="button" id="pair" class="secondary"></button>
  <button type="button" id="copy" class="secondary">${t(vscode.l10n.t('Copy'))}</button>
  <button type="button" id="close" class="secondary" aria-label="${t(vscode.l10n.t('Close'))}"><span class="codicon codicon-close"></span></button></header>
  <pre id="json" tabindex="0"></pre>
</section>
${script}
</body>
</html>`;
}
