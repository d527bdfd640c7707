// A permission request's card: what the agent (or one of its helpers) asks to do, with the diff it
// would write; its options ordered and styled by what they do, a name that says the opposite
// flagged; none focused or pre-selected, number keys answer while the card has focus. Once
// answered, the card says what was chosen and follows the tool call (written or not).
import * as l10n from '@vscode/l10n';
import type { Item } from '../src/common/transcript';
import { isAllow, isPrimaryOption, isReject, kindLabel as kindText, orderOptions } from '../src/common/permissionOptions';
import { childAsks } from './childAgents';
import { button, h } from './dom';
import { lateNote } from './labels';
import { labelWithTitle, titleEl } from './titles';
import { buildToolContent, type CardHost } from './toolCard';

export function buildPermission(item: Extract<Item, { kind: 'permission' }>, host: CardHost): HTMLElement {
  const p = item.permission;
  // Focusable: number keys answer this card only while it has focus.
  const el = h('article', `permission${p.late ? ' late' : ''}`, { tabindex: '-1' });
  labelWithTitle(el, p.title, title => l10n.t('Permission request: {0}', title));
  if (p.late) el.append(lateNote());
  if (p.from) el.append(h('div', 'permission-from', {}, childAsks(p.from)));
  el.append(titleEl('div', 'permission-title', p.title));
  const allowed = p.outcome !== undefined && !!p.options.find(o => o.name === p.outcome)?.kind.startsWith('allow');
  // Once allowed, the card follows the tool call: written when it completed, not written when it failed.
  const ended = p.toolStatus === 'completed' || p.toolStatus === 'failed' || p.toolStatus === 'cancelled' ? p.toolStatus : undefined;
  p.content?.forEach((c, index) => el.append(buildToolContent(item.id, c, index, p.outcome === undefined ? 'permission' : !allowed ? 'refused' : ended ?? 'allowed')));
  if (p.outcome !== undefined) {
    el.classList.add('answered');
    el.append(h('div', 'permission-outcome', {}, p.outcome === 'cancelled' ? l10n.t('Not answered (cancelled)') : l10n.t('You chose: {0}', p.outcome)));
    return el;
  }
  el.tabIndex = 0;
  // Shown for what they do: order, style and label come from the kind; a contradicting name is flagged.
  const options = orderOptions(p.options);
  const row = h('div', 'actions', { role: 'group', 'aria-label': l10n.t('Options') });
  options.forEach((o, i) => {
    const label = o.misleading ? l10n.t('{0} (named “{1}”)', kindText(o.kind), o.name) : o.name;
    // Only a one-time allow is the primary button; an allow for good is a secondary one.
    const style = isPrimaryOption(o.kind) ? 'allow' : isReject(o.kind) ? 'secondary reject' : isAllow(o.kind) ? 'secondary allow-always' : 'secondary';
    // No option is pre-selected or focused: a stray Enter must never grant anything.
    row.append(button(`${i + 1}. ${label}`, style + (o.misleading ? ' misleading' : ''), () =>
      host.send({ type: 'permission/answer', tab: host.tab(), itemId: item.id, optionId: o.optionId }), l10n.t({ message: '{0}. {1}: {2} (key {0})', args: [i + 1, label, kindText(o.kind)], comment: ['A permission button\'s name: {0} its number (the key that answers), {1} its label, {2} what it does (Allow once…)'] })));
  });
  el.append(row);
  if (options.some(o => o.misleading)) {
    el.append(h('div', 'permission-warning', { role: 'note' }, l10n.t("Careful: an option's name says the opposite of what it does. Each button shows what it does.")));
  }
  el.append(h('div', 'hint', {}, l10n.t('With this card focused, press 1–{0} to answer. Esc stops the turn.', options.length)));
  el.addEventListener('keydown', e => {
    if (!el.contains(e.target as Node) || e.ctrlKey || e.metaKey || e.altKey) return;
    const option = options[Number(e.key) - 1];
    if (/^[1-9]$/.test(e.key) && option) {
      e.preventDefault();
      host.send({ type: 'permission/answer', tab: host.tab(), itemId: item.id, optionId: option.optionId });
    }
  });
  return el;
}

// Text shown plain while the markdown renderer loaded is rendered when it arrives; the transcript
