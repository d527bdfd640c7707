import assert from 'node:assert/strict';
import { planSpawn, quoteForCmd } from '../../src/common/spawnPlan';

const files = (...paths: string[]) => (p: string) => paths.map(x => x.toLowerCase()).includes(p.toLowerCase());

describe('spawnPlan', () => {
  it('spawns directly on POSIX', () => {
    const plan = planSpawn('npx', ['-y', 'pkg'], { platform: 'linux', env: {}, isFile: () => false });
    assert.deepEqual(plan, { file: 'npx', args: ['-y', 'pkg'], verbatim: false });
  });

  it('runs a Windows .cmd shim found on PATH through cmd.exe with quoted arguments', () => {
    const plan = planSpawn('npx', ['-y', '@scope/agent', 'a b&c'], {
      platform: 'win32',
      env: { PATH: 'C:\\tools;C:\\Program Files\\nodejs', PATHEXT: '.COM;.EXE;.BAT;.CMD', ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
      isFile: files('C:\\Program Files\\nodejs\\npx.cmd'),
    });
    assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.equal(plan.verbatim, true);
    assert.deepEqual(plan.args.slice(0, 3), ['/d', '/s', '/c']);
    assert.equal(plan.args[3], '"^"C:\\Program Files\\nodejs\\npx.cmd^" ^"-y^" ^"@scope/agent^" ^"a b^&c^""');
  });

  it('runs a Windows .exe directly, resolved through PATHEXT', () => {
    const plan = planSpawn('goose', ['acp'], { platform: 'win32', env: { PATH: 'C:\\bin', PATHEXT: '.EXE;.CMD' }, isFile: files('C:\\bin\\goose.exe') });
    assert.deepEqual(plan, { file: 'C:\\bin\\goose.exe', args: ['acp'], verbatim: false });
  });

  it('leaves an unknown Windows command to spawn, which reports it as not found', () => {
    const plan = planSpawn('nope', [], { platform: 'win32', env: { PATH: 'C:\\bin' }, isFile: () => false });
    assert.equal(plan.file, 'nope');
  });

  it('quotes embedded quotes and trailing backslashes for the C runtime', () => {
    assert.equal(quoteForCmd('say "hi"'), '^"say \\^"hi\\^"^"');
    assert.equal(quoteForCmd('C:\\dir\\'), '^"C:\\dir\\\\^"');
  });
});
