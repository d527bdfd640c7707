// The review of one agent write: VS Code's diff editor with the user's current text on the left
// and the proposed text on the right (both virtual), Accept / Reject in its title bar, as commands
// with keybindings and as actions the chat card calls. Closing the diff without a decision rejects.
//
// The review follows the buffer: while it is open, every edit the user makes to the file re-merges
// the agent's change into it (ReviewMerge), so the left side is always what the user has and the
// right side what Accept would leave. Where the two overlap, the user picks theirs, the agent's or
// both; Accept asks for those choices first and never makes them itself.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeBidi, fileLabel } from '../../common/bidi';
import { Disposable } from '../../common/disposable';
import type { Resolution } from '../../common/fs/merge';
import { ReviewConflict, ReviewMerge } from '../../common/fs/reviewMerge';
import type { Logger } from '../../common/logger';
import { completeWalkthroughStep } from '../walkthrough';
import { DiffContentProvider } from './diffContent';
import { findOpenDocument, pathKey, readCurrent, Target } from './files';
import type { AgentIdentity } from '../../acp/clientServices';
import { resetContextKeyLater } from '../contextKeys';

export type ReviewDecision = 'accept' | 'acceptAll' | 'reject' | 'cancelled';

/** How a review ended. An accepted one carries the text to write and the user's text it was merged with. */
export type ReviewOutcome =
  | { readonly decision: 'accept' | 'acceptAll'; readonly text: string; readonly ours: string }
  | { readonly decision: 'reject' }
  | { readonly decision: 'cancelled'; readonly reason: string };

/** A pending review, as the chat renders it (a card with Accept / Reject / Open diff). */
export interface ReviewInfo {
  readonly id: string;
  /** The agent's own session id: unique only on its connection (`agent`), another agent may use the same. */
  readonly sessionId: string;
  readonly agentName: string;
  /** The agent connection that asked (with `sessionId`, its conversation). */
  readonly agent: AgentIdentity;
  /** Absolute path of the file, as the agent named it. */
  readonly path: string;
  readonly isNewFile: boolean;
  /** Regions where the agent's change overlaps the user's edits and the user has not chosen yet. */
  readonly conflicts: number;
  /** Accepts; false (nothing decided) while conflicts are open: the user is asked to settle them first. */
  accept(): boolean;
  /** Accept this one and apply the rest of this session's writes without review. */
  acceptAllForSession(): boolean;
  reject(): void;
  /** Opens (or reveals) the review's diff editor. */
  openDiff(): Promise<void>;
}

export interface ReviewRequest {
  /** Who asked; all of an owner's reviews are cancelled together when its connection ends. */
  readonly owner: object;
  readonly sessionId: string;
  readonly agentName: string;
  readonly agent: AgentIdentity;
  readonly path: string;
  /** The file, followed while the review is open. */
  readonly target: Target;
  /** What the agent's change was made against (what it last read). */
  readonly base: string;
  /** The agent's content. */
  readonly theirs: string;
  /** What the user has now. */
  readonly ours: string;
  readonly isNewFile: boolean;
}

interface Pending extends ReviewInfo {
  readonly owner: object;
  readonly target: Target;
  readonly merge: ReviewMerge;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  readonly title: string;
  settle(outcome: ReviewOutcome): void;
}

export const REVIEW_CONTEXT_KEY = 'switchboard.reviewDiffActive';
export const CONFLICTS_CONTEXT_KEY = 'switchboard.reviewHasConflicts';
export const PENDING_CONTEXT_KEY = 'switchboard.hasPendingReviews';
/** How many ended reviews keep their reason, for a late Accept to explain itself. */
const ENDED_KEPT = 200;
/** Typing re-merges at most this often (Accept re-merges at once). */
const FOLLOW_DELAY_MS = 60;

export class ReviewManager extends Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly ended = new Map<string, string>();
  private readonly stale = new Set<string>();
  private followTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private context: { active: boolean; conflicts: boolean } | undefined;
  /** The conflict question on screen, if any: it goes away when its review changes or ends. */
  private question: { reviewId: string; pick: vscode.QuickPick<ConflictChoice>; hide(): void } | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<readonly ReviewInfo[]>());
  /** Fired whenever a review starts, ends or changes (its conflicts), with every pending review (oldest first). */
  readonly onDidChangeReviews = this.changed.event;

  constructor(private readonly content: DiffContentProvider, private readonly log: Logger) {
    super();
    this.register(vscode.window.tabGroups.onDidChangeTabs(e => {
      for (const tab of e.closed) {
        const id = reviewIdOfTab(tab);
        const review = id && this.pending.get(id);
        // Closing the diff is a rejection, unless the same diff is still open elsewhere.
        if (review && !this.tabsOf(id).length) {
          this.log.info(`Review of ${review.path} closed without a decision: rejected`);
          review.settle({ decision: 'reject' });
        }
      }
      this.updateContext();
    }));
    this.register(vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()));
    // The user's typing (or a revert, or closing an unsaved buffer) re-merges the reviews of that file.
    const follow = (doc: vscode.TextDocument) => {
      if (doc.uri.scheme !== 'file') return;
      const key = pathKey(doc.uri.fsPath);
      for (const r of this.pending.values()) {
        if (key === pathKey(r.target.real) || key === pathKey(path.resolve(r.target.requested))) this.stale.add(r.id);
      }
      if (this.stale.size && !this.followTimer) this.followTimer = setTimeout(() => { this.followTimer = undefined; void this.refreshStale(); }, FOLLOW_DELAY_MS);
    };
    this.register(vscode.workspace.onDidChangeTextDocument(e => { if (e.contentChanges.length || !e.document.isDirty) follow(e.document); }));
    this.register(vscode.workspace.onDidCloseTextDocument(follow));
    this.register({ dispose: () => clearTimeout(this.followTimer) });
    this.register(resetContextKeyLater(PENDING_CONTEXT_KEY, () => this.pending.size > 0));
  }

  get reviews(): readonly ReviewInfo[] {
    return [...this.pending.values()];
  }

  get(id: string): ReviewInfo | undefined {
    return this.pending.get(id);
  }

  /** Why a review that is no longer pending ended (for a late Accept), if it is remembered. */
  whyEnded(id: string): string | undefined {
    return this.ended.get(id);
  }

  /** The review a command without arguments means: the one whose diff is active, else the oldest. */
  current(): ReviewInfo | undefined {
    const active = reviewIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    return (active && this.pending.get(active)) || this.pending.values().next().value;
  }

  /** Resolves a command argument (a review id, one of our diff URIs, or nothing) to a review id. */
  resolveId(arg: unknown): string | undefined {
    if (typeof arg === 'string') return arg;
    if (arg instanceof vscode.Uri) return DiffContentProvider.idOf(arg);
    return this.current()?.id;
  }

  /** Opens the diff and waits for the user's decision (or the signal / the owner's end). */
  review(req: ReviewRequest, signal: AbortSignal): Promise<ReviewOutcome> {
    const id = `r${this.nextId++}`;
    const left = DiffContentProvider.uri(id, 'current', req.path);
    const right = DiffContentProvider.uri(id, req.isNewFile ? 'new' : 'proposed', req.path);
    const merge = new ReviewMerge(req.base, req.theirs, req.ours, { ours: 'your edits', theirs: `${req.agentName}'s edit` });
    this.content.set(left, merge.ours);
    this.content.set(right, merge.proposed);
    const file = escapeBidi(path.basename(req.path));
    const title = req.isNewFile
      ? (merge.unresolved ? vscode.l10n.t('{0}: {1} wants to create this file (conflicts with your edits)', file, req.agentName) : vscode.l10n.t('{0}: {1} wants to create this file', file, req.agentName))
      : (merge.unresolved ? vscode.l10n.t('{0}: {1} wants to edit (conflicts with your edits)', file, req.agentName) : vscode.l10n.t('{0}: {1} wants to edit', file, req.agentName));

    return new Promise<ReviewOutcome>(resolve => {
      let done = false;
      const onAbort = () => review.settle({ decision: 'cancelled', reason: 'the agent withdrew its request' });
      const accept = (decision: 'accept' | 'acceptAll'): boolean => {
        if (done) return false;
        this.refreshNow(review);
        const text = merge.result;
        if (text === undefined) {
          // Never decided for the user: ask about each open conflict, then accept if all were settled.
          void this.resolveConflicts(id).then(settled => { if (settled) accept(decision); });
          return false;
        }
        review.settle({ decision, text, ours: merge.ours });
        return true;
      };
      const review: Pending = {
        id, owner: req.owner, sessionId: req.sessionId, agentName: req.agentName, agent: req.agent, path: req.path, target: req.target,
        isNewFile: req.isNewFile, merge, left, right, title,
        get conflicts() { return merge.unresolved; },
        accept: () => accept('accept'),
        acceptAllForSession: () => accept('acceptAll'),
        reject: () => review.settle({ decision: 'reject' }),
        openDiff: () => this.show(review),
        settle: (outcome) => {
          if (done) return;
          done = true;
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(id);
          this.stale.delete(id);
          if (this.question?.reviewId === id) this.question.hide();
          this.remember(id, outcome.decision === 'cancelled'
            ? vscode.l10n.t({ message: 'Nothing was written to {0}: its review ended because {1}.', args: [fileLabel(req.path), outcome.reason], comment: '{1} is a reason in English, e.g. "the agent withdrew its request"' })
            : outcome.decision === 'reject' ? vscode.l10n.t('The edit to {0} was already rejected.', fileLabel(req.path)) : vscode.l10n.t('The edit to {0} was already accepted.', fileLabel(req.path)));
          this.log.info(`Review of ${req.path}: ${outcome.decision}${outcome.decision === 'cancelled' ? ` (${outcome.reason})` : ''}`);
          if (outcome.decision !== 'cancelled') completeWalkthroughStep('changeReviewed');
          this.fire();
          // The decision goes on at once (an accepted edit is applied, the agent answered); the diff
          // closes meanwhile, without holding either.
          resolve(outcome);
          void this.closeTabs(id).catch(e => this.log.warn(`Could not close the review diff: ${e}`)).finally(() => {
            this.content.delete(left);
            this.content.delete(right);
          });
        },
      };
      this.pending.set(id, review);
      signal.addEventListener('abort', onAbort, { once: true });
      this.fire();
      if (signal.aborted) { onAbort(); return; }
      this.show(review).catch(e => this.log.warn(`Could not open the review diff for ${req.path}: ${e}`));
    });
  }

  /** Settles conflict `index` of review `id` (undefined reopens it); false if there is no such conflict. */
  resolveConflict(id: string, index: number, resolution: Resolution | undefined): boolean {
    const review = this.pending.get(id);
    if (!review) return false;
    this.refreshNow(review);
    if (!review.merge.resolve(index, resolution)) return false;
    this.publish(review);
    return true;
  }

  /**
   * Asks the user, conflict by conflict, to keep theirs, the agent's or both (a quick pick, with the
   * conflict revealed in the diff). Resolves true when the user settled every open conflict here;
   * false when they dismissed a question, or the review changed or ended meanwhile.
   */
  async resolveConflicts(id: string): Promise<boolean> {
    const review = this.pending.get(id);
    if (!review) return false;
    await this.show(review);
    this.refreshNow(review);
    const asked = review.merge.unresolved;
    let answered = 0;
    for (;;) {
      if (this.pending.get(id) !== review) return false;
      const c = review.merge.conflicts.find(x => !x.resolution);
      if (!c) return answered >= asked && asked > 0;
      this.reveal(review, c);
      const choice = await this.ask(review, c);
      if (!choice) return false;
      this.resolveConflict(id, c.index, choice);
      answered++;
    }
  }

  /** One quick pick; undefined when dismissed, or hidden because the review changed (see publish). */
  private ask(review: Pending, c: ReviewConflict): Promise<Resolution | undefined> {
    this.question?.hide();
    const pick = vscode.window.createQuickPick<ConflictChoice>();
    pick.title = vscode.l10n.t("{0}: conflict {1} of {2} with {3}'s edit", fileLabel(review.path), c.index + 1, review.merge.conflicts.length, review.agentName);
    pick.placeholder = vscode.l10n.t('Lines {0}–{1} of the proposal: what should the file keep?', c.startLine + 1, c.endLine);
    pick.items = conflictChoices(c, review.agentName);
    pick.ignoreFocusOut = true;
    return new Promise(resolve => {
      let chosen: Resolution | undefined;
      pick.onDidAccept(() => { chosen = pick.selectedItems[0]?.resolution; pick.hide(); });
      pick.onDidHide(() => {
        if (this.question?.pick === pick) this.question = undefined;
        pick.dispose();
        resolve(chosen);
      });
      this.question = { reviewId: review.id, pick, hide: () => pick.hide() };
      pick.show();
    });
  }

  /** Ends every pending review of an owner (its agent connection closed). */
  cancelOwner(owner: object, reason: string): void {
    for (const r of [...this.pending.values()]) if (r.owner === owner) r.settle({ decision: 'cancelled', reason });
  }

  /** Ends every pending review of an owner's session (the turn was stopped, the conversation closed). */
  cancelSession(owner: object, sessionId: string, reason: string): void {
    for (const r of [...this.pending.values()]) if (r.owner === owner && r.sessionId === sessionId) r.settle({ decision: 'cancelled', reason });
  }

  /** Opens a diff of two texts kept by the content provider (used for applied writes too). */
  async showDiff(left: vscode.Uri, right: vscode.Uri, title: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
  }

  override dispose(): void {
    for (const r of [...this.pending.values()]) r.settle({ decision: 'cancelled', reason: 'Switchboard shut down' });
    super.dispose();
  }

  /** Re-merges with the open buffer now (Accept must not act on a merge a keystroke old). */
  private refreshNow(review: Pending): void {
    const doc = findOpenDocument(review.target);
    if (!doc) return; // a file that is not open is read from disk on the timer; the write re-merges anyway
    this.stale.delete(review.id);
    if (review.merge.update(doc.getText())) this.publish(review);
  }

  private async refreshStale(): Promise<void> {
    const ids = [...this.stale];
    this.stale.clear();
    for (const id of ids) {
      const review = this.pending.get(id);
      if (!review) continue;
      let text: string;
      try {
        const current = await readCurrent(review.target);
        text = current.text;
      } catch (e) {
        this.log.warn(`Could not follow ${review.path} during its review: ${e}`);
        continue;
      }
      if (this.pending.get(id) === review && review.merge.update(text)) this.publish(review);
    }
  }

  /** The review's texts changed: both sides of the diff, the card's conflict count, the title-bar buttons. */
  private publish(review: Pending): void {
    if (this.question?.reviewId === review.id) this.question.hide();
    this.content.set(review.left, review.merge.ours);
    this.content.set(review.right, review.merge.proposed);
    this.fire();
  }

  private reveal(review: Pending, c: ReviewConflict): void {
    const editor = vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === review.right.toString());
    if (!editor) return;
    const range = new vscode.Range(c.startLine, 0, Math.max(c.startLine, c.endLine - 1), 0);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private remember(id: string, why: string): void {
    this.ended.set(id, why);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
  }

  private async show(review: Pending): Promise<void> {
    if (!this.pending.has(review.id)) return;
    await this.showDiff(review.left, review.right, review.title);
    this.updateContext();
  }

  private tabsOf(id: string): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap(g => g.tabs).filter(t => reviewIdOfTab(t) === id);
  }

  private async closeTabs(id: string): Promise<void> {
    const tabs = this.tabsOf(id);
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    this.updateContext();
  }

  private fire(): void {
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, this.pending.size > 0);
    this.changed.fire(this.reviews);
    this.updateContext();
  }

  private updateContext(): void {
    const id = reviewIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    const review = id ? this.pending.get(id) : undefined;
    const next = { active: !!review, conflicts: !!review && review.merge.unresolved > 0 };
    if (next.active !== this.context?.active) void vscode.commands.executeCommand('setContext', REVIEW_CONTEXT_KEY, next.active);
    if (next.conflicts !== this.context?.conflicts) void vscode.commands.executeCommand('setContext', CONFLICTS_CONTEXT_KEY, next.conflicts);
    this.context = next;
  }
}

interface ConflictChoice extends vscode.QuickPickItem {
  readonly resolution: Resolution;
}

function conflictChoices(c: ReviewConflict, agentName: string): ConflictChoice[] {
  const preview = (text: string) => {
    const lines = text.split(/\r\n|\n|\r/).filter((l, i, all) => l || i < all.length - 1);
    if (!lines.length) return vscode.l10n.t('(deleted)');
    return lines.slice(0, 3).map(l => l.trim()).join(' ⏎ ') + (lines.length > 3 ? ` … ${vscode.l10n.t('({0} lines)', lines.length)}` : '');
  };
  return [
    { label: `$(person) ${vscode.l10n.t('Keep yours')}`, description: preview(c.ours), resolution: 'ours' },
    { label: `$(hubot) ${vscode.l10n.t("Take {0}'s", agentName)}`, description: preview(c.theirs), resolution: 'theirs' },
    { label: `$(files) ${vscode.l10n.t('Keep both')}`, description: vscode.l10n.t("yours first, then the agent's"), resolution: 'both' },
  ];
}

function reviewIdOfTab(tab: vscode.Tab | undefined): string | undefined {
  const input = tab?.input;
  return input instanceof vscode.TabInputTextDiff ? DiffContentProvider.idOf(input.modified) : undefined;
}
