// "Run in Parallel…": one prompt given to several agents (or one agent twice, with another model or
// mode), each in its own git worktree made from the current state, the user's uncommitted changes
// included (host/parallel/worktrees, docs/decisions/0026). Each run is a conversation of its own
// (a ChatSession) with its own agent process whose cwd and session root is its worktree, served
// files of that worktree only (host/parallel/worktreeFs). The lifecycle is the pure run-set model
// (common/parallel/runSet); this class runs its effects. "Apply this result" brings the chosen run's
// changes into the workspace as a turn of the review (Agent Changes: Keep / Undo per hunk) and
// removes every worktree; "Discard" removes them. Nothing is left behind when the window closes.
import { existsSync, mkdirSync, promises as fsPromises, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSpec } from '../../common/agentConfig';
import type { Waiter } from '../../common/conversation/waiting';
import { describeAgentEnd } from '../../common/connectionLoss';
import { Disposable } from '../../common/disposable';
import { truncateText } from '../../common/truncate';
import type { FileData } from '../../common/fs/encoding';
import type { Logger } from '../../common/logger';
import { isWithin } from '../../common/fs/pathPolicy';
import type { RunQuestionView } from '../../common/parallel/panelHtml';
import { mergeApplied, mergeTexts } from '../../common/parallel/applyMerge';
import { isOpen, newRunSet, runSetTransition, RunSetEvent, RunSetState } from '../../common/parallel/runSet';
import { readInitializeTimeoutMs } from '../../host/config';
import { decodeFor, openDocumentOf } from '../../host/fs/fileData';
import { launchSpec } from '../../host/installedAgents';
import { addWorktree, baseBytes, changesIn, claim, hooksFolder, plainFileIn, removeWorktrees, removeWorktreesSync, Snapshot, snapshot, sweepStale } from '../../host/parallel/worktrees';
import { worktreeServices } from '../../host/parallel/worktreeFs';
import { reconcileDirtyBuffer } from '../../host/review/bufferReconcile';
import { mergesDone } from '../../host/fs/tabMerges';
import { AgentRuntime } from '../agentRuntime';
import { ChatSession, describe } from '../chatSession';

/** One run asked for: an agent, and optionally the model (a config option) or mode it runs in. */
export interface RunRequest {
  readonly agent: AgentSpec;
  readonly label?: string;
  readonly option?: { readonly configId: string; readonly value: string };
  readonly mode?: string;
}

/** Where an applied run's changes go to be reviewed (host/review/changeTracker). */
export interface ReviewSink {
  beginTurn(tabId: string, agentName: string): string;
  recordApplied(tabId: string, filePath: string, before: FileData | null, after: FileData | null): void;
  endTurn(tabId: string): Promise<void>;
}

/** A permission a run's agent waits on, as the panel shows it. */
export type RunQuestion = RunQuestionView;

interface LiveRun {
  readonly request: RunRequest;
  readonly dir: string;
  cwd?: string;
  runtime?: AgentRuntime;
  session?: ChatSession;
  abort: AbortController;
}

interface LiveSet {
  state: RunSetState;
  readonly dir: string;
  snap?: Snapshot;
  readonly runs: Map<string, LiveRun>;
  /** Resolves once every run ended (or the set could not start). */
  done?: Promise<void>;
}

/** The prefix of a waiting run's id (see ParallelRuns.waiters); what follows is `<set>/<run>`. */
export const PARALLEL_WAITER = 'parallel:';

export class ParallelRuns extends Disposable {
  private readonly sets = new Map<string, LiveSet>();
  private nextSet = 1;
  private readonly changeEmitter = this.register(new vscode.EventEmitter<RunSetState>());
  /** A set's state changed (the panel renders it). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly log: Logger,
    /** The extension's global storage: worktrees live in `<root>/parallel`, outside every workspace. */
    storage: string,
    private readonly review: ReviewSink,
    private readonly secretEnv: (agentName: string) => Promise<Record<string, string> | undefined> = async () => undefined,
  ) {
    super();
    this.root = path.join(storage, 'parallel');
    // Worktrees of a window that closed mid-run (or crashed) go now.
    void sweepStale(this.root).then(n => { if (n) log.info(`Removed ${n} leftover parallel-run folder(s) and their git worktrees`); }, err => log.warn(`Could not sweep old parallel runs: ${describe(err)}`));
  }

  private readonly root: string;

  state(setId: string): RunSetState | undefined { return this.sets.get(setId)?.state; }
  get all(): readonly RunSetState[] { return [...this.sets.values()].map(s => s.state); }

  /** The worktree folders of a set still open (tests prove they are gone). */
  worktrees(setId: string): string[] {
    const set = this.sets.get(setId);
    return set && isOpen(set.state) ? [...set.runs.values()].map(r => r.dir) : [];
  }

  /** The conversation of a run (its transcript), while the set exists. */
  session(setId: string, runId: string): ChatSession | undefined { return this.sets.get(setId)?.runs.get(runId)?.session; }

  /** The permission the run's agent waits on, if any. */
  question(setId: string, runId: string): RunQuestion | undefined {
    const session = this.session(setId, runId);
    const pending = new Set(session?.pendingPermissionIds ?? []);
    const items = session?.items ?? [];
    const item = items.find(i => i.kind === 'permission' && pending.has(i.id));
    if (item?.kind !== 'permission') return undefined;
    const { requestId, title, options } = item.permission;
    const tool = requestId ? items.find(i => i.kind === 'tool' && i.tool.toolCallId === requestId) : undefined;
    return { itemId: item.id, title, options, ...(tool?.kind === 'tool' ? { toolKind: tool.tool.kind, input: tool.tool.rawInput } : {}) };
  }

  /** The run's last answer, as plain text (the panel shows its end). */
  lastAnswer(setId: string, runId: string): string {
    const items = this.session(setId, runId)?.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item.kind === 'agent') return item.text;
      if (item.kind === 'error') return item.message;
      if (item.kind === 'user') break;
    }
    return '';
  }

  /**
   * Starts a set: worktrees from the current state of `folder`'s repository, one agent each, the same
   * prompt. Returns the set's id at once; `finished(id)` resolves once every run ended.
   */
  start(prompt: string, requests: readonly RunRequest[], folder: string): string {
    const id = `set${this.nextSet++}`;
    const labels = requests.map((r, i) => r.label ?? (requests.filter(o => o.agent.name === r.agent.name).length > 1 ? `${r.agent.name} #${i + 1}` : r.agent.name));
    const state = newRunSet(id, prompt, requests.map((r, i) => ({ id: `run${i + 1}`, label: labels[i], agentName: r.agent.name })));
    const dir = path.join(this.root, `${process.pid}-${Date.now().toString(36)}-${id}`);
    const set: LiveSet = { state, dir, runs: new Map(requests.map((r, i) => [`run${i + 1}`, { request: r, dir: path.join(dir, `run${i + 1}`), abort: new AbortController() }])) };
    this.sets.set(id, set);
    this.changeEmitter.fire(state);
    set.done = this.prepare(set, folder);
    return id;
  }

  /** Resolves once every run of the set ended (or it could not start). */
  async finished(setId: string): Promise<RunSetState | undefined> {
    await this.sets.get(setId)?.done;
    return this.state(setId);
  }

  private async prepare(set: LiveSet, folder: string): Promise<void> {
    try {
      await this.prepareRuns(set, folder);
    } catch (err) {
      await this.fire(set, { type: 'prepareFailed', message: vscode.l10n.t('Could not prepare the runs: {0}', describe(err)) });
    }
  }

  private async prepareRuns(set: LiveSet, folder: string): Promise<void> {
    let snap: Snapshot | { problem: string };
    try {
      snap = await snapshot(folder, path.join(set.dir, 'scratch'), hooksFolder(this.root));
    } catch (err) {
      snap = { problem: vscode.l10n.t('Could not record the current state with git: {0}', describe(err)) };
    }
    if ('problem' in snap) {
      this.fire(set, { type: 'prepareFailed', message: snap.problem });
      return;
    }
    set.snap = snap;
    claim(set.dir, snap);
    const ran: Promise<void>[] = [];
    for (const [runId, run] of set.runs) {
      this.fire(set, { type: 'runStarting', run: runId });
      try {
        await addWorktree(snap, run.dir);
        run.cwd = path.join(run.dir, snap.folderInRepo);
        ran.push(this.runOne(set, runId, run));
      } catch (err) {
        this.fire(set, { type: 'runFailed', run: runId, at: Date.now(), message: vscode.l10n.t('Could not create its git worktree: {0}', describe(err)) });
      }
    }
    await Promise.all(ran);
  }

  private async runOne(set: LiveSet, runId: string, run: LiveRun): Promise<void> {
    const cwd = run.cwd!;
    const name = run.request.agent.name;
    let runtime: AgentRuntime;
    try {
      const spec = await launchSpec(run.request.agent);
      runtime = await AgentRuntime.start(spec, cwd, () => worktreeServices(run.dir), readInitializeTimeoutMs(), this.log, await this.secretEnv(name), undefined, run.abort.signal);
    } catch (err) {
      this.fire(set, { type: 'runFailed', run: runId, at: Date.now(), message: vscode.l10n.t('{0} could not start: {1}', name, describe(err)) });
      return;
    }
    run.runtime = runtime;
    const session = new ChatSession(`${set.state.id}-${runId}`, name, this.log);
    run.session = session;
    session.onState(() => this.fire(set, { type: 'runWaiting', run: runId, waiting: session.waiting }));
    session.onMeta(meta => { if (meta.usage) this.fire(set, { type: 'runTokens', run: runId, tokens: meta.usage.used }); });
    try {
      if (set.state.runs.find(r => r.id === runId)?.status === 'stopped') throw new Error(vscode.l10n.t('stopped'));
      const response = await runtime.connection.newSession(cwd, []);
      session.bind(runtime, response.sessionId, response);
      if (run.request.option) await session.setConfigOption(run.request.option.configId, run.request.option.value);
      if (run.request.mode) await session.setMode(run.request.mode);
      this.fire(set, { type: 'runStarted', run: runId, at: Date.now() });
      const prompt = set.state.prompt;
      await session.prompt([{ type: 'text', text: prompt }], prompt);
    } catch (err) {
      this.log.warn(`Parallel run ${runId} (${name}): ${describe(err)}`);
    }
    // How the turn ended: its turn-end mark, else the error it shows, else the agent's exit.
    const items = session.items;
    const last = [...items].reverse().find(i => i.kind === 'turnEnd' || i.kind === 'error' || i.kind === 'user');
    const files = set.snap && existsSync(run.dir) ? await changesIn(set.snap, run.dir).catch(() => []) : [];
    const at = Date.now();
    if (last?.kind === 'turnEnd') this.fire(set, { type: 'runEnded', run: runId, at, stopReason: last.stopReason, files });
    else {
      const exit = runtime.isRunning ? undefined : await runtime.exited;
      const message = last?.kind === 'error' ? last.message : exit ? describeAgentEnd(name, exit) : vscode.l10n.t('The run ended without an answer.');
      this.fire(set, { type: 'runFailed', run: runId, at, message, files });
    }
    // Its work is in the worktree: the process is not needed any more.
    await runtime.stop().catch(() => undefined);
  }

  /**
   * The runs waiting for the user (a permission or question, answered in the set's panel), counted
   * with the conversations that wait (host/waitingAlert): id `parallel:<set>/<run>`.
   */
  waiters(): Waiter[] {
    const waiting: Waiter[] = [];
    for (const set of this.sets.values()) {
      for (const [runId, run] of set.runs) {
        if (!run.session?.waiting) continue;
        waiting.push({
          id: `${PARALLEL_WAITER}${set.state.id}/${runId}`, agent: run.request.agent.name,
          title: vscode.l10n.t({ message: 'Run in Parallel: {0}', args: [truncateText(set.state.prompt.replace(/\s+/g, ' '), 60)], comment: ['A parallel run waiting for the user, named by its prompt'] }),
          waitingFor: run.session.pendingQuestionIds.length ? ['question'] : ['permission'],
        });
      }
    }
    return waiting;
  }

  /** The user stopped one run (its turn is cancelled, its agent ends; what it changed so far stays). */
  stopRun(setId: string, runId: string): void {
    const set = this.sets.get(setId);
    if (set) this.fire(set, { type: 'stopAsked', run: runId });
  }

  /** "Apply this result". Resolves once the changes are in the workspace and the worktrees are gone. */
  async apply(setId: string, runId: string): Promise<void> {
    const set = this.sets.get(setId);
    if (set) await this.fire(set, { type: 'applyAsked', run: runId });
  }

  /** "Discard": every run stops, every worktree goes. */
  async discard(setId: string): Promise<void> {
    const set = this.sets.get(setId);
    if (set) await this.fire(set, { type: 'discardAsked' });
  }

  /** Answers the permission a run's agent waits on. */
  answer(setId: string, runId: string, itemId: string, optionId: string | null): void {
    this.session(setId, runId)?.answerPermission(itemId, optionId);
  }

  /** The diff of one file of a run: the state it started from ↔ the run's file. */
  async openDiff(setId: string, runId: string, rel: string): Promise<void> {
    const set = this.sets.get(setId);
    const run = set?.runs.get(runId);
    if (!set?.snap || !run || !isOpen(set.state)) return;
    const label = set.state.runs.find(r => r.id === runId)?.label ?? runId;
    const left = vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${setId}/${runId}/${rel.split(path.sep).join('/')}` });
    const right = vscode.Uri.file(path.join(run.dir, rel));
    const file = existsSync(right.fsPath) ? right : vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${setId}/${runId}/${rel}`, query: 'deleted' });
    await vscode.commands.executeCommand('vscode.diff', left, file, vscode.l10n.t('{0} ({1})', rel, label), { preview: true });
  }

  /** The text of a run's base file for the diff (`switchboard-parallel-base:/<set>/<run>/<path>`). */
  async baseText(uri: vscode.Uri): Promise<string> {
    if (uri.query === 'deleted') return '';
    const [, setId, , ...rest] = uri.path.split('/');
    const snap = this.sets.get(setId)?.snap;
    const bytes = snap && (await baseBytes(snap, rest.join('/')));
    return bytes ? bytes.toString('utf8') : '';
  }

  /** Applies an event, tells the panel, and runs the model's effects. */
  private async fire(set: LiveSet, event: RunSetEvent): Promise<void> {
    const t = runSetTransition(set.state, event);
    if (t.state === set.state && !t.effects.length) return;
    set.state = t.state;
    this.changeEmitter.fire(set.state);
    for (const effect of t.effects) {
      try {
        if (effect.type === 'stopRun') await this.stopProcess(set, effect.run);
        else if (effect.type === 'applyRun') await this.applyRun(set, effect.run);
        else await this.removeAll(set);
      } catch (err) {
        this.log.error(`Parallel runs: ${effect.type} failed: ${describe(err)}`);
      }
    }
  }

  private async stopProcess(set: LiveSet, runId: string): Promise<void> {
    const run = set.runs.get(runId);
    if (!run) return;
    run.abort.abort();
    await run.session?.cancel().catch(() => undefined);
    await run.runtime?.stop().catch(() => undefined);
  }

  /**
   * Each file the run changed is brought into the user's tree as a change of a review turn of its
   * own: written over the user's file where the user did not change it since the run started, merged
   * where both changed different lines, and left alone (and named) where both changed the same lines.
   */
  private async applyRun(set: LiveSet, runId: string): Promise<void> {
    const run = set.runs.get(runId);
    const state = set.state.runs.find(r => r.id === runId);
    const snap = set.snap;
    if (!run || !state || !snap) return;
    // The run's last changes (a stopped run may have written more since its list was made).
    const files = await changesIn(snap, run.dir).catch(() => state.files);
    const tabId = `parallel-${set.state.id}`;
    const agentLabel = vscode.l10n.t('{0} (parallel run)', state.label);
    this.review.beginTurn(tabId, agentLabel);
    const skipped: string[] = [];
    /** Links, special files, paths through a link out of the tree: never followed, never applied. */
    const links: string[] = [];
    /** Applied, but outside the workspace folder the set was started in. */
    const outside: string[] = [];
    const folder = path.join(snap.repoRoot, snap.folderInRepo);
    let applied = 0;
    try {
      const [realRepo, realRun] = await Promise.all([fsPromises.realpath(snap.repoRoot), fsPromises.realpath(run.dir)]);
      for (const f of files) {
        const target = path.join(snap.repoRoot, f.path);
        if (!(await plainFileIn(path.join(run.dir, f.path), realRun)) || !(await plainFileIn(target, realRepo))) { links.push(f.path); continue; }
        // A merge into the file's tab in flight (it reverts the tab for a moment, and an undo's writes
        // the disk) is done before the file and the tab are read.
        const tab = openDocumentOf(target);
        if (tab) await mergesDone(target);
        const base = await baseBytes(snap, f.path);
        const theirs = await fsPromises.readFile(path.join(run.dir, f.path)).catch(() => undefined);
        const ours = await fsPromises.readFile(target).catch(() => undefined);
        const result = mergeApplied(base, ours, theirs);
        // A tab with unsaved edits: the run's change must merge into them too, else the file is left alone.
        const dirty = tab?.isDirty ? tab : undefined;
        if (result === 'conflict' || (dirty && tabMerge(dirty, base, theirs) === 'conflict')) { skipped.push(f.path); continue; }
        if (result === null) await fsPromises.rm(target, { force: true });
        else { mkdirSync(path.dirname(target), { recursive: true }); await fsPromises.writeFile(target, result); }
        const before = ours ? decodeFor(target, ours, tab) : null;
        const after = result ? decodeFor(target, result, tab) : null;
        this.review.recordApplied(tabId, target, before, after);
        // The tab keeps the user's unsaved edits, on top of the run's change (its next save is no conflict).
        if (dirty && after?.kind !== 'binary') await reconcileDirtyBuffer(target, before?.kind === 'text' ? before.text : undefined, after?.text ?? null, agentLabel, this.log);
        applied++;
        if (!isWithin(target, folder)) outside.push(f.path);
      }
    } catch (err) {
      await this.review.endTurn(tabId);
      await this.fire(set, { type: 'applyFailed', message: vscode.l10n.t('Could not apply the run of {0}: {1}', state.label, describe(err)) });
      return;
    }
    await this.review.endTurn(tabId);
    const message = [
      skipped.length
        ? vscode.l10n.t('Applied {0} file(s) from {1}; review them in Agent Changes. Not applied, because you changed the same lines since the run started: {2}', applied, state.label, skipped.join(', '))
        : vscode.l10n.t('Applied {0} file(s) from {1}; review them in Agent Changes (Keep or Undo each change).', applied, state.label),
      ...(links.length ? [vscode.l10n.t('Not applied, because it is a symbolic link, a special file, or reached through a link out of the repository (Switchboard never follows links when applying): {0}', links.join(', '))] : []),
      ...(outside.length ? [vscode.l10n.t('Applied outside the workspace folder {0}, check them: {1}', folder, outside.join(', '))] : []),
    ].join(' ');
    await this.fire(set, { type: 'applied', message });
  }

  private async removeAll(set: LiveSet): Promise<void> {
    await Promise.all([...set.runs.keys()].map(id => this.stopProcess(set, id)));
    if (set.snap) await removeWorktrees(set.snap, [...set.runs.values()].map(r => r.dir)).catch(err => this.log.warn(`Could not remove worktrees: ${describe(err)}`));
    rmSync(set.dir, { recursive: true, force: true });
    for (const run of set.runs.values()) run.session?.dispose();
  }

  override dispose(): void {
    // The window closes: agents end, worktrees go now (a later start sweeps what could not).
    for (const set of this.sets.values()) {
      for (const run of set.runs.values()) { run.abort.abort(); void run.runtime?.stop(); run.session?.dispose(); }
      if (!isOpen(set.state) && !existsSync(set.dir)) continue;
      if (set.snap) removeWorktreesSync(set.snap, [...set.runs.values()].map(r => r.dir));
      rmSync(set.dir, { recursive: true, force: true });
    }
    super.dispose();
  }
}

/** The tab's unsaved text with the run's change merged in; 'conflict' when they change the same lines (or a side is not text). */
function tabMerge(doc: vscode.TextDocument, base: Uint8Array | undefined, theirs: Uint8Array | undefined): string | null | 'conflict' {
  const text = (bytes: Uint8Array | undefined): string | undefined | false => {
    if (!bytes) return undefined;
    const data = decodeFor(doc.uri.fsPath, bytes, doc);
    return data.kind === 'text' ? data.text : false;
  };
  const [b, t] = [text(base), text(theirs)];
  return b === false || t === false ? 'conflict' : mergeTexts(b, doc.getText(), t);
}

export const BASE_SCHEME = 'switchboard-parallel-base';
