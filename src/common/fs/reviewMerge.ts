// The text a pending review proposes, following the user's buffer while the review is open.
//
// The agent's write is the change from `base` (what it last read) to `theirs` (its content). The
// user's buffer (`ours`) may change at any time; each change re-merges. Where the user's and the
// agent's changes overlap (or touch), the review holds a conflict that only the user settles, as
// "yours", "the agent's" or "both". Until then the proposal shows it between conflict markers and
// there is no result to write. A choice sticks to its conflict while the user types elsewhere; an
// edit inside the conflict makes it a new conflict, to be decided again.
import { eolOf, mergeRegions, Resolution, resolveLines, withFinalEol } from './merge';

export interface ReviewConflict {
  readonly index: number;
  /** 0-based line range of the conflict (markers included while unresolved) in `proposed`. */
  readonly startLine: number;
  readonly endLine: number;
  readonly base: string;
  readonly ours: string;
  readonly theirs: string;
  readonly resolution: Resolution | undefined;
}

export interface MergeLabels {
  /** Shown after the `<<<<<<<` marker, e.g. "your unsaved edits". */
  readonly ours: string;
  /** Shown after the `>>>>>>>` marker, e.g. the agent's name. */
  readonly theirs: string;
}

export class ReviewMerge {
  private oursText: string;
  private conflictList: ReviewConflict[] = [];
  private proposedText = '';
  private resultText: string | undefined;
  /** Choices by conflict identity (its three sides and its rank among identical ones). */
  private readonly choices = new Map<string, Resolution>();

  constructor(readonly base: string, readonly theirs: string, ours: string, private readonly labels: MergeLabels) {
    this.oursText = ours;
    this.compute();
  }

  get ours(): string { return this.oursText; }
  /** What the review's right side shows. */
  get proposed(): string { return this.proposedText; }
  /** What Accept writes; undefined while a conflict is unresolved. */
  get result(): string | undefined { return this.resultText; }
  get conflicts(): readonly ReviewConflict[] { return this.conflictList; }
  get unresolved(): number { return this.conflictList.filter(c => !c.resolution).length; }

  /** The user's text changed; false when it did not. */
  update(ours: string): boolean {
    if (ours === this.oursText) return false;
    this.oursText = ours;
    this.compute();
    return true;
  }

  /** Settles conflict `index` (or unsettles it with undefined); false for an unknown index. */
  resolve(index: number, resolution: Resolution | undefined): boolean {
    const c = this.conflictList[index];
    if (!c) return false;
    const key = this.keys[index];
    if (resolution) this.choices.set(key, resolution); else this.choices.delete(key);
    this.compute();
    return true;
  }

  private keys: string[] = [];

  private compute(): void {
    const regions = this.oursText === this.base || this.oursText === this.theirs
      ? [{ kind: 'clean' as const, lines: [this.theirs] }]
      : this.theirs === this.base ? [{ kind: 'clean' as const, lines: [this.oursText] }]
        : mergeRegions(this.base, this.oursText, this.theirs, { touching: true });
    const shown: string[] = [];
    let result: string[] | undefined = [];
    let line = 0;
    const conflicts: ReviewConflict[] = [];
    const keys: string[] = [];
    const seen = new Map<string, number>();
    const eol = eolOf([this.oursText.match(/\r\n|\n|\r/)?.[0] ?? '', this.theirs.match(/\r\n|\n|\r/)?.[0] ?? '']);
    for (const r of regions) {
      if (r.kind === 'clean') {
        const text = r.lines.join('');
        shown.push(text);
        result?.push(text);
        line += countLines(text);
        continue;
      }
      const sides = { base: r.base.join(''), ours: r.ours.join(''), theirs: r.theirs.join('') };
      const identity = `${sides.base}\0${sides.ours}\0${sides.theirs}`;
      const rank = seen.get(identity) ?? 0;
      seen.set(identity, rank + 1);
      const key = `${identity}\0${rank}`;
      const resolution = this.choices.get(key);
      let lines: string[];
      if (resolution) {
        lines = resolveLines(r, resolution);
        result?.push(lines.join(''));
      } else {
        lines = [
          `<<<<<<< ${this.labels.ours}${eol}`, ...withFinalEol(r.ours, eol),
          `=======${eol}`, ...withFinalEol(r.theirs, eol),
          `>>>>>>> ${this.labels.theirs}${eol}`,
        ];
        result = undefined;
      }
      conflicts.push({ index: conflicts.length, startLine: line, endLine: line + lines.length, ...sides, resolution });
      keys.push(key);
      shown.push(lines.join(''));
      line += lines.length;
    }
    this.conflictList = conflicts;
    this.keys = keys;
    this.proposedText = shown.join('');
    this.resultText = result?.join('');
  }
}

/** Lines in a text whose lines each end with an ending, except maybe the last. */
function countLines(text: string): number {
  if (!text) return 0;
  const breaks = text.match(/\r\n|\n|\r/g)?.length ?? 0;
  return /[\r\n]$/.test(text) ? breaks : breaks + 1;
}
