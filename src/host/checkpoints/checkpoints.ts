// Checkpoints (docs/decisions/0027): before each turn, every workspace folder's files are recorded in
// a shadow git repository in the extension's storage (shadowRepo.ts); "Restore files to before this
// turn" on a user message shows what would change, then writes back every file changed since, however
// it changed, and can itself be undone. What to restore is decided by common/checkpoints/plan.ts.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { processGuard } from '../../acp/processGuard';
import { PROC_TAG_VAR } from '../../acp/processTree';
import { fileLabel } from '../../common/bidi';
import { isWithin } from '../../common/fs/pathPolicy';
import { foldersToRemove, parseRawDiff, restorePlan, restoreScope, toPrune, type FileOp, type TurnSpan } from '../../common/checkpoints/plan';
import { Disposable } from '../../common/disposable';
import { errorMessage } from '../../common/errorText';
import type { Logger } from '../../common/logger';
import { reconcileDirtyBuffer } from '../review/bufferReconcile';
import { mergesDone } from '../fs/tabMerges';
import { gitProgram, readDisk } from '../review/diskSources';
import { createGitRunner } from './gitRunner';
import { ShadowRepo, type KeptFile } from './shadowRepo';

/** Files the watcher may report between two checkpoints before git is asked to list them instead. */
const MAX_TOUCHED = 4096;

export const CHECKPOINT_SCHEME = 'switchboard-checkpoint';

type Trees = Record<string, string>;

interface TurnRecord {
  /** The conversation's key (unique for its life: a tab id can come back after a close). */
  readonly conversation: string;
  /** The user message's transcript item. */
  readonly item: string;
  readonly title: string;
  readonly start: number;
  end?: number;
  before: Trees;
  after?: Trees;
  /** Absolute paths the turn changed (before vs after). */
  changed?: string[];
  closedAt?: number;
}

interface RestoreRecord {
  readonly id: number;
  /**
   * Folder → the bytes on disk just before the restore of every path it changed (stored in the
   * shadow repository whatever the ignore rules or the size cap): what Undo Restore brings back.
   */
  readonly kept: Record<string, KeptFile[]>;
}

type Plan = { folder: string; repo: ShadowRepo; ops: FileOp[] };

interface Manifest {
  version: 1;
  seq: number;
  /** Open conversations: tab id → key. */
  open: Record<string, string>;
  turns: TurnRecord[];
  restores: RestoreRecord[];
}

/** What a restore confirmation asks; tests replace it (like the chat's `ui.confirm`). */
export interface CheckpointUi {
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** An information message with buttons; resolves the one chosen. */
  inform(message: string, ...actions: string[]): Promise<string | undefined>;
}

export class Checkpoints extends Disposable {
  private manifest: Manifest | undefined;
  private readonly repos = new Map<string, ShadowRepo>();
  private readonly dir: string | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private git: Promise<string | undefined> | undefined;
  private offNoted = false;
  /** Starts every git process of the checkpoints, off the extension host's thread where that matters (gitRunner.ts). */
  private readonly runner = createGitRunner({ env: { [PROC_TAG_VAR]: processGuard.newTag() } });
  /** Checkpoints being taken, by conversation key: a restore or the turn's end waits for them. */
  private readonly pending = new Map<string, Promise<void>>();
  private readonly docEmitter = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly ui: CheckpointUi = {
    confirm: async (message, detail, action) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action,
    inform: async (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
  };

  /** Told of the files a restore (or its undo) wrote or deleted, right after. */
  onDidWrite: ((paths: readonly string[]) => void) | undefined;

  constructor(storageDir: string | undefined, private readonly log: Logger) {
    super();
    this.dir = storageDir && path.join(storageDir, 'checkpoints');
    this.register(vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      onDidChange: this.docEmitter.event,
      provideTextDocumentContent: uri => this.content(uri),
    }));
  }

  private setting<T>(key: string, fallback: T): T {
    return vscode.workspace.getConfiguration('switchboard.checkpoints').get<T>(key, fallback);
  }

  private maxFileBytes(): number { return Math.max(0, this.setting('maxFileSizeMB', 5)) * 1024 * 1024; }

  private get enabled(): boolean { return this.setting('enabled', true) && !!this.dir && vscode.workspace.isTrusted; }

  private folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  }

  private async repo(folder: string): Promise<ShadowRepo | undefined> {
    const found = this.repos.get(folder);
    if (found) return found;
    const git = await (this.git ??= gitProgram());
    if (!git || !this.dir) return undefined;
    const id = crypto.createHash('sha256').update(folder).digest('hex').slice(0, 16);
    const repo = new ShadowRepo({ git, gitDir: path.join(this.dir, `${id}.git`), workTree: folder, maxFileBytes: this.maxFileBytes(), runner: this.runner });
    this.repos.set(folder, repo);
    return repo;
  }

  private load(): Manifest {
    if (this.manifest) return this.manifest;
    let m: Manifest | undefined;
    try {
      const raw = this.dir && JSON.parse(fs.readFileSync(path.join(this.dir, 'checkpoints.json'), 'utf8'));
      if (raw?.version === 1 && Array.isArray(raw.turns)) m = raw as Manifest;
      // Restores recorded before the bytes were kept cannot be undone exactly: not offered.
      if (m) m.restores = (m.restores ?? []).filter(r => r && typeof r.kept === 'object');
    } catch { /* none yet, or unreadable: start anew */ }
    return (this.manifest = m ?? { version: 1, seq: 0, open: {}, turns: [], restores: [] });
  }

  private save(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flush(), 200);
  }

  private flush(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.manifest || !this.dir) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const file = path.join(this.dir, 'checkpoints.json');
      fs.writeFileSync(file + '.tmp', JSON.stringify(this.manifest));
      fs.renameSync(file + '.tmp', file);
    } catch (err) {
      this.log.warn(`Checkpoints: the list could not be saved: ${errorMessage(err)}`);
    }
  }

  private keyOf(tabId: string): string {
    const m = this.load();
    return (m.open[tabId] ??= `${tabId}-${crypto.randomBytes(4).toString('hex')}`);
  }

  /**
   * The files created or changed since the last checkpoint, as the file watcher reported them
   * (absolute); undefined until it watches, or when more than MAX_TOUCHED were (git lists them then).
   * A checkpoint leaves those over the size cap out before git reads them (shadowRepo.ts).
   */
  private touched: Set<string> | undefined;
  private watching = false;

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/*', false, false, true));
    const note = (uri: vscode.Uri) => {
      if (uri.scheme !== 'file' || !this.touched) return;
      if (this.touched.size >= MAX_TOUCHED) this.touched = undefined;
      else this.touched.add(uri.fsPath);
    };
    this.register(watcher.onDidCreate(note));
    this.register(watcher.onDidChange(note));
  }

  /** Every folder's tree now; undefined (and a note once) when checkpoints cannot be taken. */
  private async snapshot(): Promise<Trees | undefined> {
    // From here on the watcher's reports are the next checkpoint's (the first one lists with git).
    this.watch();
    const touched = this.touched;
    this.touched = new Set();
    const trees: Trees = {};
    for (const folder of this.folders()) {
      const repo = await this.repo(folder);
      if (!repo) { this.noteOff(vscode.l10n.t('Checkpoints are off: git was not found. Install git (Switchboard keeps checkpoints in a git directory of its own) to restore files to before a turn.')); return undefined; }
      repo.maxFileBytes = this.maxFileBytes();
      try {
        trees[folder] = await repo.snapshot(touched && [...touched].flatMap(p => (p !== folder && isWithin(p, folder) ? [toPosix(path.relative(folder, p))] : [])));
      } catch (err) {
        // The reports taken for it are lost with it: the next checkpoint asks git instead.
        this.touched = undefined;
        throw err;
      }
    }
    return trees;
  }

  private noteOff(message: string): void {
    this.log.warn(message);
    if (this.offNoted) return;
    this.offNoted = true;
    void vscode.window.showWarningMessage(message);
  }

  /** Takes the first checkpoint ahead (its first one reads every file): the turn's own is then quick. */
  warm(): void {
    if (!this.enabled || this.repos.size) return;
    void this.snapshot().catch(err => this.log.warn(`Checkpoints: ${errorMessage(err)}`));
  }

  /**
   * Records the workspace before a turn of tab `tabId`, whose user message is `item`. The turn's
   * prompt goes to the agent once this resolves: nothing the agent does can come before it.
   */
  async beforeTurn(tabId: string, item: string, title: string): Promise<void> {
    if (!this.enabled || !this.folders().length) return;
    const m = this.load();
    const key = this.keyOf(tabId);
    const record: TurnRecord = { conversation: key, item, title, start: ++m.seq, before: {} };
    const started = Date.now();
    try {
      const trees = await this.snapshot();
      if (!trees) return;
      record.before = trees;
      m.turns.push(record);
      this.log.info(`Checkpoint before ${key}/${item}: ${Date.now() - started} ms`);
      this.pinAll(record, 'before', trees);
      this.save();
    } catch (err) {
      this.noteOff(vscode.l10n.t('A checkpoint could not be taken before this turn: {0}', errorMessage(err)));
    }
  }

  /** The turn ended: its after-state tells which files it changed (for restores while several agents work). */
  afterTurn(tabId: string): void {
    const m = this.load();
    const key = m.open[tabId];
    const record = key && [...m.turns].reverse().find(t => t.conversation === key);
    if (!record || record.end !== undefined) return;
    record.end = ++m.seq;
    const work = (async () => {
      const trees = await this.snapshot();
      if (!trees) return;
      record.after = trees;
      record.changed = await this.changedPaths(record.before, trees);
      this.pinAll(record, 'after', trees);
      this.save();
    })().catch(err => this.log.warn(`Checkpoints: after the turn: ${errorMessage(err)}`));
    this.pending.set(key, work);
    void work.finally(() => { if (this.pending.get(key) === work) this.pending.delete(key); });
  }

  /** The conversation was closed: its checkpoints are kept until pruned by age and size. */
  closed(tabId: string): void {
    const m = this.load();
    const key = m.open[tabId];
    if (!key) return;
    delete m.open[tabId];
    const now = Date.now();
    for (const t of m.turns) if (t.conversation === key) t.closedAt = now;
    this.save();
    void this.prune();
  }

  /** Tabs that no longer exist were closed (a reload restores the others). */
  tabsAre(tabIds: readonly string[]): void {
    for (const id of Object.keys(this.load().open)) if (!tabIds.includes(id)) this.closed(id);
  }

  private pinAll(record: TurnRecord, side: string, trees: Trees): void {
    for (const [folder, tree] of Object.entries(trees)) {
      void this.repo(folder).then(r => r?.pin([{ name: `${record.conversation}/${record.item}-${side}`, tree }]))
        .catch(err => this.log.warn(`Checkpoints: ${errorMessage(err)}`));
    }
  }

  /** Frees the bytes a restore kept (it can no longer be undone). */
  private async unpinRestore(restore: RestoreRecord): Promise<void> {
    for (const folder of Object.keys(restore.kept)) {
      await this.repo(folder).then(r => r?.unpin([`restore/${restore.id}`])).catch(err => this.log.warn(`Checkpoints: ${errorMessage(err)}`));
    }
  }

  private async changedPaths(before: Trees, after: Trees): Promise<string[]> {
    const out: string[] = [];
    for (const [folder, tree] of Object.entries(after)) {
      const old = before[folder];
      const repo = await this.repo(folder);
      if (!old || !repo) continue;
      for (const c of parseRawDiff(await repo.diff(old, tree))) out.push(path.join(folder, c.path));
    }
    return out;
  }

  /** Whether the user message `item` of tab `tabId` has a checkpoint. */
  has(tabId: string, item: string): boolean {
    const key = this.load().open[tabId];
    return !!key && this.load().turns.some(t => t.conversation === key && t.item === item);
  }

  // ---- restore -------------------------------------------------------------------------------------

  /** "Restore files to before this turn" of the user message `item` in tab `tabId`. False: nothing was restored. */
  async restore(tabId: string, item: string, busy: boolean, titleOf: (key: string) => string): Promise<boolean> {
    const m = this.load();
    const key = m.open[tabId];
    const record = key ? m.turns.find(t => t.conversation === key && t.item === item) : undefined;
    if (!record) {
      void vscode.window.showInformationMessage(this.enabled
        ? vscode.l10n.t('No checkpoint was recorded before this turn (it ran before checkpoints were on, or its checkpoint was pruned).')
        : vscode.l10n.t('Checkpoints are off (setting switchboard.checkpoints.enabled, a trusted workspace and git are needed).'));
      return false;
    }
    if (busy) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The agent is still working in this conversation: stop its turn first, or it may change files again while they are restored.'));
      return false;
    }
    await this.pending.get(record.conversation);
    const now = await this.snapshot();
    if (!now) return false;
    const spans: TurnSpan[] = [];
    for (const t of m.turns) {
      if (t.closedAt !== undefined && t.conversation !== record.conversation) continue;
      spans.push({ conversation: t.conversation, start: t.start, end: t.end, changed: t.changed ?? await this.changedPaths(t.before, now) });
    }
    const scope = restoreScope(spans, record.conversation, record.start);
    const others = new Map([...scope.others].map(([p, keys]) => [p, keys.map(k => m.turns.find(t => t.conversation === k)?.title ?? titleOf(k))]));
    return this.restoreTo(record.before, now, scope.paths, others, vscode.l10n.t('Restore files to before this turn'));
  }

  /** Brings back the files as they were before the last restore. */
  async undoRestore(): Promise<boolean> {
    const last = this.load().restores.at(-1);
    if (!last) {
      void vscode.window.showInformationMessage(vscode.l10n.t('There is no restore to undo.'));
      return false;
    }
    const plans: Plan[] = [];
    for (const [folder, kept] of Object.entries(last.kept)) {
      const repo = await this.repo(folder);
      if (!repo) continue;
      const current = new Map((await repo.keep(kept.map(k => k.path))).map(k => [k.path, k]));
      const ops: FileOp[] = [];
      for (const k of kept) {
        const now = current.get(k.path);
        if ((now?.sha ?? null) === k.sha && now?.mode === k.mode) continue;
        ops.push(k.sha ? { op: 'write', path: k.path, sha: k.sha, mode: k.mode ?? '100644' } : { op: 'delete', path: k.path });
      }
      if (ops.length) plans.push({ folder, repo, ops });
    }
    const done = await this.confirmAndApply(plans, new Map(), vscode.l10n.t('Undo the restore'), true);
    if (done) {
      const m = this.load();
      m.restores = m.restores.filter(r => r.id !== last.id);
      this.save();
      await this.unpinRestore(last);
    }
    return done;
  }

  private async restoreTo(target: Trees, now: Trees, scope: ReadonlySet<string> | undefined, others: ReadonlyMap<string, readonly string[]>, title: string): Promise<boolean> {
    const plans: Plan[] = [];
    for (const [folder, tree] of Object.entries(target)) {
      const repo = await this.repo(folder);
      const current = now[folder];
      if (!repo || !current) continue;
      const rel = scope && new Set([...scope].filter(p => isInside(folder, p)).map(p => toPosix(path.relative(folder, p))));
      const ops = restorePlan(parseRawDiff(await repo.diff(tree, current)), rel, await repo.leftOut(tree));
      if (ops.length) plans.push({ folder, repo, ops });
    }
    return this.confirmAndApply(plans, others, title, false);
  }

  /** Shows what changes, asks, then keeps the bytes the restore replaces and writes the files. */
  private async confirmAndApply(plans: Plan[], others: ReadonlyMap<string, readonly string[]>, title: string, isUndo: boolean): Promise<boolean> {
    const count = plans.reduce((n, p) => n + p.ops.length, 0);
    if (!count) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No file changed since this checkpoint: nothing to restore.'));
      return false;
    }
    await this.showChanges(plans, title);
    const deleted = plans.reduce((n, p) => n + p.ops.filter(o => o.op === 'delete').length, 0);
    const shared = [...others].map(([p, names]) => vscode.l10n.t('{0} (also changed by {1})', fileLabel(p), names.join(', ')));
    const used = await this.storageUsed();
    const detail = [
      deleted ? vscode.l10n.t('{0} files go back to their bytes at the checkpoint; {1} files created since are deleted.', count - deleted, deleted) : vscode.l10n.t('{0} files go back to their bytes at the checkpoint.', count),
      ...(shared.length ? [vscode.l10n.t('Other conversations changed some of them since: {0}.', shared.join('; '))] : []),
      vscode.l10n.t('Unsaved edits in open editors are kept and shown as conflicts. The restore can be undone (Switchboard: Undo Restore).'),
      vscode.l10n.t('Checkpoints use {0} of storage.', formatBytes(used)),
    ].join('\n\n');
    const action = isUndo ? vscode.l10n.t('Undo Restore') : vscode.l10n.t('Restore');
    const message = isUndo ? vscode.l10n.t('Undo the restore of {0} files?', count) : vscode.l10n.t('Restore {0} files to before this turn?', count);
    if (!(await this.ui.confirm(message, detail, action))) return false;

    const m = this.load();
    const restore: RestoreRecord = { id: ++m.seq, kept: {} };
    const failures: string[] = [];
    // A file whose folder is (through a link) outside the workspace is refused, never written or deleted there.
    plans = await Promise.all(plans.map(async p => ({ ...p, ops: await this.insideOnly(p.folder, p.ops, failures) })));
    if (!isUndo) {
      // Every byte the restore replaces, kept first (whatever the ignore rules or the size cap): Undo Restore is exact.
      try {
        for (const plan of plans) {
          restore.kept[plan.folder] = await plan.repo.keep(plan.ops.map(o => o.path), `restore/${restore.id}`);
        }
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Nothing was restored: the files as they are now could not be kept for Undo Restore: {0}', errorMessage(err)));
        return false;
      }
    }
    for (const plan of plans) await this.apply(plan.folder, plan.repo, plan.ops, failures);
    if (!isUndo) {
      m.restores.push(restore);
      // Only the last 20 can be undone: the bytes kept for older ones are freed.
      for (const old of m.restores.splice(0, Math.max(0, m.restores.length - 20))) void this.unpinRestore(old);
    }
    this.save();
    this.log.info(`Checkpoints: ${isUndo ? 'undid a restore' : 'restored'} ${count} file(s)${failures.length ? `; failed: ${failures.join(', ')}` : ''}`);
    if (failures.length) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Some files could not be restored: {0}', failures.join('; ')));
    } else if (!isUndo) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0} files to before the turn.', count), vscode.l10n.t('Undo Restore')).then(choice => {
        if (choice) void this.undoRestore();
      });
    }
    return true;
  }

  /** The changes a restore makes, in VS Code's multi-file diff: each file now (left) against what it becomes (right). */
  private async showChanges(plans: readonly Plan[], title: string): Promise<void> {
    const resources: [vscode.Uri, vscode.Uri, vscode.Uri][] = [];
    for (const { folder, ops } of plans) {
      for (const op of ops) {
        const file = vscode.Uri.file(path.join(folder, op.path));
        const empty = file.with({ scheme: CHECKPOINT_SCHEME, query: '' });
        // What is on disk, not in the tree now (a file over the size cap or ignored is not there).
        const existsNow = await fs.promises.lstat(file.fsPath).then(() => true, () => false);
        const left = existsNow ? file : empty;
        const right = op.op === 'write' ? file.with({ scheme: CHECKPOINT_SCHEME, query: `${encodeURIComponent(folder)}&${op.sha}` }) : empty;
        resources.push([file, left, right]);
      }
    }
    try {
      await vscode.commands.executeCommand('vscode.changes', title, resources);
    } catch (err) {
      this.log.warn(`Checkpoints: the changes editor could not open: ${errorMessage(err)}`);
    }
  }

  private async content(uri: vscode.Uri): Promise<string> {
    const [folder, sha] = uri.query.split('&');
    if (!sha) return '';
    const repo = await this.repo(decodeURIComponent(folder));
    const bytes = await repo?.blob(sha).catch(() => undefined);
    if (!bytes) return '';
    return bytes.includes(0) ? vscode.l10n.t('(binary file, {0} bytes)', bytes.length) : new TextDecoder().decode(bytes);
  }

  /** The ops whose file's folder resolves (links followed) inside the workspace folder; the others go to `failures`. */
  private async insideOnly(folder: string, ops: readonly FileOp[], failures: string[]): Promise<FileOp[]> {
    const kept: FileOp[] = [];
    for (const op of ops) {
      if (await parentInside(folder, op.path)) kept.push(op);
      else failures.push(vscode.l10n.t('{0}: its folder is a link to outside the workspace folder; not restored', op.path));
    }
    return kept;
  }

  /** Deletes first (a folder may take a file's place), then writes; open tabs with unsaved edits keep them as conflicts. */
  private async apply(folder: string, repo: ShadowRepo, ops: readonly FileOp[], failures: string[]): Promise<void> {
    const label = vscode.l10n.t({ message: 'The checkpoint', comment: 'Who changed a file on disk under unsaved edits: the restore of a checkpoint' });
    const dirty = new Map<string, string | undefined>();
    for (const op of ops) {
      const abs = path.join(folder, op.path);
      const doc = vscode.workspace.textDocuments.find(d => d.uri.scheme === 'file' && d.uri.fsPath === abs && !d.isClosed);
      if (!doc) continue;
      // A merge into the tab (an agent's late write) reverts it to the disk before it sets the merged
      // text: its unsaved edits are judged once the merges queued by now are done, not in the moment
      // it looks clean. (One queued after this check runs before the restore's own merge, which
      // judges the tab again in its turn.)
      await mergesDone(abs);
      if (doc.isDirty) dirty.set(abs, await textOnDisk(abs));
    }
    const deletes = ops.filter(o => o.op === 'delete');
    for (const op of deletes) {
      if (!(await parentInside(folder, op.path))) { failures.push(vscode.l10n.t('{0}: its folder is a link to outside the workspace folder; not restored', op.path)); continue; }
      await fs.promises.rm(path.join(folder, op.path), { force: true, recursive: true }).catch(err => failures.push(`${op.path}: ${errorMessage(err)}`));
    }
    for (const dir of foldersToRemove(deletes.map(o => o.path))) await fs.promises.rmdir(path.join(folder, dir)).catch(() => undefined);
    for (const op of ops) {
      if (op.op !== 'write') continue;
      const abs = path.join(folder, op.path);
      try {
        const bytes = await repo.blob(op.sha);
        if (!(await parentInside(folder, op.path))) { failures.push(vscode.l10n.t('{0}: its folder is a link to outside the workspace folder; not restored', op.path)); continue; }
        await fs.promises.mkdir(path.dirname(abs), { recursive: true });
        const stat = await fs.promises.lstat(abs).catch(() => undefined);
        if (stat && (stat.isDirectory() || stat.isSymbolicLink() || op.mode === '120000')) await fs.promises.rm(abs, { recursive: true, force: true });
        if (op.mode === '120000') await fs.promises.symlink(bytes.toString('utf8'), abs);
        else {
          await fs.promises.writeFile(abs, bytes);
          const exec = op.mode === '100755';
          const mode = (await fs.promises.stat(abs)).mode;
          if (exec !== !!(mode & 0o100)) await fs.promises.chmod(abs, exec ? mode | 0o111 : mode & ~0o111);
        }
      } catch (err) {
        failures.push(`${op.path}: ${errorMessage(err)}`);
      }
    }
    // Our writes, not an agent's: the review does not take them for the last turn's (it may still be ending).
    this.onDidWrite?.(ops.map(op => path.join(folder, op.path)));
    for (const [abs, before] of dirty) {
      const after = fs.existsSync(abs) ? await textOnDisk(abs) : null;
      if (after === undefined) continue;
      await reconcileDirtyBuffer(abs, before, after, label, this.log).catch(err => this.log.warn(`Checkpoints: ${abs}: ${errorMessage(err)}`));
    }
  }

  // ---- storage -------------------------------------------------------------------------------------

  async storageUsed(): Promise<number> {
    let total = 0;
    for (const folder of this.folders()) total += (await (await this.repo(folder))?.size()) ?? 0;
    return total;
  }

  /** Shows the storage checkpoints use, with a way to prune closed conversations' checkpoints now. */
  async showStorage(): Promise<void> {
    const used = await this.storageUsed();
    const m = this.load();
    const prune = vscode.l10n.t('Prune Now');
    const choice = await this.ui.inform(vscode.l10n.t('Checkpoints use {0} of storage ({1} turns, in {2}).', formatBytes(used), m.turns.length, this.dir ?? '—'), prune);
    if (choice === prune) await this.prune(true);
  }

  /** Drops closed conversations' checkpoints older than the age setting, then while storage exceeds its cap. */
  async prune(force = false): Promise<void> {
    if (!this.dir) return;
    const m = this.load();
    const convs = new Map<string, { key: string; closedAt?: number; checkpoints: number }>();
    for (const t of m.turns) {
      const c = convs.get(t.conversation) ?? { key: t.conversation, closedAt: t.closedAt, checkpoints: 0 };
      c.checkpoints++;
      convs.set(t.conversation, c);
    }
    const day = 24 * 60 * 60 * 1000;
    const policy = { maxAgeMs: Math.max(0, this.setting('maxAgeDays', 14)) * day, maxBytes: Math.max(0, this.setting('maxStorageMB', 1024)) * 1024 * 1024 };
    // Prune Now: every closed conversation's checkpoints.
    const drop = new Set(force ? [...convs.values()].filter(c => c.closedAt !== undefined).map(c => c.key) : toPrune([...convs.values()], Date.now(), policy, await this.storageUsed()));
    if (!drop.size) return;
    const dropped = m.turns.filter(t => drop.has(t.conversation));
    m.turns = m.turns.filter(t => !drop.has(t.conversation));
    this.flush();
    const kept = new Set(m.restores.map(r => `restore/${r.id}`));
    for (const folder of this.folders()) {
      const repo = await this.repo(folder);
      if (!repo) continue;
      // Undo points of restores no longer offered go too.
      const restores = (await repo.git(['for-each-ref', '--format=%(refname)', 'refs/checkpoints/restore/']).catch(() => '')).split('\n')
        .map(r => r.replace(/^refs\/checkpoints\//, '')).filter(r => r && !kept.has(r));
      await repo.unpin([...restores, ...dropped.flatMap(t => [`${t.conversation}/${t.item}-before`, `${t.conversation}/${t.item}-after`])])
        .catch(err => this.log.warn(`Checkpoints: prune: ${errorMessage(err)}`));
    }
    this.log.info(`Checkpoints: pruned ${dropped.length} checkpoint(s) of ${drop.size} closed conversation(s)`);
  }

  override dispose(): void {
    if (this.saveTimer) this.flush();
    this.runner.dispose();
    super.dispose();
  }
}

/**
 * Whether the folder of `rel` (its deepest existing ancestor, links resolved) is inside the workspace
 * folder: a folder the agent replaced by a link must not take a restore's writes elsewhere.
 */
async function parentInside(folder: string, rel: string): Promise<boolean> {
  const root = await fs.promises.realpath(folder).catch(() => folder);
  let dir = path.dirname(path.join(folder, rel));
  for (;;) {
    const real = await fs.promises.realpath(dir).catch(() => undefined);
    if (real !== undefined) return real === root || isInside(root, real);
    const up = path.dirname(dir);
    if (up === dir || !(dir === folder || isInside(folder, dir))) return false;
    dir = up;
  }
}

function isInside(folder: string, p: string): boolean {
  const rel = path.relative(folder, p);
  return !!rel && !rel.startsWith('..') && !path.isAbsolute(rel);
}

const toPosix = (p: string) => p.split(path.sep).join('/');

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? vscode.l10n.t('{0} MB', (n / 1024 / 1024).toFixed(1)) : vscode.l10n.t('{0} KB', Math.ceil(n / 1024));
}

/**
 * A file's text as its tab decodes it (its encoding, the BOM apart), for the merge of the tab's
 * unsaved edits; undefined when it is not text in that encoding (nothing is merged then).
 */
async function textOnDisk(file: string): Promise<string | undefined> {
  const data = await readDisk(file).catch(() => undefined);
  return data?.kind === 'text' ? data.text : undefined;
}
