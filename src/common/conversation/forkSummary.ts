// "Fork conversation" with an agent that cannot fork its session (`session/fork`): the new
// conversation starts with a prompt that summarizes the old one, which the user sees and edits in
// the prompt box before sending. Built from the transcript only: the user's prompts, the agent's
// answers (the last ones in full, older ones cut), and the tools it ran, bounded in size.
import * as l10n from '@vscode/l10n';
import type { Item } from '../transcript';

/** The summary stays below this many characters (a prompt the user can still read and edit). */
export const MAX_SUMMARY_CHARS = 12_000;
const OLD_ANSWER_CHARS = 600;
/** The last exchanges, kept whole (up to the bound). */
const RECENT_EXCHANGES = 2;

interface Exchange { user: string; answer: string; tools: string[] }

/** Undefined when the conversation holds no prompt yet (nothing to continue). */
export function forkSummary(items: readonly Item[], title?: string): string | undefined {
  const exchanges: Exchange[] = [];
  for (const item of items) {
    if (item.kind === 'user') exchanges.push({ user: item.text.trim(), answer: '', tools: [] });
    const last = exchanges[exchanges.length - 1];
    if (!last) continue;
    if (item.kind === 'agent') last.answer += item.text;
    if (item.kind === 'tool' && item.tool.title) last.tools.push(item.tool.title);
  }
  if (!exchanges.length) return undefined;
  const parts = exchanges.map((e, i) => {
    const recent = i >= exchanges.length - RECENT_EXCHANGES;
    const answer = e.answer.trim();
    const shown = recent || answer.length <= OLD_ANSWER_CHARS ? answer : `${answer.slice(0, OLD_ANSWER_CHARS).trimEnd()} […]`;
    const tools = e.tools.length ? `\n${l10n.t('Tools used: {0}', unique(e.tools).join('; '))}` : '';
    return `### ${l10n.t('User')}\n${e.user}\n\n### ${l10n.t('Agent')}\n${shown || l10n.t('(no answer)')}${tools}`;
  });
  const head = title
    ? l10n.t('We continue an earlier conversation (“{0}”). What was said so far:', title)
    : l10n.t('We continue an earlier conversation. What was said so far:');
  const tail = l10n.t('Continue from here. My next request:');
  // The oldest exchanges go first when the summary would be too long; one note says so.
  let body = parts.join('\n\n');
  let dropped = 0;
  while (head.length + body.length + tail.length > MAX_SUMMARY_CHARS && dropped < parts.length - 1) {
    dropped++;
    body = `${l10n.t('({0} earlier exchanges left out.)', dropped)}\n\n${parts.slice(dropped).join('\n\n')}`;
  }
  if (head.length + body.length + tail.length > MAX_SUMMARY_CHARS) body = `${body.slice(0, MAX_SUMMARY_CHARS - head.length - tail.length - 10)} […]`;
  return `${head}\n\n${body}\n\n${tail}\n`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].slice(0, 20);
}
