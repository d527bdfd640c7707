// A shadow git repository: its own git directory in the extension's storage, the workspace folder as
// its work tree (docs/decisions/0027). A checkpoint is `git add -A` into the shadow index, then
// `git write-tree`: a tree object, never a commit, stash or branch, and nothing of the user's
// repository (its index, refs, hooks, config) is read or written. Node only (no `vscode`): the
// benchmark runs it as it is.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../../common/fs/pathPolicy';
import { gitEnv } from '../../common/gitEnv';
import { directRunner, type GitRunner } from './gitRunner';

/** Output a git command may print (a raw diff of a large workspace; a blob up to the size cap). */
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * The attributes every path gets, above any `.gitattributes` of the workspace: no end-of-line
 * conversion, no clean/smudge filter, no encoding: the tree holds the exact bytes on disk.
 */
const ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';

/** In the shadow directory: the files over the size cap at the last snapshot, NUL-separated. */
const TOO_BIG_FILE = 'too-big';

/** Whether `rel` (`/`-separated) names a path inside `root`, never `root` itself. */
function isInside(root: string, rel: string): boolean {
  const abs = path.resolve(root, rel);
  return abs !== path.resolve(root) && isWithin(abs, root);
}

export interface ShadowRepoOptions {
  /** The git program (absolute; never one the workspace chooses). */
  readonly git: string;
  /** The shadow git directory (created on first use). */
  readonly gitDir: string;
  /** The workspace folder. */
  readonly workTree: string;
  /** Files larger than this are left out of checkpoints (bytes); 0: no cap. */
  readonly maxFileBytes: number;
  /** Who starts git (gitRunner.ts); directly from this process by default. */
  readonly runner?: GitRunner;
}

/** A file's bytes as stored in the shadow repository; `sha` null: no file there. */
export interface KeptFile {
  readonly path: string;
  readonly sha: string | null;
  readonly mode?: string;
}

export class ShadowRepo {
  private queue: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;
  /** Files (relative, `/`-separated) over the size cap at the last snapshot. */
  private readonly tooBig = new Set<string>();
  /** Whether tooBig was read from the last window's snapshot; whether that file holds any. */
  private tooBigLoaded = false;
  private tooBigSaved = false;

  /** Files larger than this are left out of the next checkpoints (bytes); 0: no cap. */
  maxFileBytes: number;

  constructor(readonly options: ShadowRepoOptions) {
    this.maxFileBytes = options.maxFileBytes;
  }

  /** Runs `work` after every git command queued before it (one shadow index: one writer at a time). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** git with the shadow directory and the folder; no environment variable of the caller's repository applies. */
  git(args: readonly string[], opts: { input?: string; bare?: boolean } = {}): Promise<string> {
    return this.gitRaw(args, opts).then(b => b.toString('utf8'));
  }

  async gitRaw(args: readonly string[], opts: { input?: string; bare?: boolean } = {}): Promise<Buffer> {
    const { git, gitDir, workTree, runner = directRunner } = this.options;
    const env = gitEnv(process.env, { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
    const r = await runner.run(git, opts.bare ? args : [`--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args], { cwd: opts.bare ? path.dirname(gitDir) : workTree, env, input: opts.input, maxBuffer: MAX_BUFFER });
    if (r.error !== undefined) throw new Error(`git ${args[0]} failed: ${(r.stderr.toString('utf8').trim() || r.error).slice(0, 500)}`);
    return r.stdout;
  }

  /** Creates the shadow directory once: its own config (no gc of our trees, fast status) and attributes. */
  private init(): Promise<void> {
    return (this.ready ??= (async () => {
      const { gitDir } = this.options;
      if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
        await fs.promises.mkdir(gitDir, { recursive: true });
        await this.git(['init', '--quiet', '--bare', gitDir], { bare: true });
      }
      await fs.promises.mkdir(path.join(gitDir, 'info'), { recursive: true });
      await fs.promises.writeFile(path.join(gitDir, 'info', 'attributes'), ATTRIBUTES);
      // Empty: an earlier version left files over the size cap out here for good.
      await fs.promises.writeFile(path.join(gitDir, 'info', 'exclude'), '');
      const config: [string, string][] = [
        ['core.bare', 'false'], ['gc.auto', '0'], ['core.untrackedCache', 'true'], ['core.autocrlf', 'false'],
        ['core.safecrlf', 'false'], ['core.fsmonitor', 'false'], ['core.hooksPath', path.join(gitDir, 'no-hooks')], ['index.version', '4'],
        ['advice.addEmbeddedRepo', 'false'], ['core.quotePath', 'false'],
      ];
      for (const [k, v] of config) await this.git(['config', k, v]);
    })().catch(err => { this.ready = undefined; throw err; }));
  }

  /**
   * Records the folder as it is now (respecting its `.gitignore`, the user's global excludes, and
   * the size cap); resolves the tree's id. Files of the user's repository (`.git`) are never included.
   * `touched`: the files (relative, `/`-separated) created or changed since the last snapshot, as a
   * file watcher reported them: those over the cap are left out before `git add` would read them.
   * Undefined (not known, or too many): git lists them (a walk of the folder, ~15 ms per 10,000 files).
   * Over-cap files found are remembered (in the shadow directory too): skipped unread from then on.
   */
  snapshot(touched?: Iterable<string>): Promise<string> {
    return this.serial(async () => {
      await this.init();
      // This window's first snapshot: what changed since the last one (another window's) is unknown.
      if (!this.tooBigLoaded) { await this.loadTooBig(); touched = undefined; }
      // Files over the cap last time and still over it are left out without being read again; one
      // that shrank (or is no longer a file) is recorded again (the cap applies to each snapshot, never for good).
      let skip: string[] = [];
      for (const rel of this.tooBig) {
        const st = await fs.promises.lstat(path.join(this.options.workTree, rel)).catch(() => undefined);
        if (this.maxFileBytes > 0 && st?.isFile() && st.size > this.maxFileBytes) skip.push(rel);
        else this.tooBig.delete(rel);
      }
      // New or changed since the last snapshot, by their stat alone (nothing read): those over the
      // cap are left out before `git add` would read and store them (1 GiB: seconds of the prompt's
      // wait, and ~1 MiB of the storage for a file of zeros).
      // (The first snapshot of all reads every file anyway: those over the cap are then remembered.)
      if (this.maxFileBytes > 0) {
        const listed = touched !== undefined ? [...touched] : fs.existsSync(path.join(this.options.gitDir, 'index')) ? await this.listTouched() : [];
        skip.push(...await this.overCap(listed));
      }
      // --verbose names what was staged (what changed since the last snapshot): the size cap looks at those only.
      const add = (left: readonly string[]) => this.git(['add', '--all', '--verbose', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: ['.', ...left.map(rel => `:(exclude,literal)${rel}`)].join('\0') }).catch(err => {
        // A file that vanished or could not be read mid-walk: --ignore-errors staged the rest.
        if (!/adding files failed|failed to|unable to|could not|permission denied/i.test(String(err))) throw err;
        return '';
      });
      const added = await add(skip).catch(async err => {
        // An exclusion git refuses (a path beyond a link, or in a nested repository, since it was
        // listed): the checkpoint is taken without any, as before the cap looked ahead (capSizes below).
        if (!skip.length || !/pathspec|symbolic link|submodule|outside repository/i.test(String(err))) throw err;
        for (const rel of skip) this.tooBig.delete(rel);
        skip = [];
        return add([]);
      });
      if (this.maxFileBytes > 0) await this.capSizes(added);
      // A file left out stays out of the index too (this tree lacks it; the next snapshot looks again).
      // (--force: a file that grew past the cap has its older bytes staged; only the index is touched.)
      if (skip.length) await this.git(['rm', '--cached', '--force', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: skip.map(rel => `:(literal)${rel}`).join('\0') });
      const tree = (await this.git(['write-tree'])).trim();
      // Which files this tree lacks only for their size: a restore to it must not delete them.
      if (this.tooBig.size) {
        await fs.promises.mkdir(path.join(this.options.gitDir, 'left-out'), { recursive: true });
        await fs.promises.writeFile(path.join(this.options.gitDir, 'left-out', tree), [...this.tooBig].join('\0'));
      }
      // For the next window: its first snapshot skips them unread too.
      if (this.tooBig.size || this.tooBigSaved) {
        const file = path.join(this.options.gitDir, TOO_BIG_FILE);
        await fs.promises.writeFile(`${file}.tmp`, [...this.tooBig].join('\0'));
        await fs.promises.rename(`${file}.tmp`, file);
        this.tooBigSaved = this.tooBig.size > 0;
      }
      return tree;
    });
  }

  /** The files `tree` lacks only because they were over the size cap when it was recorded. */
  async leftOut(tree: string): Promise<Set<string>> {
    if (!/^[0-9a-f]+$/.test(tree)) return new Set();
    const list = await fs.promises.readFile(path.join(this.options.gitDir, 'left-out', tree), 'utf8').catch(() => '');
    return new Set(list.split('\0').filter(Boolean));
  }

  /**
   * The files new or changed since the last snapshot, by git's stat check (ignored files aside,
   * nothing read); of `only` when given.
   */
  private async listTouched(only?: readonly string[]): Promise<string[]> {
    const paths = only ? ['--', ...only.map(rel => `:(literal)${rel}`)] : [];
    return (await this.git(['ls-files', '--others', '--modified', '--exclude-standard', '-z', ...paths])).split('\0').filter(Boolean);
  }

  /** The files over the cap when the last snapshot (of any window) was taken. */
  private async loadTooBig(): Promise<void> {
    this.tooBigLoaded = true;
    const list = await fs.promises.readFile(path.join(this.options.gitDir, TOO_BIG_FILE), 'utf8').catch(() => '');
    for (const rel of list.split('\0')) if (rel && isInside(this.options.workTree, rel)) this.tooBig.add(rel);
    this.tooBigSaved = this.tooBig.size > 0;
  }

  /**
   * Of `listed` (new or changed since the last snapshot), the files that exceed the size cap (by
   * lstat: nothing read); remembered, to skip them unread next time too. One that appears after it
   * was listed is still read once by `git add`; capSizes then leaves it out.
   */
  private async overCap(listed: readonly string[]): Promise<string[]> {
    const over: string[] = [];
    for (let i = 0; i < listed.length; i += 256) {
      const sizes = await Promise.all(listed.slice(i, i + 256).map(rel => (this.tooBig.has(rel) || !isInside(this.options.workTree, rel) ? 0 : fs.promises.lstat(path.join(this.options.workTree, rel)).then(st => (st.isFile() ? st.size : 0), () => 0))));
      sizes.forEach((size, k) => { if (size > this.maxFileBytes) over.push(listed[i + k]); });
    }
    const big = await this.addable(over);
    for (const rel of big) this.tooBig.add(rel);
    return big;
  }

  /**
   * Of these files (a watcher reports any), those `git add .` would take: not in a `.git`, under no
   * link nor nested repository (git refuses a pathspec there), not ignored (git's own answer, asked
   * only when there is one: files over the cap are rare).
   */
  private async addable(files: readonly string[]): Promise<string[]> {
    if (!files.length) return [];
    const dirs = new Map<string, Promise<boolean>>();
    /** Whether git walks into folder `rel` as the folder's own (not a link, not another repository). */
    const walked = (rel: string): Promise<boolean> => {
      let known = dirs.get(rel);
      if (!known) {
        const abs = path.join(this.options.workTree, rel);
        known = Promise.all([fs.promises.lstat(abs).catch(() => undefined), fs.promises.lstat(path.join(abs, '.git')).catch(() => undefined)])
          .then(([st, git]) => !!st?.isDirectory() && !git);
        dirs.set(rel, known);
      }
      return known;
    };
    const plain: string[] = [];
    for (const rel of files) {
      const parts = rel.split('/');
      if (parts.includes('.git')) continue;
      let ok = true;
      for (let i = 1; i < parts.length && ok; i++) ok = await walked(parts.slice(0, i).join('/'));
      if (ok) plain.push(rel);
    }
    if (!plain.length) return [];
    // (Nothing listed if git fails: those files are then read once, as before the cap looked ahead.)
    const taken = new Set(await this.listTouched(plain).catch(() => []));
    return plain.filter(rel => taken.has(rel));
  }

  /** Leaves out of this snapshot the staged files that exceed the size cap (and remembers them, to skip them unread next time). */
  private async capSizes(addOutput: string): Promise<void> {
    const big: string[] = [];
    for (const line of addOutput.split('\n')) {
      const m = /^add '(.*)'$/.exec(line);
      if (!m) continue;
      // (A nested repository is added as a folder: never left out.)
      const st = await fs.promises.lstat(path.join(this.options.workTree, m[1])).catch(() => undefined);
      if (st?.isFile() && st.size > this.maxFileBytes) big.push(m[1]);
    }
    if (!big.length) return;
    for (const rel of big) this.tooBig.add(rel);
    await this.git(['rm', '--cached', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: big.map(rel => `:(literal)${rel}`).join('\0') });
  }

  /** The paths that differ between two trees, raw (see common/checkpoints parseRawDiff). */
  diff(oldTree: string, newTree: string): Promise<string> {
    return this.serial(() => this.git(['diff-tree', '-r', '-z', '--raw', '--no-renames', oldTree, newTree]));
  }

  /** A blob's exact bytes. */
  blob(sha: string): Promise<Buffer> {
    return this.gitRaw(['cat-file', 'blob', sha]);
  }

  /**
   * Stores the bytes on disk now of each path (relative, `/`-separated), and of every file under one
   * that is a folder, whatever the ignore rules or the size cap: what a restore is about to overwrite
   * or delete, so Undo Restore gives it back exactly. `sha` null: nothing there (or a folder).
   * `pinAs`: the blobs are kept reachable under `refs/checkpoints/<pinAs>` (in one flat tree) so a prune keeps them.
   */
  keep(paths: readonly string[], pinAs?: string): Promise<KeptFile[]> {
    return this.serial(async () => {
      await this.init();
      const out = new Map<string, KeptFile>();
      const files: { rel: string; abs: string; mode: string }[] = [];
      const visit = async (rel: string): Promise<void> => {
        const abs = path.join(this.options.workTree, rel);
        const st = await fs.promises.lstat(abs).catch(() => undefined);
        if (!st || st.isDirectory()) out.set(rel, { path: rel, sha: null });
        if (st?.isDirectory()) {
          for (const name of await fs.promises.readdir(abs).catch(() => [] as string[])) await visit(`${rel}/${name}`);
        } else if (st?.isSymbolicLink()) {
          out.set(rel, { path: rel, sha: (await this.git(['hash-object', '-w', '--stdin'], { input: await fs.promises.readlink(abs) })).trim(), mode: '120000' });
        } else if (st?.isFile()) {
          files.push({ rel, abs, mode: st.mode & 0o100 ? '100755' : '100644' });
        }
      };
      for (const rel of new Set(paths)) await visit(rel);
      // One git for every file (a path with a line break, rare, on its own).
      const batch = files.filter(f => !f.abs.includes('\n'));
      const hashed = batch.length ? (await this.git(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: batch.map(f => f.abs).join('\n') + '\n' })).trim().split('\n') : [];
      batch.forEach((f, i) => out.set(f.rel, { path: f.rel, sha: hashed[i], mode: f.mode }));
      for (const f of files.filter(f => f.abs.includes('\n'))) {
        out.set(f.rel, { path: f.rel, sha: (await this.git(['hash-object', '-w', '--no-filters', '--', f.abs])).trim(), mode: f.mode });
      }
      const kept = [...out.values()];
      const shas = [...new Set(kept.flatMap(k => (k.sha ? [k.sha] : [])))];
      if (pinAs && shas.length) {
        const tree = (await this.git(['mktree', '-z'], { input: shas.map((sha, i) => `100644 blob ${sha}\t${i}\0`).join('') })).trim();
        await this.git(['update-ref', `refs/checkpoints/${pinAs}`, tree]);
      }
      return kept;
    });
  }

  /** Keeps trees reachable (refs to trees, never commits or branches) so a prune keeps them. */
  pin(refs: readonly { name: string; tree: string }[]): Promise<void> {
    if (!refs.length) return Promise.resolve();
    return this.serial(async () => {
      await this.git(['update-ref', '--stdin'], { input: refs.map(r => `update refs/checkpoints/${r.name} ${r.tree}\n`).join('') });
    });
  }

  /** Drops refs, then the objects nothing refers to any more. */
  unpin(names: readonly string[]): Promise<void> {
    return this.serial(async () => {
      if (names.length) await this.git(['update-ref', '--stdin'], { input: names.map(n => `delete refs/checkpoints/${n}\n`).join('') });
      // The index's own objects stay: the next snapshot needs them.
      await this.git(['prune', '--expire=now']);
      // What a pruned tree left out goes with it.
      const dir = path.join(this.options.gitDir, 'left-out');
      const trees = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter(name => /^[0-9a-f]{40,64}$/.test(name));
      if (!trees.length) return;
      const found = await this.git(['cat-file', '--batch-check=%(objectname)'], { input: trees.join('\n') + '\n' });
      for (const line of found.split('\n')) {
        const missing = /^([0-9a-f]+) missing$/.exec(line)?.[1];
        if (missing) await fs.promises.rm(path.join(dir, missing), { force: true });
      }
    });
  }

  /** Bytes the shadow directory takes on disk. */
  async size(): Promise<number> {
    return dirSize(this.options.gitDir);
  }
}

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  let entries: fs.Dirent[];
  try { entries = await fs.promises.readdir(dir, { withFileTypes: true }); } catch { return 0; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await dirSize(p);
    else total += (await fs.promises.lstat(p).catch(() => undefined))?.size ?? 0;
  }
  return total;
}
