// What a host wrote of each conversation last: an unchanged tab is not written again, and a tab
// unchanged since it was loaded takes a newer copy another host writes (common/conversation/fileRace).
// Pure: no `vscode`, no file system.
import type { NewPrompt } from '../promptQueue';
import type { Item } from '../transcript';
import type { TurnSummary } from '../turns';

/**
 * What is saved of a conversation. ChatSession is one; declared here so that saving does not import
 * the session (no import circle).
 */
export interface SavableChat {
  readonly id: string;
  readonly agentName: string;
  readonly sessionId?: string;
  readonly meta: { readonly title?: string };
  readonly items: readonly Item[];
  readonly archived: readonly TurnSummary[];
  readonly archiveKey: string | undefined;
  readonly queue: { readonly size: number; readonly items: readonly NewPrompt[] };
}

export const NO_QUEUE: readonly NewPrompt[] = [];

/** A conversation as last written: its file, and what it held then (the same items, summaries, queue, session and title: not written again). */
export interface Written {
  readonly file: string;
  readonly items: readonly Item[];
  readonly archived: number;
  readonly lastArchived: string | undefined;
  readonly queue: readonly NewPrompt[];
  readonly sessionId?: string;
  readonly title?: string;
  /** What load() read, the tab as restored: while the tab is the same, a newer copy of the file another host writes replaces it. */
  readonly loaded?: boolean;
}

/** File `file`, whose content is not known here (read, not yet restored; or to be written again): any tab differs from it. `loaded`: as read at load. */
export function unknownContent(file: string, loaded?: boolean): Written {
  return { file, items: [], archived: -1, lastArchived: undefined, queue: NO_QUEUE, ...(loaded ? { loaded } : {}) };
}

/** Whether the tab changed since `w` was written (or loaded). */
export function differs(w: Written, s: SavableChat): boolean {
  const queue = s.queue.size ? s.queue.items : NO_QUEUE;
  return w.items.length !== s.items.length || w.items.some((item, i) => item !== s.items[i])
    || w.archived !== s.archived.length || w.lastArchived !== s.archived.at(-1)?.id || w.queue !== queue
    || w.sessionId !== s.sessionId || w.title !== s.meta.title;
}

/** Tab `s` as it is now, written to (or loaded from) `file`. */
export function snapshot(s: SavableChat, file: string, loaded?: boolean): Written {
  return {
    file, items: [...s.items], archived: s.archived.length, lastArchived: s.archived.at(-1)?.id, queue: s.queue.size ? s.queue.items : NO_QUEUE,
    sessionId: s.sessionId, title: s.meta.title, ...(loaded ? { loaded } : {}),
  };
}
