// Conversations survive a window reload: the tabs and their transcripts are kept in the
// workspace state (bounded), written shortly after each change and on shutdown.
import type * as vscode from 'vscode';
import type { Item } from '../common/transcript';
import type { ChatSession } from './chatSession';

export interface SavedChat {
  readonly id: string;
  readonly agentName: string;
  readonly sessionId?: string;
  readonly title?: string;
  readonly items: readonly Item[];
}

const KEY = 'switchboard.chats.v1';
const MAX_TABS = 10;
const MAX_ITEMS = 300;
const MAX_TEXT = 50_000;
const DELAY_MS = 1000;

export class SavedChats {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly state: vscode.Memento) {}

  load(): SavedChat[] {
    const raw = this.state.get<unknown>(KEY);
    return Array.isArray(raw) ? raw.filter(isSavedChat) : [];
  }

  /** Saves within a second; a burst of changes (a streamed answer) costs one write per second. */
  schedule(sessions: () => readonly ChatSession[]): void {
    this.timer ??= setTimeout(() => this.flush(sessions()), DELAY_MS);
  }

  flush(sessions: readonly ChatSession[]): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const chats = sessions.filter(s => s.items.length > 0).slice(-MAX_TABS).map((s): SavedChat => ({
      id: s.id, agentName: s.agentName, sessionId: s.sessionId, title: s.meta.title,
      items: s.items.slice(-MAX_ITEMS).map(trimItem),
    }));
    void this.state.update(KEY, chats);
  }
}

function trimItem(item: Item): Item {
  if ('text' in item && item.text.length > MAX_TEXT) return { ...item, text: item.text.slice(0, MAX_TEXT) + '\n…' };
  // A permission cannot be answered after a reload: keep it as history only.
  if (item.kind === 'permission' && item.permission.outcome === undefined) return { ...item, permission: { ...item.permission, outcome: 'cancelled' } };
  if (item.kind === 'question' && item.question.outcome === undefined) return { ...item, question: { ...item.question, outcome: 'cancelled' } };
  return item;
}

function isSavedChat(v: unknown): v is SavedChat {
  const c = v as SavedChat;
  return typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.agentName === 'string' && Array.isArray(c.items);
}
