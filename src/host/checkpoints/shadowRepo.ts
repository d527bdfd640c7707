// A shadow git repository: its own git directory in the extension's storage, the workspace folder as
// its work tree (docs/decisions/0027). A checkpoint is `git add -A` into the shadow index, then
// `git write-tree`: a tree object, never a commit, stash or branch, and nothing of the user's
// repository (its index, refs, hooks, config) is read or written. Node only (no `vscode`): the
// benchmark runs it as it is.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitEnv } from '../../common/gitEnv';

/** Output a git command may print (a raw diff of a large workspace; a blob up to the size cap). */
const MAX_BUFFER = 256 * 1024 * 1024;

/**
 * The attributes every path gets, above any `.gitattributes` of the workspace: no end-of-line
 * conversion, no clean/smudge filter, no encoding: the tree holds the exact bytes on disk.
 */
const ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';

export interface ShadowRepoOptions {
  /** The git program (absolute; never one the workspace chooses). */
  readonly git: string;
  /** The shadow git directory (created on first use). */
  readonly gitDir: string;
  /** The workspace folder. */
  readonly workTree: string;
  /** Files larger than this are left out of checkpoints (bytes); 0: no cap. */
  readonly maxFileBytes: number;
}

export class ShadowRepo {
  private queue: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | undefined;

  constructor(readonly options: ShadowRepoOptions) {}

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

  gitRaw(args: readonly string[], opts: { input?: string; bare?: boolean } = {}): Promise<Buffer> {
    const { git, gitDir, workTree } = this.options;
    const env = gitEnv(process.env, { GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
    return new Promise((resolve, reject) => {
      const child = execFile(git, opts.bare ? args : [`--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args], { cwd: opts.bare ? path.dirname(gitDir) : workTree, env, encoding: 'buffer', maxBuffer: MAX_BUFFER, windowsHide: true },
        (err, stdout, stderr) => (err ? reject(new Error(`git ${args[0]} failed: ${(stderr.toString('utf8').trim() || err.message).slice(0, 500)}`)) : resolve(stdout)));
      if (opts.input !== undefined) child.stdin?.end(opts.input);
    });
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
   */
  snapshot(): Promise<string> {
    return this.serial(async () => {
      await this.init();
      // --verbose names what was staged (what changed since the last snapshot): the size cap looks at those only.
      const added = await this.git(['add', '--all', '--verbose', '--ignore-errors', '--', '.']).catch(err => {
        // A file that vanished or could not be read mid-walk: --ignore-errors staged the rest.
        if (!/adding files failed|failed to|unable to|could not|permission denied/i.test(String(err))) throw err;
        return '';
      });
      if (this.options.maxFileBytes > 0) await this.capSizes(added);
      return (await this.git(['write-tree'])).trim();
    });
  }

  /** Leaves out (and excludes from then on) the staged files that exceed the size cap. */
  private async capSizes(addOutput: string): Promise<void> {
    const big: string[] = [];
    for (const line of addOutput.split('\n')) {
      const m = /^add '(.*)'$/.exec(line);
      if (!m) continue;
      const size = (await fs.promises.lstat(path.join(this.options.workTree, m[1])).catch(() => undefined))?.size ?? 0;
      if (size > this.options.maxFileBytes) big.push(m[1]);
    }
    if (!big.length) return;
    const exclude = path.join(this.options.gitDir, 'info', 'exclude');
    await fs.promises.appendFile(exclude, big.map(p => '/' + p.replace(/([\\*?[\]!#])/g, '\\$1') + '\n').join(''));
    await this.git(['rm', '--cached', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: big.join('\0') });
  }

  /** The paths that differ between two trees, raw (see common/checkpoints parseRawDiff). */
  diff(oldTree: string, newTree: string): Promise<string> {
    return this.serial(() => this.git(['diff-tree', '-r', '-z', '--raw', '--no-renames', oldTree, newTree]));
  }

  /** A blob's exact bytes. */
  blob(sha: string): Promise<Buffer> {
    return this.gitRaw(['cat-file', 'blob', sha]);
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
