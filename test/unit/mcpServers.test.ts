import assert from 'node:assert/strict';
import { activeProfile, collectMcpServers, McpInputDecl, McpResolver, McpSource, parseDotenv, resolveMcpServers } from '../../src/common/mcpServers';

const resolver = (over: Partial<McpResolver> = {}, asked: McpInputDecl[] = []): McpResolver => ({
  env: n => ({ HOME: '/home/u', TOKEN: 'tok', EMPTY: '' } as Record<string, string>)[n],
  input: async d => { asked.push(d); return `value-of-${d.id}`; },
  readFile: async p => { throw new Error(`ENOENT ${p}`); },
  userHome: '/home/u',
  ...over,
});

const file = (label: string, text: string, workspaceFolder?: string): McpSource => ({ label, text, shape: 'file', workspaceFolder });

const ALL = {
  local: { command: 'node', args: ['server.js'] },
  remote: { type: 'http', url: 'https://example.com/mcp' },
  events: { type: 'sse', url: 'https://example.com/sse' },
  guess: { url: 'https://example.com/guess' },
};

describe('mcpServers', () => {
  it('parses JSONC (comments, trailing commas) as VS Code does, and names a broken file', () => {
    const c = collectMcpServers([
      file('user mcp.json', '// mine\n{ "servers": { "a": { "command": "x", /* c */ }, }, }'),
      file('workspace .vscode/mcp.json', '{ "servers": { "b": '),
    ]);
    assert.deepEqual(c.entries.map(e => e.name), ['a']);
    assert.equal(c.problems.length, 1);
    assert.match(c.problems[0], /^workspace \.vscode\/mcp\.json: \w+ at offset \d+/);
  });

  it('a name defined in several sources takes the strongest: setting > workspace > user', () => {
    const c = collectMcpServers([
      { label: 'setting switchboard.mcpServers', value: { both: { command: 'from-setting' } }, shape: 'servers' },
      file('workspace', JSON.stringify({ servers: { both: { command: 'from-ws' }, ws: { command: 'w' } } }), '/ws'),
      file('user', JSON.stringify({ servers: { both: { command: 'from-user' }, ws: { command: 'u' }, user: { command: 'u' } } })),
    ]);
    assert.deepEqual(c.entries.map(e => [e.name, e.source, (e.raw as { command: string }).command]), [
      ['both', 'setting switchboard.mcpServers', 'from-setting'], ['ws', 'workspace', 'w'], ['user', 'user', 'u']]);
  });

  it('null in a stronger source hides the server', async () => {
    const c = collectMcpServers([
      { label: 'setting', value: { hidden: null }, shape: 'servers' },
      file('user', JSON.stringify({ servers: { hidden: { command: 'x' } } })),
    ]);
    const out = await resolveMcpServers(c, {}, resolver());
    assert.deepEqual([out.passed, out.skipped], [[], []]);
  });

  // Every transport against every capability set.
  for (const http of [undefined, false, true]) {
    for (const sse of [undefined, false, true]) {
      it(`mcpCapabilities http=${http} sse=${sse}: stdio always, http/sse only when allowed`, async () => {
        const caps = http === undefined && sse === undefined ? undefined : { http, sse };
        const out = await resolveMcpServers(collectMcpServers([file('user', JSON.stringify({ servers: ALL }))]), caps, resolver());
        const expectPassed = ['local', ...(http ? ['remote'] : []), ...(sse ? ['events'] : []), ...(http ? ['guess'] : [])];
        assert.deepEqual(out.passed.map(p => p.name), expectPassed);
        const expectSkipped = [
          ...(http ? [] : [['remote', 'the agent does not accept http MCP servers']]),
          ...(sse ? [] : [['events', 'the agent does not accept sse MCP servers']]),
          ...(http ? [] : [['guess', 'the agent does not accept http MCP servers']]),
        ];
        assert.deepEqual(out.skipped.map(s => [s.name, s.reason]), expectSkipped);
        for (const p of out.passed) {
          if (p.type === 'stdio') assert.deepEqual(p.server, { name: 'local', command: 'node', args: ['server.js'], env: [] });
          else assert.deepEqual(p.server, { type: p.type, name: p.name, url: (ALL as unknown as Record<string, { url: string }>)[p.name].url, headers: [] });
        }
      });
    }
  }

  it('resolves ${workspaceFolder}, ${env:…}, ${input:…} (declared or not) and ${userHome} in command, args, env, url and headers', async () => {
    const asked: McpInputDecl[] = [];
    const c = collectMcpServers([file('ws', JSON.stringify({
      inputs: [{ id: 'key', type: 'promptString', description: 'API key', password: true }],
      servers: {
        s: { command: '${workspaceFolder}/bin/s', args: ['--home=${userHome}', '${env:TOKEN}', '${env:EMPTY}x'], env: { KEY: '${input:key}', N: 3, DROP: null } },
        h: { type: 'http', url: 'https://h/${input:plain}', headers: { Authorization: 'Bearer ${input:key}' } },
      },
    }), '/ws/proj')]);
    const out = await resolveMcpServers(c, { http: true }, resolver({}, asked));
    assert.deepEqual(out.passed.map(p => p.server), [
      { name: 's', command: '/ws/proj/bin/s', args: ['--home=/home/u', 'tok', 'x'], env: [{ name: 'KEY', value: 'value-of-key' }, { name: 'N', value: '3' }] },
      { type: 'http', name: 'h', url: 'https://h/value-of-plain', headers: [{ name: 'Authorization', value: 'Bearer value-of-key' }] },
    ]);
    // The resolver is asked per use; asking once is the host's cache. An undeclared input is a secret.
    assert.deepEqual(asked.map(a => [a.id, a.description, a.password]), [['key', 'API key', true], ['plain', undefined, true], ['key', 'API key', true]]);
  });

  it('asks no input for a server the agent does not accept', async () => {
    const asked: McpInputDecl[] = [];
    const c = collectMcpServers([file('u', JSON.stringify({ servers: { h: { type: 'sse', url: 'https://x', headers: { A: '${input:k}' } } } }))]);
    const out = await resolveMcpServers(c, { http: true }, resolver({}, asked));
    assert.deepEqual(asked, []);
    assert.equal(out.skipped[0].reason, 'the agent does not accept sse MCP servers');
  });

  it('skips with a reason: dismissed input, unset env variable, an input of type command, unknown variable, bad fields, unknown type, no folder, unreadable envFile', async () => {
    const c = collectMcpServers([file('u', JSON.stringify({ inputs: [{ id: 'byCommand', type: 'command', command: 'x.y' }, { id: 'odd', type: 'promptNumber' }], servers: {
      dismissed: { command: 'x', env: { K: '${input:nope}' } },
      unsetEnv: { command: 'x', args: ['--token=${env:UNSET}'] },
      commandInput: { command: 'x', args: ['${input:byCommand}'] },
      oddInput: { command: 'x', args: ['${input:odd}'] },
      cmd: { command: '${command:pick}' },
      args: { command: 'x', args: 'not a list' },
      kind: { type: 'websocket', url: 'wss://x' },
      none: { foo: 1 },
      folder: { command: '${workspaceFolder}/x' },
      envfile: { command: 'x', envFile: '/no/such/.env' },
      scheme: { type: 'http', url: 'file:///etc/passwd' },
      header: { type: 'http', url: 'https://x', headers: { A: 1 } },
    } }))]);
    const out = await resolveMcpServers(c, { http: true, sse: true }, resolver({ input: async () => undefined }));
    assert.deepEqual(out.passed, []);
    assert.deepEqual(Object.fromEntries(out.skipped.map(s => [s.name, s.reason])), {
      dismissed: 'the input "nope" was not given',
      unsetEnv: 'the environment variable UNSET is not set',
      commandInput: 'the input "byCommand" is computed by a VS Code command, which Switchboard cannot run',
      oddInput: 'the input "odd" has the type "promptNumber", which Switchboard does not resolve',
      cmd: 'uses ${command:pick}, which Switchboard does not resolve',
      args: '"args" must be an array of strings',
      kind: 'unknown type "websocket" (use stdio, http or sse)',
      none: 'needs a "command" (stdio) or a "url" (http, sse)',
      folder: 'uses ${workspaceFolder}, but no folder is open',
      envfile: 'cannot read its envFile /no/such/.env: ENOENT /no/such/.env',
      scheme: '"url" must start with http:// or https://',
      header: '"headers".A must be a string',
    });
  });

  it('envFile values come first, env overrides them; a cwd is noted as left out', async () => {
    const c = collectMcpServers([file('u', JSON.stringify({ servers: { s: { command: 'x', envFile: '${workspaceFolder}/.env', env: { B: 'env' }, cwd: '/x' } } }), '/w')]);
    const out = await resolveMcpServers(c, {}, resolver({ readFile: async p => (p === '/w/.env' ? '# c\nA=1\nexport B="file"\nC=\'q # not a comment\'\nD=v # comment\n' : '') }));
    assert.deepEqual(out.passed[0].server, { name: 's', command: 'x', args: [], env: [
      { name: 'A', value: '1' }, { name: 'B', value: 'env' }, { name: 'C', value: 'q # not a comment' }, { name: 'D', value: 'v' }] });
    assert.match(out.passed[0].note ?? '', /cwd/);
  });

  it('parseDotenv ignores blank and comment lines', () => {
    assert.deepEqual([...parseDotenv('\n# x=1\n  Y = two words \nbad line\n')], [['Y', 'two words']]);
  });

  it('reports a source of the wrong shape and keeps the others', async () => {
    const c = collectMcpServers([
      { label: 'setting', value: ['x'], shape: 'servers' },
      file('u', JSON.stringify({ servers: [], inputs: {} })),
      file('w', JSON.stringify({ servers: { ok: { command: 'x' } } })),
    ]);
    assert.deepEqual(c.problems, ['setting: expected an object', 'u: "inputs" must be an array', 'u: "servers" must be an object']);
    assert.deepEqual(c.entries.map(e => e.name), ['ok']);
  });

  it("finds the workspace's profile in VS Code's storage.json: its folder, name and whether it shares the default MCP servers", () => {
    const ws = 'file:///home/u/proj';
    const storage = (over: object = {}) => ({
      userDataProfiles: [{ location: 'a1b2', name: 'Work', ...over }, { location: { $mid: 1, path: '/u/User/profiles/c3d4', scheme: 'file' }, name: 'Old' }],
      profileAssociations: { workspaces: { [ws]: 'a1b2', 'file:///home/u/old': 'c3d4', 'file:///home/u/default': '__default__profile__' }, emptyWindows: { x: 'a1b2' } },
    });
    assert.deepEqual(activeProfile(storage(), ws), { id: 'a1b2', name: 'Work', sharesDefaultMcp: false });
    assert.deepEqual(activeProfile(storage({ useDefaultFlags: { mcp: true } }), ws), { id: 'a1b2', name: 'Work', sharesDefaultMcp: true });
    assert.deepEqual(activeProfile(storage(), 'file:///home/u/old'), { id: 'c3d4', name: 'Old', sharesDefaultMcp: false }, 'a location stored as a URI');
    assert.equal(activeProfile(storage(), 'file:///home/u/default'), undefined, 'the default profile');
    assert.equal(activeProfile(storage(), 'file:///home/u/other'), undefined, 'no association: the default');
    assert.equal(activeProfile(storage(), undefined), undefined, 'an empty window');
    assert.equal(activeProfile(storage(), 'FILE:///HOME/U/PROJ'), undefined);
    assert.equal(activeProfile(storage(), 'FILE:///HOME/U/PROJ', true)?.id, 'a1b2', 'case-insensitive file systems');
    assert.equal(activeProfile({ userDataProfiles: [{ location: '..', name: 'x' }], profileAssociations: { workspaces: { [ws]: '..' } } }, ws), undefined, 'never a path');
    assert.equal(activeProfile('not an object', ws), undefined);
    assert.equal(activeProfile({ profileAssociations: { workspaces: { [ws]: 'gone' } } }, ws), undefined, 'a profile no longer listed');
  });
});

