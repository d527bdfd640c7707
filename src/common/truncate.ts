// Texts an agent sends are cut before they reach the chat view: a title or a path of a megabyte would
// cost the webview seconds per render (a 1 MiB tool-call title held the chat for minutes). The full
// text stays where it was (the JSON-RPC trace in the log). Pure, so it is unit-tested.
import * as l10n from '@vscode/l10n';

/** A title, a path, a command line: one line of the card, read whole by the user. */
export const TITLE_MAX_CHARS = 4_000;
/** A block of text inside a card (a tool call's text content, a question's message). */
export const BLOCK_MAX_CHARS = 100_000;

/**
 * `text` when it has at most `max` characters (UTF-16 code units), else its first `max` followed by
 * `separator` and "… (N more characters)". A surrogate pair is never cut in half.
 */
export function truncateText(text: string, max: number, separator = ' '): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const n = text.length - end;
  const more = n === 1
    ? l10n.t({ message: '… (1 more character)', comment: ['After the cut-off start of a long text an agent sent, shown in the chat.'] })
    : l10n.t({ message: '… ({0} more characters)', args: [n], comment: ['After the cut-off start of a long text an agent sent (a title, a tool call\'s input or output), shown in the chat; {0} is a count.'] });
  return `${text.slice(0, end)}${separator}${more}`;
}

/**
 * `value` with every string in it (in arrays and plain objects, at any depth) cut like truncateText:
 * for agent data shown as a whole (a session's title, plan, modes, commands, options). Values that
 * need no cut are returned as they are.
 */
export function truncateStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return truncateText(value, max) as T;
  if (Array.isArray(value)) {
    const out = value.map(v => truncateStrings(v, max));
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = truncateStrings(v, max);
      changed ||= out[k] !== v;
    }
    return (changed ? out : value) as T;
  }
  return value;
}
