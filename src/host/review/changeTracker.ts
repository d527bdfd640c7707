// Every change an agent makes to workspace files during a turn, however it made it: through
// fs/write_text_file, in-process edits reported as tool calls with `diff` content (current Claude,
// Codex), edits reported only by `locations`, or files that simply change on disk while the turn
// runs. Each file is compared with its baseline (its text just before the agent's first change in
// the turn); the user keeps or undoes each hunk. Undecided changes survive a window reload. The
// changes and the user's decisions live in the one history of edits (common/review/reviewLog.ts),
// with the writes applied for agents: an applied write's Undo and the Agent Changes' are one.
import { existsSync, promises as fsPromises } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { BoundedMap } from '../../common/boundedTextMap';
import { Disposable } from '../../common/disposable';
import { FileData, sameData, TextForm, UTF8 } from '../../common/fs/encoding';
import type { SomeText } from '../../common/fs/lazyText';
import type { Logger } from '../../common/logger';
import { claudeToolResponse, rawInputPath } from '../../common/review/adapterShapes';
import { agentList, attributeAmong, changedWhileTitle, workingWhen } from '../../common/review/attribution';
import { modifiedDuring } from '../../common/review/mtime';
import { FileChange, FileChangeView, TurnChanges } from '../../common/review/turnChanges';
import { EditHistory } from '../../common/review/editHistory';
import { addDecision, baselineFromOf, DecisionAction, decidedSince, loadSaved, placeOf, putChange, REVIEW_LIMITS, setBaselineFrom, toSaved, writesOf } from '../../common/review/reviewLog';
import { carryUnder, firstOverlap, lineThrough, stackChoice } from '../../common/review/stack';
import { reconcileDirtyBuffer, undoUnderDirtyBuffer } from './bufferReconcile';
import { mergesDone, tabMergeHooks } from '../fs/tabMerges';
import { gitIndexText, readDisk, readDiskSync, readText, writeFile } from './diskSources';
import { asSides, binaryData, Content, sideIn, sideOf, textData } from '../../common/review/sides';
import { TestGate } from '../../common/testGate';
import { completeWalkthroughStep } from '../walkthrough';
import { formOfDocument, openDocumentOf } from '../fs/fileData';
import { FileSnapshots } from './fileSnapshots';
import { defaultForm, filesUnder, isInWorkspace, isUnlocated, looksGenerated, normalize, untilWritten, writtenSince } from './diskWatch';
import { undoHunk } from '../../common/review/hunks';

export interface TurnView {
  readonly turnId: string;
  readonly tabId: string;
  readonly agentName: string;
  /** What the Agent Changes view calls the turn: its agent, or "Changed while A and B were working". */
  readonly title: string;
  /** Changes no running turn could be given: the agents that were working (their turns ran at once). */
  readonly working?: readonly string[];
  readonly files: readonly FileChangeView[];
}

interface Turn {
  readonly changes: TurnChanges;
  readonly tabId: string;
  agentName: string;
  running: boolean;
  /** Files its tool calls named (diffs, locations, paths in their input): a disk change of one is its agent's. */
  readonly named: Set<string>;
  /** Who named each of those first: a child agent (its title) or the agent itself (''); a child's are listed as its. */
  namedBy?: Map<string, string>;
  /** Changes nobody could attribute (see attributeTo): the agents working when they happened. */
  readonly working?: string[];
  /** Another turn ran while it did: its disk changes are attributed among them (see attributeTo). */
  overlapped?: boolean;
  /** Disk checks still running for this turn: the turn ends after them. */
  readonly inflight: Set<Promise<void>>;
  /** When the turn began (ms): a file modified since may already hold the agent's change. */
  readonly started: number;
  /** When the turn ended (ms; its last checks may still run): a file modified later is not its agent's. */
  ended?: number;
  /** Its place in the history of edits when it began: a decision made since outdates its evidence (see record). */
  readonly since: number;
}

/** A turn's entry with nothing named or checked yet (`working`: copied, the caller's stays its own). */
function newTurn(changes: TurnChanges, t: { tabId: string; agentName: string; running: boolean; started: number; since: number; working?: readonly string[] }): Turn {
  return { changes, tabId: t.tabId, agentName: t.agentName, running: t.running, named: new Set(), inflight: new Set(), started: t.started, since: t.since, ...(t.working ? { working: [...t.working] } : {}) };
}

/** Saved before the one history: read once (users upgrading keep their pending reviews), then cleared. */
const OLD_STATE_KEY = 'switchboard.review.v1';
const STATE_KEY = 'switchboard.review.v2';
/** An undo written nowhere (see writeUndone). */
const NOT_MADE = Symbol('not made');
const EDIT_DEBOUNCE_MS = 300;
const MAX_FILES_IN_NEW_FOLDER = 50;
/** Larger files are not kept as baselines, nor saved across reloads. */
const MAX_TRACKED_CHARS = 2 * 1024 * 1024;
/** Files named by one tool call that are snapshotted when it is announced (a search may name hundreds). */
const MAX_ANNOUNCED_FILES = 20;
/** Files remembered per turn as named by its tool calls (attribution of disk changes while several turns run). */
const MAX_NAMED_FILES = 1000;
/** Reported diffs waiting for the disk to hold them, at most (the oldest is forgotten first: its file is still compared with its snapshot). */
const MAX_WAITING_DIFFS = 1000;
/** Up to this many waiting diffs, each completed tool call checks them all (as before); beyond, only its own (see onToolUpdate). */
const SETTLE_ALL_WAITING_DIFFS = 50;
/** Paths the user saved very recently: a disk change right after is theirs, not the agent's. */
const USER_SAVE_WINDOW_MS = 1500;
/** How long after its turn ended a disk change the watcher reports late may still be the agent's. */
const LATE_REPORT_MS = 10_000;
/** Bytes of binary files kept as their last-seen content (the least recently seen are forgotten first). */
const MAX_BINARY_SNAPSHOT_BYTES = 32 * 1024 * 1024;

export class ChangeTracker extends Disposable {
  private readonly turns = new Map<string, Turn>();
  /** The running turn of each tab. */
  private readonly runningTurn = new Map<string, string>();
  private readonly userSaves = new Map<string, number>();
  private readonly editTimers = new Map<string, NodeJS.Timeout>();
  private readonly snapshots: FileSnapshots;
  /**
   * How each file's last-seen text is stored on disk, or its bytes when it is binary (or not valid
   * in its encoding): FileSnapshots keeps decoded texts only.
   */
  private readonly diskForms = new BoundedMap<TextForm | Uint8Array>(MAX_BINARY_SNAPSHOT_BYTES, v => (v instanceof Uint8Array ? v.byteLength : 64));
  private nextTurn = 1;
  private saveTimer: NodeJS.Timeout | undefined;

  private readonly changeEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fired whenever the list of changes (or a decision) changed. */
  readonly onDidChange = this.changeEmitter.event;
  /** What the user is told (tests replace it to read the message and choose an action). */
  readonly ui = { warn: (message: string, ...actions: string[]): Thenable<string | undefined> => vscode.window.showWarningMessage(message, ...actions) };

  /** `history`: the one history of edits (FsService's, with the applied writes); one of its own when absent (tests). */
  /**
   * `watchFrom`: when the file watcher starts (the chat's first state shown, at activation), at the
   * latest with the first turn: disk changes matter only while a turn runs or just after (see
   * onDiskChange), and the watch request, a recursive watch of the workspace, otherwise competed
   * with the view's first layout.
   */
  constructor(private readonly state: vscode.Memento, private readonly log: Logger, private readonly history = new EditHistory(REVIEW_LIMITS), watchFrom: Promise<void> = Promise.resolve()) {
    super();
    this.snapshots = this.register(new FileSnapshots());
    const saved = loadSaved(state.get(STATE_KEY), state.get(OLD_STATE_KEY));
    for (const t of saved.turns) {
      this.turns.set(t.turnId, newTurn(new TurnChanges(t.turnId, undefined, history), { ...t, running: false, started: 0, since: 0 }));
      this.nextTurn = Math.max(this.nextTurn, Number(t.turnId.replace(/\D/g, '')) + 1);
    }
    // In the order they were first changed: a file's stacked entries keep theirs.
    for (const { turnId, ...f } of saved.edits) putChange(history, turnId, f);
    this.register(vscode.workspace.onDidSaveTextDocument(doc => {
      this.userSaves.set(doc.uri.fsPath, Date.now());
      const owner = doc.uri.scheme === 'file' ? this.ownerOf(doc.uri.fsPath) : undefined;
      if (owner) { this.setCurrent(owner, doc.uri.fsPath, textData(doc.getText(), formOfDocument(doc))); this.changed(); }
    }));
    // The user edits a file with undecided changes: its current text follows (debounced; Undo reads
    // the buffer itself first), so Undo applies to what the file holds and keeps the user's edits.
    this.register(vscode.workspace.onDidChangeTextDocument(e => {
      if (e.document.uri.scheme !== 'file' || e.contentChanges.length === 0) return;
      const filePath = e.document.uri.fsPath;
      if (!this.ownerOf(filePath)) return;
      clearTimeout(this.editTimers.get(filePath));
      this.editTimers.set(filePath, setTimeout(() => this.syncFromEditor(filePath), EDIT_DEBOUNCE_MS));
    }));
    this.register({ dispose: () => { for (const t of this.editTimers.values()) clearTimeout(t); } });
    void watchFrom.then(() => this.watch());
    this.register({ dispose: () => { clearTimeout(this.saveTimer); this.persist(); } });
  }

  private watching = false;

  private watch(): void {
    if (this.watching || this.isDisposed) return;
    this.watching = true;
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*'));
    this.register(watcher.onDidChange(uri => this.diskEvent(uri, false)));
    this.register(watcher.onDidCreate(uri => this.diskEvent(uri, true)));
    this.register(watcher.onDidDelete(uri => this.diskEvent(uri, false)));
  }

  /** Tests: the seams of the tab merges this tracker starts (the extension's own copy of the merge queue). */
  get mergeHooks(): typeof tabMergeHooks {
    return tabMergeHooks;
  }

  /** Reports of the file watcher held back by a test (see holdDiskEvents). */
  private heldDiskEvents: { path: string; run: () => Promise<void> }[] | undefined;
  private readonly heldEmitter = this.register(new vscode.EventEmitter<string>());

  private diskEvent(uri: vscode.Uri, created: boolean): void {
    const run = () => this.onDiskChange(uri, created);
    if (this.heldDiskEvents) {
      this.heldDiskEvents.push({ path: uri.fsPath, run });
      this.heldEmitter.fire(uri.fsPath);
    } else {
      void run();
    }
  }

  /**
   * Tests: the file watcher's reports wait until `release` is called (it resolves once they were
   * handled), as a watcher that reports late: each order of disk events and tool calls, driven.
   * `reported(path)` resolves once a report of that file is held.
   */
  holdDiskEvents(): { release(): Promise<void>; reported(filePath: string): Promise<void> } {
    const held = (this.heldDiskEvents ??= []);
    return {
      release: async () => {
        if (this.heldDiskEvents === held) this.heldDiskEvents = undefined;
        await Promise.all(held.splice(0).map(e => e.run()));
      },
      reported: filePath => new Promise<void>(resolve => {
        const p = normalize(filePath);
        if (held.some(e => e.path === p)) return resolve();
        const sub = this.heldEmitter.event(q => { if (q === p) { sub.dispose(); resolve(); } });
      }),
    };
  }

  /** Gates held by a test: the end of turns (see holdTurnEnds), undo's last step (see holdUndos). */
  private readonly endGate = new TestGate();
  private readonly undoGate = new TestGate();

  /**
   * Tests: a turn that ends stays ending (ended, its last checks not yet run) until the returned
   * function is called: what a busy machine does for seconds while the user goes on.
   */
  holdTurnEnds(): () => void {
    return this.endGate.hold().release;
  }

  /**
   * Tests: an undo that wrote its file waits, before it notes what it wrote, until `release` is
   * called (`reached` resolves when one waits): the last steps of a slow write, driven.
   */
  holdUndos(): { reached: Promise<void>; release(): void } {
    return this.undoGate.hold();
  }

  /** Tests: the snapshots taken anew, as when the extension activates with the editor as it is now. */
  resetSnapshots(): void {
    this.snapshots.reset();
  }

  /** A turn of `tabId` begins: changes from now on belong to it. */
  beginTurn(tabId: string, agentName: string): string {
    this.watch();
    const turnId = `turn${this.nextTurn++}`;
    const turn = newTurn(new TurnChanges(turnId, undefined, this.history), { tabId, agentName, running: true, started: Date.now(), since: this.history.lastSeq });
    this.turns.set(turnId, turn);
    for (const id of this.runningTurn.values()) {
      const other = this.turns.get(id);
      if (other) { other.overlapped = true; turn.overlapped = true; }
    }
    this.runningTurn.set(tabId, turnId);
    return turnId;
  }

  /** Ends of turns still being checked (see endTurn). */
  private readonly ending = new Set<Promise<void>>();

  /** Tests: resolves once every turn that ended was checked a last time (its tool calls' reports recorded). */
  async turnsEnded(): Promise<void> {
    await Promise.all([...this.ending]);
  }

  /** The turn ended: check once more what its tool calls touched, then stop watching for it. */
  endTurn(tabId: string): Promise<void> {
    const ending = this.finishTurn(tabId);
    const done = () => { this.ending.delete(ending); };
    this.ending.add(ending);
    ending.then(done, done);
    return ending;
  }

  /** Resolves once every disk check and turn end begun so far has finished (what is listed is then final). */
  async settled(): Promise<void> {
    for (;;) {
      const pending = [...this.ending, ...[...this.turns.values()].flatMap(t => [...t.inflight])];
      if (!pending.length) return;
      await Promise.allSettled(pending);
    }
  }

  private async finishTurn(tabId: string): Promise<void> {
    const turnId = this.runningTurn.get(tabId);
    if (!turnId) return;
    const turn = this.turns.get(turnId)!;
    const endedAt = Date.now();
    turn.ended = endedAt;
    await this.endGate.pass();
    await Promise.all([...turn.inflight]);
    await this.settlePendingDiffs(turn);
    // The file watcher may merge or drop a second quick write to a file it just reported (Claude's
    // edits in accept-edits mode): read once more the files this turn changed. Not those open with
    // unsaved edits: their disk lags the tab, which the buffer reconciliation follows.
    const dirty = new Set(vscode.workspace.textDocuments.filter(d => d.isDirty).map(d => d.uri.fsPath));
    await Promise.all(turn.changes.pending().filter(f => f.current !== null && !dirty.has(f.path)).map(f => this.compareInOrder(turn, f.path)));
    turn.running = false;
    // Its diffs the disk never held (checked a last time above) are no change: forget them, and the
    // turn with them (settlePendingDiffs ran while the turn was running, so it kept them).
    for (const [filePath, d] of this.pendingDiffs) if (d.turn === turn) this.pendingDiffs.delete(filePath);
    for (const [call, files] of this.diffFilesOfCall) if (![...files].some(f => this.pendingDiffs.get(f)?.toolCallId === call)) this.diffFilesOfCall.delete(call);
    if (this.runningTurn.get(tabId) === turnId) this.runningTurn.delete(tabId);
    if (this.runningTurn.size === 0) this.kindOf.clear();
    if (this.runningTurn.size <= 1) this.endOverlap();
    this.lastEnded = { turn, endedAt };
    if (turn.overlapped) this.recentlyEnded = [...this.recentlyEnded.filter(e => endedAt - e.endedAt <= LATE_REPORT_MS), { turn, endedAt }];
    if (turn.changes.isEmpty) this.turns.delete(turnId);
    this.changed();
  }

  /**
   * A write the client applied for the agent (fs/write_text_file), its texts stored in `form`;
   * `beforeBytes`: the file was binary (or not valid in its encoding) before, and held these bytes;
   * `by`: the child agent that wrote it (its title); `writeId`: the write's edit in the history (its Undo is the review's, see undoWrite).
   */
  recordWrite(tabId: string | undefined, agentPath: string, before: string | undefined, after: string, form: TextForm = UTF8, beforeBytes?: Uint8Array, by?: string, writeId?: string): void {
    const filePath = normalize(agentPath);
    const turn = this.turnFor(tabId);
    if (!turn) return;
    const old: Content = beforeBytes ? binaryData(beforeBytes) : before === undefined ? null : textData(before, form);
    this.record(turn, filePath, old, textData(after, form));
    const owner = this.ownerOf(filePath) ?? turn;
    if (by) owner.changes.attribute(filePath, by);
    if (writeId) owner.changes.addWrites(filePath, [writeId]);
  }

  /**
   * Files the client itself just wrote, for no agent (a checkpoint's restore): the watcher's report of
   * them is not a change of the turn that may still be ending, nor a reason to merge their tabs again.
   */
  clientWrote(paths: readonly string[]): void {
    const now = Date.now();
    for (const p of paths) this.userSaves.set(normalize(p), now);
  }

  /** A change the client made itself for `tabId`'s running turn (a parallel run applied); null: no file. */
  recordApplied(tabId: string, filePath: string, before: FileData | null, after: FileData | null): void {
    const turn = this.turnFor(tabId);
    if (turn) this.record(turn, normalize(filePath), before, after);
  }

  /** The agent read a file: its text is the baseline if the agent later changes it on disk. */
  rememberRead(filePath: string, text: SomeText, form?: TextForm): void {
    const p = normalize(filePath);
    // A read of a tab with unsaved edits is not the file's baseline: the disk is (FileSnapshots).
    this.snapshots.rememberRead(p, text);
    this.diskForms.set(p, form ?? defaultForm(p));
  }

  /**
   * A tool call or update of the tab: `diff` content gives exact baselines; edit/delete/move calls
   * with locations tell which files to compare with their snapshots once the call completed.
   * `by`: the child agent whose tool call it is (its title): what it changes is listed as that child's.
   */
  onToolUpdate(tabId: string, update: acp.ToolCall | acp.ToolCallUpdate, by?: string): void {
    // Only during a turn: tool calls replayed by session/load are history, not new changes.
    const turnId = this.runningTurn.get(tabId);
    const turn = turnId ? this.turns.get(turnId) : undefined;
    if (!turn) return;
    // Per tab: two agents may give their tool calls the same ids.
    const callKey = `${tabId}\0${update.toolCallId}`;
    if (update.kind) this.kindOf.set(callKey, update.kind);
    const kind = this.kindOf.get(callKey);
    const mayWrite = kind === 'edit' || kind === 'delete' || kind === 'move' || kind === undefined;
    const finished = update.status === 'completed' || update.status === 'failed';
    // The files a tool call names are read now, before the agent's change lands: their baselines.
    if (mayWrite && !finished) {
      const named = [...(update.content ?? []).flatMap(c => (c.type === 'diff' ? [c.path] : [])), ...(update.locations ?? []).map(l => l.path), rawInputPath(update.rawInput)];
      for (const p of named.filter((p): p is string => !!p && path.isAbsolute(p)).slice(0, MAX_ANNOUNCED_FILES)) this.announce(turn, normalize(p));
    }
    if (mayWrite) this.noteNamed(turn, update, by);
    for (const c of update.content ?? []) {
      // An edit not found in its file (`unlocated`) is a bare snippet: no baseline to take from it.
      if (c.type !== 'diff' || !path.isAbsolute(c.path) || isUnlocated(c)) continue;
      // `oldText: null` claims a new file (Claude's Write says so even over an existing one): the
      // file's text seen before the change wins.
      const filePath = normalize(c.path);
      this.pendingDiffs.delete(filePath); // the newest report of a file waits last
      if (this.pendingDiffs.size >= MAX_WAITING_DIFFS) this.pendingDiffs.delete(this.pendingDiffs.keys().next().value!);
      this.pendingDiffs.set(filePath, { turn, toolCallId: update.toolCallId, oldText: c.oldText ?? null, seen: c.oldText == null ? this.seen(filePath) : undefined, newText: c.newText });
      const files = this.diffFilesOfCall.get(update.toolCallId) ?? new Set<string>();
      this.diffFilesOfCall.set(update.toolCallId, files.add(filePath));
    }
    if (finished) {
      // Claude's tool response carries the whole file before the edit (null: the tool created it).
      const response = claudeToolResponse(update._meta);
      if (response && path.isAbsolute(response.filePath) && response.originalFile !== undefined) {
        const filePath = normalize(response.filePath);
        const original = response.originalFile;
        // The file as the agent read it before its edit: better evidence than this call's diff, which
        // may have been placed in a disk that already held the agent's later edits.
        if (this.pendingDiffs.get(filePath)?.toolCallId === update.toolCallId) this.pendingDiffs.delete(filePath);
        // Only a claim the disk confirms: the file is there and was written during the turn.
        this.track(turn, this.inOrder(filePath, () => readDisk(filePath).then(now => {
          const before = original === null ? null : textData(original, now?.kind === 'text' ? now.form : defaultForm(filePath));
          if (!sameData(now ?? null, before) && isInWorkspace(filePath) && writtenSince(filePath, turn.started)) this.record(turn, filePath, before, now ?? null, true, { responseOf: update.toolCallId });
        })));
      }
      // Every waiting diff while they are few (a call's completion may come before its edit lands,
      // and an earlier call's diff of the file is then the better evidence); past that, this call's only.
      const few = this.pendingDiffs.size <= SETTLE_ALL_WAITING_DIFFS;
      const own = this.diffFilesOfCall.get(update.toolCallId);
      this.diffFilesOfCall.delete(update.toolCallId);
      this.track(turn, this.settlePendingDiffs(turn, few ? undefined : { call: update.toolCallId, files: own ?? [] }));
      if (mayWrite) {
        for (const loc of update.locations ?? []) if (path.isAbsolute(loc.path)) this.track(turn, this.compareInOrder(turn, normalize(loc.path)));
      }
    }
  }

  private readonly kindOf = new Map<string, string>();

  /** Remembers the files a tool call of the turn names that may write: a disk change of one is its agent's (see attributeTo). */
  private noteNamed(turn: Turn, update: acp.ToolCall | acp.ToolCallUpdate, by: string | undefined): void {
    const response = claudeToolResponse(update._meta);
    const named = [...(update.content ?? []).flatMap(c => (c.type === 'diff' ? [c.path] : [])), ...(update.locations ?? []).map(l => l.path), rawInputPath(update.rawInput), response?.filePath];
    for (const p of named) {
      if (turn.named.size >= MAX_NAMED_FILES) return;
      if (!p || !path.isAbsolute(p)) continue;
      const filePath = normalize(p);
      turn.named.add(filePath);
      if (!turn.namedBy?.has(filePath)) (turn.namedBy ??= new Map()).set(filePath, by ?? '');
    }
  }

  /** The turn that holds, while several turns run, the disk changes none of them can be given. */
  private shared: Turn | undefined;

  private sharedTurn(running: readonly Turn[]): Turn {
    let shared = this.shared;
    if (!shared) {
      const turnId = `turn${this.nextTurn++}`;
      shared = newTurn(new TurnChanges(turnId, undefined, this.history), { tabId: '', agentName: '', running: false, started: Math.min(...running.map(t => t.started)), since: Math.min(...running.map(t => t.since)), working: [] });
      this.shared = shared;
    }
    // Kept while empty (its checks are waited for), listed once it holds a change.
    this.turns.set(shared.changes.turnId, shared);
    for (const t of running) if (!shared.working!.includes(t.agentName)) shared.working!.push(t.agentName);
    shared.agentName = agentList(shared.working!);
    return shared;
  }

  /** At most one turn runs again: disk changes from now on are attributed as before; an empty shared turn goes. */
  private endOverlap(): void {
    const shared = this.shared;
    this.shared = undefined;
    if (shared && shared.changes.isEmpty && shared.inflight.size === 0) this.turns.delete(shared.changes.turnId);
  }

  /**
   * A file a tool call names: remember its text on disk now, unless it is already known, or was
   * modified since the turn began (the agent may have written it before this announcement was read:
   * then the diff's old text, the tool response or git's index must tell what it held).
   */
  private announce(turn: Turn, filePath: string): void {
    if (this.ownerOf(filePath) || this.hasSeen(filePath) || !isInWorkspace(filePath)) return;
    const file = readDiskSync(filePath);
    // Not when it may have been modified since the turn began (the clock file times are taken from
    // lags a few ms: an agent's write right after the prompt can look older than the turn).
    if (file && !modifiedDuring(file.mtimeMs, turn.started)) this.see(filePath, file.data);
  }

  views(): TurnView[] {
    return [...this.turns.entries()]
      .filter(([, t]) => !t.changes.isEmpty)
      .map(([turnId, t]) => ({ turnId, tabId: t.tabId, agentName: t.agentName, title: t.working ? changedWhileTitle(t.working) : t.agentName, ...(t.working ? { working: [...t.working] } : {}), files: t.changes.view() }));
  }

  viewOf(turnId: string): TurnView | undefined {
    return this.views().find(v => v.turnId === turnId);
  }

  /** The baseline and current text of a changed file (for diffs and decorations). */
  fileChange(turnId: string, filePath: string): FileChange | undefined {
    return this.turns.get(turnId)?.changes.get(filePath);
  }

  hunks(turnId: string, filePath: string) {
    return this.turns.get(turnId)?.changes.hunks(filePath) ?? [];
  }

  /**
   * The hunks as the file shows them (the editor's CodeLens and highlights): a lower entry's lines
   * are its own current text's, which the entries stacked on it may have moved (see lineThrough).
   */
  shownHunks(turnId: string, filePath: string) {
    const turn = this.turns.get(turnId);
    const stack = this.stackOf(filePath);
    const above = turn && stack.includes(turn) ? stack.slice(stack.indexOf(turn) + 1).map(t => t.changes.get(filePath)).filter((c): c is FileChange => !!c && !c.binary) : [];
    const hunks = this.hunks(turnId, filePath);
    if (!above.length) return hunks;
    const shown = lineThrough(above);
    return hunks.map(h => {
      const { line, count } = shown(h.curLine, h.curLineCount);
      return { ...h, curLine: line, curLineCount: count };
    });
  }

  /**
   * What the Diff of a turn's change compares. The top entry of the file's stack, or one alone: its
   * baseline against the file. A lower entry (changes of later turns stacked on it): the file with
   * this change taken out (as its Undo would write it) against the file, so only its own lines show;
   * where a later change overlaps it, its change as it made it (its baseline against its own text).
   */
  diffSides(turnId: string, filePath: string): { left: string | null; right: 'file' | string | null } | undefined {
    const turn = this.turns.get(turnId);
    const entry = turn?.changes.get(filePath);
    if (!turn || !entry) return undefined;
    const stack = this.stackOf(filePath);
    const above = stack.includes(turn) ? stack.slice(stack.indexOf(turn) + 1).map(t => t.changes.get(filePath)) : [];
    if (!above.length) return { left: entry.baseline, right: 'file' };
    const carried = entry.binary || above.some(c => !c || c.binary) ? undefined
      : carryUnder(entry.current, entry.baseline, above.flatMap(c => [c!.baseline, c!.current]));
    return carried ? { left: carried.at(-1) ?? null, right: 'file' } : { left: entry.baseline, right: entry.current };
  }

  /** Undecided changes of `filePath` in any turn (the editor decorates them). */
  changesOf(filePath: string): { turnId: string; change: FileChange }[] {
    const out: { turnId: string; change: FileChange }[] = [];
    for (const [turnId, t] of this.turns) {
      const change = t.changes.get(filePath);
      if (change) out.push({ turnId, change });
    }
    return out;
  }

  keep(turnId: string, filePath?: string, hunkId?: string): void {
    const turn = this.turns.get(turnId);
    if (!turn) return;
    completeWalkthroughStep('changeReviewed');
    for (const f of filePath ? [filePath] : turn.changes.pending().map(p => p.path)) {
      this.syncFromEditor(f);
      const writes = writesOf(this.history, turn.changes.turnId, f);
      const before = turn.changes.get(f);
      const stack = this.stackOf(f);
      turn.changes.keep(f, hunkId);
      // The entry under it in the file's stack now ends where this one starts (or, kept whole, ends).
      if (before) this.carryDown(stack.slice(0, stack.indexOf(turn)), f, turn.changes.get(f), sideOf(before, before.current));
      this.decided(turn, f, 'keep', hunkId, turn.changes.get(f) ? [] : writes);
    }
    this.cleanup(turnId);
  }

  /** Undoes a hunk, a file, or the whole turn; the file is edited as a WorkspaceEdit (Ctrl+Z undoes the undo). */
  async undo(turnId: string, filePath?: string, hunkId?: string): Promise<void> {
    const turn = this.turns.get(turnId);
    if (!turn) return;
    completeWalkthroughStep('changeReviewed');
    // In the file's queue of checks: a check of the disk (the watcher's late report of the agent's
    // write, the turn's last checks) never runs halfway through the undo, where it would take the
    // undo's own write for a new change of the agent's and list the file again.
    for (const f of filePath ? [filePath] : turn.changes.pending().map(p => p.path)) await this.inOrder(f, () => this.undoFile(turn, f, hunkId));
    this.cleanup(turnId);
  }

  private async undoFile(turn: Turn, f: string, hunkId: string | undefined): Promise<void> {
    // A merge of the tab with a disk change (the agent's, listed before its merge is done) reverts
    // the tab to the disk, then sets the merged text: judged in between, the tab has no unsaved
    // edits, the undo is saved through it, and the merge then sets the user's lines on a tab the
    // undo replaced. No merge starts meanwhile: they start from the file's queue of checks, this one.
    await mergesDone(f);
    // What the file holds now (a formatter, git or the user may have changed it since).
    this.syncFromEditor(f);
    const now = await readText(f);
    // A tab with unsaved edits is never replaced nor closed by an undo: over a file not on disk as
    // text there is nothing to merge the undo into, and the undo of a file the agent created (of all
    // of it, or of its last hunk) deletes it (VS Code then drops the tab's unsaved edits).
    const listed = turn.changes.get(f);
    const hunk = hunkId === undefined ? undefined : turn.changes.hunks(f).find(h => h.id === hunkId);
    const deletes = listed?.baseline === null && (hunkId === undefined || (hunk !== undefined && undoHunk(listed.current ?? '', hunk) === ''));
    const blocked = await this.unsavedTabBlocks(f, deletes);
    if (blocked) {
      if (blocked === 'deletes') void this.ui.warn(vscode.l10n.t("{0}'s change of {1} was not undone: undoing it deletes the file {0} created, and its tab has unsaved edits, which it keeps. Save or revert the tab, then undo.", turn.agentName, path.basename(f)));
      else this.tellNoText(turn, f);
      return;
    }
    if (this.ownerOf(f) !== turn) return this.undoUnder(turn, f, hunkId, now);
    // Read again: the list may have moved while the disk was read.
    const known = turn.changes.get(f);
    if (known && !sameData(now ?? null, sideOf(known, known.current))) this.setCurrent(turn, f, now ?? null);
    const entry = turn.changes.get(f);
    const writes = writesOf(this.history, turn.changes.turnId, f);
    // The list changes once the file is written: an undo that cannot be made leaves it as it was.
    const plan = turn.changes.undoPlan(f, hunkId);
    let target: Content | undefined = plan && entry ? sideOf(entry, plan.text) : undefined;
    if (plan?.text === null && plan.leaves) {
      // Undo never destroys what existed before the turn: a "created" file that git tracks is restored instead.
      const indexed = await gitIndexText(f);
      if (indexed !== undefined) {
        this.log.warn(`${f} was listed as created, but git tracks it: restored from the index instead of deleted`);
        target = indexed;
      }
    }
    const onDisk = target !== undefined ? await this.writeUndone(turn, f, now, target) : undefined;
    // Not made: still listed as it was; the user was told why, and can undo it once it can be written.
    if (onDisk === NOT_MADE) return;
    // The entry as the plan found it: undone in the list. Moved meanwhile (the undo's own save was
    // seen, the user saved): it follows what the file now holds, as for anyone's edit.
    if (turn.changes.get(f) === entry) turn.changes.undo(f, hunkId);
    else if (onDisk !== undefined && turn.changes.get(f)) this.setCurrent(turn, f, onDisk);
    this.afterUndoEdits(f);
    await this.undoGate.pass();
    this.see(f, onDisk ?? undefined);
    this.decided(turn, f, 'undo', hunkId, turn.changes.get(f) ? [] : writes);
  }

  /** The undo of `turn`'s change was not made: the disk holds no text to apply it to, under a tab with unsaved edits. */
  private tellNoText(turn: Turn, filePath: string): void {
    void this.ui.warn(vscode.l10n.t("{0}'s change of {1} was not undone: the file is not on disk as text (deleted, or binary), and its tab has unsaved edits, which it keeps. Save the tab to write the file with them, or revert the tab, then undo.", turn.agentName, path.basename(filePath)));
  }

  /**
   * Why an undo of the file must wait while its tab has unsaved edits: it `deletes` the file, or the
   * disk holds no text ('no text': deleted or binary since) to apply it to. Undefined: it may go on.
   */
  private async unsavedTabBlocks(filePath: string, deletes: boolean): Promise<'deletes' | 'no text' | undefined> {
    if (!openDocumentOf(filePath)?.isDirty) return undefined;
    const why = deletes ? 'deletes' : (await readDisk(filePath))?.kind === 'text' ? undefined : 'no text';
    if (why) this.log.warn(`${filePath}: not undone (${why === 'deletes' ? 'the undo deletes the file' : 'no text on disk to apply the undo to'}); its tab's unsaved edits are left as they are`);
    return why;
  }

  /**
   * Undo of an entry (or a hunk of it) with later turns' entries stacked on it: its change is taken
   * out of each of them and of the file, three-way (the later changes stay). Where they overlap
   * nothing is touched, and the user is told (undo the later change first, or hunk by hunk).
   */
  private async undoUnder(turn: Turn, f: string, hunkId: string | undefined, now: Content | undefined): Promise<void> {
    const stack = this.stackOf(f);
    const above = stack.slice(stack.indexOf(turn) + 1);
    const top = above.at(-1);
    const topChange = top?.changes.get(f);
    if (top && topChange && !sameData(now ?? null, sideOf(topChange, topChange.current))) this.setCurrent(top, f, now ?? null);
    const entry = turn.changes.get(f);
    const changes = above.map(t => t.changes.get(f));
    const hunk = hunkId === undefined ? undefined : turn.changes.hunks(f).find(h => h.id === hunkId);
    if (!entry || !top || (hunkId !== undefined && !hunk)) return;
    const to = hunk ? undoHunk(entry.current ?? '', hunk) : entry.baseline;
    const texts = changes.flatMap(c => (c ? [c.baseline, c.current] : []));
    const undoneTo = hunk && entry.baseline === null && to === '' ? null : to;
    const carried = entry.binary || changes.some(c => !c || c.binary) ? undefined : carryUnder(entry.current, undoneTo, texts);
    if (!carried) {
      // The later change that overlaps it (maybe not the top one): named, and undone first with Undo Both.
      const at = entry.binary ? 0 : firstOverlap(entry.current, undoneTo, changes.map(c => (c && !c.binary ? c : undefined)));
      const later = above[Math.max(0, at)];
      const both = vscode.l10n.t('Undo Both');
      void this.ui.warn(vscode.l10n.t("{0}'s change of {1} was not undone: {2} changed the same lines since. Undo {2}'s change first, or undo {0}'s hunk by hunk.", turn.agentName, path.basename(f), later.agentName), both)
        // The later change not undone (its file could not be written): the lower one is left too.
        .then(choice => { if (choice === both) void this.undo(later.changes.turnId, f).then(() => (later.changes.get(f) ? undefined : this.undo(turn.changes.turnId, f))); });
      return;
    }
    const writes = writesOf(this.history, turn.changes.turnId, f);
    const target = carried.at(-1)!;
    const onDisk = await this.writeUndone(turn, f, now, sideOf(topChange!, target));
    if (onDisk === NOT_MADE) return;
    changes.forEach((c, i) => above[i].changes.restack(f, carried[2 * i], carried[2 * i + 1]));
    turn.changes.undo(f, hunkId);
    this.afterUndoEdits(f);
    await this.undoGate.pass();
    this.see(f, onDisk ?? undefined);
    this.decided(turn, f, 'undo', hunkId, turn.changes.get(f) ? [] : writes);
  }

  /**
   * The Undo of one applied write (the chat's), as one operation on the review: when the file's
   * change in its turn is that write alone, it is the Agent Changes' Undo of the file; else `revert`
   * (the write's own change taken out of the file, later edits kept) runs in the file's queue of
   * checks and the review follows what the file then holds. Either way the decision is in the
   * history: the write reads as undone, and the file leaves the list once nothing of it is left.
   * Another turn's change of the file is never undone with it.
   */
  async undoWrite(write: { readonly id: string; readonly path: string }, revert: () => Promise<boolean>): Promise<boolean> {
    const filePath = normalize(write.path);
    const turn = [...this.turns.values()].find(t => writesOf(this.history, t.changes.turnId, filePath).includes(write.id));
    const change = turn?.changes.get(filePath);
    const edit = this.history.byId(write.id);
    if (turn && change && !change.binary && edit && writesOf(this.history, turn.changes.turnId, filePath).length === 1 && change.baseline === edit.before && change.current === edit.after) {
      await this.undo(turn.changes.turnId, filePath);
      // Not undone when a later conversation's change overlaps it (see undoUnder).
      return !turn.changes.get(filePath);
    }
    let undone = false;
    await this.inOrder(filePath, async () => {
      // The tab judged once its merges are done (see undoFile).
      await mergesDone(filePath);
      undone = await revert();
      if (!undone) return;
      const top = this.ownerOf(filePath);
      if (top) {
        this.syncFromEditor(filePath);
        this.setCurrent(top, filePath, (await readText(filePath)) ?? null);
      }
      // The disk as the revert left it: the watcher's report of it is no change of the agent's.
      this.see(filePath, (await readDisk(filePath)) ?? undefined);
      addDecision(this.history, turn?.changes.turnId ?? '', filePath, { action: 'undo', writes: [write.id] });
      if (turn) this.cleanup(turn.changes.turnId);
    });
    return undone;
  }

  /**
   * The user kept or undid a change of the file: reports of it still on their way (the tool call's
   * diff, Claude's tool response: each carries the file's text before the agent's edit) describe a
   * change decided already, and must not list it again (see record).
   */
  private decided(turn: Turn, filePath: string, action: DecisionAction, hunkId: string | undefined, settled: readonly string[]): void {
    // `settled`: the applied writes the file's change was made of, once it left the list with them.
    addDecision(this.history, turn.changes.turnId, filePath, { action, ...(hunkId !== undefined ? { hunkId } : {}), ...(settled.length ? { writes: settled } : {}) });
  }

  // ---- internals -------------------------------------------------------------------------------

  /**
   * Writes the undone text of `turn`'s change; returns what the disk then holds, or NOT_MADE when
   * the undo was made nowhere (the user is told why; the caller leaves the change listed). A tab with
   * unsaved edits keeps them unsaved: the undo is applied to the disk's text and to the buffer
   * separately (saving the buffer would write the user's unsaved edits for them, and the disk would
   * not be as before the turn).
   */
  private async writeUndone(turn: Turn, filePath: string, bufferNow: Content | undefined, target: Content): Promise<Content | typeof NOT_MADE> {
    try {
      const doc = openDocumentOf(filePath);
      if (doc?.isDirty && target?.kind === 'text' && bufferNow?.kind === 'text') {
        // The undo as a change of the buffer (bufferNow → target), applied to the disk's text and the tab's.
        this.userSaves.set(filePath, Date.now());
        const written = await undoUnderDirtyBuffer(doc, bufferNow.text, target.text, this.log);
        // Never through the tab: the undone text was made from the tab's and holds the user's unsaved
        // lines (a workspace edit would replace them and save the tab). Not made, it told the user.
        if (written) return written.made ? written.disk : NOT_MADE;
        // The disk lost its text since undoFile looked.
        this.tellNoText(turn, filePath);
        return NOT_MADE;
      }
      await writeFile(filePath, target);
      return target;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn(`${filePath}: the undo could not be written (${message}); the change stays listed`);
      void this.ui.warn(vscode.l10n.t("{0}'s change of {1} was not undone: {1} could not be written ({2}). It is still listed: undo it again once the file can be written.", turn.agentName, path.basename(filePath), message));
      return NOT_MADE;
    }
  }

  /** Diffs reported by tool calls, waiting for the disk to hold their new text (`seen`: the file before, when the diff claims a new file). */
  private readonly pendingDiffs = new Map<string, { turn: Turn; toolCallId: string; oldText: string | null; seen: Content | undefined; newText: string }>();

  /** Tests: how many reported diffs wait for the disk (only running turns' do: see finishTurn). */
  get waitingDiffs(): number {
    return this.pendingDiffs.size;
  }

  /** The files each tool call reported a diff of (those still waiting are in pendingDiffs). */
  private readonly diffFilesOfCall = new Map<string, Set<string>>();

  /**
   * A reported diff counts once the file on disk holds its new text. Checked when a tool call
   * completes (all while few wait, else its own: `only`), when the watcher reports its file, and all
   * at the turn's end: never thousands at every completion (each would read every file again, and
   * walking the whole waiting list per completion cost a 30,000-message flood ~170 MiB of garbage).
   */
  private async settlePendingDiffs(turn: Turn, only?: { call: string; files: Iterable<string> }): Promise<void> {
    const waiting = only
      ? [...only.files].flatMap(f => { const d = this.pendingDiffs.get(f); return d?.toolCallId === only.call ? [[f, d] as const] : []; })
      : [...this.pendingDiffs];
    await Promise.all(waiting.filter(([, d]) => d.turn === turn).map(([filePath, d]) => this.inOrder(filePath, async () => {
      const now = await readDisk(filePath);
      // The disk holds the diff's new text, and not since before the turn (a diff naming a file's current text changed nothing).
      if (now?.kind === 'text' && now.text === d.newText && writtenSince(filePath, turn.started)) {
        if (this.pendingDiffs.get(filePath) === d) this.pendingDiffs.delete(filePath);
        this.record(turn, filePath, d.oldText !== null ? textData(d.oldText, now.form) : d.seen ?? null, now, true, { diffOf: d.toolCallId });
      } else if (!turn.running && this.pendingDiffs.get(filePath) === d) {
        this.pendingDiffs.delete(filePath);
      }
    })));
  }

  /** The tail of each file's queue of checks (see inOrder). */
  private readonly fileQueues = new Map<string, Promise<void>>();

  /**
   * Runs a check that may record a change of `filePath` after the checks queued before it for that
   * file: each reads the disk, and reads finish in any order, but what each report says (the file
   * before this tool call's edit, the snapshot before the watcher's event) is only true in the order
   * the reports arrived. The first recorded baseline of a file stays, so a later edit's report
   * recorded first would hide the earlier edit.
   */
  private inOrder(filePath: string, work: () => Promise<void>): Promise<void> {
    const next = (this.fileQueues.get(filePath) ?? Promise.resolve()).then(work);
    const tail = next.catch(() => undefined);
    this.fileQueues.set(filePath, tail);
    void tail.then(() => { if (this.fileQueues.get(filePath) === tail) this.fileQueues.delete(filePath); });
    return next;
  }

  private compareInOrder(turn: Turn, filePath: string): Promise<void> {
    return this.inOrder(filePath, () => this.compareWithSnapshot(turn, filePath));
  }

  /**
   * The undo's own edits of the tab scheduled a sync with it (while the change was still listed):
   * done now, with the list as the undo left it. Left for later, it could run once the next turn's
   * change of the file is listed but not yet merged into the tab, and take the tab's older text for
   * the user's edit of it (the change then left the list: seen once in CI, session 19).
   */
  private afterUndoEdits(filePath: string): void {
    if (this.editTimers.has(filePath)) this.syncFromEditor(filePath);
  }

  /** Takes the text of the file's open buffer as its current text (the user may have typed since). */
  private syncFromEditor(filePath: string): void {
    clearTimeout(this.editTimers.get(filePath));
    this.editTimers.delete(filePath);
    const owner = this.ownerOf(filePath);
    const doc = vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && d.uri.fsPath === filePath);
    // Only a buffer with unsaved edits knows more than the disk (a clean one may even still show a
    // file the agent deleted).
    if (!owner || !doc || doc.isClosed || !doc.isDirty) return;
    const now = textData(doc.getText(), formOfDocument(doc));
    const change = owner.changes.get(filePath);
    if (change && sideIn(change, now) === change.current) return;
    this.setCurrent(owner, filePath, now);
    this.changed();
  }

  private track(turn: Turn, work: Promise<void>): void {
    const p = work.catch(err => this.log.warn(`Change detection failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => turn.inflight.delete(p));
    turn.inflight.add(p);
  }

  /**
   * Compares the disk (never the buffer: an unsaved tab is not what the agent changed) with the last
   * text seen on disk.
   */
  private async compareWithSnapshot(turn: Turn, filePath: string): Promise<void> {
    if (!path.isAbsolute(filePath) || !isInWorkspace(filePath)) return;
    const owned = this.ownerOf(filePath)?.changes.get(filePath);
    const before: Content | undefined = this.seen(filePath) ?? (owned ? sideOf(owned, owned.current) : undefined);
    const now = await readDisk(filePath);
    // Unreadable but still there (too large, not a regular file): not a deletion.
    if (now === undefined && existsSync(filePath)) return;
    if (before === undefined || sameData(before, now ?? null)) {
      if (now !== undefined) this.see(filePath, now);
      return;
    }
    this.log.info(`The agent changed ${filePath} on disk`);
    this.record(turn, filePath, before, now ?? null, true);
  }

  /**
   * A later turn of the same conversation's change to a file still undecided from an earlier turn
   * joins that earlier entry (its baseline stays the text before the first change); another
   * conversation's is an entry of its own stacked on it, its baseline the file as the entry below
   * left it (see stack.ts).
   */
  private record(turn: Turn, filePath: string, before: Content, after: Content, onDisk = false, evidence: { diffOf?: string; responseOf?: string } = {}): void {
    // A file seen on disk before is never "created": a rename over an existing path is an edit.
    const seen = this.seen(filePath);
    if (onDisk && seen !== undefined && decidedSince(this.history, filePath, turn.since)) {
      // The user kept or undid the file's change since this turn began: what the file held before
      // it is decided, only a difference from the disk as last seen is new (a report arriving late,
      // or after the next turn began, would list the decided change again and join the next one).
      if (sameData(after, seen)) return;
      before = seen;
    }
    const top = this.ownerOf(filePath);
    const choice = stackChoice(top && { turnId: top.changes.turnId, tabId: top.tabId }, { turnId: turn.changes.turnId, tabId: turn.tabId }, !!turn.changes.get(filePath));
    const owner = choice === 'top' ? top! : choice === 'again' ? this.entryAgain(turn) : turn;
    if (choice === 'stack' || choice === 'again') {
      // The file as the entry below left it (the user's edits since carried into that entry first).
      const below = top!.changes.get(filePath)!;
      if (before !== null && !sameData(before, sideOf(below, below.current))) this.setCurrent(top!, filePath, before);
      const under = top!.changes.get(filePath);
      before = under ? sideOf(under, under.current) : before;
    }
    const known = owner.changes.get(filePath);
    const from = known && baselineFromOf(this.history, owner.changes.turnId, filePath);
    if (known && evidence.responseOf && from && from.turnId === turn.changes.turnId && from.toolCallId === evidence.responseOf && before !== null) {
      // The baseline came from this tool call's diff, placed by us in the disk as it was when we read
      // it (maybe already holding the agent's later edits); its tool response tells what the file held.
      const old = sideIn(known, before);
      setBaselineFrom(this.history, owner.changes.turnId, filePath, undefined);
      if (old !== undefined) owner.changes.rebase(filePath, old);
    }
    if (before === null && !known && seen !== undefined) before = seen;
    // The same disk content reported again (the watcher, then the tool call): listed already, and its
    // current text may follow the tab's unsaved edits since, which stay the user's.
    if (onDisk && after !== null && seen !== undefined && sameData(after, seen) && known?.baseline != null) return;
    const diskBefore = before ?? seen ?? null;
    const side = known && sideIn(known, after);
    if (known && side !== undefined) {
      const old = before === null ? null : sideIn(known, before);
      owner.changes.record(filePath, old === undefined ? known.baseline : old, side);
    } else if (known) {
      this.setCurrent(owner, filePath, after);
    } else {
      // Text on both sides in one encoding is a text change; anything else is kept as bytes.
      const sides = asSides(before, after);
      owner.changes.record(filePath, sides.before, sides.after, sides.how);
      // The evidence that gave the baseline, with the change (see above).
      if (evidence.diffOf) setBaselineFrom(this.history, owner.changes.turnId, filePath, { turnId: turn.changes.turnId, toolCallId: evidence.diffOf });
    }
    // A file a child agent's tool call named: its change is that child's (the first name stays).
    const by = turn.namedBy?.get(filePath);
    if (by && (owner === turn || choice === 'again')) owner.changes.attribute(filePath, by);
    // A change detected just after its turn ended still gets listed.
    if (!owner.changes.isEmpty) this.turns.set(owner.changes.turnId, owner);
    this.see(filePath, after);
    this.changed();
    // Written behind the editor's back: a tab with unsaved edits is merged with it, never left stale.
    const beforeText = diskBefore?.kind === 'text' ? diskBefore.text : null;
    const afterText = after === null ? null : after.kind === 'text' ? after.text : undefined;
    if (onDisk && beforeText !== null && afterText !== undefined && beforeText !== afterText && this.reconciled.get(filePath) !== afterText) {
      this.reconciled.set(filePath, afterText);
      const work = reconcileDirtyBuffer(filePath, beforeText, afterText, turn.agentName, this.log)
        .then(() => undefined, err => this.log.warn(`Could not merge ${filePath} with its unsaved edits: ${err instanceof Error ? err.message : String(err)}`));
      this.reconciling.add(work);
      void work.finally(() => this.reconciling.delete(work));
    }
  }

  private readonly reconciling = new Set<Promise<void>>();

  /** Tests: resolves once the tabs being reconciled with an agent's disk change are (the question to the user may still be open). */
  async reconciliations(): Promise<void> {
    await Promise.all([...this.reconciling]);
  }

  /** What the file held when last seen (read, opened, saved, written), as text in its encoding or as bytes. */
  private seen(filePath: string): FileData | undefined {
    const form = this.diskForms.get(filePath);
    const text = this.snapshots.get(filePath);
    // A text seen later (a document opened or saved) wins over bytes kept before.
    if (text !== undefined) return textData(text, form && !(form instanceof Uint8Array) ? form : defaultForm(filePath));
    return form instanceof Uint8Array ? binaryData(form) : undefined;
  }

  /** Whether seen() has something for the file, without decoding a text kept as bytes (a 5 MiB file read by range). */
  private hasSeen(filePath: string): boolean {
    return this.snapshots.has(filePath) || this.diskForms.get(filePath) instanceof Uint8Array;
  }

  private see(filePath: string, data: Content | undefined): void {
    if (!data) {
      this.snapshots.remember(filePath, undefined);
      this.diskForms.delete(filePath);
    } else if (data.kind === 'binary') {
      this.snapshots.remember(filePath, undefined);
      this.diskForms.set(filePath, data.bytes);
    } else {
      this.snapshots.remember(filePath, data.text);
      this.diskForms.set(filePath, data.form);
    }
  }

  /** The file now holds `now`: its change follows (a change that cannot hold it as text is kept as bytes from then on). */
  private setCurrent(owner: Turn, filePath: string, now: Content): void {
    const stack = this.stackOf(filePath);
    const below = stack.includes(owner) ? stack.slice(0, stack.indexOf(owner)) : [];
    this.setCurrentOf(owner, filePath, now);
    this.carryDown(below, filePath, owner.changes.get(filePath), now);
  }

  /**
   * The entry above the `below` ones (a file's stack) now starts from a new baseline (the user's edit
   * carried into it, a hunk of it kept) or left the list (`above` undefined: kept, the file as `now`):
   * the entry right under it ends there, and so on down.
   */
  private carryDown(below: readonly Turn[], filePath: string, above: FileChange | undefined, now: Content): void {
    let base = above ? sideOf(above, above.baseline) : now;
    for (const t of [...below].reverse()) {
      const change = t.changes.get(filePath);
      if (!change || sameData(sideOf(change, change.current), base)) return;
      this.setCurrentOf(t, filePath, base);
      const after = t.changes.get(filePath);
      if (after) base = sideOf(after, after.baseline);
    }
  }

  private setCurrentOf(owner: Turn, filePath: string, now: Content): void {
    const change = owner.changes.get(filePath);
    if (!change) return;
    const side = sideIn(change, now);
    if (side !== undefined) {
      owner.changes.updateCurrent(filePath, side);
      return;
    }
    const baseline = sideOf(change, change.baseline);
    owner.changes.keep(filePath);
    const sides = asSides(baseline, now);
    owner.changes.record(filePath, sides.before, sides.after, sides.how);
  }

  /** The disk text each file's tab was last reconciled with (a change reported twice merges once). */
  private readonly reconciled = new Map<string, string | null>();

  /**
   * A turn changes a file again after another conversation's change stacked on its entry: a new
   * entry of its conversation, listed apart (a turn of its own, not running; see stackChoice).
   */
  private entryAgain(turn: Turn): Turn {
    const turnId = `turn${this.nextTurn++}`;
    return newTurn(new TurnChanges(turnId, undefined, this.history), { ...turn, running: false });
  }

  /** The file's latest entry (the top of its stack): its current text is the file's. */
  private ownerOf(filePath: string): Turn | undefined {
    return this.stackOf(filePath).at(-1);
  }

  /** The turns with an undecided change of the file, in the order they first changed it (see stack.ts). */
  private stackOf(filePath: string): Turn[] {
    const placed = [...this.turns.values()].flatMap(t => {
      const at = placeOf(this.history, t.changes.turnId, filePath);
      return at === undefined ? [] : [{ t, at }];
    });
    return placed.sort((a, b) => a.at - b.at).map(p => p.t);
  }

  private async onDiskChange(uri: vscode.Uri, created: boolean): Promise<void> {
    if (uri.scheme !== 'file') return;
    // Only while a turn runs (or reported late, see attributeTo): afterwards, changes are the user's or their tools'.
    if (this.runningTurn.size === 0 && !this.lastEnded) return;
    const filePath = uri.fsPath;
    if (/[\\/](\.git|node_modules)[\\/]/.test(filePath)) return;
    const savedAt = this.userSaves.get(filePath);
    if (savedAt !== undefined && Date.now() - savedAt < USER_SAVE_WINDOW_MS) return;
    const turn = await this.attributeTo(filePath);
    if (!turn) return;
    // A new folder is often reported alone, without the files created inside it.
    if (created && (await vscode.workspace.fs.stat(uri).then(st => st.type === vscode.FileType.Directory, () => false))) {
      for (const file of await filesUnder(uri, MAX_FILES_IN_NEW_FOLDER)) void this.onDiskChange(file, true);
      return;
    }
    if (!this.hasSeen(filePath) && !this.ownerOf(filePath)) {
      // A file nothing saw before that appears during the turn: new, unless git's index knows it
      // (a rename over a tracked file is an edit, not a creation). A mere change of such a file is
      // not listed: nothing knows what it held before the turn.
      if (!created || looksGenerated(filePath)) return;
      this.track(turn, this.inOrder(filePath, async () => {
        await untilWritten(filePath);
        // Seen meanwhile (the agent read it, a write of its was recorded): compared with what was seen.
        if (this.hasSeen(filePath) || this.ownerOf(filePath)) return this.compareWithSnapshot(turn, filePath);
        const [now, indexed] = await Promise.all([readDisk(filePath), gitIndexText(filePath)]);
        if (now === undefined || (now.kind === 'text' ? now.text.length : now.bytes.byteLength) > MAX_TRACKED_CHARS) return;
        if (indexed !== undefined) {
          if (!sameData(indexed, now)) this.record(turn, filePath, indexed, now, true);
          else this.see(filePath, now);
        } else {
          this.record(turn, filePath, null, now);
        }
      }));
      return;
    }
    // Reports of a file rewritten again and again (a tool touching it in a loop) make one comparison
    // at a time: one still waiting to start reads the disk after this change too.
    const queued = `${turn.changes.turnId}\0${filePath}`;
    if (!this.comparesQueued.has(queued)) {
      this.comparesQueued.add(queued);
      this.track(turn, this.inOrder(filePath, async () => {
        await untilWritten(filePath);
        this.comparesQueued.delete(queued);
        await this.compareWithSnapshot(turn, filePath);
      }).finally(() => this.comparesQueued.delete(queued)));
    }
    const waiting = this.pendingDiffs.get(filePath);
    if (waiting?.turn === turn) this.track(turn, this.settlePendingDiffs(turn, { call: waiting.toolCallId, files: [filePath] }));
  }

  /** Comparisons with the snapshot queued (turn id and file) and not started yet. */
  private readonly comparesQueued = new Set<string>();

  /** The last turn that ended, and when: the file watcher reports late (seconds, on a busy machine). */
  private lastEnded: { turn: Turn; endedAt: number } | undefined;
  /** Turns that ran alongside another and ended lately: a late report may still be theirs. */
  private recentlyEnded: { turn: Turn; endedAt: number }[] = [];

  /**
   * The turn a disk change belongs to: the file watcher reports late (seconds, on a busy machine),
   * so a change is dated by the file's modification time. One running turn: the change is its
   * agent's, unless the file was modified before the turn began (the user wrote it just before
   * sending) or after it ended (the turn still finishing its checks while the user goes on); with
   * several it cannot be attributed safely. With none: a change reported shortly after the turn
   * ended is still that turn's when the file was modified during it (the agent's last write,
   * reported late). A deletion cannot be dated: the running turn's, never an ended one's. With
   * several running: the one whose tool calls named the file, else a turn of its own titled with
   * the agents that were working (see attributeAmong), never dropped, never given to one of them.
   */
  private async attributeTo(filePath: string): Promise<Turn | undefined> {
    // Turns that ran at once (running, or ended lately alongside another): the change goes to the
    // one whose tool calls named the file. A deletion, undated, goes to a running one only.
    const now = Date.now();
    const running = [...this.runningTurn.values()].map(id => this.turns.get(id)).filter((t): t is Turn => !!t);
    const lately = this.recentlyEnded.filter(e => now - e.endedAt <= LATE_REPORT_MS && !running.includes(e.turn)).map(e => e.turn);
    // Only around turns that ran alongside another: one turn at a time keeps the rules below.
    const alongside = running.length > 1 || (running.length === 1 ? running[0].overlapped && lately.length > 0 : !!this.lastEnded?.turn.overlapped && lately.length > 1);
    if (alongside) {
      const mtime = await fsPromises.stat(filePath).then(st => st.mtimeMs, () => undefined);
      const among = mtime === undefined ? running : [...running, ...lately];
      const to = attributeAmong(among.map(t => ({ turnId: t.changes.turnId, started: t.started, ended: t.ended, named: t.named.has(filePath) })), mtime);
      if (to === undefined) return undefined;
      return to === 'shared' ? this.sharedTurn(workingWhen(among, mtime)) : among.find(t => t.changes.turnId === to);
    }
    const only = running[0];
    const last = this.lastEnded;
    if (!only && (!last || Date.now() - last.endedAt > LATE_REPORT_MS)) return undefined;
    const mtime = await fsPromises.stat(filePath).then(st => st.mtimeMs, () => undefined);
    if (only) return mtime === undefined || modifiedDuring(mtime, only.started, only.ended) ? only : undefined;
    return mtime !== undefined && last && modifiedDuring(mtime, last.turn.started, last.endedAt) && this.runningTurn.size === 0 ? last.turn : undefined;
  }

  private turnFor(tabId: string | undefined): Turn | undefined {
    const id = tabId ? this.runningTurn.get(tabId) : this.runningTurn.size === 1 ? [...this.runningTurn.values()][0] : undefined;
    if (id) return this.turns.get(id);
    // A write outside a turn (late, or from a restored tab): keep it in a turn of its own.
    if (!tabId) return undefined;
    const turnId = `turn${this.nextTurn++}`;
    const turn = newTurn(new TurnChanges(turnId, undefined, this.history), { tabId, agentName: 'agent', running: false, started: Date.now(), since: this.history.lastSeq });
    this.turns.set(turnId, turn);
    return turn;
  }

  private cleanup(turnId: string): void {
    const turn = this.turns.get(turnId);
    if (turn && turn.changes.isEmpty && !turn.running) this.turns.delete(turnId);
    this.changed();
  }

  private changed(): void {
    this.changeEmitter.fire();
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.persist(), 500);
  }

  private persist(): void {
    const turns = [...this.turns.values()].map(t => ({ turnId: t.changes.turnId, tabId: t.tabId, agentName: t.agentName, ...(t.working ? { working: t.working } : {}) }));
    void this.state.update(STATE_KEY, toSaved(turns, this.history, MAX_TRACKED_CHARS));
    if (this.state.get(OLD_STATE_KEY) !== undefined) void this.state.update(OLD_STATE_KEY, undefined);
  }
}

