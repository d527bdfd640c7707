// The review's part of the one history of edits (editHistory.ts): each turn's undecided change of a
// file is one `review` edit (before = its baseline, after = its current text; updated in place, so
// its id stays), and each decision of the user's (Keep, Undo, of a hunk or a file, from the chat,
// the Agent Changes view or an applied write's Undo) one `decision` edit. What a turn lists
// (TurnChanges), whether a late report describes a change decided since (decidedSince), and whether
// an applied write was kept or undone (decisionOf) are all read from there. Pure.
import type { TextForm } from '../fs/textForm';
import { Edit, EditHistory, EditHistoryLimits } from './editHistory';

export interface FileChange {
  readonly path: string;
  /** null: the file did not exist before the turn. */
  readonly baseline: string | null;
  /** null: the agent deleted the file. */
  readonly current: string | null;
  /**
   * The file is binary (or not valid in its encoding) before or after: `baseline` and `current`
   * hold its bytes in base64, never decoded text; it is kept or undone whole.
   */
  readonly binary?: boolean;
  /** How the text is stored on disk (VS Code's encoding and the BOM); absent: UTF-8 without BOM. */
  readonly form?: TextForm;
  /** The child agent (helper) that changed it, by its title; absent: the conversation's agent. */
  readonly by?: string;
}

/** What a `review` edit keeps besides its texts. */
export interface ReviewData {
  /** The place in the history of the turn's first change of the file (the files are listed in that order). */
  readonly first: number;
  readonly binary?: boolean;
  readonly form?: TextForm;
  readonly by?: string;
  /** The applied writes (their ids in the history) this change is made of, in part or whole. */
  readonly writes?: readonly string[];
  /** The evidence that gave the baseline, when it was a tool call's diff (of that turn): its tool response may correct it. */
  readonly baselineFrom?: BaselineEvidence;
}

export interface BaselineEvidence { readonly turnId: string; readonly toolCallId: string }

export type DecisionAction = 'keep' | 'undo';

/** What a `decision` edit keeps: what the user decided, on a hunk or the whole file, and the applied writes it settled. */
export interface DecisionData {
  readonly action: DecisionAction;
  readonly hunkId?: string;
  /** The applied writes the decision settled (the file's change, whole, left the review). */
  readonly writes?: readonly string[];
}

/**
 * The review's bounds: its undecided changes are never forgotten for room (an Undo needs them; the
 * tracker bounds each file's size), decisions are (the oldest first: they only guard against late reports).
 */
export const REVIEW_LIMITS: EditHistoryLimits = { maxChars: 64 * 1024 * 1024, maxCharsPerOrigin: { review: Infinity, decision: Infinity }, maxPerOrigin: { decision: 1000 } };

/** The key of a turn's change of a file. */
export const reviewKey = (turnId: string, path: string) => `review\0${turnId}\0${path}`;

const changes = new WeakMap<Edit, FileChange>();

/** The change a `review` edit stands for (the same object for the same edit: views cache by it). */
export function fileChangeOf(e: Edit): FileChange {
  let f = changes.get(e);
  if (!f) {
    const d = e.data as ReviewData;
    f = { path: e.path, baseline: e.before, current: e.after, ...(d.binary ? { binary: true } : {}), ...(d.form ? { form: d.form } : {}), ...(d.by ? { by: d.by } : {}) };
    changes.set(e, f);
  }
  return f;
}

/** A turn's undecided changes, in the order their files were first changed. */
export function turnEdits(history: EditHistory, turnId: string): Edit[] {
  return history.list({ origin: 'review', scope: turnId }).sort((a, b) => (a.data as ReviewData).first - (b.data as ReviewData).first);
}

/** The place in the history of a turn's first change of a file (a file's entries stack in that order); undefined: none. */
export function placeOf(history: EditHistory, turnId: string, path: string): number | undefined {
  return (history.get(reviewKey(turnId, path))?.data as ReviewData | undefined)?.first;
}

/** Stores a turn's change of a file (in place of the one before), keeping its place in the list and its writes. */
export function putChange(history: EditHistory, turnId: string, f: FileChange, writes?: readonly string[]): Edit {
  const key = reviewKey(turnId, f.path);
  const known = history.get(key)?.data as ReviewData | undefined;
  const all = [...(known?.writes ?? []), ...(writes ?? []).filter(w => !known?.writes?.includes(w))];
  const data: ReviewData = { first: known?.first ?? history.lastSeq + 1, ...(f.binary ? { binary: true } : {}), ...(f.form ? { form: f.form } : {}), ...(f.by ? { by: f.by } : {}), ...(all.length ? { writes: all } : {}), ...(known?.baselineFrom ? { baselineFrom: known.baselineFrom } : {}) };
  return history.add({ origin: 'review', scope: turnId, path: f.path, before: f.baseline, after: f.current, data }, key);
}

/** The evidence that gave a turn's change of a file its baseline, when it was a tool call's diff. */
export function baselineFromOf(history: EditHistory, turnId: string, path: string): BaselineEvidence | undefined {
  return (history.get(reviewKey(turnId, path))?.data as ReviewData | undefined)?.baselineFrom;
}

/** Notes (or, undefined, forgets) the tool call whose diff gave a turn's change of a file its baseline. */
export function setBaselineFrom(history: EditHistory, turnId: string, path: string, from: BaselineEvidence | undefined): void {
  const e = history.get(reviewKey(turnId, path));
  if (!e) return;
  const { baselineFrom: _, ...rest } = e.data as ReviewData;
  history.add({ origin: 'review', scope: turnId, path, before: e.before, after: e.after, data: { ...rest, ...(from ? { baselineFrom: from } : {}) } }, reviewKey(turnId, path));
}

/** Records a decision of the user's on a turn's change of a file. */
export function addDecision(history: EditHistory, turnId: string, path: string, decision: DecisionData): Edit {
  return history.add({ origin: 'decision', scope: turnId, path, before: null, after: null, data: decision });
}

/** Whether the user kept or undid a change of the file after `since` (a place in the history). */
export function decidedSince(history: EditHistory, path: string, since: number): boolean {
  return history.list({ origin: 'decision', path }).some(d => d.seq > since);
}

/** The applied writes a turn's change of a file is made of. */
export function writesOf(history: EditHistory, turnId: string, path: string): readonly string[] {
  return (history.get(reviewKey(turnId, path))?.data as ReviewData | undefined)?.writes ?? [];
}

/** What became of an applied write: kept or undone (with the file's whole change), or undefined while it is undecided. */
export function decisionOf(history: EditHistory, writeId: string): DecisionAction | undefined {
  const d = history.list({ origin: 'decision' }).reverse().find(e => (e.data as DecisionData).writes?.includes(writeId));
  return (d?.data as DecisionData | undefined)?.action;
}

// ---- saved across window reloads -------------------------------------------------------------

/** A turn as saved (its changes are the history's `review` edits of its id). */
export interface SavedTurnInfo { readonly turnId: string; readonly tabId: string; readonly agentName: string; readonly working?: readonly string[] }
/** The form saved before the one history (`switchboard.review.v1`): each turn with its files. */
export interface SavedTurnV1 extends SavedTurnInfo { readonly files: readonly FileChange[] }
/** The form saved now (`switchboard.review.v2`): the turns, and the history's undecided edits. */
export interface SavedReview { readonly version: 2; readonly turns: readonly SavedTurnInfo[]; readonly edits: readonly (FileChange & { readonly turnId: string })[] }

const isStr = (v: unknown): v is string => typeof v === 'string';
const isSide = (v: unknown): v is string | null => v === null || typeof v === 'string';

function turnInfo(t: unknown): SavedTurnInfo | undefined {
  const o = t as Partial<SavedTurnInfo> | null;
  if (!o || typeof o !== 'object' || !isStr(o.turnId) || !isStr(o.tabId) || !isStr(o.agentName)) return undefined;
  const working = Array.isArray(o.working) ? o.working.filter(isStr) : undefined;
  return { turnId: o.turnId, tabId: o.tabId, agentName: o.agentName, ...(working ? { working } : {}) };
}

function fileChange(f: unknown): FileChange | undefined {
  const o = f as Partial<FileChange> | null;
  if (!o || typeof o !== 'object' || !isStr(o.path) || !isSide(o.baseline) || !isSide(o.current) || o.baseline === o.current) return undefined;
  const form = o.form && isStr(o.form.encoding) && typeof o.form.bom === 'boolean' ? { encoding: o.form.encoding, bom: o.form.bom } : undefined;
  return { path: o.path, baseline: o.baseline, current: o.current, ...(o.binary === true ? { binary: true } : {}), ...(form ? { form } : {}), ...(isStr(o.by) ? { by: o.by } : {}) };
}

/**
 * The turns and their undecided changes from what was saved: the current form, else the one saved
 * before the one history (users upgrading keep their pending reviews). Anything malformed is skipped.
 */
export function loadSaved(v2: unknown, v1: unknown): { turns: SavedTurnInfo[]; edits: (FileChange & { turnId: string })[] } {
  const saved = v2 as Partial<SavedReview> | undefined;
  if (saved && saved.version === 2 && Array.isArray(saved.turns) && Array.isArray(saved.edits)) {
    const turns = saved.turns.map(turnInfo).filter((t): t is SavedTurnInfo => !!t);
    const ids = new Set(turns.map(t => t.turnId));
    const edits = saved.edits.flatMap(e => {
      const f = fileChange(e);
      const turnId = (e as { turnId?: unknown } | null)?.turnId;
      return f && isStr(turnId) && ids.has(turnId) ? [{ ...f, turnId }] : [];
    });
    return { turns, edits };
  }
  const turns: SavedTurnInfo[] = [];
  const edits: (FileChange & { turnId: string })[] = [];
  for (const t of Array.isArray(v1) ? v1 : []) {
    const info = turnInfo(t);
    if (!info) continue;
    turns.push(info);
    const files = (t as { files?: unknown }).files;
    for (const f of Array.isArray(files) ? files : []) {
      const change = fileChange(f);
      if (change) edits.push({ ...change, turnId: info.turnId });
    }
  }
  return { turns, edits };
}

/** What is saved: the turns with undecided changes, and those changes (each at most `maxChars` long, both sides). */
export function toSaved(turns: readonly SavedTurnInfo[], history: EditHistory, maxChars: number): SavedReview {
  const edits: (FileChange & { turnId: string; first: number })[] = [];
  const kept: SavedTurnInfo[] = [];
  for (const t of turns) {
    const mine = turnEdits(history, t.turnId);
    if (!mine.length) continue;
    kept.push({ turnId: t.turnId, tabId: t.tabId, agentName: t.agentName, ...(t.working ? { working: [...t.working] } : {}) });
    for (const e of mine) if ((e.before?.length ?? 0) + (e.after?.length ?? 0) <= maxChars) edits.push({ turnId: t.turnId, ...fileChangeOf(e), first: (e.data as ReviewData).first });
  }
  // In the order they were first changed: restored in it, a file's stacked entries keep their order.
  edits.sort((a, b) => a.first - b.first);
  return { version: 2, turns: kept, edits: edits.map(({ first: _, ...e }) => e) };
}
