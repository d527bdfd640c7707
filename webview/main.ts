// The chat view in the browser. It renders what the host sends and applies transcript operations
// once per animation frame: appended text goes into the item's text node, nothing else is touched.
import type { ChatStatus, HostMessage, ViewMessage } from '../src/common/protocol';
import type { Item, TranscriptOp } from '../src/common/transcript';
import './chat.css';

declare function acquireVsCodeApi(): { postMessage(message: ViewMessage): void };
const vscode = acquireVsCodeApi();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const transcriptEl = $<HTMLElement>('transcript');
const statusEl = $<HTMLElement>('status');
const promptEl = $<HTMLTextAreaElement>('prompt');
const sendEl = $<HTMLButtonElement>('send');
const stopEl = $<HTMLButtonElement>('stop');
const agentEl = $<HTMLButtonElement>('agent');

/** Rendered items by id; for streamed messages also the text node that chunks extend. */
const rendered = new Map<string, { el: HTMLElement; text?: Text }>();
let pending: TranscriptOp[] = [];
let frame = 0;
let busy = false;

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'state/reset':
      pending = [];
      rendered.clear();
      transcriptEl.replaceChildren();
      for (const item of msg.items) renderItem(item);
      setStatus(msg.status);
      scrollToEnd(true);
      break;
    case 'transcript/ops':
      pending.push(...msg.ops);
      frame ||= requestAnimationFrame(flush);
      break;
    case 'status':
      setStatus(msg.status);
      break;
  }
});

function flush(): void {
  frame = 0;
  const stick = isAtEnd();
  const ops = pending;
  pending = [];
  for (const op of ops) {
    if (op.op === 'add') renderItem(op.item);
    else if (op.op === 'replace') replaceItem(op.item);
    else rendered.get(op.id)?.text?.appendData(op.text);
  }
  if (stick) scrollToEnd(true);
}

function renderItem(item: Item): void {
  const node = build(item);
  rendered.set(item.id, node);
  transcriptEl.append(node.el);
}

function replaceItem(item: Item): void {
  const old = rendered.get(item.id);
  if (!old) return renderItem(item);
  const node = build(item);
  old.el.replaceWith(node.el);
  rendered.set(item.id, node);
}

function build(item: Item): { el: HTMLElement; text?: Text } {
  switch (item.kind) {
    case 'user':
    case 'agent': {
      const el = h('article', `message ${item.kind}`, { 'aria-label': item.kind === 'user' ? 'You' : 'Agent' });
      const text = document.createTextNode(item.text);
      el.append(h('div', 'who', {}, item.kind === 'user' ? 'You' : 'Agent'), h('div', 'body'));
      el.lastElementChild!.append(text);
      return { el, text };
    }
    case 'thought': {
      const el = h('details', 'thought');
      const text = document.createTextNode(item.text);
      el.append(h('summary', '', {}, 'Thinking'), h('div', 'body'));
      el.lastElementChild!.append(text);
      return { el, text };
    }
    case 'tool': {
      const t = item.tool;
      const el = h('article', `tool status-${t.status}`, { 'aria-label': `Tool call: ${t.title}` });
      const head = h('div', 'tool-head');
      head.append(h('span', `codicon codicon-${toolIcon(t.kind)}`), h('span', 'tool-title', {}, t.title || 'Tool call'),
        h('span', 'tool-status', {}, t.status.replace('_', ' ')));
      el.append(head);
      if (t.body) el.append(h('pre', 'tool-body', {}, t.body));
      return { el };
    }
    case 'permission': {
      const p = item.permission;
      const el = h('article', 'permission', { 'aria-label': 'Permission request' });
      el.append(h('div', 'permission-title', {}, p.title));
      if (p.outcome !== undefined) {
        el.append(h('div', 'permission-outcome', {}, `Answered: ${p.outcome}`));
      } else {
        const row = h('div', 'permission-options');
        p.options.forEach((o, i) => {
          // No option is pre-selected or focused: a stray Enter must never grant anything.
          const b = h('button', o.kind.startsWith('allow') ? 'allow' : 'secondary', { type: 'button', title: `${o.name} (${i + 1})` }, `${i + 1}. ${o.name}`) as HTMLButtonElement;
          b.addEventListener('click', () => vscode.postMessage({ type: 'permission/answer', itemId: item.id, optionId: o.optionId }));
          row.append(b);
        });
        el.append(row);
        el.tabIndex = 0;
        el.addEventListener('keydown', e => {
          const n = Number(e.key);
          if (n >= 1 && n <= p.options.length) vscode.postMessage({ type: 'permission/answer', itemId: item.id, optionId: p.options[n - 1].optionId });
        });
      }
      return { el };
    }
    case 'turnEnd':
      return { el: h('div', 'turn-end', { role: 'note' }, item.stopReason === 'end_turn' ? 'Turn ended' : `Turn ended: ${item.stopReason.replace(/_/g, ' ')}`) };
    case 'notice':
      return { el: h('div', 'notice', { role: 'note' }, item.text) };
    case 'error': {
      const el = h('article', 'error', { role: 'alert' });
      el.append(h('div', 'error-message', {}, item.message));
      if (item.details) el.append(h('pre', 'error-details', {}, item.details));
      if (item.actions.length) {
        const row = h('div', 'error-actions');
        for (const action of item.actions) {
          const b = h('button', 'secondary', { type: 'button' }, ACTION_LABELS[action]);
          b.addEventListener('click', () => vscode.postMessage({ type: 'item/action', itemId: item.id, action }));
          row.append(b);
        }
        el.append(row);
      }
      return { el };
    }
  }
}

const ACTION_LABELS = { restart: 'Restart agent', retry: 'Retry', openSettings: 'Open settings', authenticate: 'Sign in', showLog: 'Show log' } as const;

function toolIcon(kind: string): string {
  return ({ read: 'file', edit: 'edit', delete: 'trash', move: 'arrow-right', search: 'search', execute: 'terminal', think: 'lightbulb', fetch: 'globe', switch_mode: 'settings' } as Record<string, string>)[kind] ?? 'tools';
}

function setStatus(status: ChatStatus): void {
  busy = status.status === 'busy' || status.status === 'starting';
  statusEl.className = `status-${status.status}`;
  statusEl.textContent = status.detail || (status.agentName ? `${status.agentName} · ${status.status}` : 'No agent running');
  agentEl.textContent = status.agentName ?? 'Choose agent';
  stopEl.hidden = status.status !== 'busy';
  sendEl.disabled = busy;
}

function send(): void {
  const text = promptEl.value;
  if (!text.trim() || busy) return;
  vscode.postMessage({ type: 'prompt/send', text });
  promptEl.value = '';
}

$<HTMLFormElement>('composer').addEventListener('submit', e => { e.preventDefault(); send(); });
promptEl.addEventListener('keydown', e => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
});
document.addEventListener('keydown', e => {
  if (e.key === 'Escape' && busy) vscode.postMessage({ type: 'turn/cancel' });
});
stopEl.addEventListener('click', () => vscode.postMessage({ type: 'turn/cancel' }));
agentEl.addEventListener('click', () => vscode.postMessage({ type: 'agent/pick' }));

function isAtEnd(): boolean {
  return transcriptEl.scrollHeight - transcriptEl.scrollTop - transcriptEl.clientHeight < 40;
}

function scrollToEnd(force: boolean): void {
  if (force || isAtEnd()) transcriptEl.scrollTop = transcriptEl.scrollHeight;
}

function h(tag: string, className: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const el = document.createElement(tag);
  if (className) el.className = className;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

vscode.postMessage({ type: 'view/ready' });
promptEl.focus();
