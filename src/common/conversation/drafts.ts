// What is typed in the prompt box and not sent (the draft), per conversation (issue 19): each
// conversation (tab) keeps its own, whichever surface it was typed in, and a surface that switches
// conversation shows that conversation's. Pure: no `vscode`, no DOM.
//
// The rules:
//  - a draft belongs to the conversation it was typed for; an empty one is no draft;
//  - a prompt sent from the prompt box that has not reached its agent yet (the picker is open, the
//    agent starts) is held as its conversation's draft until it does; not sent, it becomes the
//    draft, before what was typed since (both are kept: a failed start loses nothing);
//  - a closed conversation's draft is forgotten;
//  - after a reload each open conversation gets its draft back; a draft saved for a conversation
//    that did not come back (an empty one is not saved), and the one-per-window draft of an older
//    version, go to the conversation shown then, if it has none (the most recent first);
//  - pasted images are kept in the saved drafts up to a budget of base64 characters in all, the
//    drafts changed last first (a draft over the budget keeps its text and mentions).
import type { NewPrompt } from '../promptQueue';

export type Draft = NewPrompt;

export function isEmptyDraft(d: Draft): boolean {
  return !d.text && !d.mentions.length && !d.images.length;
}

/**
 * A prompt given back (it never reached its agent) with what was typed since: both, the prompt
 * first and a blank line between the texts, the mentions of both once, the images of both. A box
 * that begins with the prompt already has it (a new page got it back as the draft): not twice.
 */
export function withReturned(returned: Draft, typed: Draft | undefined): Draft {
  if (!typed || isEmptyDraft(typed)) return returned;
  const there = returned.text !== '' && typed.text.startsWith(returned.text);
  const typedImages = new Set(typed.images.map(i => i.data));
  return {
    text: there ? typed.text : [returned.text, typed.text].filter(t => t).join('\n\n'),
    mentions: [...new Set([...returned.mentions, ...typed.mentions])],
    images: [...returned.images.filter(i => !there || !typedImages.has(i.data)), ...typed.images],
  };
}

export class DraftBook {
  /** Tab → what was typed, changed last at the end. */
  private readonly typed = new Map<string, Draft>();
  /** Tab → the prompt sent from the box that has not reached its agent yet. */
  private readonly unsent = new Map<string, Draft>();

  /** `saved`: tab → draft as saved, changed last at the end. */
  constructor(saved: Iterable<readonly [string, Draft]> = []) {
    for (const [tab, d] of saved) this.set(tab, d);
  }

  /** The draft of conversation `tab` (what was typed, else the prompt still on its way). */
  get(tab: string): Draft | undefined {
    return this.typed.get(tab) ?? this.unsent.get(tab);
  }

  set(tab: string, draft: Draft): void {
    this.typed.delete(tab);
    if (!isEmptyDraft(draft)) this.typed.set(tab, draft);
  }

  /** A prompt sent from the box of `tab` waits for its agent. */
  hold(tab: string, prompt: Draft): void {
    this.unsent.set(tab, prompt);
  }

  /** The held prompt reached its agent (`sent`), or goes back to be the draft (before what was typed since). False: not held. */
  release(tab: string, prompt: Draft, sent: boolean): boolean {
    if (this.unsent.get(tab) !== prompt) return false;
    this.unsent.delete(tab);
    if (!sent) this.set(tab, withReturned(prompt, this.typed.get(tab)));
    return true;
  }

  /** Forgets the drafts of the conversations not in `open`. True when one was forgotten. */
  keepOnly(open: readonly string[]): boolean {
    let changed = false;
    for (const map of [this.typed, this.unsent]) for (const tab of [...map.keys()]) if (!open.includes(tab)) { map.delete(tab); changed = true; }
    return changed;
  }

  /** What to save: each conversation's draft, changed last at the end, images within `imageBudget` characters in all. */
  toSave(imageBudget: number): [string, Draft][] {
    const tabs = new Set([...this.unsent.keys(), ...this.typed.keys()]);
    let left = imageBudget;
    return [...tabs].map(tab => [tab, this.get(tab)!] as [string, Draft]).reverse().map(([tab, d]): [string, Draft] => {
      const size = d.images.reduce((n, i) => n + i.data.length, 0);
      const keep = size <= left;
      if (keep) left -= size;
      return [tab, { text: d.text, mentions: [...d.mentions], images: keep ? [...d.images] : [] }];
    }).reverse();
  }
}

/**
 * The drafts after a reload: `saved` (tab → draft, changed last at the end), `legacy` (the one draft
 * of an older version), the conversations `open` again and the one `shown`.
 */
export function restoreDrafts(saved: readonly (readonly [string, Draft])[], legacy: Draft | undefined, open: readonly string[], shown: string): DraftBook {
  const kept = saved.filter(([tab, d]) => open.includes(tab) && !isEmptyDraft(d));
  const homeless = [...saved.filter(([tab]) => !open.includes(tab)).map(([, d]) => d).reverse(), ...(legacy ? [legacy] : [])].filter(d => !isEmptyDraft(d));
  if (shown && open.includes(shown) && !kept.some(([tab]) => tab === shown) && homeless.length) kept.push([shown, homeless[0]]);
  return new DraftBook(kept);
}
