import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveAgents } from '../../src/common/agentConfig';
import { detectInstalled, detectionTargets, installedRegistryEntry, preferInstalled, registryTargets } from '../../src/common/agentDetect';
import { isRunnableFile } from '../../src/common/commandLookup';
import { launchCommands } from '../../src/common/registry/distribution';
import { parseRegistry } from '../../src/common/registry/schema';

describe('agentDetect', () => {
  let root: string;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-detect-')); });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const bin = (dir: string, name: string, mode = 0o755) => {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    const file = path.join(root, dir, name);
    fs.writeFileSync(file, '#!/bin/sh\n');
    fs.chmodSync(file, mode);
    return file;
  };

  it('looks for the installed launches of runner presets, the own command of the others, nothing for a user runner', () => {
    const { agents } = resolveAgents({ Mine: { command: 'my-acp', args: ['--stdio'] }, Fetched: { command: 'npx', args: ['-y', 'x'] } });
    const targets = new Map(detectionTargets(agents).map(t => [t.name, t.launches]));
    assert.deepEqual(targets.get('Claude Code'), [{ command: 'claude-agent-acp', args: [] }, { command: 'claude-code-acp', args: [] }]);
    assert.deepEqual(targets.get('Gemini CLI'), [{ command: 'gemini', args: ['--acp'] }]);
    assert.deepEqual(targets.get('Goose'), [{ command: 'goose', args: ['acp'] }]);
    assert.deepEqual(targets.get('Mine'), [{ command: 'my-acp', args: ['--stdio'] }]);
    assert.equal(targets.has('Fetched'), false);
  });

  it('finds installed agents on a real PATH (Linux/macOS semantics): first launch found wins, non-executables do not count', async function () {
    if (process.platform === 'win32') this.skip();
    const legacy = bin('a', 'claude-code-acp');
    bin('a', 'codex-acp', 0o644);
    const goose = bin('b', 'goose');
    const env = { PATH: [path.join(root, 'a'), path.join(root, 'b')].join(':') };
    const { agents } = resolveAgents(undefined);
    const found = await detectInstalled(detectionTargets(agents), { platform: 'linux', env }, f => isRunnableFile(f, 'linux'));
    assert.deepEqual([...found.keys()].sort(), ['Claude Code', 'Goose']);
    assert.deepEqual(found.get('Claude Code'), { name: 'Claude Code', launch: { command: 'claude-code-acp', args: [] }, path: legacy });
    // The preferred name wins once it is there too, in a later folder.
    const current = bin('b', 'claude-agent-acp');
    const again = await detectInstalled(detectionTargets(agents), { platform: 'darwin', env }, f => isRunnableFile(f, 'darwin'));
    assert.equal(again.get('Claude Code')?.path, current);
    assert.equal(again.get('Goose')?.path, goose);
  });

  it('looks each command up once, whatever the number of agents naming it', async () => {
    const probed: string[] = [];
    const targets = [{ name: 'A', launches: [{ command: 'same', args: [] }] }, { name: 'B', launches: [{ command: 'same', args: ['x'] }] }];
    const found = await detectInstalled(targets, { platform: 'linux', env: { PATH: '/x:/y' } }, async f => { probed.push(f); return f === '/y/same'; });
    assert.deepEqual(probed, ['/x/same', '/y/same']);
    assert.deepEqual(found.get('B'), { name: 'B', launch: { command: 'same', args: ['x'] }, path: '/y/same' });
  });

  it('Windows semantics: a shim found through PATHEXT counts as installed', async () => {
    const targets = detectionTargets(resolveAgents(undefined).agents);
    const files = new Set(['C:\\npm\\gemini.cmd', 'C:\\bin\\opencode.exe']);
    const found = await detectInstalled(targets, { platform: 'win32', env: { Path: 'C:\\npm;C:\\bin', PATHEXT: '.EXE;.CMD' } }, async f => files.has(f));
    assert.deepEqual(found.get('Gemini CLI'), { name: 'Gemini CLI', launch: { command: 'gemini', args: ['--acp'] }, path: 'C:\\npm\\gemini.cmd' });
    assert.equal(found.get('OpenCode')?.path, 'C:\\bin\\opencode.exe');
    assert.equal(found.size, 2);
  });

  it('starts an installed preset from its binary by absolute path; a user entry stays as written', () => {
    const { agents } = resolveAgents({ Mine: { command: 'my-acp' } });
    const claude = agents.find(a => a.name === 'Claude Code')!;
    const hit = { name: 'Claude Code', launch: { command: 'claude-agent-acp', args: [] }, path: '/usr/local/bin/claude-agent-acp' };
    assert.deepEqual(preferInstalled(claude, hit), { ...claude, command: '/usr/local/bin/claude-agent-acp', args: [] });
    assert.equal(preferInstalled(claude, undefined), claude);
    const mine = agents.find(a => a.name === 'Mine')!;
    assert.equal(preferInstalled(mine, { name: 'Mine', launch: { command: 'my-acp', args: [] }, path: '/opt/my-acp' }), mine);
  });

  describe('registry agents', () => {
    const entry = (id: string, name: string, distribution: object) => ({ id, name, version: '1.2.0', description: `${name} agent`, distribution });
    const binary = (cmd: string, extra: object = {}) => ({ binary: { 'linux-x86_64': { archive: 'https://example.test/a.tar.gz', cmd, ...extra } } });
    const registry = parseRegistry({ agents: [
      entry('vibe', 'Vibe', binary('./dist/vibe-acp', { args: ['--stdio'], env: { VIBE_MODE: 'acp' } })),
      entry('pkg-cmd', 'Pkg Cmd', { npx: { package: '@x/pkg', cmd: 'pkg-acp', args: ['--acp'] } }),
      entry('uv-cmd', 'Uv Cmd', { uvx: { package: 'uvpkg', cmd: 'uv-acp' } }),
      entry('no-program', 'No Program', { npx: { package: '@x/default-bin' } }),
      entry('cursor', 'Cursor', binary('cursor-agent', { args: ['acp'] })),
      entry('goose', 'Goose Registry', binary('goose')),
      entry('mine', 'Mine Too', binary('mine')),
      entry('abs', 'Absolute', { npx: { package: '@x/abs', cmd: '/usr/local/bin/evil' } }),
      entry('vibe-two', 'vibe', binary('other-vibe')),
    ] }).agents;
    const launches = launchCommands(registry, 'linux-x86_64');
    const { agents } = resolveAgents({ mine: { command: 'my-acp' } });

    it('looks for each registry agent by the program its entry names, run directly with the args after it', () => {
      const targets = registryTargets(launches, agents);
      assert.deepEqual(targets.map(t => [t.name, t.launches]), [
        ['Vibe', [{ command: 'vibe-acp', args: ['--stdio'] }]],
        ['Pkg Cmd', [{ command: 'pkg-acp', args: ['--acp'] }]],
        ['Uv Cmd', [{ command: 'uv-acp', args: [] }]],
      ]);
      assert.equal(targets[0].registry.id, 'vibe');
    });

    it('skips agents a preset or user entry stands for (same name or id, any case), with no program, or whose program is a path', () => {
      const names = registryTargets(launches, agents).map(t => t.name);
      assert.ok(!names.includes('Cursor'), 'the Cursor preset has that name');
      assert.ok(!names.includes('Goose Registry'), 'its id is the Goose preset\'s name');
      assert.ok(!names.includes('Mine Too'), 'its id is the user entry "mine"');
      assert.ok(!names.includes('No Program'), 'the package\'s default program is not known');
      assert.equal(launches.find(l => l.id === 'abs')?.program, '/usr/local/bin/evil', 'the registry lets it through');
      assert.ok(!names.includes('Absolute'), 'a path is never looked at');
      assert.equal(names.filter(n => n.toLowerCase() === 'vibe').length, 1, 'one per name');
      // Once installed from the registry (a user entry of its name), it is the picker's own agent.
      assert.ok(!registryTargets(launches, [...agents, { name: 'Vibe' }]).some(t => t.name === 'Vibe'));
    });

    it('finds a registry agent on a real PATH and makes its settings entry: full path, registry args and env', async function () {
      if (process.platform === 'win32') this.skip();
      const vibe = bin('a', 'vibe-acp');
      bin('a', 'pkg-acp', 0o644);
      const targets = registryTargets(launches, agents);
      const found = await detectInstalled(targets, { platform: 'linux', env: { PATH: path.join(root, 'a') } }, f => isRunnableFile(f, 'linux'));
      assert.deepEqual([...found.keys()], ['Vibe']);
      assert.deepEqual(installedRegistryEntry(targets[0], found.get('Vibe')!), { command: vibe, args: ['--stdio'], env: { VIBE_MODE: 'acp' } });
      assert.deepEqual(installedRegistryEntry(targets[1], { name: 'Pkg Cmd', launch: targets[1].launches[0], path: '/p/pkg-acp' }), { command: '/p/pkg-acp', args: ['--acp'] });
    });
  });
});
