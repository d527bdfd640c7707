// What is typed in the prompt box and not sent (the draft), per conversation (issue 19): each
// conversation (tab) keeps its own, whichever surface it was typed in, and a surface that switches
// conversation shows that conversation's. Pure: no `vscode`, no DOM.
//
// The rules:
//  - a draft belongs to the conversation it was typed for; an empty one is no draft;
//  - two surfaces showing one conversation (the side bar and an editor tab) keep each its own text:
//    a new page of either gets its own back, and an empty box (a prompt sent, the text cleared)
//    clears only its own; a surface with none of its own gets the conversation's saved last
//    (typed in a surface that shows another conversation now, say), and once it saves the same
//    text back that is one draft, its own (sent from there, it does not come back elsewhere);
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
import type { BoxState } from '../protocol';

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

/**
 * A draft another window's extension host wrote just before this one started (a reload's race,
 * savedDrafts.ts), taken into a prompt box that now holds `box`: it replaces the box while the box
 * still holds what this window knew of it (`over`) or nothing; else the user typed meanwhile, and
 * the taken draft goes before what they typed (both kept).
 */
export function takenInto(box: Draft, over: BoxState, taken: Draft): Draft {
  const unchanged = isEmptyDraft(box) || (box.text === over.text && box.images.length === over.images);
  return unchanged ? taken : withReturned(taken, box);
}

/** Same text, mentions and images. */
export function sameDraft(a: Draft, b: Draft): boolean {
  return a.text === b.text && a.mentions.join('\n') === b.mentions.join('\n') && a.images.map(i => i.data).join('\n') === b.images.map(i => i.data).join('\n');
}

/** What one surface typed for one conversation (`surface`: the page's key; '' for none named). */
interface Typed { readonly tab: string; readonly surface: string; readonly draft: Draft }

export class DraftBook {
  /** Tab and surface → what was typed, changed last at the end. */
  private readonly typed = new Map<string, Typed>();
  /** Tab → the prompt sent from the box that has not reached its agent yet. */
  private readonly unsent = new Map<string, Draft>();

  /** `saved`: tab → draft (and the surface it was typed in) as saved, changed last at the end. */
  constructor(saved: Iterable<readonly [string, Draft, string?]> = []) {
    for (const [tab, d, surface] of saved) this.set(tab, d, surface);
  }

  /**
   * The draft of conversation `tab` for `surface`: what it typed, else what was typed for the
   * conversation last (any surface), else the prompt still on its way.
   */
  get(tab: string, surface?: string): Draft | undefined {
    const own = surface === undefined ? undefined : this.typed.get(key(tab, surface));
    return own?.draft ?? this.last(tab)?.draft ?? this.unsent.get(tab);
  }

  /** What was typed for conversation `tab` last, in any surface. */
  private last(tab: string): Typed | undefined {
    let last: Typed | undefined;
    for (const t of this.typed.values()) if (t.tab === tab) last = t;
    return last;
  }

  /** What `surface` typed for conversation `tab`; empty: none (another surface's text stays). */
  set(tab: string, draft: Draft, surface = ''): void {
    this.typed.delete(key(tab, surface));
    if (isEmptyDraft(draft)) return;
    // The same text saved by another surface (given to this one, saved back): one draft, this one's.
    for (const [k, t] of this.typed) if (t.tab === tab && sameDraft(t.draft, draft)) this.typed.delete(k);
    this.typed.set(key(tab, surface), { tab, surface, draft });
  }

  /** A prompt sent from the box of `tab` waits for its agent. */
  hold(tab: string, prompt: Draft): void {
    this.unsent.set(tab, prompt);
  }

  /** The held prompt reached its agent (`sent`), or goes back to be the draft (before what was typed since). False: not held. */
  release(tab: string, prompt: Draft, sent: boolean): boolean {
    if (this.unsent.get(tab) !== prompt) return false;
    this.unsent.delete(tab);
    const typed = this.last(tab);
    if (!sent) this.set(tab, withReturned(prompt, typed?.draft), typed?.surface);
    return true;
  }

  /** Forgets the drafts of the conversations not in `open`. True when one was forgotten. */
  keepOnly(open: readonly string[]): boolean {
    let changed = false;
    for (const tab of [...this.unsent.keys()]) if (!open.includes(tab)) { this.unsent.delete(tab); changed = true; }
    for (const [k, t] of [...this.typed]) if (!open.includes(t.tab)) { this.typed.delete(k); changed = true; }
    return changed;
  }

  /**
   * What to save: each conversation's drafts (tab, draft, surface), changed last at the end, images
   * within `imageBudget` characters in all.
   */
  toSave(imageBudget: number): [string, Draft, string][] {
    const typedTabs = new Set([...this.typed.values()].map(t => t.tab));
    const all: Typed[] = [
      ...[...this.unsent].filter(([tab]) => !typedTabs.has(tab)).map(([tab, draft]) => ({ tab, surface: '', draft })),
      ...this.typed.values(),
    ];
    let left = imageBudget;
    return all.reverse().map(({ tab, draft: d, surface }): [string, Draft, string] => {
      const size = d.images.reduce((n, i) => n + i.data.length, 0);
      const keep = size <= left;
      if (keep) left -= size;
      return [tab, { text: d.text, mentions: [...d.mentions], images: keep ? [...d.images] : [] }, surface];
    }).reverse();
  }
}

/**
 * The drafts after a reload: `saved` (tab → draft, changed last at the end), `legacy` (the one draft
 * of an older version), the conversations `open` again and the one `shown`.
 */
export function restoreDrafts(saved: readonly (readonly [string, Draft, string?])[], legacy: Draft | undefined, open: readonly string[], shown: string): DraftBook {
  const kept = saved.filter(([tab, d]) => open.includes(tab) && !isEmptyDraft(d));
  const homeless = [...saved.filter(([tab]) => !open.includes(tab)).map(([, d]) => d).reverse(), ...(legacy ? [legacy] : [])].filter(d => !isEmptyDraft(d));
  if (shown && open.includes(shown) && !kept.some(([tab]) => tab === shown) && homeless.length) kept.push([shown, homeless[0], '']);
  return new DraftBook(kept);
}

function key(tab: string, surface: string): string {
  return JSON.stringify([tab, surface]);
}
