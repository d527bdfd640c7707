// First run, in a real VS Code: an agent already installed on PATH is used as installed, and a
// missing runtime (npx/uvx behind a preset, node behind a script) is named with where to get it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
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
