import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandCandidates, envValue, findCommandAsync, isRunnableFile } from '../../src/common/commandLookup';

describe('commandLookup', () => {
  it('Windows: each PATH folder with each PATHEXT extension, then .ps1; Path and PathExt in any case', () => {
    const env = { Path: 'C:\\a;"C:\\Program Files\\b";relative;C:\\a', PathExt: '.EXE;.CMD' };
    assert.deepEqual(commandCandidates('goose', { platform: 'win32', env }), [
      'C:\\a\\goose.exe', 'C:\\a\\goose.cmd', 'C:\\a\\goose.ps1',
      'C:\\Program Files\\b\\goose.exe', 'C:\\Program Files\\b\\goose.cmd', 'C:\\Program Files\\b\\goose.ps1',
    ]);
    // A name with a known extension is taken as is; a path is not looked up on PATH.
    assert.deepEqual(commandCandidates('goose.cmd', { platform: 'win32', env }), ['C:\\a\\goose.cmd', 'C:\\Program Files\\b\\goose.cmd']);
    assert.deepEqual(commandCandidates('D:\\tools\\agent', { platform: 'win32', env }), ['D:\\tools\\agent.exe', 'D:\\tools\\agent.cmd', 'D:\\tools\\agent.ps1']);
    assert.equal(envValue({ Path: 'x' }, 'PATH', 'win32'), 'x');
    assert.equal(envValue({ Path: 'x' }, 'PATH', 'linux'), undefined);
  });

  for (const platform of ['linux', 'darwin'] as const) {
    it(`${platform}: each absolute PATH folder; relative and empty entries are skipped`, () => {
      assert.deepEqual(commandCandidates('opencode', { platform, env: { PATH: '/usr/local/bin::.:bin:/usr/bin' } }), ['/usr/local/bin/opencode', '/usr/bin/opencode']);
      assert.deepEqual(commandCandidates('./opencode', { platform, env: { PATH: '/usr/bin' } }), ['./opencode']);
    });
  }

  describe('on disk (temp folders)', () => {
    let root: string;
    beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-lookup-')); });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
    const mk = (rel: string, mode = 0o755) => {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '#!/bin/sh\n');
      fs.chmodSync(file, mode);
      return file;
    };

    it('POSIX: finds the first executable file; skips one that is not executable, and folders', async function () {
      if (process.platform === 'win32') this.skip();
      mk('a/codex-acp', 0o644);
      fs.mkdirSync(path.join(root, 'b/codex-acp'), { recursive: true });
      const good = mk('c/codex-acp');
      mk('d/codex-acp');
      const env = { PATH: ['a', 'b', 'c', 'd'].map(d => path.join(root, d)).join(':') };
      assert.equal(await findCommandAsync('codex-acp', { platform: 'linux', env }, f => isRunnableFile(f, 'linux')), good);
      assert.equal(await findCommandAsync('gemini', { platform: 'linux', env }, f => isRunnableFile(f, 'linux')), undefined);
    });

    it('POSIX: follows a symlink to an executable (npm -g links its bins); a dangling link is not found', async function () {
      if (process.platform === 'win32') this.skip();
      const target = mk('lib/node_modules/x/cli.js');
      fs.mkdirSync(path.join(root, 'bin'));
      fs.symlinkSync(target, path.join(root, 'bin/x'));
      fs.symlinkSync(path.join(root, 'nowhere'), path.join(root, 'bin/y'));
      const env = { PATH: path.join(root, 'bin') };
      assert.equal(await findCommandAsync('x', { platform: 'darwin', env }, f => isRunnableFile(f, 'darwin')), path.join(root, 'bin/x'));
      assert.equal(await findCommandAsync('y', { platform: 'darwin', env }, f => isRunnableFile(f, 'darwin')), undefined);
    });

    it('Windows semantics: any regular file counts (no executable bit), with the PATHEXT order', async () => {
      mk('w/agent.cmd', 0o644);
      mk('w/agent.ps1', 0o644);
      const dir = path.join(root, 'w');
      // Windows folders written the POSIX way so the real files are found on this machine.
      const host = { platform: 'win32' as const, env: { PATH: dir, PATHEXT: '.EXE;.CMD' } };
      const probe = (f: string) => isRunnableFile(f.replace(/\\/g, '/'), 'win32');
      const found = await findCommandAsync('agent', host, probe);
      assert.equal(found?.replace(/\\/g, '/'), path.join(dir, 'agent.cmd'));
    });
  });
});
