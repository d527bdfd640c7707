// The user's MCP servers reach the agent in session/new, load and resume, in a real VS Code: read
// from the user mcp.json, the workspace .vscode/mcp.json and switchboard.mcpServers, variables and
// inputs resolved (asked once, kept in SecretStorage), http/sse only where the agent accepts them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { McpServers } from '../../src/host/mcp';
import type { McpInputDecl } from '../../src/common/mcpServers';
import { agentEvents, api, dump, quietLogger, useScriptedAgent } from './helpers';

type Server = { name: string; type?: string; command?: string; args?: string[]; env?: Array<{ name: string; value: string }>; url?: string; headers?: Array<{ name: string; value: string }> };

describe('MCP servers', () => {
  let sb: SwitchboardApi;
  let userFile: string;
  let wsFile: string;
  const folder = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const config = () => vscode.workspace.getConfiguration('switchboard');
  const received = (log: string, method = 'session/new') =>
    agentEvents(log).filter(e => e.event === 'mcpServers' && e.method === method).map(e => e.servers as Server[]);
  const notices = () => sb.chat.items.filter(i => i.kind === 'notice').map(i => (i as { text: string }).text);
  const asked: string[] = [];
  let answers: Record<string, string | undefined> = {};
  const originalAsk = (d: McpInputDecl) => { asked.push(d.id); return Promise.resolve(answers[d.id]); };

  before(async () => {
    sb = await api();
    userFile = path.join(sb.mcp.userDir, 'mcp.json');
    wsFile = path.join(folder(), '.vscode', 'mcp.json');
    // VS Code keeps the user mcp.json next to settings.json, in <user data>/User.
    assert.equal(path.basename(sb.mcp.userDir), 'User');
    sb.mcp.ask = originalAsk;
  });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
    asked.length = 0;
    answers = {};
  });
  afterEach(async () => {
    await sb.chat.stop();
    fs.rmSync(userFile, { force: true });
    fs.rmSync(wsFile, { force: true });
    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('mcp.disabledFor', undefined, vscode.ConfigurationTarget.Global);
    await sb.mcp.forgetInputs();
  });

  function writeConfigs(): void {
    fs.writeFileSync(userFile, `// VS Code's user mcp.json: JSONC
{
  "inputs": [{ "id": "token", "type": "promptString", "description": "GitHub token", "password": true }],
  "servers": {
    "shared": { "command": "from-user" },
    "github": { "type": "stdio", "command": "gh-mcp", "args": ["--token", "\${input:token}"], "env": { "GH_HOME": "\${userHome}" } },
    "weather": { "type": "http", "url": "https://weather.example/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
    "events": { "type": "sse", "url": "https://events.example/sse" },
  },
}`);
    fs.mkdirSync(path.dirname(wsFile), { recursive: true });
    fs.writeFileSync(wsFile, JSON.stringify({ servers: {
      shared: { command: 'from-workspace' },
      local: { command: '${workspaceFolder}/tools/mcp', args: ['${env:SWITCHBOARD_TEST}'] },
    } }));
  }

  it('passes the user, workspace and setting servers in session/new (setting > workspace > user), variables resolved, http/sse skipped for an agent without mcpCapabilities; the conversation says which', async () => {
    writeConfigs();
    await config().update('mcpServers', { shared: { command: 'from-setting' } }, vscode.ConfigurationTarget.Global);
    answers = { token: 'ghp_secret' };
    const { log } = await useScriptedAgent({});
    assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
    const [servers] = received(log);
    assert.deepEqual(servers.map(s => s.name), ['shared', 'local', 'github']);
    assert.equal(servers[0].command, 'from-setting');
    assert.deepEqual([servers[1].command, servers[1].args], [`${folder()}/tools/mcp`, ['1']]);
    assert.deepEqual(servers[2].args, ['--token', 'ghp_secret']);
    assert.equal(servers[2].env![0].name, 'GH_HOME');
    assert.ok(servers[2].env![0].value.length > 1, 'userHome resolved');
    const text = notices().join('\n');
    assert.match(text, /MCP servers passed to Scripted: shared \(stdio\), local \(stdio\), github \(stdio\)\./);
    assert.match(text, /Skipped weather \(http\): the agent does not accept http MCP servers\./);
    assert.match(text, /Skipped events \(sse\): the agent does not accept sse MCP servers\./);
  });

  for (const caps of [{ http: true }, { sse: true }, { http: true, sse: true }]) {
    it(`mcpCapabilities ${JSON.stringify(caps)}: the agent gets exactly the transports it accepts`, async () => {
      writeConfigs();
      answers = { token: 't0k' };
      const { log } = await useScriptedAgent({ agentCapabilities: { mcpCapabilities: caps } });
      assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
      const [servers] = received(log);
      const expected = ['shared', 'local', 'github', ...('http' in caps ? ['weather'] : []), ...('sse' in caps ? ['events'] : [])];
      assert.deepEqual(servers.map(s => s.name), expected);
      if ('http' in caps) {
        assert.deepEqual(servers.find(s => s.name === 'weather'),
          { type: 'http', name: 'weather', url: 'https://weather.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer t0k' }] });
      }
      for (const t of ['http', 'sse'] as const) {
        assert.equal(notices().some(n => n.includes(`the agent does not accept ${t} MCP servers`)), !(t in caps), notices().join('\n'));
      }
    });
  }

  it('session/resume and session/load pass the same servers', async () => {
    await config().update('mcpServers', { tools: { command: 'tools-mcp', env: { A: '1' } } }, vscode.ConfigurationTarget.Global);
    const expected = [{ name: 'tools', command: 'tools-mcp', args: [], env: [{ name: 'A', value: '1' }] }];
    for (const [caps, method] of [[{ sessionCapabilities: { resume: {} } }, 'session/resume'], [{ loadSession: true }, 'session/load']] as const) {
      await sb.chat.stop();
      await sb.chat.newConversation();
      const { log } = await useScriptedAgent({ agentCapabilities: caps });
      await sb.chat.sendPrompt('hi');
      assert.equal(await sb.chat.restart(), true, dump(sb.chat.items));
      assert.deepEqual(received(log, 'session/new'), [expected]);
      assert.deepEqual(received(log, method), [expected], method);
      assert.match(notices().at(-1) ?? '', /MCP servers passed to Scripted: tools \(stdio\)\./);
    }
  });

  it('asks an input once and keeps it in SecretStorage: a second session and a reloaded window do not ask again', async () => {
    writeConfigs();
    answers = { token: 'typed-once' };
    const { log } = await useScriptedAgent({});
    await sb.chat.start();
    await sb.chat.newConversation();
    await sb.chat.start();
    assert.deepEqual(asked, ['token']);
    assert.equal(received(log).length, 2);
    for (const servers of received(log)) assert.deepEqual(servers.find(s => s.name === 'github')!.args, ['--token', 'typed-once']);
    assert.equal(await sb.mcp.secrets.get('switchboard.mcp.input.token'), 'typed-once');
    // A new window: nothing in memory, the value comes from SecretStorage.
    const fresh = new McpServers(sb.mcp.userDir, sb.mcp.secrets, quietLogger);
    fresh.ask = d => { asked.push(`fresh:${d.id}`); return Promise.resolve(undefined); };
    const again = await fresh.forSession('Scripted', {});
    assert.deepEqual(asked, ['token']);
    assert.deepEqual((again.servers.find(s => s.name === 'github') as Server).args, ['--token', 'typed-once']);
  });

  it('a dismissed input skips its server, says so, and is not asked again in this window', async () => {
    await config().update('mcpServers', { needsKey: { command: 'x', env: { KEY: '${input:nope}' } }, plain: { command: 'y' } }, vscode.ConfigurationTarget.Global);
    const { log } = await useScriptedAgent({});
    await sb.chat.start();
    await sb.chat.newConversation();
    await sb.chat.start();
    assert.deepEqual(asked, ['nope']);
    assert.deepEqual(received(log).map(s => s.map(x => x.name)), [['plain'], ['plain']]);
    assert.match(notices().join('\n'), /Skipped needsKey \(stdio\): the input "nope" was not given\./);
  });

  it('never reads the workspace .vscode/mcp.json in an untrusted workspace, and says so', async () => {
    writeConfigs();
    answers = { token: 'x' };
    const untrusted = await sb.mcp.forSession('Scripted', {}, false);
    assert.deepEqual(untrusted.servers.map(s => s.name), ['shared', 'github']);
    assert.equal((untrusted.servers[0] as Server).command, 'from-user');
    assert.match(untrusted.notice ?? '', /The workspace \.vscode\/mcp\.json was not read: this workspace is not trusted\./);
    const trusted = await sb.mcp.forSession('Scripted', {}, true);
    assert.deepEqual(trusted.servers.map(s => s.name), ['shared', 'local', 'github']);
    assert.doesNotMatch(trusted.notice ?? '', /not trusted/);
  });

  it('switchboard.mcp.disabledFor: that agent gets no servers, nothing is asked and nothing is shown; another agent still gets them', async () => {
    writeConfigs();
    answers = { token: 'x' };
    await config().update('mcp.disabledFor', ['Scripted'], vscode.ConfigurationTarget.Global);
    const { log } = await useScriptedAgent({});
    assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
    assert.deepEqual(received(log), [[]]);
    assert.deepEqual(asked, []);
    assert.deepEqual(notices(), []);
    await sb.chat.stop();
    await sb.chat.newConversation();
    const other = await useScriptedAgent({}, 'Other');
    assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
    assert.deepEqual(received(other.log).map(s => s.map(x => x.name)), [['shared', 'local', 'github']]);
    assert.match(notices().join('\n'), /MCP servers passed to Other/);
  });

  it('"Forget MCP Server Inputs" forgets the kept values: the next session asks again', async () => {
    await config().update('mcpServers', { k: { command: 'x', args: ['${input:region}'] } }, vscode.ConfigurationTarget.Global);
    answers = { region: 'eu' };
    const { log } = await useScriptedAgent({});
    await sb.chat.start();
    assert.equal(await sb.mcp.secrets.get('switchboard.mcp.input.region'), 'eu');
    await vscode.commands.executeCommand('switchboard.forgetMcpInputs');
    assert.equal(await sb.mcp.secrets.get('switchboard.mcp.input.region'), undefined);
    answers = { region: 'us' };
    await sb.chat.newConversation();
    await sb.chat.start();
    assert.deepEqual(asked, ['region', 'region']);
    assert.deepEqual(received(log).map(s => s[0].args), [['eu'], ['us']]);
  });

  /** A fresh McpServers (nothing asked or known in this window) whose log lines are kept. */
  const withLog = () => {
    const lines: string[] = [];
    const logger = { ...quietLogger, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
    const m = new McpServers(sb.mcp.userDir, sb.mcp.secrets, logger);
    m.ask = originalAsk;
    return { m, lines };
  };

  it('an unset ${env:…} skips that server, with the reason in the conversation and the log; a variable set to "" is passed', async () => {
    delete process.env.SWITCHBOARD_TEST_UNSET;
    process.env.SWITCHBOARD_TEST_EMPTY = '';
    try {
      await config().update('mcpServers', {
        needsEnv: { command: 'x', env: { TOKEN: '${env:SWITCHBOARD_TEST_UNSET}' } },
        emptyOk: { command: 'y', args: ['--flag=${env:SWITCHBOARD_TEST_EMPTY}'] },
        plain: { command: 'z' },
      }, vscode.ConfigurationTarget.Global);
      const { log } = await useScriptedAgent({});
      assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
      const [servers] = received(log);
      assert.deepEqual(servers.map(s => s.name), ['emptyOk', 'plain']);
      assert.deepEqual(servers[0].args, ['--flag=']);
      assert.match(notices().join('\n'), /Skipped needsEnv \(stdio\): the environment variable SWITCHBOARD_TEST_UNSET is not set\./);
      const { m, lines } = withLog();
      await m.forSession('Scripted', {});
      assert.ok(lines.some(l => l === 'MCP: skipped needsEnv (switchboard.mcpServers): the environment variable SWITCHBOARD_TEST_UNSET is not set'), lines.join('\n'));
    } finally {
      delete process.env.SWITCHBOARD_TEST_EMPTY;
    }
  });

  it('an input Switchboard cannot resolve (type "command") skips its server without asking, saying why in the conversation and the log; a pickString input is asked with its options', async () => {
    fs.writeFileSync(userFile, JSON.stringify({
      inputs: [
        { id: 'picked', type: 'command', command: 'some.extension.pickToken' },
        { id: 'region', type: 'pickString', description: 'Region', options: ['eu', 'us'], default: 'us' },
      ],
      servers: { byCommand: { command: 'a', args: ['${input:picked}'] }, byPick: { command: 'b', args: ['${input:region}'] } },
    }));
    const decls: McpInputDecl[] = [];
    sb.mcp.ask = d => { decls.push(d); return Promise.resolve(d.id === 'region' ? 'eu' : 'never'); };
    try {
      const { log } = await useScriptedAgent({});
      assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
      assert.deepEqual(received(log).map(s => s.map(x => [x.name, x.args])), [[['byPick', ['eu']]]]);
      assert.deepEqual(decls.map(d => [d.id, d.type, d.options]), [['region', 'pickString', ['eu', 'us']]]);
      assert.match(notices().join('\n'), /Skipped byCommand \(stdio\): the input "picked" is computed by a VS Code command, which Switchboard cannot run\./);
    } finally {
      sb.mcp.ask = originalAsk;
    }
    const { m, lines } = withLog();
    answers = {};
    await config().update('mcpServers', { dismissed: { command: 'x', args: ['${input:never-given}'] } }, vscode.ConfigurationTarget.Global);
    await m.forSession('Scripted', {});
    assert.ok(lines.some(l => l === 'MCP: skipped dismissed (switchboard.mcpServers): the input "never-given" was not given'), lines.join('\n'));
    assert.ok(lines.some(l => l.startsWith('MCP: skipped byCommand (user mcp.json): the input "picked"')), lines.join('\n'));
  });

  it("reads the active profile's own mcp.json (User/profiles/<id>/mcp.json), not the default profile's", async () => {
    const storageFile = path.join(sb.mcp.userDir, 'globalStorage', 'storage.json');
    const saved = fs.existsSync(storageFile) ? fs.readFileSync(storageFile) : undefined;
    const profileDir = path.join(sb.mcp.userDir, 'profiles', 'sb-test-profile');
    const workspace = (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders![0].uri).toString();
    const writeStorage = (profile: object) => {
      const storage = saved ? JSON.parse(saved.toString('utf8')) : {};
      fs.mkdirSync(path.dirname(storageFile), { recursive: true });
      fs.writeFileSync(storageFile, JSON.stringify({
        ...storage,
        userDataProfiles: [...(storage.userDataProfiles ?? []), { location: 'sb-test-profile', name: 'Switchboard test', ...profile }],
        profileAssociations: { workspaces: { ...storage.profileAssociations?.workspaces, [workspace]: 'sb-test-profile' }, emptyWindows: {} },
      }));
    };
    // VS Code also hands the mcp.json of the profile it really runs (here the default) to extensions
    // as the user setting "mcp", a weaker source: the same server name in both tells them apart.
    try {
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, 'mcp.json'), '// the profile\'s own\n{ "servers": { "shared": { "command": "profile-mcp" }, "onlyInProfile": { "command": "p2" }, }, }');
      fs.writeFileSync(userFile, JSON.stringify({ servers: { shared: { command: 'default-mcp' } } }));
      writeStorage({});
      const { log } = await useScriptedAgent({});
      assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
      assert.deepEqual(received(log).map(s => s.map(x => [x.name, x.command])), [[['shared', 'profile-mcp'], ['onlyInProfile', 'p2']]]);
      assert.match(notices().join('\n'), /MCP servers passed to Scripted: shared \(stdio\), onlyInProfile \(stdio\)\./);

      // A profile made to use the default profile's MCP servers reads the default mcp.json.
      writeStorage({ useDefaultFlags: { mcp: true } });
      const shared = await sb.mcp.forSession('Scripted', {});
      assert.deepEqual(shared.servers.map(s => [s.name, (s as Server).command]), [['shared', 'default-mcp']]);
    } finally {
      if (saved) fs.writeFileSync(storageFile, saved);
      else fs.rmSync(storageFile, { force: true });
      fs.rmSync(profileDir, { recursive: true, force: true });
    }
    // Back on the default profile: the default mcp.json.
    const back = await sb.mcp.forSession('Scripted', {});
    assert.deepEqual(back.servers.map(s => [s.name, (s as Server).command]), [['shared', 'default-mcp']]);
  });

  it('a repository cannot add servers through its own switchboard.mcpServers (user settings only); a broken mcp.json is named', async () => {
    await assert.rejects(Promise.resolve(config().update('mcpServers', { repo: { command: 'evil' } }, vscode.ConfigurationTarget.Workspace)),
      /can be written only into User settings/);
    fs.writeFileSync(userFile, '{ "servers": { "a": ');
    const { log } = await useScriptedAgent({});
    assert.equal(await sb.chat.start(), true, dump(sb.chat.items));
    assert.deepEqual(received(log), [[]]);
    assert.match(notices().join('\n'), /Could not read MCP servers from user mcp\.json: \w+ at offset \d+/);
  });
});
