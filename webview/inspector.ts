// The protocol inspector's webview: the timeline of JSON-RPC messages, only the rows in view in the
// DOM (@tanstack/virtual-core), so 100,000 of them scroll like ten. The host holds the messages and
// filters them (src/views/inspectorPanel.ts); this page holds their rows and renders.
import './l10n';
import './inspector.css';
import * as l10n from '@vscode/l10n';
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import type { TrafficFilter } from '../src/common/inspector/filter';
import type { InspectorHostMessage, InspectorViewMessage } from '../src/common/inspector/messages';
import type { TrafficRow } from '../src/common/inspector/traffic';

declare function acquireVsCodeApi(): { postMessage(message: InspectorViewMessage): void };
const vscode = acquireVsCodeApi();
const ROW_HEIGHT = 22;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const methodSel = $<HTMLSelectElement>('method');
const sessionSel = $<HTMLSelectElement>('session');
const textBox = $<HTMLInputElement>('text');
const count = $('count');
const note = $('note');
const scroller = $('scroller');
const list = $('rows');
const detail = $('detail');
const json = $('json');
const detailTitle = $('detail-title');
const pairBtn = $<HTMLButtonElement>('pair');

/** Rows by seq, in order: seqs only grow, and the oldest go first. */
let rows: TrafficRow[] = [];
const bySeq = new Map<number, TrafficRow>();
/** The seqs shown (null: all rows). */
let visible: number[] | null = null;
let filter: TrafficFilter = {};
let selected: number | undefined;
const methods = new Set<string>();
const sessions = new Set<string>();
/** Stick to the end while the user is there (new messages scroll in). */
let atEnd = true;

const shownCount = () => (visible ? visible.length : rows.length);
const shownSeq = (i: number) => (visible ? visible[i] : rows[i]?.seq);

const virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
  count: 0,
  getScrollElement: () => scroller,
  estimateSize: () => ROW_HEIGHT,
  getItemKey: i => shownSeq(i) ?? i,
  scrollToFn: elementScroll,
  observeElementRect,
  observeElementOffset,
  overscan: 10,
  onChange: () => queueRender(),
});
virtualizer._didMount();
virtualizer._willUpdate();

let renderQueued = false;
function queueRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; render(); });
}

const mounted = new Map<number, HTMLElement>();

function render(): void {
  const items = virtualizer.getVirtualItems();
  const wanted = new Set<number>();
  for (const item of items) {
    const seq = shownSeq(item.index);
    if (seq === undefined) continue;
    wanted.add(seq);
    let el = mounted.get(seq);
    if (!el) {
      el = buildRow(bySeq.get(seq));
      mounted.set(seq, el);
      list.append(el);
    }
    el.style.transform = `translateY(${item.start}px)`;
    el.setAttribute('aria-rowindex', String(item.index + 2));
  }
  for (const [seq, el] of mounted) if (!wanted.has(seq)) { el.remove(); mounted.delete(seq); }
  list.style.height = `${virtualizer.getTotalSize()}px`;
}

function cell(cls: string, text: string, title?: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.setAttribute('role', 'gridcell');
  s.textContent = text;
  if (title) s.title = title;
  return s;
}

function buildRow(r: TrafficRow | undefined): HTMLElement {
  const el = document.createElement('div');
  el.setAttribute('role', 'row');
  if (!r) return el;
  el.className = `row kind-${r.kind}${r.seq === selected ? ' selected' : ''}`;
  el.dataset.seq = String(r.seq);
  const arrow = r.dir === 'out' ? l10n.t('→ agent') : l10n.t('← agent');
  const what = r.method ?? '';
  const label = r.kind === 'response' ? l10n.t('{0} (response)', what || l10n.t('response')) : r.kind === 'error' ? l10n.t('{0} (error)', what || l10n.t('error')) : what;
  el.append(
    cell('c-time', new Date(r.time).toISOString().slice(11, 23)),
    cell(`c-dir dir-${r.dir}`, arrow, r.dir === 'out' ? l10n.t('Sent to {0}', r.agent) : l10n.t('Received from {0}', r.agent)),
    cell('c-method', label),
    cell('c-id', r.id === undefined ? '' : String(r.id)),
    cell('c-lat', r.latency === undefined ? '' : `${r.latency} ms`),
    cell('c-size', formatSize(r.size)),
    cell('c-session', r.session ?? ''),
  );
  return el;
}

function formatSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

function addOption(sel: HTMLSelectElement, set: Set<string>, value: string | undefined): void {
  if (!value || set.has(value)) return;
  set.add(value);
  const o = document.createElement('option');
  o.value = o.textContent = value;
  sel.append(o);
}

/** The session dropdown's value for a connection's session (session ids are per connection). */
const sessionKey = (conn: number | undefined, session: string) => `${conn ?? ''} ${session}`;

function addSession(conn: number | undefined, session: string | undefined, agent?: string): void {
  if (!session) return;
  const value = sessionKey(conn, session);
  if (sessions.has(value)) return;
  sessions.add(value);
  const label = conn === undefined ? session : agent ? `${session} (${agent} #${conn})` : `${session} (#${conn})`;
  sessionSel.append(new Option(label, value));
}

function resetOptions(): void {
  methods.clear();
  sessions.clear();
  methodSel.replaceChildren(new Option(l10n.t('All methods'), ''));
  sessionSel.replaceChildren(new Option(l10n.t('All sessions'), ''));
  addOption(methodSel, methods, filter.method);
  addSession(filter.conn, filter.session);
}

function noteRows(added: readonly TrafficRow[]): void {
  for (const r of added) {
    rows.push(r);
    bySeq.set(r.seq, r);
    addOption(methodSel, methods, r.method);
    addSession(r.conn, r.session, r.agent);
  }
}

function dropBefore(first: number): void {
  let n = 0;
  while (n < rows.length && rows[n].seq < first) bySeq.delete(rows[n++].seq);
  if (n) rows = rows.slice(n);
  if (visible && visible.length && visible[0] < first) {
    let k = 0;
    while (k < visible.length && visible[k] < first) k++;
    visible = visible.slice(k);
  }
}

function showFilter(): void {
  methodSel.value = filter.method ?? '';
  sessionSel.value = filter.session ? sessionKey(filter.conn, filter.session) : '';
  if (document.activeElement !== textBox) textBox.value = filter.text ?? '';
}

function showCount(): void {
  count.textContent = visible ? l10n.t('{0} of {1} messages', shownCount(), rows.length) : l10n.t('{0} messages', shownCount());
}

function update(scrollToEnd: boolean): void {
  const n = shownCount();
  showCount();
  // Rows whose place changed (a filter, evictions) are rebuilt from scratch.
  for (const el of mounted.values()) el.remove();
  mounted.clear();
  virtualizer.setOptions({ ...virtualizer.options, count: n });
  virtualizer._willUpdate();
  if (scrollToEnd && n) virtualizer.scrollToIndex(n - 1, { align: 'end' });
  render();
}

scroller.addEventListener('scroll', () => { atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - ROW_HEIGHT; }, { passive: true });

window.addEventListener('message', (event: MessageEvent<InspectorHostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'inspector/reset':
      rows = [];
      bySeq.clear();
      filter = m.filter;
      resetOptions();
      noteRows(m.rows);
      visible = m.visible;
      showFilter();
      note.textContent = m.note;
      update(true);
      break;
    case 'inspector/rows': {
      const kept = rows.length;
      dropBefore(m.first);
      const dropped = kept - rows.length;
      noteRows(m.rows);
      for (const p of m.paired) {
        const r = bySeq.get(p.seq);
        if (!r) continue;
        bySeq.set(p.seq, { ...r, pair: p.pair, latency: p.latency });
        const el = mounted.get(p.seq);
        if (el) { const fresh = buildRow(bySeq.get(p.seq)); fresh.style.transform = el.style.transform; el.replaceWith(fresh); mounted.set(p.seq, fresh); }
      }
      // `rows` holds the old objects of the rows just paired.
      if (m.paired.length) rows = rows.map(r => bySeq.get(r.seq) ?? r);
      if (visible && m.visible) visible.push(...m.visible);
      if (dropped || atEnd) update(atEnd);
      else {
        showCount();
        virtualizer.setOptions({ ...virtualizer.options, count: shownCount() });
        virtualizer._willUpdate();
        render();
      }
      break;
    }
    case 'inspector/view':
      filter = m.filter;
      visible = m.visible;
      showFilter();
      update(true);
      break;
    case 'inspector/message': {
      selected = m.seq;
      for (const [seq, el] of mounted) el.classList.toggle('selected', seq === m.seq);
      const r = bySeq.get(m.seq);
      detail.hidden = false;
      detailTitle.textContent = r ? `#${r.seq} ${r.method ?? ''} · ${formatSize(m.size)}${m.truncated ? ` · ${l10n.t('cut to the first 1 MB')}` : ''}` : `#${m.seq}`;
      pairBtn.hidden = r?.pair === undefined;
      pairBtn.textContent = r?.kind === 'request' ? l10n.t('Show response') : l10n.t('Show request');
      json.textContent = m.text;
      break;
    }
    case 'inspector/recording':
      note.textContent = m.note;
      break;
  }
});

let textTimer: ReturnType<typeof setTimeout> | undefined;
const sendFilter = () => {
  const space = sessionSel.value.indexOf(' ');
  const conn = space > 0 ? Number(sessionSel.value.slice(0, space)) : undefined;
  const session = space >= 0 ? sessionSel.value.slice(space + 1) : '';
  filter = { ...(methodSel.value ? { method: methodSel.value } : {}), ...(conn ? { conn } : {}), ...(session ? { session } : {}), ...(textBox.value ? { text: textBox.value } : {}) };
  vscode.postMessage({ type: 'inspector/filter', filter });
};
methodSel.addEventListener('change', sendFilter);
sessionSel.addEventListener('change', sendFilter);
textBox.addEventListener('input', () => { clearTimeout(textTimer); textTimer = setTimeout(sendFilter, 200); });

const open = (seq: number) => vscode.postMessage({ type: 'inspector/open', seq });
list.addEventListener('click', e => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (row?.dataset.seq) open(Number(row.dataset.seq));
});
// Up / Down move through the rows, Enter opens one.
scroller.addEventListener('keydown', e => {
  const n = shownCount();
  if (!n || !['ArrowDown', 'ArrowUp', 'Enter', 'Home', 'End'].includes(e.key)) return;
  e.preventDefault();
  const at = selected === undefined ? -1 : (visible ? visible.indexOf(selected) : rows.findIndex(r => r.seq === selected));
  const next = e.key === 'Enter' ? Math.max(0, at) : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : Math.min(n - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
  const seq = shownSeq(next);
  if (seq === undefined) return;
  virtualizer.scrollToIndex(next);
  open(seq);
});
$('copy').addEventListener('click', () => { if (selected !== undefined) vscode.postMessage({ type: 'inspector/copy', seq: selected }); });
pairBtn.addEventListener('click', () => {
  const pair = selected === undefined ? undefined : bySeq.get(selected)?.pair;
  if (pair === undefined) return;
  const i = visible ? visible.indexOf(pair) : rows.findIndex(r => r.seq === pair);
  if (i >= 0) virtualizer.scrollToIndex(i, { align: 'center' });
  open(pair);
});
$('close').addEventListener('click', () => { detail.hidden = true; selected = undefined; for (const el of mounted.values()) el.classList.remove('selected'); scroller.focus(); });
$('export').addEventListener('click', () => vscode.postMessage({ type: 'inspector/export' }));
$('clear').addEventListener('click', () => vscode.postMessage({ type: 'inspector/clear' }));

vscode.postMessage({ type: 'inspector/ready' });
