// The foundation, in a real VS Code: start an agent from settings, stream a turn, and every way the
// agent process can go wrong — each seen as the user sees it in the chat.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { readAgents } from '../../src/host/config';
import { agentEvents, api, configureAgent, dump, extensionRoot, isAlive, lastOf, NODE, useScriptedAgent, waitFor } from './helpers';

describe('Agent connection', () => {
  let sb: SwitchboardApi;

  before(async () => { sb = await api(); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  after(async () => { await sb.chat.stop(); });

  it('contributes the chat view and commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['switchboard.openChat', 'switchboard.selectAgent', 'switchboard.stopAgent', 'switchboard.restartAgent']) {
      assert.ok(commands.includes(id), `${id} registered`);
    }
    await vscode.commands.executeCommand('switchboard.openChat');
  });

  it('initializes with protocol 1 and client info, opens a session in the workspace folder, and streams the answer', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'thought', text: 'Let me think.' }, { type: 'text', text: 'Hello' }, { type: 'text', text: ', world' }, { type: 'stop', stopReason: 'max_tokens' }] }],
    });
    await sb.chat.sendPrompt('Say hello');
    const items = sb.chat.items;
    assert.deepEqual(items.map(i => i.kind), ['user', 'thought', 'agent', 'turnEnd'], dump(items));
    assert.equal(lastOf(items, 'agent')!.text, 'Hello, world');
    assert.equal(lastOf(items, 'turnEnd')!.stopReason, 'max_tokens');

    const events = agentEvents(log);
    const init = events.find(e => e.event === 'initialize')!.params as Record<string, any>;
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.clientInfo.name, 'switchboard');
    // Exactly what this client serves: fs (host/fs) is always served.
    assert.deepEqual(init.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
    assert.equal(init.clientCapabilities.terminal, true);
    const session = events.find(e => e.event === 'session/new')!.params as Record<string, any>;
    assert.equal(session.cwd, vscode.workspace.workspaceFolders![0].uri.fsPath);
    assert.equal(sb.chat.status.status, 'ready');
  });

  it('runs the agent with the configured env on top of the user environment, in the workspace folder', async () => {
    const { log } = await useScriptedAgent({ turns: [{ steps: [{ type: 'text', text: 'ok' }] }] });
    const entry = vscode.workspace.getConfiguration('switchboard').inspect<Record<string, any>>('agents')!.globalValue!.Scripted;
    const marker = path.join(path.dirname(log), 'env-check.txt');
    // A tiny wrapper agent: records env and cwd, then execs the scripted agent.
    const wrapper = path.join(path.dirname(log), 'env-wrapper.mjs');
    fs.writeFileSync(wrapper, `import fs from 'node:fs';
fs.writeFileSync(${JSON.stringify(marker)}, JSON.stringify({ custom: process.env.SWITCHBOARD_CUSTOM, path: !!process.env.PATH, cwd: process.cwd() }));
process.argv.splice(1, 2, ${JSON.stringify(entry.args[0])}, ${JSON.stringify(entry.args[1])});
await import(${JSON.stringify('file://' + entry.args[0])});`);
    await configureAgent('Scripted', { command: NODE, args: [wrapper, 'x'], env: { SWITCHBOARD_CUSTOM: 'from settings' } });
    await sb.chat.sendPrompt('hi');
    const seen = JSON.parse(fs.readFileSync(marker, 'utf8'));
    assert.deepEqual(seen, { custom: 'from settings', path: true, cwd: vscode.workspace.workspaceFolders![0].uri.fsPath });
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'ok', dump(sb.chat.items));
  });

  it('survives garbage on the agent stdout, and names it in the conversation after the answer', async () => {
    await useScriptedAgent({
      turns: [{ steps: [{ type: 'text', text: 'before' }, { type: 'garbage', text: 'this is not json\n' }, { type: 'text', text: ' after' }] }],
    });
    await sb.chat.sendPrompt('go');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'before after', dump(sb.chat.items));
    // Named once, after the turn's end (never inside the answer), with the line itself.
    const kinds = sb.chat.items.map(i => i.kind);
    const notice = lastOf(sb.chat.items, 'notice');
    assert.match(notice?.text ?? '', /not an ACP \(JSON-RPC\) message; it was ignored\. First line: “this is not json”/, dump(sb.chat.items));
    assert.ok(kinds.lastIndexOf('notice') > kinds.lastIndexOf('turnEnd'), dump(sb.chat.items));
    await sb.chat.sendPrompt('again');
    assert.equal(lastOf(sb.chat.items, 'turnEnd')?.stopReason, 'end_turn');
    assert.equal(sb.chat.items.filter(i => i.kind === 'turnEnd').length, 2, dump(sb.chat.items));
  });

  it('a command that does not exist is reported by name, with an action to open the setting', async () => {
    await configureAgent('Missing', { command: 'switchboard-no-such-agent-cmd', args: [] });
    assert.equal(await sb.chat.start(), false);
    const err = lastOf(sb.chat.items, 'error');
    assert.ok(err, dump(sb.chat.items));
    assert.match(err.message, /"switchboard-no-such-agent-cmd" was not found/);
    assert.ok(err.actions.includes('openSettings'));
    assert.equal(sb.chat.status.status, 'error');
  });

  it('a crash mid-turn shows the last lines of stderr and a Restart that works', async () => {
    await useScriptedAgent({
      turns: [
        { match: 'crash', steps: [{ type: 'text', text: 'working' }, { type: 'stderr', text: 'fatal: disk on fire\n' }, { type: 'crash', message: 'panic at the disco' }] },
        { steps: [{ type: 'text', text: 'back again' }] },
      ],
    });
    await sb.chat.start();
    const pid = sb.chat.agentPid!;
    await sb.chat.sendPrompt('please crash');
    const err = await waitFor('crash error', () => lastOf(sb.chat.items, 'error'));
    assert.match(err.message, /crashed \(exit code 1\)/);
    assert.match(err.details ?? '', /fatal: disk on fire[\s\S]*panic at the disco/);
    assert.deepEqual([...err.actions], ['restart', 'showLog']);
    assert.equal(isAlive(pid), false);

    await sb.chat.runAction('restart');
    assert.ok(sb.chat.agentPid && sb.chat.agentPid !== pid);
    await sb.chat.sendPrompt('hello');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'back again', dump(sb.chat.items));
  });

  it('refuses an agent that answers with another protocol version, and the process is gone', async () => {
    const { log } = await useScriptedAgent({ protocolVersion: 2 });
    assert.equal(await sb.chat.start(), false);
    const err = lastOf(sb.chat.items, 'error')!;
    assert.match(err.message, /ACP protocol version 2.*Switchboard asked for version 1/);
    const pid = agentEvents(log).find(e => e.event === 'start')!.pid as number;
    assert.equal(isAlive(pid), false);
  });

  it('gives up on an agent that never answers initialize, and the process is gone', async () => {
    const config = vscode.workspace.getConfiguration('switchboard');
    // 3 s: on a loaded machine the agent may need a second just to start and log its pid.
    await config.update('initializeTimeoutSeconds', 3, vscode.ConfigurationTarget.Global);
    try {
      const { log } = await useScriptedAgent({ hangOnInitialize: true, ignoreStdinClose: true });
      // An agent that never answers: without the timeout start() never returns (mocha's timeout fails it).
      assert.equal(await sb.chat.start(), false);
      assert.match(lastOf(sb.chat.items, 'error')!.message, /did not answer "initialize" within 3 s/);
      const pid = agentEvents(log).find(e => e.event === 'start')!.pid as number;
      assert.equal(isAlive(pid), false);
    } finally {
      await config.update('initializeTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('offers the auth methods when session/new answers auth_required, then opens the session', async () => {
    const { log } = await useScriptedAgent({
      requireAuth: true,
      authMethods: [{ id: 'api-key', name: 'Use an API key', description: 'From the environment' }],
      turns: [{ steps: [{ type: 'text', text: 'authenticated answer' }] }],
    });
    const started = sb.chat.start();
    // The auth methods are a card in the conversation (session/signIn.ts): choose the only method.
    const card = await waitFor('the sign-in card', () => lastOf(sb.chat.items, 'permission'));
    assert.deepEqual(card.permission.options.map(o => o.name), ['Use an API key', 'Not now']);
    sb.chat.answerPermission(card.id, card.permission.options[0].optionId);
    assert.equal(await started, true, dump(sb.chat.items));
    assert.deepEqual(agentEvents(log).find(e => e.event === 'authenticate')!.params, { methodId: 'api-key' });
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'authenticated answer');
  });

  it('Stop ends an agent that ignores stdin close and SIGTERM (SIGKILL after the grace period)', async () => {
    await useScriptedAgent({ ignoreStdinClose: true, ignoreSigterm: true });
    await sb.chat.start();
    const pid = sb.chat.agentPid!;
    assert.ok(isAlive(pid));
    await vscode.commands.executeCommand('switchboard.stopAgent');
    assert.equal(isAlive(pid), false);
    assert.equal(sb.chat.status.status, 'stopped');
    assert.equal(lastOf(sb.chat.items, 'error'), undefined, 'a requested stop is not reported as a crash');
  });

  it('deactivating the extension stops the agent process', async () => {
    await useScriptedAgent({ ignoreStdinClose: true });
    await sb.chat.start();
    const pid = sb.chat.agentPid!;
    assert.ok(isAlive(pid));
    // The same module instance the extension host loaded: its deactivate() is what VS Code calls.
    const main = require(path.join(extensionRoot(), 'dist/extension.js')) as { deactivate(): Promise<void> };
    await main.deactivate();
    assert.equal(isAlive(pid), false);
  });

  it('reads the agent command only from user settings, never from the workspace', async () => {
    const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // The timeout is a window-scoped setting: seeing it proves VS Code has loaded this file.
    fs.writeFileSync(settingsFile, JSON.stringify({
      'switchboard.agents': { Evil: { command: '/tmp/evil' } }, 'switchboard.defaultAgent': 'Evil', 'switchboard.initializeTimeoutSeconds': 7,
    }));
    try {
      await waitFor('workspace settings to load', () => vscode.workspace.getConfiguration('switchboard').get('initializeTimeoutSeconds') === 7);
      const { agents } = readAgents();
      assert.equal(agents.find(a => a.name === 'Evil'), undefined);
      assert.notEqual(vscode.workspace.getConfiguration('switchboard').get('defaultAgent'), 'Evil');
    } finally {
      fs.rmSync(path.dirname(settingsFile), { recursive: true, force: true });
    }
  });
});

describe('The SDK example agent', () => {
  it('streams its canned answer, shows its tool call and waits for our permission answer', async () => {
    const sb = await api();
    await sb.chat.stop();
    await sb.chat.newConversation();
    const agentJs = path.join(extensionRoot(), 'node_modules/acp-sdk-examples/dist/examples/agent.js');
    await configureAgent('SDK example', { command: NODE, args: [agentJs] });
    const turn = sb.chat.sendPrompt('Hello, example agent');
    const permission = await waitFor('permission request', () => lastOf(sb.chat.items, 'permission'), 30_000);
    assert.ok(permission.permission.options.length >= 2, JSON.stringify(permission));
    assert.ok(sb.chat.items.some(i => i.kind === 'tool'), dump(sb.chat.items));
    const allow = permission.permission.options.find(o => o.kind === 'allow_once')!;
    sb.chat.answerPermission(permission.id, allow.optionId);
    await turn;
    const items = sb.chat.items;
    assert.equal(lastOf(items, 'permission')!.permission.outcome, allow.name);
    assert.ok(items.some(i => i.kind === 'agent' && i.text.length > 20), dump(items));
    assert.equal(lastOf(items, 'turnEnd')?.stopReason, 'end_turn', dump(items));
    await sb.chat.stop();
  });
});
