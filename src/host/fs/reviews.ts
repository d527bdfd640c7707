// The review of one agent write: VS Code's diff editor with the current text on the left and the
// proposed text on the right (both virtual), Accept / Reject in its title bar, as commands with
// keybindings and as actions the chat card calls. Closing the diff without a decision rejects.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeBidi } from '../../common/bidi';
import { Disposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { DiffContentProvider } from './diffContent';

export type ReviewDecision = 'accept' | 'acceptAll' | 'reject' | 'cancelled';

/** A pending review, as the chat renders it (a card with Accept / Reject / Open diff). */
export interface ReviewInfo {
  readonly id: string;
  readonly sessionId: string;
  readonly agentName: string;
  /** Absolute path of the file, as the agent named it. */
  readonly path: string;
  readonly isNewFile: boolean;
  /** Regions where the agent's change overlaps the user's unsaved edits (the diff shows them). */
  readonly conflicts: number;
  accept(): void;
  /** Accept this one and apply the rest of this session's writes without review. */
  acceptAllForSession(): void;
  reject(): void;
  /** Opens (or reveals) the review's diff editor. */
  openDiff(): Promise<void>;
}

export interface ReviewRequest {
  /** Who asked; all of an owner's reviews are cancelled together when its connection ends. */
  readonly owner: object;
  readonly sessionId: string;
  readonly agentName: string;
  readonly path: string;
  readonly before: string;
  readonly proposed: string;
  readonly isNewFile: boolean;
  readonly conflicts: number;
}

interface Pending extends ReviewInfo {
  readonly owner: object;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  readonly title: string;
  settle(decision: ReviewDecision): void;
}

export const REVIEW_CONTEXT_KEY = 'switchboard.reviewDiffActive';
export const PENDING_CONTEXT_KEY = 'switchboard.hasPendingReviews';

export class ReviewManager extends Disposable {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private contextActive: boolean | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<readonly ReviewInfo[]>());
  /** Fired whenever a review starts or ends, with every pending review (oldest first). */
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
          review.settle('reject');
        }
      }
      this.updateContext();
    }));
    this.register(vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()));
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, false);
  }

  get reviews(): readonly ReviewInfo[] {
    return [...this.pending.values()];
  }

  get(id: string): ReviewInfo | undefined {
    return this.pending.get(id);
  }

  /** The review a command without arguments means: the one whose diff is active, else the oldest. */
  current(): ReviewInfo | undefined {
    const active = reviewIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    return (active && this.pending.get(active)) || this.pending.values().next().value;
  }

  /** Resolves a command argument (a review id, one of our diff URIs, or nothing) to a pending review. */
  resolve(arg: unknown): ReviewInfo | undefined {
    if (typeof arg === 'string') return this.pending.get(arg);
    if (arg instanceof vscode.Uri) {
      const id = DiffContentProvider.idOf(arg);
      return id ? this.pending.get(id) : undefined;
    }
    return this.current();
  }

  /** Opens the diff and waits for the user's decision (or the signal / the owner's end). */
  review(req: ReviewRequest, signal: AbortSignal): Promise<ReviewDecision> {
    const id = `r${this.nextId++}`;
    const left = DiffContentProvider.uri(id, 'current', req.path);
    const right = DiffContentProvider.uri(id, req.isNewFile ? 'new' : 'proposed', req.path);
    this.content.set(left, req.before);
    this.content.set(right, req.proposed);
    const conflictNote = req.conflicts ? ` (${req.conflicts} conflict${req.conflicts > 1 ? 's' : ''} with your edits)` : '';
    const title = `${escapeBidi(path.basename(req.path))}: ${req.agentName} wants to ${req.isNewFile ? 'create this file' : 'edit'}${conflictNote}`;

    return new Promise<ReviewDecision>(resolve => {
      let done = false;
      const onAbort = () => review.settle('cancelled');
      const review: Pending = {
        id, owner: req.owner, sessionId: req.sessionId, agentName: req.agentName, path: req.path,
        isNewFile: req.isNewFile, conflicts: req.conflicts, left, right, title,
        accept: () => review.settle('accept'),
        acceptAllForSession: () => review.settle('acceptAll'),
        reject: () => review.settle('reject'),
        openDiff: () => this.show(review),
        settle: (decision) => {
          if (done) return;
          done = true;
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(id);
          this.log.info(`Review of ${req.path}: ${decision}`);
          this.fire();
          // The diff closes before the agent hears the answer (and before an accepted edit lands).
          void this.closeTabs(id).catch(e => this.log.warn(`Could not close the review diff: ${e}`)).finally(() => {
            this.content.delete(left);
            this.content.delete(right);
            resolve(decision);
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

  /** Ends every pending review of an owner (its agent connection closed). */
  cancelOwner(owner: object): void {
    for (const r of [...this.pending.values()]) if (r.owner === owner) r.settle('cancelled');
  }

  /** Opens a diff of two texts kept by the content provider (used for applied writes too). */
  async showDiff(left: vscode.Uri, right: vscode.Uri, title: string): Promise<void> {
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false });
  }

  override dispose(): void {
    for (const r of [...this.pending.values()]) r.settle('cancelled');
    super.dispose();
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
  }

  private updateContext(): void {
    const id = reviewIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    const active = !!id && this.pending.has(id);
    if (active === this.contextActive) return;
    this.contextActive = active;
    void vscode.commands.executeCommand('setContext', REVIEW_CONTEXT_KEY, active);
  }
}

function reviewIdOfTab(tab: vscode.Tab | undefined): string | undefined {
  const input = tab?.input;
  return input instanceof vscode.TabInputTextDiff ? DiffContentProvider.idOf(input.modified) : undefined;
}
