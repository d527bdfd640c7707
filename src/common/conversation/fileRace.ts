// Two extension hosts may write a window's conversation files at the same time: as a window reloads,
// the new host loads the files while the old one (code-server runs both a moment) may still write
// its last changes at its shutdown. The rules that keep both hosts' changes (decision 0031). Pure:
// no `vscode`, no file system (the caller stats the files).
import { isEmptyDraft, sameDraft, withReturned, type Draft } from './drafts';

/** What identifies one version of a file: a write (a temporary file renamed) changes its inode, and its size or time. */
export interface FileStamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * What a host does with a conversation's file as it finds it (`found`; undefined: there is none),
 * given the version it last read or wrote itself (`known`; undefined: none, the file is new):
 * - `ours`: no one else wrote it, the host may write over it;
 * - `adopt`: another host wrote it since, and the tab did not change since it was loaded: the tab
 *   takes the file's conversation (it is the newer), nothing is written;
 * - `keepBoth`: another host wrote it since, and the tab changed too: neither copy is lost, the
 *   tab's goes to a new file, the other file becomes a tab of its own. A file someone else wrote is
 *   never written over.
 */
export function whoseFile(known: FileStamp | undefined, found: FileStamp | undefined, changedSinceLoad: boolean): 'ours' | 'adopt' | 'keepBoth' {
  if (!known || !found || sameStamp(known, found)) return 'ours';
  return changedSinceLoad ? 'keepBoth' : 'adopt';
}

/** How long after a host writes a file no index lists it is taken as the window's (its index update may have been lost in a reload). */
export const UNLISTED_RECENT_MS = 60_000;

/**
 * The conversation files no index lists that a loading window restores, oldest first: those written
 * within `UNLISTED_RECENT_MS` before `now` (a conversation the window's previous host created just
 * before a reload, its index update lost). Older ones are left to the prune. Only the window's own:
 * in a folder shared by windows, those its file says it wrote (fileWindow).
 */
export function recentUnlisted(files: readonly { readonly key: string; readonly mtimeMs: number }[], listed: ReadonlySet<string>, now: number): string[] {
  return files.filter(f => !listed.has(f.key) && now - f.mtimeMs <= UNLISTED_RECENT_MS)
    .sort((a, b) => a.mtimeMs - b.mtimeMs).map(f => f.key);
}

/**
 * In the folder that windows without a folder share (VS Code's global storage), each conversation
 * file begins with the window that writes it, `{"window":"<uuid>",` (its key in that window's
 * state): the window's file no index lists is restored or removed by that window only. The key from
 * the beginning of a file's text; undefined: none (another version wrote it, or it is not one).
 */
export function fileWindow(head: string): string | undefined {
  return /^\{"window":"([0-9a-f-]{36})"/.exec(head)?.[1];
}

/** How many bytes of a file's beginning hold its window (fileWindow). */
export const WINDOW_HEAD_BYTES = 64;

/**
 * What a host that watches its folder does as conversation file `found` changes, given the version
 * it last read or wrote itself (`known`) and the tab whose file it is: none (`undefined`: no tab here
 * saved to it), one closed meanwhile (`'noTab'`), or whether the tab changed since it was loaded:
 * - `nothing`: it is this host's own version, gone, or no open tab's;
 * - `restore`: a file this host never knew that is the window's (`windows`: in a folder of the
 *   workspace's own, or the file says so): a conversation the window's previous host created just
 *   before the reload, restored as a tab;
 * - `adopt` / `keepBoth`: as whoseFile says.
 */
export function fileChanged(known: FileStamp | undefined, found: FileStamp | undefined, tab: boolean | 'noTab' | undefined, windows: () => boolean): 'nothing' | 'restore' | 'adopt' | 'keepBoth' {
  if (!found || (known && sameStamp(known, found))) return 'nothing';
  if (tab === undefined) return !known && windows() ? 'restore' : 'nothing';
  if (tab === 'noTab') return 'nothing';
  const what = whoseFile(known, found, tab);
  return what === 'ours' ? 'nothing' : what;
}

/** A saved draft: its conversation, what is in the box, and the surface it was typed in (common/conversation/drafts). */
export type DraftEntry = readonly [tab: string, draft: Draft, surface?: string];

/**
 * Another host's drafts file (`theirs`), a newer version than the one this host read or wrote last
 * (`base`), given this host's drafts now (`ours`): the drafts that change here, per conversation and
 * surface. A prompt box not typed in here since (its draft as in `base`) takes theirs (emptied, if
 * they have none); one typed in here since keeps both, theirs first (withReturned; typing lost
 * nowhere), unless theirs did not change or is the same.
 */
export function mergeDrafts(base: readonly DraftEntry[], ours: readonly DraftEntry[], theirs: readonly DraftEntry[]): [string, Draft, string][] {
  const byBox = (entries: readonly DraftEntry[]) => new Map(entries.map(([tab, d, surface]) => [JSON.stringify([tab, surface ?? '']), d]));
  const [b, o, t] = [byBox(base), byBox(ours), byBox(theirs)];
  const changes: [string, Draft, string][] = [];
  for (const box of new Set([...b.keys(), ...o.keys(), ...t.keys()])) {
    const [was, now, other] = [b.get(box), o.get(box), t.get(box)];
    if (same(other, was) || same(other, now)) continue;
    const [tab, surface] = JSON.parse(box) as [string, string];
    if (same(now, was)) changes.push([tab, other ?? { text: '', mentions: [], images: [] }, surface]);
    // Typed in both: both kept. Emptied there (sent, say), typed here since: what is typed here stays.
    else if (other && !isEmptyDraft(other)) changes.push([tab, withReturned(other, now), surface]);
  }
  return changes;
}

/** Same text, mentions and images; none and an empty draft are the same. */
function same(a: Draft | undefined, b: Draft | undefined): boolean {
  const empty = (d: Draft | undefined) => !d || isEmptyDraft(d);
  return empty(a) || empty(b) ? empty(a) && empty(b) : sameDraft(a!, b!);
}
