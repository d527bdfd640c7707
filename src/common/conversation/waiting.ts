// The conversations that wait for the user, as the status bar counts them and the notifications name
// them: one notification per wait (a conversation that waits, is answered and waits again is named
// again), only for a conversation whose chat is not on screen; one the user saw while it waited is
// not named afterwards. Pure (host/waitingAlert shows it).
import * as l10n from '@vscode/l10n';
import type { WaitReason } from './lifecycle';
import { waitText } from './agentsTree';

export interface Waiter {
  readonly id: string;
  readonly title: string;
  readonly agent: string;
  readonly waitingFor: readonly WaitReason[];
}

/** The status bar item's text and tooltip; undefined: nothing waits (the item is hidden). */
export function waitingLabel(waiters: readonly Waiter[]): { text: string; tooltip: string } | undefined {
  if (!waiters.length) return undefined;
  const text = waiters.length === 1
    ? l10n.t('{0} is waiting for you', waiters[0].agent)
    : l10n.t('{0} conversations are waiting for you', waiters.length);
  const lines = waiters.map(w => `“${w.title}” (${w.agent}): ${w.waitingFor.map(waitText).join(', ')}`);
  return { text, tooltip: [...lines, l10n.t('Click to open the first one.')].join('\n') };
}

/** The notification's words for one conversation that waits. */
export function waitingMessage(w: Waiter): string {
  const what = w.waitingFor.map(waitText).join(', ');
  return l10n.t({ message: '“{0}” ({1}) is waiting for you: {2}.', args: [w.title, w.agent, what], comment: '{0} a conversation title, {1} its agent, {2} what for: permission, review, question' });
}

/** Which waits to name in a notification, once each. */
export class WaitNotices {
  private readonly seen = new Set<string>();

  /** The conversations to name now; `shown(id)`: its chat is on screen (it is not named, and counts as seen). */
  next(waiters: readonly Waiter[], shown: (id: string) => boolean): Waiter[] {
    const now = new Set(waiters.map(w => w.id));
    // A wait that ended is forgotten: the next one is named again.
    for (const id of this.seen) if (!now.has(id)) this.seen.delete(id);
    const fresh: Waiter[] = [];
    for (const w of waiters) {
      if (this.seen.has(w.id)) continue;
      this.seen.add(w.id);
      if (!shown(w.id)) fresh.push(w);
    }
    return fresh;
  }
}
