// Search within a conversation (Ctrl+F in the chat): the host looks through every turn — those in
// memory and those on disk (common/turns, SavedChats) — not only what the chat has rendered, and
// answers with the items that hold the text, each with a line around the first match. Pure.
import type { Item } from './transcript';

export interface SearchHit {
  readonly turnId: string;
  readonly itemId: string;
  readonly kind: Item['kind'];
  /** A line of text around the first match; `at` / `length`: where the match is in it. */
  readonly snippet: string;
  readonly at: number;
  readonly length: number;
}

export const MAX_SEARCH_HITS = 50;
export const MAX_QUERY_CHARS = 500;
const AROUND = 40;

/** The text of an item the user could look for: what the chat shows of it, or opens in full. */
export function searchableText(item: Item): string {
  switch (item.kind) {
    case 'user': case 'agent': case 'thought': case 'notice': return item.text;
    case 'tool': return [item.tool.title, ...item.tool.content.map(c => c.type === 'text' ? c.text : c.type === 'diff' ? `${c.path}\n${c.preview.lines.join('\n')}` : ''), item.tool.rawOutput ?? ''].join('\n');
    case 'error': return `${item.message}\n${item.details ?? ''}`;
    case 'permission': return item.permission.title;
    case 'question': return item.question.message;
    case 'compaction': return item.summary;
    default: return '';
  }
}

/**
 * The items of `turns` (each: its id and items, oldest first) that hold `query` (case-insensitive),
 * in order, at most `max`.
 */
export function searchTurns(turns: Iterable<{ readonly id: string; readonly items: readonly Item[] }>, query: string, max = MAX_SEARCH_HITS): SearchHit[] {
  const needle = query.slice(0, MAX_QUERY_CHARS).toLowerCase();
  const hits: SearchHit[] = [];
  if (!needle.trim()) return hits;
  for (const turn of turns) {
    for (const item of turn.items) {
      const text = searchableText(item);
      const at = text.toLowerCase().indexOf(needle);
      if (at < 0) continue;
      const from = Math.max(0, at - AROUND);
      const to = Math.min(text.length, at + needle.length + AROUND);
      const snippet = text.slice(from, to).replace(/\s/g, ' ');
      hits.push({ turnId: turn.id, itemId: item.id, kind: item.kind, snippet: (from ? '…' : '') + snippet + (to < text.length ? '…' : ''), at: at - from + (from ? 1 : 0), length: needle.length });
      if (hits.length >= max) return hits;
    }
  }
  return hits;
}
