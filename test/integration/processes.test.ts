// The agent as an untrusted process, in a real VS Code: a broken connection is named and ends the
// agent, replies stay under the SDK's message limit, and no workspace file substitutes the agent.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { isRunningState, parseProcStat } from '../../src/common/terminal';
import { agentEvents, api, configureAgent, dump, lastOf, useScriptedAgent, waitFor } from './helpers';

/** Exists and is not a zombie (this sandbox's init does not reap re-parented processes). */
function isRunning(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return process.platform !== 'linux'; }
}
const startPid = (log: string) => agentEvents(log).find(e => e.event === 'start')!.pid as number;
const results = (log: string) => agentEvents(log).filter(e => e.event === 'result');
const wsFolder = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const MiB = 1024 * 1024;

describe('Agent processes and connection limits', function () {
  this.timeout(90_000);
  let sb: SwitchboardApi;

  // Commands run unasked on purpose (their confirmation is the Hostile agent suite's).
  before(async () => { sb = await api(); await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', false, vscode.ConfigurationTarget.Global); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  after(async () => { await sb.chat.stop(); await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', undefined, vscode.ConfigurationTarget.Global); });

  it('an agent message over the 32 MiB limit is named in the chat, the agent is stopped, and Restart works', async () => {
    const { log } = await useScriptedAgent({
      ignoreStdinClose: true,
      turns: [
        { match: 'huge', steps: [{ type: 'text', text: 'about to send a lot' }, { type: 'bigText', bytes: 33 * MiB }, { type: 'sleep', ms: 3_600_000 }] },
        { steps: [{ type: 'text', text: 'back again' }] },
      ],
    });
    await sb.chat.start();
    const pid = startPid(log);
    // The agent sleeps an hour after the oversized message: the prompt ends only because the client
    // stopped the agent (otherwise mocha's timeout fails the test; no wall-clock bound to fail a slow machine).
    await sb.chat.sendPrompt('huge please');
    const err = await waitFor('an error in the chat', () => lastOf(sb.chat.items, 'error'));
    assert.match(err.message, /message larger than the 32 MiB limit/, dump(sb.chat.items));
    assert.ok(err.actions.includes('restart'), JSON.stringify(err.actions));
    await waitFor('the agent process to end', () => !isRunning(pid));
    assert.equal(sb.chat.status.status, 'error');
    assert.match(sb.chat.status.detail, /32 MiB/);

    await sb.chat.runAction('restart');
    await sb.chat.sendPrompt('hello');
    assert.equal(lastOf(sb.chat.items, 'agent')?.text, 'back again', dump(sb.chat.items));
  });

  it('an agent that closes its output but keeps running is named in the chat and stopped', async () => {
    const { log } = await useScriptedAgent({ ignoreStdinClose: true, turns: [{ steps: [{ type: 'closeStdout' }, { type: 'sleep', ms: 60_000 }] }] });
    await sb.chat.start();
    const pid = startPid(log);
    await sb.chat.sendPrompt('go');
    const err = await waitFor('an error in the chat', () => lastOf(sb.chat.items, 'error'));
    assert.match(err.message, /closed its output/, dump(sb.chat.items));
    await waitFor('the agent process to end', () => !isRunning(pid));
    assert.equal(sb.chat.status.status, 'error');
  });

  it('an agent that closes its input but keeps running is named in the chat and stopped at our next write', async () => {
    const { log } = await useScriptedAgent({ ignoreStdinClose: true, turns: [{ steps: [{ type: 'closeStdin' }, { type: 'text', text: 'deaf now' }] }] });
    await sb.chat.start();
    const pid = startPid(log);
    await sb.chat.sendPrompt('go');
    assert.ok(agentEvents(log).some(e => e.event === 'stdin-destroyed'));
    await sb.chat.sendPrompt('are you there?'); // the first write that finds the pipe closed
    const err = await waitFor('an error in the chat', () => lastOf(sb.chat.items, 'error'));
    assert.match(err.message, /closed its input/, dump(sb.chat.items));
    await waitFor('the agent process to end', () => !isRunning(pid));
    assert.equal(sb.chat.status.status, 'error');
  });

  it('fs/read_text_file refuses a reply over the size cap and tells the agent to use line/limit', async () => {
    const file = path.join(wsFolder(), 'big-read.txt');
    const line = 'x'.repeat(99) + '\n';
    fs.writeFileSync(file, line.repeat(Math.ceil(9 * MiB / line.length)));
    try {
      const { log } = await useScriptedAgent({
        turns: [{ steps: [
          { type: 'read', path: file, quiet: true },
          { type: 'read', path: file, line: 1000, limit: 2, quiet: true },
          { type: 'read', path: file, line: 2, limit: 90_000, quiet: true },
        ] }],
      });
      await sb.chat.sendPrompt('read it');
      const [whole, window, wide] = results(log);
      assert.ok(whole?.error, `the whole file was refused: ${JSON.stringify(whole).slice(0, 300)}`);
      const error = whole.error as { message: string };
      assert.match(error.message, /too large/);
      assert.match(error.message, /"line" and "limit"/);
      assert.deepEqual(window?.result, { content: line + line });
      // A window that is itself too large for one reply: refused the same way, with the file's line count.
      const lines = Math.ceil(9 * MiB / line.length);
      assert.match((wide?.error as { message?: string } | undefined)?.message ?? '', new RegExp(`too large to read at once: .*\\(${lines} lines,`), JSON.stringify(wide).slice(0, 300));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('terminal/output of binary output stays within the reply cap, marked truncated', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: 'head -c 16000000 /dev/urandom', outputByteLimit: 16 * MiB, quiet: true }] }],
    });
    await sb.chat.sendPrompt('dump binary');
    const r = results(log).find(e => e.type === 'terminal');
    assert.ok(r, `a terminal result in ${JSON.stringify(agentEvents(log).map(e => e.event))} ${dump(sb.chat.items)}`);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    const out = r.result as { output: string; truncated: boolean };
    assert.equal(out.truncated, true);
    const jsonBytes = Buffer.byteLength(JSON.stringify(out.output));
    assert.ok(jsonBytes <= 16 * MiB, `reply of ${jsonBytes} bytes`);
    assert.ok(jsonBytes > 8 * MiB, `kept as much as fits (${jsonBytes} bytes)`);
  });

  it('an npx agent never runs a package of the same name from the workspace node_modules', async () => {
    const ws = wsFolder();
    const pkg = path.join(ws, 'node_modules', 'switchboard-planted-agent');
    const marker = path.join(ws, 'planted-agent-ran.txt');
    fs.mkdirSync(path.join(ws, 'node_modules', '.bin'), { recursive: true });
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'switchboard-planted-agent', version: '1.0.0', bin: { 'switchboard-planted-agent': 'agent.js' } }));
    fs.writeFileSync(path.join(pkg, 'agent.js'), `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`, { mode: 0o755 });
    fs.symlinkSync(path.join('..', 'switchboard-planted-agent', 'agent.js'), path.join(ws, 'node_modules', '.bin', 'switchboard-planted-agent'));
    try {
      await configureAgent('Planted', { command: 'npx', args: ['--no-install', 'switchboard-planted-agent'] });
      assert.equal(await sb.chat.start(), false);
      assert.equal(fs.existsSync(marker), false, 'the workspace package was run as the agent');
    } finally {
      fs.rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true });
      fs.rmSync(marker, { force: true });
    }
  });
});
