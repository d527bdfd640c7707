// fs/read_text_file and fs/write_text_file for every agent connection, plus what the chat shows of
// them: pending reviews and the writes applied in each session (each with "open diff" and "undo").
//
// Reads serve what the user sees (unsaved edits included). Writes wait for the user's review, are
// applied as one WorkspaceEdit (one undo step) and saved. The agent's change is always merged into
// what the user has (three-way, from what the agent last read, else from the file on disk), never
// written over it: the review follows the user's typing, and a write that skips the review (a
// setting, "Accept all", an earlier permission) falls back to one where it overlaps unsaved edits.
// Stopping the turn, closing the conversation or the agent's end cancels its pending reviews.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { sdk } from '../../common/acpSdk';
import * as vscode from 'vscode';
import { registerCommand } from '../commands';
import type { AgentIdentity, FsHandlers } from '../../acp/clientServices';
import { BoundedTextMap } from '../../common/boundedTextMap';
import { LazyText, type SomeText } from '../../common/fs/lazyText';
import { fileLabel } from '../../common/bidi';
import { Disposable } from '../../common/disposable';
import { matchLineEndings } from '../../common/fs/eol';
import { FsErrors, fromNodeError } from '../../common/fs/errors';
import { jsonExceeds, jsonStringBytes } from '../../common/jsonSize';
import { sliceLines } from '../../common/fs/lines';
import { encodeText, sameBytes, TextForm } from '../../common/fs/encoding';
import { lineEdits, merge3, Resolution } from '../../common/fs/merge';
import { decideAccess, isAbsolutePath } from '../../common/fs/pathPolicy';
import type { Logger } from '../../common/logger';
import { pathProblem } from '../../common/requestGuard';
import { askOutsideWorkspace } from '../outsideWorkspace';
import { completeWalkthroughStep } from '../walkthrough';
import { DiffContentProvider } from './diffContent';
import { EditLog } from './editLog';
import type { Edit } from '../../common/review/editHistory';
import { DecisionAction, decisionOf } from '../../common/review/reviewLog';
import { decodeFor, formOfNewFile } from './fileData';
import { CurrentText, diskTexts, findOpenDocument, holdIdleRangeRests, openDocumentAfterMerges, holdRangeRests, isRanged, startRangeRests, pathKey, readCurrent, readCurrentData, readRange, resolveTarget, statOf, Target, workspaceRoots } from './files';
import { pendingSaves, settledWithin } from './pendingSaves';
import { ReviewInfo, ReviewManager } from './reviews';
import { readOutsideWorkspacePolicy, readReviewWrites, readSaveAfterWrite } from './settings';

export type { ReviewInfo } from './reviews';
export type { Resolution } from '../../common/fs/merge';

/** A write the agent made (reviewed or not), as the chat lists it after the turn. */
export interface AppliedWrite {
  readonly id: string;
  /** The agent's own session id: unique only on its connection (`agent`). */
  readonly sessionId: string;
  readonly agentName: string;
  /** The agent connection that wrote (with `sessionId`, its conversation). */
  readonly agent: AgentIdentity;
  /** Absolute path, as the agent named it. */
  readonly path: string;
  /** The text before the write; undefined when the write created the file. */
  readonly before: string | undefined;
  /** The file's exact bytes before the write when they were not text (binary, or not valid in its encoding): `before` is then empty. */
  readonly beforeBytes?: Uint8Array;
  /** How the file's text is stored on disk after the write (its encoding and BOM). */
  readonly form: TextForm;
  /** The text right after the write (the agent's content merged with the user's edits, if any). */
  readonly after: string;
  /** False when it was applied without a review (setting, "Accept all", or an earlier permission). */
  readonly reviewed: boolean;
  readonly time: number;
  /**
   * What the user decided of it since, read from the one history of edits: kept or undone with the
   * file's change (Agent Changes, the chat's changed files) or by its own Undo; undefined: undecided.
   */
  readonly decided: DecisionAction | undefined;
  /** Opens a diff of before → after. */
  openDiff(): Promise<void>;
  /**
   * Reverts this write in the file, keeping the user's later edits where they do not overlap it
   * (a created file is deleted if it is unchanged). Resolves false when nothing could be undone.
   * The review's Undo of the write when one is set (see undoWrites): the file's change follows.
   */
  undo(): Promise<boolean>;
}

/** Per-connection services object handed to AgentConnection (see extension.ts). */
export interface AgentFsServices {
  readonly fs: FsHandlers;
  /**
   * To be called with every answered session/request_permission: an allowed request whose tool
   * call carries `diff` content pre-approves a write of exactly that content to that path.
   */
  onPermissionAnswered(params: acp.RequestPermissionRequest, response: acp.RequestPermissionResponse): void;
  /** The user stopped the session's turn: its pending and queued writes end unwritten, and later ones until its next turn. */
  cancelSession(sessionId: string): void;
  /** The session's next turn starts: its writes are served again. */
  beginTurn(sessionId: string): void;
  /** The agent ended a turn: resolves once what it read is known (ranged reads' whole texts), before the user sees the end. */
  endTurn(sessionId: string): Promise<void>;
  /** The session's conversation was closed: the same, for good. */
  releaseSession(sessionId: string): void;
  dispose(): void;
}

/** How long a turn's end waits at most for its ranged reads' whole texts (settleTurn): a loaded machine. */
const WHOLE_READ_WAIT_MS = 5_000;
/** A read_text_file reply larger than this (its content as JSON) is refused: the agent reads a window instead. */
const MAX_READ_REPLY_BYTES = 8 * 1024 * 1024;
/** The texts each connection keeps as merge bases; the least recent are forgotten (a write then needs no merge base). */
const LAST_READ_MAX_CHARS = 64 * 1024 * 1024;

export class FsService extends Disposable {
  /** The one in-memory provider behind every diff Switchboard opens (reviews, applied writes, tool calls). */
  readonly content = this.register(new DiffContentProvider());
  readonly reviewManager: ReviewManager;
  /** The one history of agents' edits: the writes applied here, the diffs tool calls reported (ToolDiffs), the review's changes. */
  readonly edits = new EditLog(this.content);
  /** The review's Undo of an applied write (ChangeTracker.undoWrite), given the write's own revert. */
  undoWrites?: (write: AppliedWrite, revert: () => Promise<boolean>) => Promise<boolean>;
  private readonly appliedEmitter = this.register(new vscode.EventEmitter<AppliedWrite>());
  /** Fired after each write is applied to a file. */
  readonly onDidApplyWrite = this.appliedEmitter.event;
  private readonly readEmitter = this.register(new vscode.EventEmitter<{ readonly path: string; readonly text: SomeText; readonly form: TextForm }>());
  /** The agent read a file (the whole text): the baseline of a change it may make on disk later. */
  readonly onDidRead = this.readEmitter.event;

  /** @internal AgentFs reports its reads through here. */
  notifyRead(filePath: string, text: SomeText, form: TextForm): void {
    this.readEmitter.fire({ path: filePath, text, form });
  }
  /** Fired whenever a review starts or ends, with every pending review. */
  readonly onDidChangeReviews: vscode.Event<readonly ReviewInfo[]>;

  constructor(private readonly log: Logger) {
    super();
    this.reviewManager = this.register(new ReviewManager(this.content, log));
    this.onDidChangeReviews = this.reviewManager.onDidChangeReviews;
    const command = (id: string, run: (...args: unknown[]) => unknown) => this.register(registerCommand(id, run));
    command('switchboard.acceptWrite', arg => this.decide(arg, r => r.accept()));
    command('switchboard.rejectWrite', arg => this.decide(arg, r => r.reject()));
    command('switchboard.acceptAllWrites', arg => this.decide(arg, r => r.acceptAllForSession()));
    command('switchboard.openWriteDiff', arg => this.decide(arg, r => r.openDiff()));
    command('switchboard.resolveConflicts', arg => this.decide(arg, r => this.reviewManager.resolveConflicts(r.id)));
    command('switchboard.resolveConflict', (id, index, resolution) => {
      if (typeof id !== 'string' || typeof index !== 'number' || !['ours', 'theirs', 'both', undefined].includes(resolution as string)) return false;
      return this.reviewManager.resolveConflict(id, index, resolution as Resolution | undefined);
    });
  }

  /** @internal How many disk reads were served from the kept texts, and how many were read (tests, benchmark). */
  get readCacheCounts(): { readonly hits: number; readonly misses: number } {
    return { hits: diskTexts.hits, misses: diskTexts.misses };
  }

  /** @internal Tests: holds the rest of ranged reads answered from now on until the returned function is called (files.ts). */
  holdRangeRests(): () => void {
    return holdRangeRests();
  }

  /** @internal Tests: the rests of ranged reads are started only by a write, a command or a turn's end until the returned function is called (files.ts). */
  holdIdleRangeRests(): () => void {
    return holdIdleRangeRests();
  }

  /** Pending reviews, oldest first. */
  get reviews(): readonly ReviewInfo[] {
    return this.reviewManager.reviews;
  }

  /** Writes applied so far (the most recent ones the history of edits keeps, see EditLog), optionally of one session. */
  appliedWrites(sessionId?: string): readonly AppliedWrite[] {
    return this.edits.history.list({ origin: 'write', scope: sessionId }).map(e => e.data as AppliedWrite);
  }

  /** False when nothing was accepted: the review ended (the user is told why) or has open conflicts (the user is asked). */
  accept(id: string): boolean { return this.act(id, r => r.accept()); }
  reject(id: string): boolean { return this.act(id, r => { r.reject(); return true; }); }
  acceptAllForSession(id: string): boolean { return this.act(id, r => r.acceptAllForSession()); }
  /** Why review `id` is no longer pending (what a late Accept shows), if it is remembered. */
  whyEnded(id: string): string | undefined { return this.reviewManager.whyEnded(id); }
  async openDiff(id: string): Promise<void> { await this.reviewManager.get(id)?.openDiff(); }

  /** The services of one agent connection. */
  forAgent(agent: AgentIdentity): AgentFsServices {
    const handlers = new AgentFs(agent, this, this.log);
    return {
      fs: handlers,
      onPermissionAnswered: (params, response) => handlers.onPermissionAnswered(params, response),
      cancelSession: sessionId => handlers.endSession(sessionId, 'the turn was stopped'),
      beginTurn: sessionId => handlers.beginTurn(sessionId),
      endTurn: sessionId => handlers.settleTurn(sessionId),
      releaseSession: sessionId => handlers.endSession(sessionId, 'the conversation was closed'),
      dispose: () => handlers.dispose(),
    };
  }

  private act(id: string, run: (r: ReviewInfo) => boolean): boolean {
    const review = this.reviewManager.get(id);
    if (!review) {
      this.tellEnded(id);
      return false;
    }
    return run(review);
  }

  private async decide(arg: unknown, run: (r: ReviewInfo) => unknown): Promise<void> {
    const id = this.reviewManager.resolveId(arg);
    const review = id ? this.reviewManager.get(id) : undefined;
    if (!review) {
      this.tellEnded(id);
      return;
    }
    await run(review);
  }

  /** A decision on a review that is not pending (a late click): nothing happens, and the user hears why. */
  private tellEnded(id: string | undefined): void {
    const why = id && this.reviewManager.whyEnded(id);
    void vscode.window.showWarningMessage(why || vscode.l10n.t('No agent edit is waiting for review.'));
  }

  // ------------------------------------------------------------------------ used by AgentFs

  /** @internal */
  review = (...args: Parameters<ReviewManager['review']>) => this.reviewManager.review(...args);

  /**
   * @internal Writes `next` (computed against `expected`, what the user had) into the file. Resolves
   * undefined, writing nothing, when the user's text is no longer `expected` (merge again).
   *
   * Resolves as soon as the agent may be answered. A file not open in VS Code is written straight
   * to disk (when saved writes are on): exact bytes, no round trips to the editor, and on disk
   * before the agent hears back. An open file gets the edit in its buffer (one undo step, merged
   * with the user's typing) and is saved after, without holding the answer: the agent reads the
   * buffer through fs/read_text_file, and its commands wait for pending saves (pendingSaves).
   */
  async apply(target: Target, expected: CurrentText, next: string): Promise<{ before: string | undefined; beforeBytes?: Uint8Array; after: string; form: TextForm } | undefined> {
    // Not into a tab while it is merged with a disk change: reverted to the disk for that moment, it
    // would take the write, and the merge would then set its text over it (see tabMerges.ts).
    let doc = await openDocumentAfterMerges(target);
    const uri = doc?.uri ?? vscode.Uri.file(target.real);
    if (!doc && !(await exists(target.real))) {
      if (expected.exists) return undefined; // deleted meanwhile
      // A new file gets the agent's bytes exactly (a WorkspaceEdit createFile would convert the line
      // endings to files.eol); parent folders are created. Undo of the write deletes it.
      try {
        await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(target.real)));
        await vscode.workspace.fs.writeFile(uri, encodeText({ text: next, form: formOfNewFile(target.real) }));
      } catch (e) {
        throw FsErrors.io(target.requested, `Could not create the file (${(e as Error).message})`);
      }
      return { before: undefined, after: next, form: formOfNewFile(target.real) };
    }
    if (!expected.exists) return undefined; // created meanwhile
    if (expected.binary) {
      // Text over a binary file (or one not valid in its encoding) replaces it whole; never through a
      // buffer, which would decode what it held. Its bytes are kept for Undo.
      const form = formOfNewFile(target.real);
      const written = await writeClosedFile(target, expected, next, form);
      return written === true ? { before: '', beforeBytes: expected.binary, after: next, form } : undefined;
    }
    if (!doc && readSaveAfterWrite()) {
      const written = await writeClosedFile(target, expected, next, expected.form);
      if (written !== 'opened') return written ? { before: expected.text, after: next, form: expected.form } : undefined;
      doc = findOpenDocument(target); // opened meanwhile: through its buffer after all
    }
    doc ??= await vscode.workspace.openTextDocument(uri);
    let now = doc.getText();
    if (!doc.isDirty && now !== expected.text && expected.source === 'disk') {
      // A clean buffer that has not caught up with the disk yet: wait briefly for VS Code to reload
      // it. A clean buffer holds nothing of the user's, so the disk text stays the truth.
      now = await settle(doc, expected.text, 1500);
    } else if (now !== expected.text) {
      return undefined;
    }
    await this.replaceText(doc, now, next, target, false);
    return { before: now, after: doc.getText(), form: expected.form };
  }

  /** @internal */
  record(w: Omit<AppliedWrite, 'id' | 'time' | 'decided' | 'openDiff' | 'undo'>, target: Target): AppliedWrite {
    let edit!: Edit<AppliedWrite>;
    const history = this.edits.history;
    const write: AppliedWrite = {
      ...w, get id() { return edit.id; }, time: Date.now(),
      get decided() { return decisionOf(history, edit.id); },
      openDiff: () => this.reviewManager.showDiff(EditLog.uri(edit, 'before'), EditLog.uri(edit, 'after'), `${fileLabel(w.path)}: ${w.before === undefined ? 'created' : 'changed'} by ${w.agentName}`),
      undo: () => (this.undoWrites ? this.undoWrites(write, () => this.undo(write, target)) : this.undo(write, target)),
    };
    edit = this.edits.add({ origin: 'write', scope: w.sessionId, path: w.path, before: w.before ?? null, after: w.after, data: write });
    this.appliedEmitter.fire(write);
    return write;
  }

  private async undo(write: AppliedWrite, target: Target): Promise<boolean> {
    const doc = findOpenDocument(target);
    if (!doc && !(await exists(target.real))) return false;
    const current = await readCurrent(target);
    if (write.beforeBytes) {
      // The file was binary before: its exact bytes come back, if the agent's text is still what it holds.
      if (current.text !== write.after) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed since {1} wrote it; it was not restored.', fileLabel(write.path), write.agentName));
        return false;
      }
      await fsp.writeFile(target.real, write.beforeBytes);
      return true;
    }
    if (write.before === undefined) {
      if (current.text !== write.after) {
        void vscode.window.showWarningMessage(vscode.l10n.t('{0} changed since {1} created it; it was not deleted.', fileLabel(write.path), write.agentName));
        return false;
      }
      const edit = new vscode.WorkspaceEdit();
      edit.deleteFile(doc?.uri ?? vscode.Uri.file(target.real), { ignoreIfNotExists: true });
      return vscode.workspace.applyEdit(edit);
    }
    const merged = current.text === write.after
      ? { text: write.before, conflicts: [] }
      : merge3(write.after, current.text, write.before, 'ours');
    if (merged.conflicts.length) {
      void vscode.window.showWarningMessage(
        merged.conflicts.length === 1 ? vscode.l10n.t("Undid {0}'s edit to {1} except 1 place you changed since.", write.agentName, fileLabel(write.path)) : vscode.l10n.t("Undid {0}'s edit to {1} except {2} places you changed since.", write.agentName, fileLabel(write.path), merged.conflicts.length));
    }
    const opened = doc ?? await vscode.workspace.openTextDocument(vscode.Uri.file(target.real));
    await this.replaceText(opened, opened.getText(), merged.text, target);
    return true;
  }

  /**
   * One WorkspaceEdit of minimal line replacements (cursor and folding survive), then save; the
   * save is awaited only with `waitForSave` (it runs the save participants: format on save and
   * the like, up to seconds), else tracked in pendingSaves.
   */
  private async replaceText(doc: vscode.TextDocument, now: string, next: string, target: Target, waitForSave = true): Promise<void> {
    const edits = lineEdits(now, next);
    if (edits.length) {
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
      if (!(await vscode.workspace.applyEdit(edit))) throw FsErrors.io(target.requested, 'Could not apply the edit');
    }
    if (readSaveAfterWrite() && (doc.isDirty || edits.length)) {
      const saved = pendingSaves.track(Promise.resolve(doc.save()).then(ok => {
        if (!ok) this.log.warn(`Could not save ${target.requested} after the agent's edit`);
      }, e => this.log.warn(`Could not save ${target.requested} after the agent's edit: ${e}`)));
      if (waitForSave) await saved;
    }
  }
}

/** One agent connection's fs handlers: its sessions' "last read" texts, approvals and queues. */
class AgentFs implements FsHandlers {
  /** sessionId + real path → the full text the agent last read (or wrote) there. */
  private readonly lastRead = new BoundedTextMap(LAST_READ_MAX_CHARS);
  /** lastRead's keys whose whole text is still being read after a ranged read's answer (readRange). */
  private readonly wholeReads = new Map<string, Promise<void>>();
  /**
   * lastRead's keys whose ranged read gave no whole text (the file changed while it was read): what
   * the agent saw of the file is not known, so its next write there is not merged unseen.
   */
  private readonly unknownBases = new Set<string>();
  /** op + real path → the user's answer for a path outside the workspace (asked once). */
  private readonly outsideAnswers = new Map<string, Promise<boolean>>();
  private readonly acceptAll = new Set<string>();
  /** sessionId → how many times its turn was stopped: a write queued before a Stop is not run after it. */
  private readonly stops = new Map<string, number>();
  /** Sessions stopped (or closed) and not prompted since: a write that still arrives is refused. */
  private readonly stopped = new Set<string>();
  private approvals: { sessionId: string; key: string; content: string }[] = [];
  private readonly queues = new Map<string, Promise<unknown>>();
  private disposed = false;

  constructor(private readonly agent: AgentIdentity, private readonly service: FsService, private readonly log: Logger) {}

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const resolving = this.target(params.path);
    // A ranged read's stat runs beside the path's resolution (readRange checks that the file it opens is that one).
    const early = isRanged(params.line, params.limit) && !pathProblem(params.path) && isAbsolutePath(params.path) ? statOf(params.path) : undefined;
    const target = await resolving;
    // A stat taken before the user answered a question about the path may be older than the file.
    const asked = await this.checkAccess(target, 'read');
    const range = await readRange(target, params.line, params.limit, asked ? undefined : early);
    const key = this.key(params.sessionId, target);
    if (range) {
      const seen = (whole: LazyText) => {
        this.lastRead.set(key, whole);
        this.service.notifyRead(params.path, whole, range.form);
      };
      if (range.whole instanceof LazyText) {
        this.seenWhole(key);
        seen(range.whole);
      } else {
        this.awaitWhole(key, range.whole, seen);
      }
      if (!jsonExceeds(range.content, MAX_READ_REPLY_BYTES)) return { content: range.content };
      // A window too large for one reply: refused with the file's line count (from the text read, not read again).
      const whole = await range.whole;
      if (whole) throw FsErrors.tooLarge(params.path, jsonStringBytes(range.content), MAX_READ_REPLY_BYTES, countLines(whole.text));
    }
    const current = await readCurrent(target);
    if (!current.exists) throw FsErrors.notFound(params.path);
    this.seenWhole(key);
    this.lastRead.set(key, current.text);
    // Only the disk is a baseline for changes the agent makes on disk later: a buffer with unsaved
    // edits holds the user's text, which must never be listed as the agent's (issue 24).
    if (current.source === 'disk') this.service.notifyRead(params.path, current.text, current.form);
    const content = sliceLines(current.text, params.line, params.limit);
    // Far under the SDK's 32 MiB message limit, which would otherwise break the whole connection.
    // The whole text's size is counted once per version of the file (re-reads reuse it).
    const memo = content === current.text ? current.memo : undefined;
    const sure = content.length * 6 + 2 <= MAX_READ_REPLY_BYTES || content.length + 2 > MAX_READ_REPLY_BYTES;
    const tooLarge = memo && !sure ? (memo.jsonBytes ??= jsonStringBytes(content)) > MAX_READ_REPLY_BYTES : jsonExceeds(content, MAX_READ_REPLY_BYTES);
    if (tooLarge) {
      throw FsErrors.tooLarge(params.path, jsonStringBytes(content), MAX_READ_REPLY_BYTES, countLines(current.text));
    }
    return { content };
  }

  async writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const target = await this.target(params.path);
    await this.checkAccess(target, 'write');
    // One write per file at a time: the second review opens once the first is decided.
    const stops = this.stops.get(params.sessionId) ?? 0;
    return this.serialize(pathKey(target.real), () => {
      if (this.stopped.has(params.sessionId) || (this.stops.get(params.sessionId) ?? 0) !== stops) {
        throw sdk.RequestError.requestCancelled(undefined, 'the turn was stopped');
      }
      return this.write(params, target, signal);
    });
  }

  /** The whole text of a ranged read, once read: `seen` records it (unless a later read or write of the file came first). */
  private awaitWhole(key: string, whole: Promise<LazyText | undefined>, seen: (whole: LazyText) => void): void {
    this.lastRead.delete(key);
    this.unknownBases.delete(key);
    const done: Promise<void> = whole.then(text => {
      if (this.wholeReads.get(key) !== done) return;
      this.wholeReads.delete(key);
      if (text) seen(text);
      else this.unknownBases.add(key);
    });
    this.wholeReads.set(key, done);
  }

  /** The session's turn ended: what it read by range is read whole now (the user may change the file next), waited for up to WHOLE_READ_WAIT_MS. */
  async settleTurn(sessionId: string): Promise<void> {
    const mine = [...this.wholeReads].filter(([key]) => key.startsWith(`${sessionId}\0`)).map(([, done]) => done);
    if (mine.length) startRangeRests();
    await settledWithin(mine, WHOLE_READ_WAIT_MS);
  }

  /** A later read or write of the file: an earlier ranged read's whole text no longer matters. */
  private seenWhole(key: string): void {
    this.wholeReads.delete(key);
    this.unknownBases.delete(key);
  }

  onPermissionAnswered(params: acp.RequestPermissionRequest, response: acp.RequestPermissionResponse): void {
    const outcome = response.outcome;
    if (outcome.outcome !== 'selected') return;
    const option = params.options.find(o => o.optionId === outcome.optionId);
    if (params.toolCall.content?.some(c => c.type === 'diff')) completeWalkthroughStep('changeReviewed');
    if (!option || !option.kind.startsWith('allow')) return;
    for (const c of params.toolCall.content ?? []) {
      if (c.type === 'diff' && isAbsolutePath(c.path)) {
        this.approvals.push({ sessionId: params.sessionId, key: pathKey(path.resolve(c.path)), content: c.newText });
      }
    }
    this.approvals = this.approvals.slice(-50);
  }

  /** Stop or close: the session's pending reviews end unwritten, queued writes are refused, "Accept all" is revoked. */
  endSession(sessionId: string, reason: string): void {
    this.stops.set(sessionId, (this.stops.get(sessionId) ?? 0) + 1);
    this.stopped.add(sessionId);
    this.acceptAll.delete(sessionId);
    this.service.reviewManager.cancelSession(this, sessionId, reason);
  }

  beginTurn(sessionId: string): void {
    this.stopped.delete(sessionId);
  }

  dispose(): void {
    this.disposed = true;
    this.service.reviewManager.cancelOwner(this, `${this.agent.agentName} stopped or exited`);
    this.lastRead.clear();
    this.wholeReads.clear();
    this.unknownBases.clear();
    this.approvals = [];
  }

  private async write(params: acp.WriteTextFileRequest, target: Target, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    let ours = await readCurrentData(target);
    const content = ours.exists && !ours.binary ? matchLineEndings(params.content, ours.text) : params.content;
    const key = this.key(params.sessionId, target);
    // The agent's change is from what it last read; from the file on disk if it never read it here
    // (it read the disk itself), so unsaved edits are the user's side of the merge, not the base.
    // A binary file is replaced whole: nothing of it is merged (its text is empty).
    // What the agent saw of the file, if it read it by range a moment ago: read now.
    if (this.wholeReads.has(key)) {
      startRangeRests();
      await this.wholeReads.get(key);
    }
    // The file changed while the rest of a ranged read was read: its base is not known, so nothing
    // of the write is merged unseen: it is reviewed against the file as it is.
    const unknownBase = this.unknownBases.has(key);
    let base = ours.exists && !ours.binary ? (unknownBase ? ours.text : this.lastRead.get(key) ?? await mergeBase(target, ours)) : '';
    let theirs = content;
    const approved = this.takeApproval(params.sessionId, params.path, params.content);
    let mustReview = (unknownBase && ours.exists) || (!approved && !this.acceptAll.has(params.sessionId) && readReviewWrites() === 'always');
    let reviewed = false;
    for (let round = 0; ; round++) {
      const merged = merge3(base, ours.text, theirs, 'theirs', { touching: true });
      if (ours.exists && !merged.conflicts.length && merged.text === ours.text) break; // nothing to change
      if (mustReview || merged.conflicts.length) {
        const outcome = await this.service.review({
          owner: this, sessionId: params.sessionId, agentName: this.agent.agentName, agent: this.agent, path: params.path, target,
          base, theirs, ours: ours.text, isNewFile: !ours.exists,
        }, signal);
        if (outcome.decision === 'cancelled') throw sdk.RequestError.requestCancelled(undefined, `the review of ${params.path} ended: ${outcome.reason}`);
        if (outcome.decision === 'reject') throw FsErrors.userRejected(params.path);
        if (outcome.decision === 'acceptAll') this.acceptAll.add(params.sessionId);
        if (this.disposed) throw sdk.RequestError.requestCancelled();
        // What the user accepted was merged with `outcome.ours`: the next round carries it into the
        // buffer as it is now (usually the same text; if not, the user's latest typing is merged too).
        reviewed = true;
        mustReview = false;
        base = outcome.ours;
        theirs = outcome.text;
      } else {
        if (this.disposed) throw sdk.RequestError.requestCancelled();
        const result = await this.service.apply(target, ours, merged.text);
        if (result) {
          if (result.before !== result.after || result.beforeBytes) this.service.record({
            sessionId: params.sessionId, agentName: this.agent.agentName, agent: this.agent, path: params.path,
            before: result.before, beforeBytes: result.beforeBytes, after: result.after, form: result.form, reviewed,
          }, target);
          break;
        }
        // The user typed between reading and writing: merge again; ask if it keeps happening.
        if (round > 5) mustReview = true;
      }
      ours = await readCurrentData(target);
    }
    // What the agent now believes the file holds: the base of its next write.
    this.seenWhole(key);
    this.lastRead.set(key, content);
    return {};
  }

  private takeApproval(sessionId: string, p: string, content: string): boolean {
    const key = pathKey(path.resolve(p));
    const i = this.approvals.findIndex(a => a.sessionId === sessionId && a.key === key && a.content === content);
    if (i < 0) return false;
    this.approvals.splice(i, 1);
    return true;
  }

  private async target(p: string): Promise<Target> {
    const problem = pathProblem(p);
    if (problem) throw FsErrors.invalidPath(String(p), problem);
    if (!isAbsolutePath(p)) throw FsErrors.relative(p);
    return resolveTarget(p);
  }

  private key(sessionId: string, target: Target): string {
    return `${sessionId}\0${pathKey(target.real)}`;
  }

  /** Refuses what the policy or the user denies; true when the user was asked (now or earlier in this connection). */
  private async checkAccess(target: Target, op: 'read' | 'write'): Promise<boolean> {
    const roots = await workspaceRoots();
    // The setting is read only for a path outside the workspace.
    const decision = decideAccess(target.real, roots, 'deny') === 'allow' ? 'allow' : decideAccess(target.real, roots, readOutsideWorkspacePolicy());
    if (decision === 'allow') return false;
    if (decision === 'deny') throw FsErrors.outsideWorkspace(target.requested);
    const key = `${op}\0${pathKey(target.real)}`;
    let answer = this.outsideAnswers.get(key);
    if (!answer) {
      answer = this.ask(target, op);
      this.outsideAnswers.set(key, answer);
    }
    if (!(await answer)) {
      this.outsideAnswers.delete(key); // asked again next time
      throw FsErrors.userDenied(target.requested);
    }
    return true;
  }

  private ask(target: Target, op: 'read' | 'write'): Promise<boolean> {
    return askOutsideWorkspace(this.agent.agentName, op, target.requested, target.real, this.log);
  }

  private serialize<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(run);
    this.queues.set(key, next);
    void next.catch(() => undefined).finally(() => { if (this.queues.get(key) === next) this.queues.delete(key); });
    return next;
  }
}

function countLines(text: string): number {
  let n = text.length && !text.endsWith('\n') ? 1 : 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The merge base of a write to a file the agent did not read through us: the file on disk (under unsaved edits). */
async function mergeBase(target: Target, current: CurrentText): Promise<string> {
  if (current.source !== 'buffer') return current.text;
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(target.real);
  } catch {
    return ''; // an unsaved buffer of a file that is gone from disk: all of it is the user's
  }
  const decoded = decodeFor(target.real, bytes);
  return decoded.kind === 'text' ? decoded.text : current.text;
}

/**
 * Writes `next` in `form` (the file's encoding and BOM) over a file no editor has open, if its
 * bytes are still what `expected` was read from (else false: merge again). In place (the inode,
 * mode and owner stay, as a save keeps them). 'opened': the file was opened in VS Code meanwhile,
 * nothing written (a binary file is never written through a buffer, so that does not stop it).
 */
async function writeClosedFile(target: Target, expected: CurrentText, next: string, form: TextForm): Promise<boolean | 'opened'> {
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(target.real);
  } catch {
    return false;
  }
  if (expected.binary) {
    if (!sameBytes(bytes, expected.binary)) return false;
  } else {
    const decoded = decodeFor(target.real, bytes);
    if (decoded.kind !== 'text' || decoded.text !== expected.text) return false;
    if (findOpenDocument(target)) return 'opened';
  }
  try {
    await fsp.writeFile(target.real, encodeText({ text: next, form }));
  } catch (e) {
    throw fromNodeError(e, target.requested) ?? FsErrors.io(target.requested, `Could not write the file (${(e as Error).message})`);
  }
  return true;
}

async function exists(p: string): Promise<boolean> {
  try { await fsp.stat(p); return true; } catch { return false; }
}

/** Waits until a clean buffer shows `expected` (VS Code reloads it from disk), or the timeout. */
function settle(doc: vscode.TextDocument, expected: string, timeoutMs: number): Promise<string> {
  if (doc.getText() === expected) return Promise.resolve(expected);
  return new Promise(resolve => {
    const done = () => { clearTimeout(timer); sub.dispose(); resolve(doc.getText()); };
    const sub = vscode.workspace.onDidChangeTextDocument(e => { if (e.document === doc && doc.getText() === expected) done(); });
    const timer = setTimeout(done, timeoutMs);
  });
}
