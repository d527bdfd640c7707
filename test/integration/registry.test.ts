// Agents from the ACP registry, in a real VS Code, against a local HTTP server started here that
// serves a registry.json, icons and archives (tar.gz and zip holding a launcher of the scripted
// agent): install and run, wrong checksum, missing platform, truncated download, offline (cache,
// then the shipped snapshot), update and remove. The dialogs are answered through `registry.ui`;
// the picker's items are the real ones.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { readAgents } from '../../src/host/config';
import type { AgentPickItem, PickerContent, RegistryUi } from '../../src/host/registry/picker';
import type { RegistryResult } from '../../src/host/registry/agentRegistry';
import { readRegistryUrl } from '../../src/host/registry/registrySource';
import { agentLauncher, makeTarGz, makeZip } from '../fixtures/registry/archives';
import { agentEvents, api, dump, extensionRoot, isAlive, lastOf, NODE, tmpDir, waitFor } from './helpers';

const config = () => vscode.workspace.getConfiguration('switchboard');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('Agent registry: add, update, remove agents', () => {
  let sb: SwitchboardApi;
  let server: http.Server;
  let base: string;
  let closedUrl: string;
  /** What the server serves: path -> bytes; `/registry.json` is `doc`. */
  const files = new Map<string, Buffer>();
  let doc: { version: string; agents: object[] } = { version: '1.0.0', agents: [] };
  let originalUi: RegistryUi;
  const asked = { confirms: [] as string[], infos: [] as string[], errors: [] as string[], answer: true, choose: '', shown: undefined as PickerContent<vscode.QuickPickItem> | undefined };

  /** A launcher archive whose agent says `text`; `kind` picks tar.gz or zip. */
  const agentArchive = async (name: string, text: string, kind: 'tgz' | 'zip') => {
    const dir = fs.mkdtempSync(path.join(tmpDir, `${name}-`));
    const log = path.join(dir, 'agent.jsonl');
    const script = path.join(dir, 'script.json');
    fs.writeFileSync(script, JSON.stringify({ log, turns: [{ steps: [{ type: 'text', text }] }] }));
    const launcher = agentLauncher(NODE, path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'), script);
    let bytes: Buffer;
    if (kind === 'zip') {
      bytes = makeZip([{ name: 'agent-pkg/' }, { name: 'agent-pkg/bin/agent', data: launcher, mode: 0o755 }, { name: 'agent-pkg/README', data: 'test', deflate: true }]);
    } else {
      const src = path.join(dir, 'src');
      fs.mkdirSync(path.join(src, 'agent-pkg/bin'), { recursive: true });
      fs.writeFileSync(path.join(src, 'agent-pkg/bin/agent'), launcher, { mode: 0o755 });
      bytes = await makeTarGz(src, ['agent-pkg']);
    }
    const file = `/dl/${name}.${kind === 'zip' ? 'zip' : 'tar.gz'}`;
    files.set(file, bytes);
    return { url: base + file, sha: sha256(bytes), log };
  };

  const binaryAgent = (id: string, version: string, archive: { url: string; sha?: string }, platform = sb.registry.platform!) => ({
    id, name: `Test ${id}`, version, description: `The ${id} test agent`, icon: `${base}/icons/${id}.svg`,
    distribution: { binary: { [platform]: { archive: archive.url, cmd: './agent-pkg/bin/agent', ...(archive.sha ? { sha256: archive.sha } : {}) } } },
  });
  const npxAgent = (id: string, version: string) => ({
    id, name: `Test ${id}`, version, description: `The ${id} npm agent`, distribution: { npx: { package: `@test/${id}`, args: ['--acp'] } },
  });

  const run = async (command: 'addAgent' | 'updateAgent' | 'removeAgent', id?: string) =>
    (await vscode.commands.executeCommand(`switchboard.${command}`, id)) as RegistryResult | undefined;
  const userEntry = (name: string) => (config().inspect<Record<string, { command: string; args: string[] }>>('agents')?.globalValue ?? {})[name];
  const agentDir = (id: string) => sb.registry.agentDir(id);

  before(async () => {
    sb = await api();
    server = http.createServer((req, res) => {
      const url = req.url ?? '';
      if (url === '/registry.json') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(doc)); return; }
      if (url.startsWith('/icons/')) {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="currentColor"/></svg>');
        return;
      }
      const truncate = url.startsWith('/truncated/');
      const body = files.get(truncate ? url.slice('/truncated'.length) : url);
      if (!body) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-length': body.length });
      // A truncated download: the server sends half and closes the connection.
      if (truncate) res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => res.socket?.destroy(), 20));
      else res.end(body);
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closed = http.createServer();
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r));
    closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/registry.json`;
    await new Promise(r => closed.close(r));

    originalUi = sb.registry.ui;
    sb.registry.ui = {
      async pick<T extends vscode.QuickPickItem>(content: Promise<PickerContent<T>>) {
        const c = await content;
        asked.shown = c;
        return c.items.find(i => (i as unknown as AgentPickItem).agent?.id === asked.choose || (i as unknown as { id?: string }).id === asked.choose);
      },
      async confirm(message, detail) { asked.confirms.push(`${message} ${detail}`); return asked.answer; },
      async info(message) { asked.infos.push(message); return undefined; },
      error(message) { asked.errors.push(message); },
    };
    await config().update('registry.url', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
    Object.assign(asked, { confirms: [], infos: [], errors: [], answer: true, choose: '', shown: undefined });
    sb.registry.now = Date.now;
    await config().update('registry.url', `${base}/registry.json`, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await sb.chat.stop();
    asked.answer = true;
    for (const id of Object.keys(sb.registry.records.all())) await run('removeAgent', id);
    sb.registry.ui = originalUi;
    sb.registry.now = Date.now;
    await config().update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    await config().update('registry.allowUnverified', undefined, vscode.ConfigurationTarget.Global);
    server.closeAllConnections();
    server.close();
  });

  it('reads the registry URL from user settings only, never from the workspace', async () => {
    assert.equal(readRegistryUrl(), `${base}/registry.json`);
    await assert.rejects(Promise.resolve(config().update('registry.url', 'https://evil.example/registry.json', vscode.ConfigurationTarget.Workspace)),
      /can be written only into User settings/);
    assert.equal(readRegistryUrl(), `${base}/registry.json`);
  });

  it('installs a tar.gz agent whose checksum matches from the picker, and it answers through Switchboard', async () => {
    const archive = await agentArchive('tgz-agent-1', 'hello from the tar.gz agent', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('tgz-agent', '1.0.0', archive), npxAgent('npm-agent', '2.0.0'), { id: 'Broken!', name: 'x' }] };
    asked.choose = 'tgz-agent';
    const result = await run('addAgent');
    assert.deepEqual(asked.errors, []);
    assert.ok(result?.ok, JSON.stringify(result));

    // The picker listed the registry's agents (the malformed one skipped), with icons and versions.
    const items = asked.shown!.items as AgentPickItem[];
    assert.deepEqual(items.map(i => i.label), ['Test tgz-agent', 'Test npm-agent']);
    assert.equal(items[0].description, '1.0.0 · download');
    assert.equal(items[1].description, '2.0.0 · npx');
    assert.equal(items[0].detail, 'The tgz-agent test agent');
    const icon = items[0].iconPath as { light: vscode.Uri; dark: vscode.Uri };
    assert.match(fs.readFileSync(icon.dark.fsPath, 'utf8'), /fill="#C5C5C5"/, 'the monochrome icon tinted for dark themes');
    assert.match(fs.readFileSync(icon.light.fsPath, 'utf8'), /fill="#424242"/);
    assert.ok(items[1].iconPath instanceof vscode.ThemeIcon, 'no icon: a codicon');

    // Unpacked into global storage, run from there by absolute path.
    const entry = userEntry('Test tgz-agent');
    assert.equal(entry.command, path.join(agentDir('tgz-agent'), '1.0.0', 'agent-pkg', 'bin', 'agent'));
    assert.ok(fs.statSync(entry.command).mode & 0o100);
    assert.deepEqual(fs.readdirSync(agentDir('tgz-agent')), ['1.0.0'], 'no staging folder or download left');
    assert.match(asked.infos.join('\n'), /Test tgz-agent 1\.0\.0 is installed as "Test tgz-agent"/);

    const spec = readAgents().agents.find(a => a.name === 'Test tgz-agent')!;
    assert.equal(await sb.chat.start(spec), true, dump(sb.chat.items));
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'hello from the tar.gz agent', dump(sb.chat.items));
    assert.ok(agentEvents(archive.log).some(e => e.event === 'initialize'), 'the installed agent answered initialize');

    // Listed as installed now.
    const loaded = await sb.registry.load();
    assert.equal(sb.registry.pickerContent(loaded).items[0].description, '1.0.0 · installed');
  });

  it('installs a zip agent (modes from the zip) that answers too', async () => {
    const archive = await agentArchive('zip-agent-1', 'hello from the zip agent', 'zip');
    doc = { version: '1.0.0', agents: [binaryAgent('zip-agent', '3.1.0', archive)] };
    const result = await run('addAgent', 'zip-agent');
    assert.ok(result?.ok, JSON.stringify(result) + asked.errors.join('\n'));
    const spec = readAgents().agents.find(a => a.name === 'Test zip-agent')!;
    assert.equal(spec.command, path.join(agentDir('zip-agent'), '3.1.0', 'agent-pkg', 'bin', 'agent'));
    assert.equal(await sb.chat.start(spec), true, dump(sb.chat.items));
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'hello from the zip agent', dump(sb.chat.items));
  });

  it('refuses a download whose checksum does not match, says so, and leaves nothing behind', async () => {
    const archive = await agentArchive('bad-sum', 'never', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('bad-sum', '1.0.0', { url: archive.url, sha: sha256(Buffer.from('something else')) })] };
    const result = await run('addAgent', 'bad-sum');
    assert.equal(result?.ok, false);
    assert.match(asked.errors.join('\n'), new RegExp(`Could not install Test bad-sum 1\\.0\\.0: the download does not match the registry's checksum \\(expected SHA-256 ${sha256(Buffer.from('something else'))}, got ${archive.sha}\\)`));
    assert.equal(fs.existsSync(agentDir('bad-sum')), false);
    assert.equal(userEntry('Test bad-sum'), undefined);
    assert.equal(sb.registry.records.all()['bad-sum'], undefined);
  });

  it('says when the registry has no build for this platform', async () => {
    const archive = await agentArchive('other-os', 'never', 'zip');
    const other = sb.registry.platform === 'windows-aarch64' ? 'darwin-x86_64' : 'windows-aarch64';
    doc = { version: '1.0.0', agents: [binaryAgent('other-os', '1.0.0', archive, other)] };
    const result = await run('addAgent', 'other-os');
    assert.equal(result?.ok, false);
    assert.equal(asked.errors[0], `Test other-os 1.0.0 is not available for ${sb.registry.platform}: the registry has builds for ${other} only.`);
    const loaded = await sb.registry.load();
    assert.equal(sb.registry.pickerContent(loaded).items[0].description, `1.0.0 · not available for ${sb.registry.platform}`);
    assert.equal(fs.existsSync(agentDir('other-os')), false);
  });

  it('fails cleanly when the server closes the download early', async () => {
    const archive = await agentArchive('cut', 'never', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('cut', '1.0.0', { url: archive.url.replace('/dl/', '/truncated/dl/'), sha: archive.sha })] };
    const result = await run('addAgent', 'cut');
    assert.equal(result?.ok, false);
    assert.match(asked.errors.join('\n'), /Could not install Test cut 1\.0\.0: the download from 127\.0\.0\.1:\d+ ended early: \d+ bytes received of \d+/);
    assert.equal(fs.existsSync(agentDir('cut')), false);
    assert.equal(userEntry('Test cut'), undefined);
  });

  it('updates: the npx pin and the binary move to the new version, the old files go', async () => {
    const v1 = await agentArchive('up-1', 'version one', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('up-bin', '1.0.0', v1), npxAgent('up-npm', '1.0.0')] };
    assert.ok((await run('addAgent', 'up-bin'))?.ok, asked.errors.join('\n'));
    assert.ok((await run('addAgent', 'up-npm'))?.ok, asked.errors.join('\n'));
    assert.deepEqual(userEntry('Test up-npm'), { command: 'npx', args: ['-y', '@test/up-npm@1.0.0', '--acp'] });

    const v2 = await agentArchive('up-2', 'version two', 'zip');
    doc = { version: '1.0.0', agents: [binaryAgent('up-bin', '1.1.0', v2), npxAgent('up-npm', '1.2.0')] };
    const loaded = await sb.registry.load();
    const described = Object.fromEntries(sb.registry.pickerContent(loaded).items.map(i => [i.agent.id, i.description]));
    assert.deepEqual(described, { 'up-bin': '1.1.0 · update available: 1.0.0 → 1.1.0', 'up-npm': '1.2.0 · update available: 1.0.0 → 1.2.0' });

    // Update Agent… lists only agents with an update; picking one updates it.
    asked.choose = 'up-npm';
    assert.ok((await run('updateAgent'))?.ok, asked.errors.join('\n'));
    assert.deepEqual(asked.shown!.items.map(i => i.label), ['Test up-bin', 'Test up-npm']);
    assert.equal(asked.shown!.title, 'Update an agent from the ACP registry');
    assert.deepEqual(userEntry('Test up-npm'), { command: 'npx', args: ['-y', '@test/up-npm@1.2.0', '--acp'] });

    assert.ok((await run('updateAgent', 'up-bin'))?.ok, asked.errors.join('\n'));
    assert.equal(userEntry('Test up-bin').command, path.join(agentDir('up-bin'), '1.1.0', 'agent-pkg', 'bin', 'agent'));
    assert.deepEqual(fs.readdirSync(agentDir('up-bin')), ['1.1.0'], 'the old version deleted');
    assert.equal(sb.registry.records.all()['up-bin'].version, '1.1.0');
    const spec = readAgents().agents.find(a => a.name === 'Test up-bin')!;
    assert.equal(await sb.chat.start(spec), true, dump(sb.chat.items));
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'version two');

    const again = await run('updateAgent', 'up-bin');
    assert.ok(again?.ok);
    assert.match(asked.infos.at(-1)!, /Test up-bin 1\.1\.0 is the registry's latest version/);
    assert.equal(await run('updateAgent'), undefined);
    assert.equal(asked.infos.at(-1), 'Every agent installed from the registry is up to date.');
  });

  it('removes an agent after asking: its files and its settings entry; a "no" keeps both', async () => {
    const archive = await agentArchive('gone', 'bye', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('gone', '1.0.0', archive)] };
    assert.ok((await run('addAgent', 'gone'))?.ok, asked.errors.join('\n'));
    await config().update('defaultAgent', 'Test gone', vscode.ConfigurationTarget.Global);

    asked.answer = false;
    asked.choose = 'gone';
    assert.equal(await run('removeAgent'), undefined);
    assert.ok(asked.shown!.items.some(i => i.label === 'Test gone'));
    assert.ok(fs.existsSync(agentDir('gone')));
    assert.ok(userEntry('Test gone'));

    asked.answer = true;
    assert.ok((await run('removeAgent', 'gone'))?.ok);
    assert.match(asked.confirms.at(-1)!, new RegExp(`Remove Test gone 1\\.0\\.0\\? Its files \\(${agentDir('gone').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) and its entry "Test gone" in switchboard\\.agents are deleted\\.`));
    assert.equal(fs.existsSync(agentDir('gone')), false);
    assert.equal(userEntry('Test gone'), undefined);
    assert.equal(sb.registry.records.all().gone, undefined);
    assert.equal(config().inspect('defaultAgent')?.globalValue, undefined, 'the default pointed at it: cleared');
  });

  it('refuses a download with no published checksum unless the user allows unverified agents (user settings only), and the listing says why', async () => {
    const archive = await agentArchive('no-sum', 'unverified hello', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('no-sum', '1.0.0', { url: archive.url })] };
    await config().update('registry.allowUnverified', undefined, vscode.ConfigurationTarget.Global);
    asked.choose = 'no-sum';
    const result = await run('addAgent');
    assert.equal(result?.ok, false, 'not installed: ' + JSON.stringify(result));
    const item = (asked.shown!.items as AgentPickItem[])[0];
    assert.equal(item.description, '1.0.0 · not installable: no checksum published');
    assert.match(item.detail!, /^The no-sum test agent — The registry publishes no SHA-256 checksum for this download: it cannot be verified\. Turn on switchboard\.registry\.allowUnverified to install it anyway\.$/);
    assert.equal(asked.errors.at(-1), 'Test no-sum 1.0.0 was not installed: the registry publishes no checksum for its download, so it cannot be verified. To install it anyway, turn on switchboard.registry.allowUnverified in your user settings.');
    assert.deepEqual(asked.confirms, [], 'no one-click "Install anyway"');
    assert.equal(fs.existsSync(agentDir('no-sum')), false);
    assert.equal(userEntry('Test no-sum'), undefined);

    // A workspace cannot turn it on.
    await assert.rejects(Promise.resolve(config().update('registry.allowUnverified', true, vscode.ConfigurationTarget.Workspace)),
      /can be written only into User settings/);
    await config().update('registry.allowUnverified', true, vscode.ConfigurationTarget.Global);
    const allowed = await run('addAgent');
    assert.ok(allowed?.ok, JSON.stringify(allowed) + asked.errors.join('\n'));
    assert.ok(fs.existsSync(userEntry('Test no-sum').command));
    const loaded = await sb.registry.load();
    assert.equal(sb.registry.pickerContent(loaded).items[0].description, '1.0.0 · installed · unverified: no checksum published');
    assert.ok((await run('removeAgent', 'no-sum'))?.ok);
    await config().update('registry.allowUnverified', undefined, vscode.ConfigurationTarget.Global);
  });

  it('remove asks to stop the running agent first: "no" keeps it running with its files; "yes" stops it, then deletes', async () => {
    const archive = await agentArchive('busy', 'still here', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('busy', '1.0.0', archive)] };
    assert.ok((await run('addAgent', 'busy'))?.ok, asked.errors.join('\n'));
    const spec = readAgents().agents.find(a => a.name === 'Test busy')!;
    assert.equal(await sb.chat.start(spec), true, dump(sb.chat.items));
    const pid = sb.chat.agentPid!;
    assert.ok(pid && isAlive(pid));

    asked.answer = false;
    asked.confirms = [];
    assert.equal(await run('removeAgent', 'busy'), undefined);
    assert.equal(asked.confirms.length, 1);
    assert.match(asked.confirms[0], /^Remove Test busy 1\.0\.0\? Test busy is running: it is stopped first\. /);
    assert.ok(isAlive(pid), 'declined: the agent still runs');
    assert.ok(fs.existsSync(spec.command), 'declined: its files are kept');
    assert.ok(userEntry('Test busy'));
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'still here', dump(sb.chat.items));

    asked.answer = true;
    assert.ok((await run('removeAgent', 'busy'))?.ok, asked.errors.join('\n'));
    assert.equal(sb.chat.agentPid, undefined);
    assert.equal(isAlive(pid), false, 'stopped before its files went');
    assert.equal(fs.existsSync(agentDir('busy')), false);
    assert.equal(userEntry('Test busy'), undefined);
  });

  it('update asks to stop the running agent first: "no" changes nothing; "yes" stops it and moves to the new version', async () => {
    const v1 = await agentArchive('run-1', 'running one', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('run-up', '1.0.0', v1)] };
    assert.ok((await run('addAgent', 'run-up'))?.ok, asked.errors.join('\n'));
    const spec = readAgents().agents.find(a => a.name === 'Test run-up')!;
    assert.equal(await sb.chat.start(spec), true, dump(sb.chat.items));
    const pid = sb.chat.agentPid!;

    const v2 = await agentArchive('run-2', 'running two', 'tgz');
    doc = { version: '1.0.0', agents: [binaryAgent('run-up', '1.1.0', v2)] };
    asked.answer = false;
    asked.confirms = [];
    assert.equal(await run('updateAgent', 'run-up'), undefined);
    assert.deepEqual(asked.confirms, ['Test run-up is running. It is stopped before it is updated to 1.1.0: the files it runs from are replaced.']);
    assert.ok(isAlive(pid), 'declined: still running');
    assert.deepEqual(fs.readdirSync(agentDir('run-up')), ['1.0.0'], 'declined: nothing downloaded or deleted');
    assert.equal(sb.registry.records.all()['run-up'].version, '1.0.0');
    assert.equal(userEntry('Test run-up').command, spec.command);

    asked.answer = true;
    assert.ok((await run('updateAgent', 'run-up'))?.ok, asked.errors.join('\n'));
    assert.equal(isAlive(pid), false, 'stopped before the old version was deleted');
    assert.deepEqual(fs.readdirSync(agentDir('run-up')), ['1.1.0']);
    const updated = readAgents().agents.find(a => a.name === 'Test run-up')!;
    assert.equal(await sb.chat.start(updated), true, dump(sb.chat.items));
    await sb.chat.sendPrompt('hi');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'running two', dump(sb.chat.items));
  });

  it('never deletes the files a process outside this window runs from (another window\'s agent): says so, keeps them', async () => {
    // A program that keeps running with its own path on its command line (no exec), and forks
    // nothing: a `sleep` loop's child is, for an instant after each fork, a second `/bin/sh <path>`
    // that the refusal then names too (seen in a full run). It waits on its stdin, a pipe kept open.
    const src = fs.mkdtempSync(path.join(tmpDir, 'elsewhere-'));
    fs.mkdirSync(path.join(src, 'agent-pkg/bin'), { recursive: true });
    fs.writeFileSync(path.join(src, 'agent-pkg/bin/agent'), '#!/bin/sh\nread line\n', { mode: 0o755 });
    const bytes = await makeTarGz(src, ['agent-pkg']);
    files.set('/dl/elsewhere.tar.gz', bytes);
    doc = { version: '1.0.0', agents: [binaryAgent('elsewhere', '1.0.0', { url: `${base}/dl/elsewhere.tar.gz`, sha: sha256(bytes) })] };
    assert.ok((await run('addAgent', 'elsewhere'))?.ok, asked.errors.join('\n'));
    const program = userEntry('Test elsewhere').command;
    // As another VS Code window would run it: not this window's agent.
    const other = spawn(program, [], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    await new Promise<void>((resolve, reject) => { other.once('spawn', resolve); other.once('error', reject); });
    try {
      asked.answer = true;
      const refused = await run('removeAgent', 'elsewhere');
      assert.equal(refused?.ok, false);
      const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      assert.match(asked.errors.at(-1)!, new RegExp(`^process ${other.pid} \\(/bin/sh .+\\) is running from ${esc(agentDir('elsewhere'))}: nothing was deleted\\. Stop it first\\.$`));
      assert.ok(fs.existsSync(program), 'its files are kept');
      assert.ok(userEntry('Test elsewhere'), 'its entry is kept');
    } finally {
      try { process.kill(-other.pid!, 'SIGKILL'); } catch { /* ended already */ }
    }
    await waitFor('the other process gone', () => !isAlive(other.pid!));
    assert.ok((await run('removeAgent', 'elsewhere'))?.ok, asked.errors.join('\n'));
    assert.equal(fs.existsSync(agentDir('elsewhere')), false);
  });

  it('offline: uses the cached registry and says how old it is', async () => {
    doc = { version: '1.0.0', agents: [npxAgent('cached-agent', '4.0.0')] };
    assert.equal((await sb.registry.load()).source, 'network');
    // The cache as if fetched three hours ago.
    const meta = path.join(sb.registry.source.cacheDir, 'meta.json');
    const m = JSON.parse(fs.readFileSync(meta, 'utf8'));
    fs.writeFileSync(meta, JSON.stringify({ ...m, fetchedAt: Date.now() - 3 * 3_600_000 }));

    await config().update('registry.url', closedUrl, vscode.ConfigurationTarget.Global);
    const loaded = await sb.registry.load();
    assert.equal(loaded.source, 'cache');
    assert.match(loaded.error!, /could not reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
    assert.deepEqual(loaded.registry.agents.map(a => a.id), ['cached-agent']);

    asked.choose = 'cached-agent';
    const result = await run('addAgent');
    assert.ok(result?.ok, asked.errors.join('\n'));
    assert.equal(asked.shown!.title, 'Add an agent from the ACP registry (offline: the registry as fetched 3 hours ago)');
    assert.deepEqual(userEntry('Test cached-agent'), { command: 'npx', args: ['-y', '@test/cached-agent@4.0.0', '--acp'] });
    assert.ok((await run('removeAgent', 'cached-agent'))?.ok);
  });

  it('offline with no cache: uses the snapshot shipped with Switchboard', async () => {
    fs.rmSync(sb.registry.source.cacheDir, { recursive: true, force: true });
    await config().update('registry.url', closedUrl, vscode.ConfigurationTarget.Global);
    // The age is measured with the registry's clock, set here: the title is the same on every day.
    const snapshotDate = (await sb.registry.source.load()).fetchedAt;
    sb.registry.now = () => snapshotDate + 5 * 86_400_000;
    asked.choose = 'claude-acp';
    const result = await run('addAgent');
    assert.ok(result?.ok, asked.errors.join('\n'));
    assert.equal(asked.shown!.title, 'Add an agent from the ACP registry (offline: the registry shipped with Switchboard, from 5 days ago)');
    const ids = (asked.shown!.items as AgentPickItem[]).map(i => i.agent.id);
    for (const id of ['claude-acp', 'codex-acp', 'gemini', 'cursor']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    if (/^(linux|darwin)-/.test(sb.registry.platform ?? '')) {
      // goose publishes .tar.bz2 builds for these platforms: listed, and why it cannot be installed.
      const goose = (asked.shown!.items as AgentPickItem[]).find(i => i.agent.id === 'goose')!;
      assert.equal(goose.description, '1.50.1 · not available: .tar.bz2 archives are not unpacked yet');
    }
    assert.deepEqual(userEntry('Claude Agent'), { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp@0.85.1'] });
    assert.ok((await run('removeAgent', 'claude-acp'))?.ok);
    assert.equal(userEntry('Claude Agent'), undefined);
  });

  it('reads a registry from a local file (air-gapped mirror), icons beside it', async () => {
    const dir = fs.mkdtempSync(path.join(tmpDir, 'mirror-'));
    fs.writeFileSync(path.join(dir, 'local-agent.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path stroke="currentColor" d="M1 1h14"/></svg>');
    fs.writeFileSync(path.join(dir, 'registry.json'), JSON.stringify({ version: '1.0.0', agents: [{ ...npxAgent('local-agent', '0.1.0'), icon: './local-agent.svg' }] }));
    await config().update('registry.url', path.join(dir, 'registry.json'), vscode.ConfigurationTarget.Global);
    const loaded = await sb.registry.load();
    assert.equal(loaded.source, 'network');
    const item = sb.registry.pickerContent(loaded).items[0];
    assert.equal(item.label, 'Test local-agent');
    await waitFor('the local icon cached', () => !(sb.registry.pickerContent(loaded).items[0].iconPath instanceof vscode.ThemeIcon));
  });
});
