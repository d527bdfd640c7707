import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { worktreeServices } from '../../src/host/parallel/worktreeFs';

describe('A parallel run\'s file service (its worktree only)', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wtfs-')));
  const root = path.join(base, 'run1');
  const outside = path.join(base, 'user');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'no');
  fs.writeFileSync(path.join(root, '.git'), 'gitdir: elsewhere\n');
  fs.writeFileSync(path.join(root, 'a.txt'), '1\n2\n3\n');
  fs.symlinkSync(outside, path.join(root, 'link'));
  const served = worktreeServices(root).fs!;
  const signal = new AbortController().signal;
  const read = (p: string, extra: object = {}) => served.readTextFile({ sessionId: 's', path: p, ...extra }, signal);
  const write = (p: string, content: string) => served.writeTextFile({ sessionId: 's', path: p, content }, signal);
  const refused = async (p: Promise<unknown>) => assert.rejects(p, (e: { code?: number; message?: string }) => e.code === -32001 && /outside this parallel run's worktree/.test(e.message ?? ''));

  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('reads and writes inside the worktree (new folders too), with line windows', async () => {
    assert.equal((await read(path.join(root, 'a.txt'), { line: 2, limit: 1 })).content, '2');
    await write(path.join(root, 'new/dir/b.txt'), 'b\n');
    assert.equal(fs.readFileSync(path.join(root, 'new/dir/b.txt'), 'utf8'), 'b\n');
  });

  it('refuses a path outside it, through .., through a link, a relative path, and its .git', async () => {
    await refused(read(path.join(outside, 'secret.txt')));
    await refused(read(path.join(root, '..', 'user', 'secret.txt')));
    await refused(read(path.join(root, 'link', 'secret.txt')));
    await refused(write(path.join(root, 'link', 'new.txt'), 'x'));
    await refused(write(path.join(root, '.git'), 'gitdir: /tmp/evil\n'));
    await assert.rejects(read('a.txt'), (e: { code?: number }) => e.code === -32602);
    assert.ok(!fs.existsSync(path.join(outside, 'new.txt')));
    assert.equal(fs.readFileSync(path.join(root, '.git'), 'utf8'), 'gitdir: elsewhere\n');
  });

  it('refuses a FIFO the agent made (its read would wait forever), a binary file and one not valid UTF-8, as the workspace\'s file service does', async function () {
    if (process.platform === 'win32') this.skip();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    fs.writeFileSync(path.join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0, 1, 2]));
    fs.writeFileSync(path.join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const invalid = (reason: string, message: RegExp) => (e: { code?: number; message?: string; data?: { reason?: string } }) => e.code === -32602 && e.data?.reason === reason && message.test(e.message ?? '');
    await assert.rejects(read(path.join(root, 'pipe')), invalid('notRegular', /not a regular file/));
    await assert.rejects(read(path.join(root, 'image.bin')), invalid('binary', /binary/));
    await assert.rejects(read(path.join(root, 'latin1.txt')), invalid('encoding', /not valid UTF-8/));
  });
});
