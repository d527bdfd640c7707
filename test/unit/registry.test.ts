// The ACP registry as this client reads it: schema and skipped entries, platform keys, the
// distribution chosen, the switchboard.agents entry built (pinned), versions and install state,
// cache age, and which archive entry paths may be written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { archiveKindOf, isInside, linkStaysInside, relativeCommand, safeEntryPath } from '../../src/common/registry/archive';
import { binaryEntry, isUnverified, launchCommands, packageEntry, pickDistribution, pinnedPackage, platformKey } from '../../src/common/registry/distribution';
import { compareVersions, installState, parseRecords, relativeAge } from '../../src/common/registry/installed';
import { parseRegistry, RegistryFormatError } from '../../src/common/registry/schema';

const snapshot = JSON.parse(fs.readFileSync('media/registry-snapshot.json', 'utf8'));
const good = (over: Record<string, unknown> = {}) => ({
  id: 'ok-agent', name: 'OK', version: '1.0.0', description: 'Fine', distribution: { npx: { package: 'ok-agent' } }, ...over,
});

describe('registry: parsing', () => {
  it('parses with the validators generated from the schemas as they are now (scripts/registryValidators.mjs --check)', function () {
    this.timeout(20_000);
    const r = spawnSync(process.execPath, ['scripts/registryValidators.mjs', '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
  it('reads the shipped snapshot whole: every agent kept, nothing skipped', () => {
    const r = parseRegistry(snapshot, snapshot.snapshot.url);
    assert.deepEqual(r.skipped, []);
    assert.equal(r.agents.length, snapshot.agents.length);
    assert.ok(r.agents.length >= 10);
    const cursor = r.agents.find(a => a.id === 'cursor')!;
    // The registry writes Windows commands with backslashes: kept as a path inside the archive.
    assert.equal(cursor.distribution.binary!['windows-x86_64']!.cmd, 'dist-package/cursor-agent.cmd');
    assert.equal(cursor.distribution.binary!['linux-x86_64']!.cmd, 'dist-package/cursor-agent');
    assert.equal(cursor.icon, 'https://cdn.agentclientprotocol.com/registry/v1/latest/cursor.svg');
  });

  it('skips each malformed entry with a reason and keeps the rest', () => {
    const r = parseRegistry({
      version: '1.0.0',
      agents: [
        good(),
        { name: 'no id', version: '1.0.0', description: 'x', distribution: { npx: { package: 'p' } } },
        good({ id: '../escape' }),
        good({ id: 'bad-version', version: '../../1.0.0' }),
        good({ id: 'bidi-name', name: 'safe\u202Eexe.txt' }),
        good({ id: 'option-package', distribution: { npx: { package: '--registry=https://evil.example' } } }),
        good({ id: 'bad-env', distribution: { npx: { package: 'p', env: { 'A B': 'x' } } } }),
        good({ id: 'bad-args', distribution: { npx: { package: 'p', args: [1] } } }),
        good({ id: 'escaping-cmd', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.example/a.tgz', cmd: '../../bin/sh' } } } }),
        good({ id: 'ftp-archive', distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x.example/a.tgz', cmd: './a' } } } }),
        good({ id: 'bad-sha', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.example/a.tgz', cmd: './a', sha256: 'abc' } } } }),
        good({ id: 'future-kind', distribution: { docker: { image: 'x' } } }),
        good(), // duplicate id
        'not an object',
      ],
    });
    assert.deepEqual(r.agents.map(a => a.id), ['ok-agent']);
    const reasons = r.skipped.join('\n');
    for (const [what, why] of [
      ['agents[1]', /must have required property 'id'/],
      ['agents[2] "../escape"', /\/id must match pattern/],
      ['agents[3] "bad-version"', /\/version must match pattern/],
      ['agents[4] "bidi-name"', /\/name must match pattern/],
      ['agents[5] "option-package"', /\/distribution\/npx\/package must match pattern/],
      ['agents[6] "bad-env"', /property name must be valid|must match pattern/],
      ['agents[7] "bad-args"', /\/distribution\/npx\/args\/0 must be string/],
      ['agents[8] "escaping-cmd"', /binary\.linux-x86_64\.cmd leaves the folder/],
      ['agents[9] "ftp-archive"', /is not an http\(s\) URL/],
      ['agents[10] "bad-sha"', /sha256 must match pattern/],
      ['agents[11] "future-kind"', /no distribution this client can use \(docker\)/],
      ['agents[12] "ok-agent"', /duplicate id/],
      ['agents[13]', /must be object/],
    ] as const) {
      const line = r.skipped.find(l => l.startsWith(what + ':'));
      assert.ok(line, `${what} skipped, in:\n${reasons}`);
      assert.match(line, why);
    }
    assert.equal(new Set(r.skipped.map(l => l.split(':')[0])).size, 13, 'one entry per bad agent (a bad binary target also says nothing usable is left)');
  });

  it('refuses a document that is not a registry as a whole', () => {
    for (const doc of [null, [], {}, { agents: 'x' }, 'registry']) {
      assert.throws(() => parseRegistry(doc), RegistryFormatError, JSON.stringify(doc));
    }
  });

  it('keeps a binary-only agent with only the platforms it knows, ignores unknown keys', () => {
    const r = parseRegistry({ agents: [good({ extra: { any: 1 }, distribution: { binary: {
      'freebsd-x86_64': { archive: 'https://x.example/a.tgz', cmd: './a' },
      'linux-x86_64': { archive: 'https://x.example/a.tgz', cmd: './a', sha256: 'AB'.repeat(32), future: true },
    } } })] });
    assert.deepEqual(Object.keys(r.agents[0].distribution.binary!), ['linux-x86_64']);
    assert.equal(r.agents[0].distribution.binary!['linux-x86_64']!.sha256, 'ab'.repeat(32), 'lower-cased for comparison');
  });

  it('resolves relative icons against the registry URL; a local icon only for a local registry', () => {
    const doc = { agents: [good({ icon: './ok-agent.svg' })] };
    assert.equal(parseRegistry(doc, 'https://mirror.example/acp/registry.json').agents[0].icon, 'https://mirror.example/acp/ok-agent.svg');
    assert.equal(parseRegistry(doc, 'file:///srv/acp/registry.json').agents[0].icon, 'file:///srv/acp/ok-agent.svg');
    assert.equal(parseRegistry({ agents: [good({ icon: 'file:///etc/passwd' })] }, 'https://cdn.example/registry.json').agents[0].icon, undefined);
    assert.equal(parseRegistry({ agents: [good({ icon: 'javascript:alert(1)' })] }).agents[0].icon, undefined);
  });
});

describe('registry: platform and distribution', () => {
  it('maps node platform and arch to the registry keys', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
    assert.equal(platformKey('linux', 'ia32'), undefined);
    assert.equal(platformKey('freebsd', 'x64'), undefined);
  });

  const both = parseRegistry({ agents: [good({ id: 'both', distribution: {
    npx: { package: 'both-cli' },
    binary: { 'linux-x86_64': { archive: 'https://x.example/both.tar.gz', cmd: './both', sha256: 'b'.repeat(64) }, 'darwin-aarch64': { archive: 'https://x.example/both.tar.bz2', cmd: './both' } },
  } }), good({ id: 'bin-only', distribution: { binary: {
    'darwin-aarch64': { archive: 'https://x.example/b.tar.bz2', cmd: './b' }, 'windows-x86_64': { archive: 'https://x.example/b.zip', cmd: './b.exe' },
  } } })] }).agents;

  it('prefers the binary built for this platform, falls back to the package, says why when neither', () => {
    assert.equal((pickDistribution(both[0], 'linux-x86_64') as { kind: string }).kind, 'binary');
    assert.equal((pickDistribution(both[0], 'windows-x86_64') as { kind: string }).kind, 'npx', 'no build: the npm package');
    assert.equal((pickDistribution(both[0], 'darwin-aarch64') as { kind: string }).kind, 'npx', 'a bzip2 archive: the npm package');
    assert.deepEqual(pickDistribution(both[1], 'linux-x86_64'), { reason: 'platform', platform: 'linux-x86_64', published: ['darwin-aarch64', 'windows-x86_64'] });
    assert.deepEqual(pickDistribution(both[1], 'darwin-aarch64'), { reason: 'format', platform: 'darwin-aarch64', format: '.tar.bz2' });
    assert.deepEqual(pickDistribution(both[1], undefined), { reason: 'platform', platform: undefined, published: ['darwin-aarch64', 'windows-x86_64'] });
  });

  it('prefers a package to a binary with no published checksum; that binary only when nothing else is published', () => {
    const [withPkg, binOnly, summed] = parseRegistry({ agents: [
      good({ id: 'nosum-pkg', distribution: { npx: { package: 'p' }, binary: { 'linux-x86_64': { archive: 'https://x.example/a.tar.gz', cmd: './a' } } } }),
      good({ id: 'nosum-bin', distribution: { binary: { 'linux-x86_64': { archive: 'https://x.example/a.tar.gz', cmd: './a' } } } }),
      good({ id: 'sum-bin', distribution: { npx: { package: 'p' }, binary: { 'linux-x86_64': { archive: 'https://x.example/a.tar.gz', cmd: './a', sha256: 'a'.repeat(64) } } } }),
    ] }).agents;
    const pkg = pickDistribution(withPkg, 'linux-x86_64');
    assert.equal((pkg as { kind: string }).kind, 'npx');
    assert.equal(isUnverified(pkg), false);
    const bin = pickDistribution(binOnly, 'linux-x86_64');
    assert.equal((bin as { kind: string }).kind, 'binary');
    assert.equal(isUnverified(bin), true);
    const ok = pickDistribution(summed, 'linux-x86_64');
    assert.equal((ok as { kind: string }).kind, 'binary');
    assert.equal(isUnverified(ok), false);
  });

  it('pins npx and uvx packages to the registry version, keeps a spec that already names one', () => {
    assert.equal(pinnedPackage('npx', 'cline', '3.0.4'), 'cline@3.0.4');
    assert.equal(pinnedPackage('npx', '@scope/cli', '1.2.3'), '@scope/cli@1.2.3');
    assert.equal(pinnedPackage('npx', '@google/gemini-cli@0.37.1', '0.37.0'), '@google/gemini-cli@0.37.1', 'the registry chose it');
    assert.equal(pinnedPackage('npx', 'github:user/repo', '1.0.0'), 'github:user/repo');
    assert.equal(pinnedPackage('uvx', 'fast-agent-acp', '0.10.1'), 'fast-agent-acp==0.10.1');
    assert.equal(pinnedPackage('uvx', 'tool[extra]', '2.0.0'), 'tool[extra]==2.0.0');
    assert.equal(pinnedPackage('uvx', 'fast-agent-acp==0.10.1', '0.10.1'), 'fast-agent-acp==0.10.1');
  });

  it('builds the switchboard.agents entry: npx -y, --package with a cmd, uvx --from, env kept', () => {
    assert.deepEqual(packageEntry('npx', { package: 'cline', args: ['--acp'] }, '3.0.4'), { command: 'npx', args: ['-y', 'cline@3.0.4', '--acp'] });
    assert.deepEqual(packageEntry('npx', { package: '@x/tools', cmd: 'x-acp' }, '1.0.0'), { command: 'npx', args: ['-y', '--package', '@x/tools@1.0.0', 'x-acp'] });
    assert.deepEqual(packageEntry('uvx', { package: 'fast-agent-acp', args: ['-x'], env: { M: 'codexplan' } }, '0.10.1'),
      { command: 'uvx', args: ['fast-agent-acp==0.10.1', '-x'], env: { M: 'codexplan' } });
    assert.deepEqual(packageEntry('uvx', { package: 'kit', cmd: 'kit-acp' }, '2.0.0'), { command: 'uvx', args: ['--from', 'kit==2.0.0', 'kit-acp'] });
  });

  it('runs a binary from its absolute path in the install folder, on each OS', () => {
    const target = { archive: 'https://x.example/a.zip', cmd: 'dist-package/cursor-agent.cmd', args: ['acp'] };
    assert.deepEqual(binaryEntry(target, 'C:\\Users\\me\\storage\\agents\\cursor\\1.0.0', path.win32),
      { command: 'C:\\Users\\me\\storage\\agents\\cursor\\1.0.0\\dist-package\\cursor-agent.cmd', args: ['acp'] });
    assert.deepEqual(binaryEntry({ ...target, cmd: 'vibe-acp', env: { A: '1' } }, '/home/me/storage/agents/mistral-vibe/2.24.0', path.posix),
      { command: '/home/me/storage/agents/mistral-vibe/2.24.0/vibe-acp', args: ['acp'], env: { A: '1' } });
  });

  it('lists the launch commands of the agents installable on a platform (for finding them on PATH)', () => {
    const agents = parseRegistry(snapshot).agents;
    const linux = launchCommands(agents, 'linux-x86_64');
    const byId = Object.fromEntries(linux.map(l => [l.id, l]));
    assert.deepEqual(byId.cursor, { id: 'cursor', name: 'Cursor', version: '2026.10.01', kind: 'binary', command: 'dist-package/cursor-agent', args: ['acp'], env: {}, program: 'cursor-agent', programArgs: ['acp'] });
    assert.deepEqual(byId['claude-acp'], { id: 'claude-acp', name: 'Claude Agent', version: '0.85.1', kind: 'npx', command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp@0.85.1'], env: {} });
    assert.equal(byId['fast-agent'].command, 'uvx');
    assert.equal(byId.goose, undefined, 'its Linux build is a bzip2 archive we do not unpack');
    assert.equal(launchCommands(agents, 'windows-x86_64').find(l => l.id === 'goose')!.program, 'goose.exe');
  });
});

describe('registry: versions, install state, age', () => {
  it('orders versions numerically, date-like ones too, releases above their pre-releases', () => {
    const ordered = ['0.9.0', '0.10.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '2026.9.30', '2026.10.01'];
    for (let i = 0; i < ordered.length - 1; i++) {
      assert.equal(compareVersions(ordered[i], ordered[i + 1]), -1, `${ordered[i]} < ${ordered[i + 1]}`);
      assert.equal(compareVersions(ordered[i + 1], ordered[i]), 1, `${ordered[i + 1]} > ${ordered[i]}`);
    }
    assert.equal(compareVersions('1.2.3', '1.2.3'), 0);
    assert.equal(compareVersions('1.2.3+build.5', '1.2.3'), 0);
    assert.equal(compareVersions('2026.10.01', '2026.10.1'), 0);
  });

  it('is installed while the record and the settings entry exist; an update when the registry is newer', () => {
    const rec = { name: 'Cline', version: '3.0.4', kind: 'npx' as const };
    const has = (names: string[]) => (n: string) => names.includes(n);
    assert.deepEqual(installState('3.0.4', undefined, has(['Cline'])), { state: 'available' });
    assert.deepEqual(installState('3.0.4', rec, has([])), { state: 'available' }, 'the user deleted the entry');
    assert.deepEqual(installState('3.0.4', rec, has(['Cline'])), { state: 'installed', version: '3.0.4' });
    assert.deepEqual(installState('3.1.0', rec, has(['Cline'])), { state: 'update', version: '3.0.4', latest: '3.1.0' });
    assert.deepEqual(installState('3.0.3', rec, has(['Cline'])), { state: 'installed', version: '3.0.4' }, 'an older registry is no update');
  });

  it('reads stored records, dropping malformed ones', () => {
    assert.deepEqual(parseRecords({
      a: { name: 'A', version: '1.0.0', kind: 'binary', dir: '/s/agents/a/1.0.0' }, b: { name: 'B', version: '1', kind: 'docker' }, c: null, d: { version: '1' },
    }), { a: { name: 'A', version: '1.0.0', kind: 'binary', dir: '/s/agents/a/1.0.0' } });
    assert.deepEqual(parseRecords('x'), {});
  });

  it('says how old a copy is, in the user\'s language', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    assert.equal(relativeAge(now - 5 * 60_000, now, 'en'), '5 minutes ago');
    assert.equal(relativeAge(now - 3 * 3_600_000, now, 'en'), '3 hours ago');
    assert.equal(relativeAge(now - 86_400_000, now, 'en'), 'yesterday');
    assert.equal(relativeAge(now - 70 * 86_400_000, now, 'en'), '2 months ago');
    assert.equal(relativeAge(now, now, 'en'), 'now');
    assert.equal(relativeAge(now - 3 * 3_600_000, now, 'de'), 'vor 3 Stunden');
    assert.equal(relativeAge(now - 3 * 3_600_000, now, 'not a locale!'), '3 hours ago');
  });
});

describe('registry: archive entries', () => {
  it('knows the archive kinds by name, refuses those it does not unpack', () => {
    assert.equal(archiveKindOf('https://x.example/a/agent-1.0.tar.gz'), 'tar');
    assert.equal(archiveKindOf('https://x.example/a/agent.tgz?token=1'), 'tar');
    assert.equal(archiveKindOf('https://x.example/a/agent.ZIP'), 'zip');
    assert.equal(archiveKindOf('https://x.example/a/agent-linux-x64'), 'raw');
    assert.deepEqual(archiveKindOf('https://x.example/goose.tar.bz2'), { unsupported: '.tar.bz2' });
    assert.deepEqual(archiveKindOf('https://x.example/setup.msi'), { unsupported: '.msi' });
  });

  it('writes entries only inside the folder', () => {
    assert.equal(safeEntryPath('./dist-package/cursor-agent'), 'dist-package/cursor-agent');
    assert.equal(safeEntryPath('a//b/./c'), 'a/b/c');
    assert.equal(safeEntryPath('dist-package\\cursor-agent.cmd'), 'dist-package/cursor-agent.cmd');
    assert.equal(safeEntryPath('./'), '');
    for (const bad of ['../x', 'a/../../x', 'a/..', '..\\x', '/etc/passwd', '\\\\server\\share', 'C:\\Windows\\x', 'c:x', '', 'a\0b']) {
      assert.equal(typeof safeEntryPath(bad), 'object', bad);
    }
  });

  it('lets links point inside only', () => {
    assert.equal(linkStaysInside('bin/agent', '../lib/agent.js'), true);
    assert.equal(linkStaysInside('Versions/Current', 'A'), true);
    assert.match((linkStaysInside('bin/agent', '../../x') as { refused: string }).refused, /outside/);
    assert.match((linkStaysInside('agent', '/usr/bin/env') as { refused: string }).refused, /absolute/);
    assert.match((linkStaysInside('agent', 'C:\\x') as { refused: string }).refused, /absolute/);
    assert.match((linkStaysInside('a', '..') as { refused: string }).refused, /outside/);
  });

  it('takes the registry cmd as a file inside the archive', () => {
    assert.equal(relativeCommand('./vibe-acp'), 'vibe-acp');
    assert.match((relativeCommand('../sh') as { refused: string }).refused, /leaves the folder/);
    assert.match((relativeCommand('./') as { refused: string }).refused, /names no file/);
  });

  it('tells inside from outside on both path flavours', () => {
    assert.ok(isInside('/s/agents/a', '/s/agents/a/1.0.0/bin', path.posix));
    assert.ok(isInside('/s/agents/a', '/s/agents/a', path.posix));
    assert.ok(!isInside('/s/agents/a', '/s/agents/ab', path.posix));
    assert.ok(!isInside('/s/agents/a', '/s/agents', path.posix));
    assert.ok(isInside('C:\\s\\a', 'c:\\s\\a\\x', path.win32));
    assert.ok(!isInside('C:\\s\\a', 'D:\\s\\a\\x', path.win32));
  });
});
