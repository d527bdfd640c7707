// fs/read_text_file and fs/write_text_file for every agent connection, plus what the chat shows of
// them: pending reviews and the writes applied in each session (each with "open diff" and "undo").
//
// Reads serve what the user sees (unsaved edits included). Writes wait for the user's review, are
// applied as one WorkspaceEdit (one undo step) and saved; if the user edited the file since the
// agent last read it, the agent's change is merged into the buffer instead of overwriting it.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { AgentIdentity, FsHandlers } from '../../acp/clientServices';
import { BoundedTextMap } from '../../common/boundedTextMap';
import { Disposable } from '../../common/disposable';
import { matchLineEndings } from '../../common/fs/eol';
import { FsErrors } from '../../common/fs/errors';
import { sliceLines } from '../../common/fs/lines';
import { lineEdits, merge3 } from '../../common/fs/merge';
import { decideAccess, isAbsolutePath } from '../../common/fs/pathPolicy';
import type { Logger } from '../../common/logger';
import { DiffContentProvider } from './diffContent';
import { CurrentText, findOpenDocument, pathKey, readCurrent, resolveTarget, Target, workspaceRoots } from './files';
import { ReviewInfo, ReviewManager } from './reviews';
import { readOutsideWorkspacePolicy, readReviewWrites, readSaveAfterWrite } from './settings';

export type { ReviewInfo } from './reviews';

/** A write the agent made (reviewed or not), as the chat lists it after the turn. */
export interface AppliedWrite {
  readonly id: string;
  readonly sessionId: string;
  readonly agentName: string;
  /** Absolute path, as the agent named it. */
  readonly path: string;
  /** The text before the write; undefined when the write created the file. */
  readonly before: string | undefined;
  /** The text right after the write (the agent's content merged with the user's edits, if any). */
  readonly after: string;
  /** False when it was applied without a review (setting, "Accept all", or an earlier permission). */
  readonly reviewed: boolean;
  readonly time: number;
  /** Opens a diff of before → after. */
  openDiff(): Promise<void>;
  /**
   * Reverts this write in the file, keeping the user's later edits where they do not overlap it
   * (a created file is deleted if it is unchanged). Resolves false when nothing could be undone.
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
  dispose(): void;
}

const MAX_KEPT_WRITES = 200;
/** The texts each connection keeps as merge bases; the least recent are forgotten (a write then needs no merge base). */
const LAST_READ_MAX_CHARS = 64 * 1024 * 1024;

export class FsService extends Disposable {
  /** The one in-memory provider behind every diff Switchboard opens (reviews, applied writes, tool calls). */
  readonly content = this.register(new DiffContentProvider());
  readonly reviewManager: ReviewManager;
  private readonly writes: AppliedWrite[] = [];
  private nextWriteId = 1;
  private readonly appliedEmitter = this.register(new vscode.EventEmitter<AppliedWrite>());
  /** Fired after each write is applied to a file. */
  readonly onDidApplyWrite = this.appliedEmitter.event;
  private readonly readEmitter = this.register(new vscode.EventEmitter<{ readonly path: string; readonly text: string }>());
  /** The agent read a file (the whole text): the baseline of a change it may make on disk later. */
  readonly onDidRead = this.readEmitter.event;

  /** @internal AgentFs reports its reads through here. */
  notifyRead(filePath: string, text: string): void {
    this.readEmitter.fire({ path: filePath, text });
  }
  /** Fired whenever a review starts or ends, with every pending review. */
  readonly onDidChangeReviews: vscode.Event<readonly ReviewInfo[]>;

  constructor(private readonly log: Logger) {
    super();
    this.reviewManager = this.register(new ReviewManager(this.content, log));
    this.onDidChangeReviews = this.reviewManager.onDidChangeReviews;
    const command = (id: string, run: (...args: unknown[]) => unknown) => this.register(vscode.commands.registerCommand(id, run));
    command('switchboard.acceptWrite', arg => this.decide(arg, r => r.accept()));
    command('switchboard.rejectWrite', arg => this.decide(arg, r => r.reject()));
    command('switchboard.acceptAllWrites', arg => this.decide(arg, r => r.acceptAllForSession()));
    command('switchboard.openWriteDiff', arg => this.decide(arg, r => r.openDiff()));
  }

  /** Pending reviews, oldest first. */
  get reviews(): readonly ReviewInfo[] {
    return this.reviewManager.reviews;
  }

  /** Writes applied so far (the most recent MAX_KEPT_WRITES), optionally of one session. */
  appliedWrites(sessionId?: string): readonly AppliedWrite[] {
    return sessionId ? this.writes.filter(w => w.sessionId === sessionId) : [...this.writes];
  }

  accept(id: string): boolean { return this.act(id, r => r.accept()); }
  reject(id: string): boolean { return this.act(id, r => r.reject()); }
  acceptAllForSession(id: string): boolean { return this.act(id, r => r.acceptAllForSession()); }
  async openDiff(id: string): Promise<void> { await this.reviewManager.get(id)?.openDiff(); }

  /** The services of one agent connection. */
  forAgent(agent: AgentIdentity): AgentFsServices {
    const handlers = new AgentFs(agent, this, this.log);
    return {
      fs: handlers,
      onPermissionAnswered: (params, response) => handlers.onPermissionAnswered(params, response),
      dispose: () => handlers.dispose(),
    };
  }

  private act(id: string, run: (r: ReviewInfo) => void): boolean {
    const review = this.reviewManager.get(id);
    if (review) run(review);
    return !!review;
  }

  private async decide(arg: unknown, run: (r: ReviewInfo) => unknown): Promise<void> {
    const review = this.reviewManager.resolve(arg);
    if (!review) {
      void vscode.window.showInformationMessage('No agent edit is waiting for review.');
      return;
    }
    await run(review);
  }

  // ------------------------------------------------------------------------ used by AgentFs

  /** @internal */
  review = (...args: Parameters<ReviewManager['review']>) => this.reviewManager.review(...args);

  /** @internal Applies `proposed` (computed against `current`) to the file; returns the texts around it. */
  async apply(target: Target, current: CurrentText, proposed: string): Promise<{ before: string | undefined; after: string }> {
    let doc = findOpenDocument(target);
    const uri = doc?.uri ?? vscode.Uri.file(target.real);
    if (!doc && !(await exists(target.real))) {
      // A new file gets the agent's bytes exactly (a WorkspaceEdit createFile would convert the line
      // endings to files.eol); parent folders are created. Undo of the write deletes it.
      try {
        await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(target.real)));
        await vscode.workspace.fs.writeFile(uri, Buffer.from(proposed, 'utf8'));
      } catch (e) {
        throw FsErrors.io(target.requested, `Could not create the file (${(e as Error).message})`);
      }
      return { before: undefined, after: proposed };
    }
    doc ??= await vscode.workspace.openTextDocument(uri);
    let now = doc.getText();
    if (!doc.isDirty && now !== current.text && current.source === 'disk') {
      // A clean buffer that has not caught up with the disk yet: wait briefly for VS Code to reload it.
      now = await settle(doc, current.text, 1500);
    }
    let next = proposed;
    if (now !== current.text && (doc.isDirty || current.source === 'buffer')) {
      // The user typed while the review was open: keep those edits too.
      next = merge3(current.text, now, proposed).text;
    }
    await this.replaceText(doc, now, next, target);
    return { before: now, after: doc.getText() };
  }

  /** @internal */
  record(w: Omit<AppliedWrite, 'id' | 'time' | 'openDiff' | 'undo'>, target: Target): AppliedWrite {
    const id = `w${this.nextWriteId++}`;
    const left = DiffContentProvider.uri(id, 'before', w.path);
    const right = DiffContentProvider.uri(id, 'after', w.path);
    this.content.set(left, w.before ?? '');
    this.content.set(right, w.after);
    const write: AppliedWrite = {
      ...w, id, time: Date.now(),
      openDiff: () => this.reviewManager.showDiff(left, right, `${path.basename(w.path)}: ${w.before === undefined ? 'created' : 'changed'} by ${w.agentName}`),
      undo: () => this.undo(write, target),
    };
    this.writes.push(write);
    while (this.writes.length > MAX_KEPT_WRITES) {
      const old = this.writes.shift()!;
      this.content.delete(DiffContentProvider.uri(old.id, 'before', old.path));
      this.content.delete(DiffContentProvider.uri(old.id, 'after', old.path));
    }
    this.appliedEmitter.fire(write);
    return write;
  }

  private async undo(write: AppliedWrite, target: Target): Promise<boolean> {
    const doc = findOpenDocument(target);
    if (!doc && !(await exists(target.real))) return false;
    const current = await readCurrent(target);
    if (write.before === undefined) {
      if (current.text !== write.after) {
        void vscode.window.showWarningMessage(`${path.basename(write.path)} changed since ${write.agentName} created it; it was not deleted.`);
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
        `Undid ${write.agentName}'s edit to ${path.basename(write.path)} except ${merged.conflicts.length} place(s) you changed since.`);
    }
    const opened = doc ?? await vscode.workspace.openTextDocument(vscode.Uri.file(target.real));
    await this.replaceText(opened, opened.getText(), merged.text, target);
    return true;
  }

  /** One WorkspaceEdit of minimal line replacements (cursor and folding survive), then save. */
  private async replaceText(doc: vscode.TextDocument, now: string, next: string, target: Target): Promise<void> {
    const edits = lineEdits(now, next);
    if (edits.length) {
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
      if (!(await vscode.workspace.applyEdit(edit))) throw FsErrors.io(target.requested, 'Could not apply the edit');
    }
    if (readSaveAfterWrite() && (doc.isDirty || edits.length)) {
      if (!(await doc.save())) this.log.warn(`Could not save ${target.requested} after the agent's edit`);
    }
  }
}

/** One agent connection's fs handlers: its sessions' "last read" texts, approvals and queues. */
class AgentFs implements FsHandlers {
  /** sessionId + real path → the full text the agent last read (or wrote) there. */
  private readonly lastRead = new BoundedTextMap(LAST_READ_MAX_CHARS);
  /** op + real path → the user's answer for a path outside the workspace (asked once). */
  private readonly outsideAnswers = new Map<string, Promise<boolean>>();
  private readonly acceptAll = new Set<string>();
  private approvals: { sessionId: string; key: string; content: string }[] = [];
  private readonly queues = new Map<string, Promise<unknown>>();
  private disposed = false;

  constructor(private readonly agent: AgentIdentity, private readonly service: FsService, private readonly log: Logger) {}

  async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const target = await this.target(params.path);
    await this.checkAccess(target, 'read');
    const current = await readCurrent(target);
    if (!current.exists) throw FsErrors.notFound(params.path);
    this.lastRead.set(this.key(params.sessionId, target), current.text);
    this.service.notifyRead(params.path, current.text);
    return { content: sliceLines(current.text, params.line, params.limit) };
  }

  async writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const target = await this.target(params.path);
    await this.checkAccess(target, 'write');
    // One write per file at a time: the second review opens once the first is decided.
    return this.serialize(pathKey(target.real), () => this.write(params, target, signal));
  }

  onPermissionAnswered(params: acp.RequestPermissionRequest, response: acp.RequestPermissionResponse): void {
    const outcome = response.outcome;
    if (outcome.outcome !== 'selected') return;
    const option = params.options.find(o => o.optionId === outcome.optionId);
    if (!option || !option.kind.startsWith('allow')) return;
    for (const c of params.toolCall.content ?? []) {
      if (c.type === 'diff' && isAbsolutePath(c.path)) {
        this.approvals.push({ sessionId: params.sessionId, key: pathKey(path.resolve(c.path)), content: c.newText });
      }
    }
    this.approvals = this.approvals.slice(-50);
  }

  dispose(): void {
    this.disposed = true;
    this.service.reviewManager.cancelOwner(this);
    this.lastRead.clear();
    this.approvals = [];
  }

  private async write(params: acp.WriteTextFileRequest, target: Target, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const current = await readCurrent(target);
    const content = current.exists ? matchLineEndings(params.content, current.text) : params.content;
    const key = this.key(params.sessionId, target);
    const base = this.lastRead.get(key);
    let proposed = content;
    let conflicts = 0;
    if (current.exists && base !== undefined && base !== current.text) {
      const merged = merge3(base, current.text, content);
      proposed = merged.text;
      conflicts = merged.conflicts.length;
    }
    const approved = this.takeApproval(params.sessionId, params.path, params.content);
    const unchanged = current.exists && proposed === current.text;
    const mustReview = conflicts > 0 ||
      (!unchanged && !approved && !this.acceptAll.has(params.sessionId) && readReviewWrites() === 'always');
    if (mustReview) {
      const decision = await this.service.review({
        owner: this, sessionId: params.sessionId, agentName: this.agent.agentName, path: params.path,
        before: current.text, proposed, isNewFile: !current.exists, conflicts,
      }, signal);
      if (decision === 'cancelled') throw acp.RequestError.requestCancelled(undefined, `the review of ${params.path} was closed`);
      if (decision === 'reject') throw FsErrors.userRejected(params.path);
      if (decision === 'acceptAll') this.acceptAll.add(params.sessionId);
    }
    if (this.disposed) throw acp.RequestError.requestCancelled();
    const result = await this.service.apply(target, current, proposed);
    // What the agent now believes the file holds: the base of its next write.
    this.lastRead.set(key, content);
    if (result.before !== result.after) this.service.record({
      sessionId: params.sessionId, agentName: this.agent.agentName, path: params.path,
      before: result.before, after: result.after, reviewed: mustReview,
    }, target);
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
    if (!isAbsolutePath(p)) throw FsErrors.relative(p);
    return resolveTarget(p);
  }

  private key(sessionId: string, target: Target): string {
    return `${sessionId}\0${pathKey(target.real)}`;
  }

  private async checkAccess(target: Target, op: 'read' | 'write'): Promise<void> {
    const decision = decideAccess(target.real, await workspaceRoots(), readOutsideWorkspacePolicy());
    if (decision === 'allow') return;
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
  }

  private async ask(target: Target, op: 'read' | 'write'): Promise<boolean> {
    const resolved = target.real !== path.resolve(target.requested) ? `\n(resolves to ${target.real})` : '';
    const choice = await vscode.window.showWarningMessage(
      `${this.agent.agentName} wants to ${op} a file outside the workspace:\n${target.requested}`,
      {
        modal: true,
        detail: `${resolved ? resolved.trim() + '\n\n' : ''}Allow ${op === 'read' ? 'reading' : 'writing'} this file for the rest of this agent session? ` +
          'The setting switchboard.fs.outsideWorkspace changes what happens by default.',
      },
      'Allow',
    );
    this.log.info(`Outside-workspace ${op} of ${target.requested} by ${this.agent.agentName}: ${choice === 'Allow' ? 'allowed' : 'denied'}`);
    return choice === 'Allow';
  }

  private serialize<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(run);
    this.queues.set(key, next);
    void next.catch(() => undefined).finally(() => { if (this.queues.get(key) === next) this.queues.delete(key); });
    return next;
  }
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
