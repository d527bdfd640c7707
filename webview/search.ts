// Search within the conversation (Ctrl+F in the chat). The host searches every turn — rendered or
// not, in memory or on disk (common/conversationSearch.ts) — and the bar lists the items that hold
// the text, a line around the match each; choosing one opens that item's full text in an editor.
import * as l10n from '@vscode/l10n';
import type { SearchHit } from '../src/common/conversationSearch';
import { button, h } from './dom';

const DEBOUNCE_MS = 150;

export interface SearchHooks {
  query(text: string): void;
  open(itemId: string): void;
}

export class ConversationSearch {
  readonly el = h('div', 'chat-search', { role: 'search' });
  private readonly input = h('input', 'chat-search-input', { type: 'search', 'aria-label': l10n.t('Search this conversation'), placeholder: l10n.t('Search this conversation') }) as HTMLInputElement;
  private readonly count = h('span', 'chat-search-count', { role: 'status' });
  private readonly list = h('ul', 'chat-search-results');
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hooks: SearchHooks) {
    this.el.hidden = true;
    const row = h('div', 'chat-search-row');
    row.append(this.input, this.count, button('', 'icon codicon codicon-close', () => this.hide(), l10n.t('Close search')));
    this.el.append(row, this.list);
    this.input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.hooks.query(this.input.value), DEBOUNCE_MS);
    });
    this.el.addEventListener('keydown', e => { if (e.key === 'Escape') { e.preventDefault(); this.hide(); } });
  }

  show(): void {
    this.el.hidden = false;
    this.input.focus();
    this.input.select();
  }

  hide(): void {
    this.el.hidden = true;
    this.list.replaceChildren();
    this.count.textContent = '';
  }

  /** The host's answer; ignored when the text changed since. */
  results(query: string, hits: readonly SearchHit[]): void {
    if (this.el.hidden || query !== this.input.value) return;
    this.count.textContent = !hits.length ? l10n.t('No results') : hits.length === 1 ? l10n.t('1 result') : l10n.t('{0} results', hits.length);
    this.list.replaceChildren(...hits.map(hit => {
      const li = h('li', '');
      const b = button('', 'chat-search-hit', () => this.hooks.open(hit.itemId), l10n.t('Open the full text'));
      b.removeAttribute('aria-label');
      b.append(document.createTextNode(hit.snippet.slice(0, hit.at)), h('mark', '', {}, hit.snippet.slice(hit.at, hit.at + hit.length)),
        document.createTextNode(hit.snippet.slice(hit.at + hit.length)));
      li.append(b);
      return li;
    }));
  }
}
