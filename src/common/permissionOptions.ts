// A permission option is shown for what it does (its kind), not for what it is called: the style,
// the order, the recorded answer and the warning when its name says the opposite all come from the
// kind. Shared by the host (the recorded answer) and the webview (the buttons); the words are
// localized (@vscode/l10n: configured by the host at activation and by webview/l10n.ts).
import * as l10n from '@vscode/l10n';

export type OptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface OptionLike { readonly optionId: string; readonly name: string; readonly kind: string }

const ORDER: readonly string[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always'];

const SAYS_ALLOW = /\b(allow|allowed|approve|accept|yes|grant|proceed|continue|run|ok|okay|trust)\b/i;
const SAYS_REJECT = /\b(reject|deny|denied|decline|refuse|no|don'?t|do not|never|cancel|block|disallow|stop|abort)\b/i;

export const isAllow = (kind: string) => kind === 'allow_once' || kind === 'allow_always';
export const isReject = (kind: string) => kind === 'reject_once' || kind === 'reject_always';

/** True when the option's name says the opposite of what its kind does (or its kind is unknown). */
export function isMisleading(o: OptionLike): boolean {
  if (isAllow(o.kind)) return SAYS_REJECT.test(o.name) && !SAYS_ALLOW.test(o.name);
  if (isReject(o.kind)) return SAYS_ALLOW.test(o.name) && !SAYS_REJECT.test(o.name);
  return true;
}

/**
 * What the kind does, in words the user reads on the button and in the recorded answer; an option
 * of an unknown kind is treated as doing nothing we can name.
 */
export function kindLabel(kind: string): string {
  switch (kind) {
    case 'allow_once': return l10n.t('Allow once');
    case 'allow_always': return l10n.t('Always allow');
    case 'reject_once': return l10n.t('Reject once');
    case 'reject_always': return l10n.t('Always reject');
    default: return l10n.t({ message: 'Unknown ({0})', args: [kind], comment: ['A permission option of a kind Switchboard does not know; {0} is that kind as the agent sent it.'] });
  }
}

/**
 * Whether an option is drawn as the primary button: only a one-time allow. An option that grants
 * for good (allow_always) is never as prominent.
 */
export function isPrimaryOption(kind: string): boolean {
  return kind === 'allow_once';
}

/** Options in a fixed order by kind (allow once, always allow, reject once, always reject, others). */
export function orderOptions<T extends OptionLike>(options: readonly T[]): T[] {
  const rank = (o: T) => { const i = ORDER.indexOf(o.kind); return i < 0 ? ORDER.length : i; };
  return options.map((o, i) => ({ o, i })).sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i).map(x => x.o);
}

/** The recorded answer: the option's name when it agrees with its kind, else what it did, flagged. */
export function describeChoice(o: OptionLike): string {
  return isMisleading(o)
    ? l10n.t({ message: '{0} (the option was named “{1}”)', args: [kindLabel(o.kind), o.name], comment: ['The recorded answer to a permission request whose option\'s name says the opposite of what it does: {0} what it did (Allow once…), {1} the name the agent gave it.'] })
    : o.name;
}

/** An option's label: its name, or what it does when its name says the opposite (flagged with the name). */
export function optionLabel(o: OptionLike & { readonly misleading?: boolean }): string {
  return o.misleading ?? isMisleading(o) ? l10n.t('{0} (named “{1}”)', kindLabel(o.kind), o.name) : o.name;
}
