// The context meter's words: tokens used of the context window, the helpers' tokens apart, the
// cost; its tooltip in full numbers (in the UI language `lang`). Pure: no DOM.
import * as l10n from '@vscode/l10n';
import type { Usage } from '../src/common/sessionMeta';

export interface UsageMeter {
  readonly text: string;
  readonly title: string;
  /** Of the context window, 0 when its size is unknown. */
  readonly percent: number;
}

export function usageMeter(usage: Usage, lang: string): UsageMeter {
  const pct = usage.size ? Math.min(100, Math.round((usage.used / usage.size) * 100)) : 0;
  // The conversation's own context (when its agent reports it), its helpers' tokens apart, the cost with theirs.
  const helpers = usage.helpers;
  const text = [
    usage.size ? `${compact(usage.used)} / ${compact(usage.size)}` : '',
    helpers ? l10n.t({ message: '+{0} helpers', args: [compact(helpers.tokens)], comment: ['Tokens used by the conversation\'s helper (child) agents, shown after its own context usage'] }) : '',
    usage.cost ? `${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : '',
  ].filter(Boolean).join(' · ');
  const title = [
    usage.size ? l10n.t('Context: {0} of {1} tokens ({2}%)', usage.used.toLocaleString(lang), usage.size.toLocaleString(lang), pct) : '',
    helpers ? l10n.t({ message: 'Helpers: {0} tokens in {1} helper sessions', args: [helpers.tokens.toLocaleString(lang), helpers.count], comment: ['Tokens used by the conversation\'s helper (child) agents: {0} tokens, {1} how many helpers'] }) : '',
    usage.cost ? l10n.t('Cost: {0} {1}', usage.cost.amount.toFixed(2), usage.cost.currency) : '',
  ].filter(Boolean).join('\n');
  return { text, title, percent: pct };
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n);
}
