// First run, in a real VS Code: an agent already installed on PATH is used as installed (a preset's,
// or an ACP registry agent's found from the registry copy on this computer), and a missing runtime
// (npx/uvx behind a preset, node behind a script) is named with where to get it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { AgentPickItem, PickerContent } from '../../src/host/registry/picker';
import { agentEvents, api, configureAgent, dump, extensionRoot, lastOf, NODE, tmpDir, waitFor } from './helpers';

describe('First run: installed agents and missing runtimes', () => {
  let sb: SwitchboardApi;
  const savedPath = process.env.PATH;
  const empty = fs.mkdtempSync(path.join(tmpDir, 'empty-path-'));

  before(async () => { sb = await api(); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(() => { process.env.PATH = savedPath; });
  after(async () => {
    await sb.chat.stop();
    await vscode.workspace.getConfiguration('switchboard').update('defaultAgent', undefined, vscode.ConfigurationTarget.Global);
  });

  it('starts an installed preset (claude-agent-acp on PATH) from its own program, not through npx', async function () {
    if (process.platform === 'win32') this.skip();
    const bin = fs.mkdtempSync(path.join(tmpDir, 'bin-'));
    const log = path.join(bin, 'agent.jsonl');
    const script = path.join(bin, 'script.json');
    fs.writeFileSync(script, JSON.stringify({ log, turns: [{ steps: [{ type: 'text', text: 'installed agent here' }] }] }));
    // What `npm install -g @agentclientprotocol/claude-agent-acp` puts on PATH, played by the scripted agent.
    const exe = path.join(bin, 'claude-agent-acp');
    fs.writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(NODE)} ${JSON.stringify(path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'))} ${JSON.stringify(script)} "$@"\n`);
    fs.chmodSync(exe, 0o755);
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    // The preset itself, untouched by the user's settings.
    const config = vscode.workspace.getConfiguration('switchboard');
    const agents = { ...(config.inspect<Record<string, unknown>>('agents')?.globalValue ?? {}) };
    delete agents['Claude Code'];
    await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    await config.update('defaultAgent', 'Claude Code', vscode.ConfigurationTarget.Global);

    assert.equal(await sb.chat.sendPrompt('hello'), 'sent', dump(sb.chat.items));
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'installed agent here', dump(sb.chat.items));
    assert.ok(agentEvents(log).some(e => e.event === 'initialize'), 'the installed program answered initialize');
    assert.equal(sb.chat.status.agentName, 'Claude Code');
  });

  describe('an ACP registry agent on PATH', () => {
    const config = () => vscode.workspace.getConfiguration('switchboard');
    const userEntry = (name: string) => (config().inspect<Record<string, unknown>>('agents')?.globalValue ?? {})[name];
    let registryFile: string;
    let bin: string;
    let log: string;
    type Shown = Parameters<SwitchboardApi['agentPicker']['pick']>[0];
    let shown: Shown | undefined;
    let originalPick: SwitchboardApi['agentPicker']['pick'];
    /** The picker answers with the item whose label is `choose` (as the user picking it). */
    const pickerChoosing = (choose: (items: Shown) => Shown[number] | undefined) => {
      sb.agentPicker.pick = async items => { shown = items; return choose(items); };
    };
    const exeOnPath = (name: string) => {
      const exe = path.join(bin, name);
      fs.writeFileSync(exe, `#!/bin/sh\nexec ${JSON.stringify(NODE)} ${JSON.stringify(path.join(extensionRoot(), 'test/fixtures/agent/scripted-agent.mjs'))} ${JSON.stringify(path.join(bin, 'script.json'))} "$@"\n`);
      fs.chmodSync(exe, 0o755);
      return exe;
    };
    const registryAgent = (id: string, name: string, program: string) => ({
      id, name, version: '3.1.0', description: `${name}, found on PATH`,
      distribution: { binary: { [sb.registry.platform!]: { archive: 'https://example.invalid/a.tar.gz', cmd: `./bin/${program}`, args: ['--from-registry'], env: { PATH_AGENT_MODE: 'acp' } } } },
    });

    before(() => {
      originalPick = sb.agentPicker.pick;
      bin = fs.mkdtempSync(path.join(tmpDir, 'registry-bin-'));
      log = path.join(bin, 'agent.jsonl');
      fs.writeFileSync(path.join(bin, 'script.json'), JSON.stringify({ log, turns: [{ steps: [{ type: 'text', text: 'registry agent from PATH here' }] }] }));
      registryFile = path.join(bin, 'registry.json');
    });
    beforeEach(() => { shown = undefined; });
    after(async () => {
      sb.agentPicker.pick = originalPick;
      const agents = { ...(config().inspect<Record<string, unknown>>('agents')?.globalValue ?? {}) };
      delete agents['Path Agent'];
      await config().update('agents', Object.keys(agents).length ? agents : undefined, vscode.ConfigurationTarget.Global);
      await config().update('registry.url', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(sb.registry.source.cacheDir, { recursive: true, force: true });
    });

    it('is offered as installed from the cached registry (not fetched again), and picking it saves its entry and starts it', async function () {
      if (process.platform === 'win32' || !sb.registry.platform) this.skip();
      const exe = exeOnPath('path-agent-acp');
      exeOnPath('late-agent-acp');
      process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
      // The user's registry is a local file; loading it once (as Add Agent does) caches it.
      fs.writeFileSync(registryFile, JSON.stringify({ version: '1.0.0', agents: [registryAgent('path-agent', 'Path Agent', 'path-agent-acp'), registryAgent('cursor', 'Cursor', 'path-agent-acp')] }));
      await config().update('registry.url', registryFile, vscode.ConfigurationTarget.Global);
      assert.equal((await sb.registry.source.load()).source, 'network');
      // The registry changes afterwards: the picker reads the cached copy only, so this agent is not seen.
      fs.writeFileSync(registryFile, JSON.stringify({ version: '1.0.0', agents: [registryAgent('late-agent', 'Late Agent', 'late-agent-acp')] }));

      pickerChoosing(items => items.find(i => i.label === 'Path Agent'));
      await vscode.commands.executeCommand('switchboard.selectAgent');

      const labels = shown!.map(i => i.label);
      const installedAt = labels.indexOf('Installed on this computer');
      const more = labels.indexOf('More agents');
      assert.ok(installedAt >= 0 && installedAt < labels.indexOf('Path Agent') && labels.indexOf('Path Agent') < more, labels.join(' | '));
      const item = shown!.find(i => i.label === 'Path Agent')!;
      assert.equal(item.description, 'installed');
      assert.equal(item.detail, `From the ACP registry · ${exe} --from-registry`);
      assert.ok(!labels.includes('Late Agent'), 'the registry was not fetched when the picker opened');
      assert.equal(labels.filter(l => l === 'Cursor').length, 1, 'the registry agent named like the Cursor preset is the preset');
      assert.equal(labels[labels.length - 1], '$(cloud-download) Add an agent from the ACP registry…');

      assert.deepEqual(userEntry('Path Agent'), { command: exe, args: ['--from-registry'], env: { PATH_AGENT_MODE: 'acp' } });
      assert.equal(config().inspect('defaultAgent')?.globalValue, 'Path Agent');
      assert.equal(sb.chat.status.agentName, 'Path Agent');
      assert.ok(agentEvents(log).some(e => e.event === 'initialize'), 'the program found on PATH answered initialize');
      assert.equal(await sb.chat.sendPrompt('hello'), 'sent', dump(sb.chat.items));
      assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'registry agent from PATH here', dump(sb.chat.items));

      // Saved, it is now the user's own agent: listed once, from the settings.
      pickerChoosing(() => undefined);
      await vscode.commands.executeCommand('switchboard.selectAgent');
      const again = shown!.filter(i => i.label === 'Path Agent');
      assert.equal(again.length, 1);
      assert.match(again[0].detail ?? '', /^Default agent · /);
    });

    it('its last item adds an agent from the ACP registry', async () => {
      const registryUi = sb.registry.ui;
      let asked: PickerContent<vscode.QuickPickItem> | undefined;
      sb.registry.ui = { ...registryUi, async pick<T extends vscode.QuickPickItem>(content: Promise<PickerContent<T>>) { asked = await content; return undefined as (T & AgentPickItem) | undefined; } };
      try {
        pickerChoosing(items => items[items.length - 1]);
        await vscode.commands.executeCommand('switchboard.selectAgent');
        await waitFor('the registry picker', () => asked);
        assert.match(asked!.title, /^Add an agent from the ACP registry/);
      } finally {
        sb.registry.ui = registryUi;
      }
    });
  });

  it('a preset whose runner is missing names the runtime and where to get it (uvx → uv)', async () => {
    await configureAgent('Needs uv', { command: 'uvx', args: ['some-acp-agent'], env: { PATH: empty } });
    assert.equal(await sb.chat.start(), false);
    const err = lastOf(sb.chat.items, 'error');
    assert.ok(err, dump(sb.chat.items));
    assert.match(err.message, /"Needs uv": it needs uv, and "uvx" was not found\. Install uv \(https:\/\/docs\.astral\.sh\/uv\/getting-started\/installation\/\)/);
    assert.ok(err.actions.includes('openSettings'));
  });

  it('a script whose interpreter is missing (#!/usr/bin/env node without Node.js) names Node.js', async function () {
    if (process.platform === 'win32') this.skip();
    const script = path.join(fs.mkdtempSync(path.join(tmpDir, 'script-')), 'some-agent-acp');
    fs.writeFileSync(script, '#!/usr/bin/env node\nconsole.log("never");\n');
    fs.chmodSync(script, 0o755);
    await configureAgent('Needs node', { command: script, args: [], env: { PATH: empty } });
    assert.equal(await sb.chat.start(), false);
    const err = await waitFor('the start error', () => lastOf(sb.chat.items, 'error'));
    assert.match(err.message, /"Needs node": it needs Node\.js, and "node" was not found\. Install Node\.js \(https:\/\/nodejs\.org\/en\/download\)/, dump(sb.chat.items));
  });
});
