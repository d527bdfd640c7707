import assert from 'node:assert/strict';
import { programName } from '../../src/common/commandLookup';
import { missingProgramInStderr, runtimeOf } from '../../src/common/missingProgram';

describe('missingProgram', () => {
  it('names the runtime of a package runner and where to get it', () => {
    assert.deepEqual(runtimeOf('npx'), { name: 'Node.js', url: 'https://nodejs.org/en/download' });
    assert.equal(runtimeOf('C:\\Program Files\\nodejs\\npx.cmd')?.name, 'Node.js');
    assert.equal(runtimeOf('/usr/local/bin/node')?.name, 'Node.js');
    assert.deepEqual(runtimeOf('uvx'), { name: 'uv', url: 'https://docs.astral.sh/uv/getting-started/installation/' });
    assert.equal(runtimeOf('bunx.exe')?.name, 'Bun');
    assert.equal(runtimeOf('goose'), undefined);
    assert.equal(runtimeOf('constructor'), undefined);
    assert.equal(programName('C:\\x\\Codex-ACP.CMD'), 'codex-acp');
  });

  it('reads the missing interpreter from what launchers print on Linux, macOS and Windows', () => {
    assert.equal(missingProgramInStderr('/usr/bin/env: ‘node’: No such file or directory\n'), 'node');
    assert.equal(missingProgramInStderr("/usr/bin/env: 'python3': No such file or directory"), 'python3');
    assert.equal(missingProgramInStderr('env: node: No such file or directory\n'), 'node');
    assert.equal(missingProgramInStderr("'node' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n"), 'node');
    assert.equal(missingProgramInStderr('/bin/sh: 1: uvx: not found'), 'uvx');
    assert.equal(missingProgramInStderr('bash: line 1: bun: command not found'), 'bun');
    assert.equal(missingProgramInStderr('Error: ENOENT: no such file or directory, open /x/config.json'), undefined);
    assert.equal(missingProgramInStderr('the model was not found'), undefined);
  });
});
