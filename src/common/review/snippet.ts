// Claude's adapter reports an edit as the replaced snippet (`old_string` → `new_string`), not the
// whole file. This finds the snippet in the file so the edit can be shown, reviewed and undone with
// context and real line numbers; an edit that cannot be found is said to be so, never guessed
// (the reason is localized: the chat shows it).
import * as l10n from '@vscode/l10n';

export interface SnippetEdit {
  readonly oldText: string;
  readonly newText: string;
  /** Claude's `replace_all`: every occurrence is replaced. */
  readonly replaceAll?: boolean;
}

export type Located =
  /** The diff already covers the whole file. */
  | { readonly kind: 'whole' }
  /** Whole-file texts before and after, and the 1-based line of the first change in `before`. */
  | { readonly kind: 'located'; readonly before: string; readonly after: string; readonly line: number }
  | { readonly kind: 'unlocated'; readonly reason: string };

export interface KnownTexts {
  /** The file before the edit, known for sure (the tool response's `originalFile`); null: it did not exist. */
  readonly before?: string | null;
  /** The file as it is now. */
  readonly now?: string | null;
  /**
   * Whether the edit is thought to be written already. Only a preference: the agent may write
   * before its announcement is read, so both directions are tried, and the phase only settles an
   * edit that matches both ways.
   */
  readonly phase?: 'before' | 'after' | 'unknown';
}

/** Where `edit` sits in the file, given what is known of the file's text. */
export function locateEdit(edit: SnippetEdit, known: KnownTexts): Located {
  const { before, now } = known;
  if (before !== undefined && before !== null) {
    if (edit.oldText === before) return { kind: 'whole' };
    const r = applySnippet(before, edit);
    if (r) return r;
  }
  if (now === undefined || now === null) {
    return { kind: 'unlocated', reason: now === null ? l10n.t({ message: 'the file does not exist', comment: ['Why an agent\'s edit could not be placed in its file, the {0} of "Could not find this edit in the file ({0}): shown without line numbers."'] }) : l10n.t({ message: 'the file could not be read', comment: ['Why an agent\'s edit could not be placed in its file, the {0} of "Could not find this edit in the file ({0}): shown without line numbers."'] }) };
  }
  if (edit.oldText === now || edit.newText === now) return { kind: 'whole' };
  // Not yet written: the old snippet is in the file. Written: the new one is, in its place.
  const forward = applySnippet(now, edit);
  const backward = unapplySnippet(now, edit);
  if (forward && backward) {
    if (known.phase === 'before') return forward;
    if (known.phase === 'after') return backward;
    return { kind: 'unlocated', reason: l10n.t({ message: 'the edit matches the file both before and after it', comment: ['Why an agent\'s edit could not be placed in its file, the {0} of "Could not find this edit in the file ({0}): shown without line numbers."'] }) };
  }
  return forward ?? backward ?? { kind: 'unlocated', reason: l10n.t({ message: 'the edited text is not in the file', comment: ['Why an agent\'s edit could not be placed in its file, the {0} of "Could not find this edit in the file ({0}): shown without line numbers."'] }) };
}

/** `before` with the snippet applied, if the old text occurs exactly once (or at all, with replaceAll). */
function applySnippet(before: string, edit: SnippetEdit): Located | undefined {
  for (const e of variants(edit, before)) {
    if (!e.oldText) continue;
    const at = before.indexOf(e.oldText);
    if (at < 0) continue;
    const unique = before.indexOf(e.oldText, at + 1) < 0;
    if (!unique && !e.replaceAll) continue;
    const after = e.replaceAll ? before.split(e.oldText).join(e.newText) : before.slice(0, at) + e.newText + before.slice(at + e.oldText.length);
    return { kind: 'located', before, after, line: lineAt(before, at) };
  }
  return undefined;
}

/** The text before an already-written snippet edit, if its new text occurs exactly once in `after`. */
function unapplySnippet(after: string, edit: SnippetEdit): Located | undefined {
  for (const e of variants(edit, after)) {
    if (!e.newText || e.replaceAll) continue;
    const at = after.indexOf(e.newText);
    if (at < 0 || after.indexOf(e.newText, at + 1) >= 0) continue;
    const before = after.slice(0, at) + e.oldText + after.slice(at + e.newText.length);
    return { kind: 'located', before, after, line: lineAt(before, at) };
  }
  return undefined;
}

/** The edit as given, and with CRLF line ends when the file uses them (models write `\n`). */
function variants(edit: SnippetEdit, text: string): SnippetEdit[] {
  if (!text.includes('\r\n') || edit.oldText.includes('\r\n')) return [edit];
  const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
  return [edit, { ...edit, oldText: crlf(edit.oldText), newText: crlf(edit.newText) }];
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** What Switchboard adds to a diff's `_meta.switchboard` once it located (or failed to locate) a snippet edit. */
export interface DiffMeta {
  /** The 1-based line where a snippet edit was found (the diff now covers the whole file). */
  readonly snippetLine?: number;
  /** Why a snippet edit could not be found in the file (the diff is still the bare snippet). */
  readonly unlocated?: string;
}

export function diffMetaOf(c: { _meta?: { [key: string]: unknown } | null }): DiffMeta | undefined {
  const m = c._meta?.switchboard;
  if (typeof m !== 'object' || m === null) return undefined;
  const { snippetLine, unlocated } = m as Record<string, unknown>;
  return { snippetLine: typeof snippetLine === 'number' ? snippetLine : undefined, unlocated: typeof unlocated === 'string' ? unlocated : undefined };
}
