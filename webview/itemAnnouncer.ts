// What a screen reader hears of the transcript: each answer once, complete, a permission request or
// a question when it appears, and how each turn ended. The transcript itself is no live region.
import * as l10n from '@vscode/l10n';
import type { Item } from '../src/common/transcript';
import { kindLabel as kindText, orderOptions } from '../src/common/permissionOptions';
import { announce } from './a11y';
import { withMarkdown } from './lazyMarkdown';
import { stopText } from './labels';
import { titleText } from './titles';

export class ItemAnnouncer {
  /** The agent message being streamed; announced once when it is complete. */
  private speaking: string | undefined;
  /** The agent message that was just completed: announced after the operations of this frame. */
  private finished: string | undefined;

  /** `textOf`: an item's text as read (paragraphs apart). */
  constructor(private readonly textOf: (itemId: string) => string) {}

  /** A new transcript is shown; `streaming` is its agent message still being answered, if any. */
  reset(streaming: string | undefined): void {
    this.speaking = streaming;
  }

  /**
   * A streamed message is announced when the next item arrives below it (the turn's end at the
   * latest), and a permission request when it appears.
   */
  added(item: Item): void {
    if (this.speaking && this.speaking !== item.id) {
      // Read after the frame that applied the operations was drawn (innerText reads the layout: read
      // then, it is the layout drawn, not one forced between the frame's writes), and only the last
      // message a burst finished: a burst of thousands is not read out message by message.
      if (this.finished === undefined) setTimeout(() => {
        // innerText: paragraphs and list items stay apart ("a.b" would be read as one word).
        const text = this.textOf(this.finished!);
        this.finished = undefined;
        announce(l10n.t('Agent: {0}', text), 'message');
      }, 0);
      this.finished = this.speaking;
      this.speaking = undefined;
    }
    if (item.kind === 'agent') this.speaking = item.id;
    else if (item.kind === 'permission') {
      const p = item.permission;
      // Numbered and named as the card's buttons are.
      const options = orderOptions(p.options).map((o, i) => `${i + 1}: ${o.misleading ? l10n.t('{0} (named “{1}”)', kindText(o.kind), o.name) : o.name}`).join(', ');
      withMarkdown(md => announce(l10n.t('Permission needed: {0}. Options {1}.', titleText(md, p.title), options), 'permission'));
    } else if (item.kind === 'question') announce(l10n.t('The agent asks: {0}', item.question.message), 'permission');
    else if (item.kind === 'turnEnd') announce(stopText(item.stopReason), 'turn');
  }
}
