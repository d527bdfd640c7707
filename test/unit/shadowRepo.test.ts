// The shadow repository of checkpoints (src/host/checkpoints/shadowRepo.ts, node only) against a real
// git in a temporary folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ShadowRepo } from '../../src/host/checkpoints/shadowRepo';

describe('checkpoints: the shadow repository', () => {
  let tmp: string;
  let work: string;
  let repo: ShadowRepo;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-shadow-'));
    work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    repo = new ShadowRepo({ git: 'git', gitDir: path.join(tmp, 'shadow.git'), workTree: work, maxFileBytes: 1024 });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const files = async (tree: string) => (await repo.git(['ls-tree', '-r', '--name-only', tree])).split('\n').filter(Boolean);

  it('leaves a file over the size cap out of that checkpoint only: once it shrinks, it is recorded again', async () => {
    fs.writeFileSync(path.join(work, 'small.txt'), 'small\n');
    fs.writeFileSync(path.join(work, 'grows.log'), 'x'.repeat(2048));
    assert.deepEqual(await files(await repo.snapshot()), ['small.txt']);
    fs.writeFileSync(path.join(work, 'grows.log'), 'short again\n');
    assert.deepEqual(await files(await repo.snapshot()), ['grows.log', 'small.txt']);
    fs.writeFileSync(path.join(work, 'grows.log'), 'y'.repeat(4096));
    const tree = await repo.snapshot();
    assert.deepEqual(await files(tree), ['small.txt']);
    assert.deepEqual([...await repo.leftOut(tree)], ['grows.log'], 'the checkpoint knows it left the file out (a restore must not take it for one created since)');
  });

  /** The sizes of every object the shadow repository stores. */
  const storedSizes = async () => (await repo.git(['cat-file', '--batch-all-objects', '--batch-check=%(objectsize)'])).split('\n').filter(Boolean).map(Number);

  it('a file over the cap new since the last checkpoint is left out unread: reported by the watcher, listed by git, or known from the last window', async () => {
    fs.writeFileSync(path.join(work, 'small.txt'), 'small\n');
    await repo.snapshot();
    // Reported by the file watcher (touched).
    fs.writeFileSync(path.join(work, 'big.bin'), 'b'.repeat(3000));
    assert.deepEqual(await files(await repo.snapshot(['big.bin'])), ['small.txt']);
    // Not reported (touched unknown): git lists what is new since the last checkpoint.
    fs.writeFileSync(path.join(work, 'bigger.bin'), 'c'.repeat(5000));
    assert.deepEqual(await files(await repo.snapshot()), ['small.txt']);
    // Another window (a new ShadowRepo on the same directory), nothing reported: known from the last.
    fs.appendFileSync(path.join(work, 'big.bin'), 'more');
    repo = new ShadowRepo({ ...repo.options });
    assert.deepEqual(await files(await repo.snapshot([])), ['small.txt']);
    const sizes = await storedSizes();
    for (const size of [3000, 3004, 5000]) assert.ok(!sizes.includes(size), `git stored a ${size}-byte object: ${sizes.join(', ')}`);
  });

  it('a reported file over the cap that git would not take (ignored, in a nested repository, behind a link, in .git) never stops a checkpoint nor is remembered', async () => {
    fs.writeFileSync(path.join(work, '.gitignore'), '*.log\n');
    fs.writeFileSync(path.join(work, 'small.txt'), 'small\n');
    fs.mkdirSync(path.join(work, 'sub'));
    fs.writeFileSync(path.join(work, 'sub', 'kept.txt'), 'kept\n');
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'c']]) execFileSync('git', args, { cwd: path.join(work, 'sub'), env });
    fs.mkdirSync(path.join(tmp, 'elsewhere'));
    fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(work, 'link'));
    await repo.snapshot();
    const big = 'z'.repeat(3000);
    fs.writeFileSync(path.join(work, 'ignored.log'), big);
    fs.writeFileSync(path.join(work, 'sub', 'big.bin'), big);
    fs.writeFileSync(path.join(tmp, 'elsewhere', 'big.bin'), big);
    fs.writeFileSync(path.join(work, 'sub', '.git', 'big.pack'), big);
    const reported = ['ignored.log', 'sub/big.bin', 'link/big.bin', 'sub/.git/big.pack'];
    for (let round = 0; round < 2; round++) {
      const tree = await repo.snapshot(reported);
      assert.deepEqual(await files(tree), ['.gitignore', 'link', 'small.txt', 'sub']);
      assert.deepEqual([...await repo.leftOut(tree)], []);
    }
  });

  it('what a checkpoint left out is forgotten with it once it is pruned, and kept while it is pinned', async () => {
    fs.writeFileSync(path.join(work, 'big.bin'), 'b'.repeat(3000));
    fs.writeFileSync(path.join(work, 'a.txt'), 'one\n');
    const first = await repo.snapshot();
    fs.writeFileSync(path.join(work, 'a.txt'), 'two\n');
    const second = await repo.snapshot();
    fs.writeFileSync(path.join(work, 'a.txt'), 'three\n');
    await repo.snapshot();
    await repo.pin([{ name: 'kept', tree: second }]);
    await repo.unpin([]);
    assert.deepEqual([...await repo.leftOut(first)], [], 'the pruned tree\'s list is gone');
    assert.deepEqual([...await repo.leftOut(second)], ['big.bin']);
    assert.ok(!fs.existsSync(path.join(repo.options.gitDir, 'left-out', first)));
  });

  it('a git that exits without reading its input fails or succeeds on its own, never with an uncaught EPIPE', async () => {
    // 8 MiB fill the pipe: git has exited before it is written (a full run's extension host died of this).
    const out = await repo.gitRaw(['version'], { bare: true, input: 'x'.repeat(8 * 1024 * 1024) });
    assert.match(out.toString('utf8'), /^git version /);
  });
});
