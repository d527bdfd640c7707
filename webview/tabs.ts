// The tab strip: one tab per conversation, with its agent and state (a spinner while it works, a
// bell while it waits for the user). Arrow keys select, Delete closes; the new-conversation and
// sessions buttons sit beside the strip. The host owns the tabs and sends them whole.
import * as l10n from '@vscode/l10n';
import type { TabInfo, ViewMessage } from '../src/common/protocol';
import { keepFocus } from './a11y';
import { tabStateText } from './childAgents';
import { button, h } from './dom';

let send: (m: ViewMessage) => void = () => {};
let tabsEl: HTMLElement;
let tabs: readonly TabInfo[] = [];
let activeTab: string | undefined;
/** Called once the strip is redrawn (the status line follows the shown tab). */
let changed: () => void = () => {};

export function initTabs(post: (m: ViewMessage) => void, strip: HTMLElement, actions: HTMLElement, onChange: () => void): void {
  send = post;
  tabsEl = strip;
  changed = onChange;
  // Beside the tab list (a tab list holds tabs only).
  actions.append(button('', 'tab-new codicon codicon-add', () => send({ type: 'tab/new' }), l10n.t('New conversation')),
    button('', 'tab-new codicon codicon-history', () => send({ type: 'sessions/browse' }), l10n.t("The agent's sessions")));
}

/** The conversation shown. */
export function shownTab(): string | undefined {
  return activeTab;
}

/** The shown conversation's tab, if the strip has it. */
export function shownTabInfo(): TabInfo | undefined {
  return tabs.find(t => t.id === activeTab);
}

/** Another conversation is shown (its transcript is drawn before the strip is). */
export function setShownTab(id: string | undefined): void {
  activeTab = id;
}

/** The tab's state in words ("waiting for you (in <helper>)" when a helper asked). */
export function tabState(tab: TabInfo): string {
  return tabStateText(tab, STATE_LABELS);
}

export function setTabs(list: readonly TabInfo[], active: string | undefined): void {
  // Arrow keys select a tab: the focus follows the selection into the rebuilt strip.
  const onTab = document.activeElement?.getAttribute('role') === 'tab' && tabsEl.contains(document.activeElement);
  keepFocus(tabsEl, () => buildTabs(list, active));
  if (onTab) tabsEl.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  changed();
}

/** The same tabs drawn again (the status line follows). */
export function redrawTabs(): void {
  setTabs(tabs, activeTab);
}

function buildTabs(list: readonly TabInfo[], active: string | undefined): void {
  tabs = list;
  activeTab = active;
  tabsEl.replaceChildren();
  for (const tab of list) {
    // A tab holds no other control (screen readers read a tab as one thing): its close button sits
    // beside it, for the mouse; the keyboard closes the focused tab with Delete.
    const el = h('div', `tab state-${tab.state}${tab.id === active ? ' active' : ''}`);
    const label = h('div', 'tab-label', {
      role: 'tab', 'aria-selected': String(tab.id === active), tabindex: tab.id === active ? '0' : '-1',
      title: l10n.t('{0} — {1} ({2}). Delete closes it.', tab.title, tab.agentName, tabState(tab)),
    });
    // Each conversation shows its agent (agents run side by side; a reload keeps it).
    label.append(h('span', `codicon codicon-${STATE_ICONS[tab.state]}`, { 'aria-hidden': 'true' }), h('span', 'tab-title', {}, tab.title),
      ...(tab.agentName && !tab.title.includes(tab.agentName) ? [h('span', 'tab-agent', {}, tab.agentName)] : []),
      h('span', 'visually-hidden', {}, `, ${tabState(tab)}`));
    const close = h('button', 'tab-close codicon codicon-close', { type: 'button', title: l10n.t('Close {0}', tab.title), 'aria-hidden': 'true', tabindex: '-1' });
    close.addEventListener('click', e => { e.stopPropagation(); send({ type: 'tab/close', tab: tab.id }); });
    el.append(label, close);
    el.addEventListener('click', () => send({ type: 'tab/select', tab: tab.id }));
    label.addEventListener('keydown', e => {
      const i = tabs.findIndex(t => t.id === tab.id);
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
        send({ type: 'tab/select', tab: next.id });
      } else if (e.key === 'Enter' || e.key === ' ') send({ type: 'tab/select', tab: tab.id });
      else if (e.key === 'Delete') send({ type: 'tab/close', tab: tab.id });
      else return;
      e.preventDefault();
    });
    tabsEl.append(el);
  }
}


const STATE_ICONS = { idle: 'comment', starting: 'loading codicon-modifier-spin', busy: 'loading codicon-modifier-spin', waiting: 'bell-dot', detached: 'debug-disconnect' } as const;
const STATE_LABELS = { idle: l10n.t('idle'), starting: l10n.t('starting a session'), busy: l10n.t('working'), waiting: l10n.t('waiting for your answer'), detached: l10n.t('agent not running') };
