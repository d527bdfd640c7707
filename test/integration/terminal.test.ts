// Terminals in a real VS Code: what the agent receives (the scripted agent's log), what the user
// sees (integrated terminals, their names and content), and that nothing the agent started is left
// running afterwards, proven by process id.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { isRunningState, parseProcStat } from '../../src/common/terminal';
import { MIRROR_AFTER_MS } from '../../src/host/terminal/terminalService';
import { agentEvents, api, extensionRoot, gate, NODE, useScriptedAgent, waitFor } from './helpers';

type TerminalResult = { terminalId: string; exitStatus: { exitCode: number | null; signal: string | null } | null; output: string; truncated: boolean; timedOut: boolean };

/** Exists and is not a zombie: this sandbox's init never reaps re-parented processes, so kill(pid, 0) alone would see the dead. */
function isRunning(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  try { return isRunningState(parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))!.state); } catch { return process.platform !== 'linux'; }
}

const results = (log: string) => agentEvents(log).filter(e => e.event === 'result');
const terminalResult = (log: string, n = 0) => {
  const r = results(log).filter(e => e.type === 'terminal')[n];
  assert.ok(r, `terminal result #${n} in ${JSON.stringify(results(log))}`);
  assert.equal(r.error, undefined, `terminal step failed: ${JSON.stringify(r.error)}`);
  return r.result as TerminalResult;
};
const pids = (text: string, label: string) => [...text.matchAll(new RegExp(`${label} (\\d+)`, 'g'))].map(m => Number(m[1]));
const wsFolder = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const node = (code: string) => ({ command: NODE, args: ['-e', code] });

describe('Terminals (terminal/* served in integrated terminals)', function () {
  this.timeout(60_000);
  let sb: SwitchboardApi;

  // These commands run unasked on purpose: the confirmation of such commands is the Hostile agent suite's.
  before(async () => { sb = await api(); await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', false, vscode.ConfigurationTarget.Global); });
  beforeEach(async () => {
    await sb.chat.stop();
    await sb.chat.newConversation();
  });
  afterEach(async () => {
    await vscode.workspace.getConfiguration('switchboard.terminal').update('reveal', undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => { await sb.chat.stop(); await vscode.workspace.getConfiguration('switchboard.terminal').update('confirmCommands', undefined, vscode.ConfigurationTarget.Global); });

  it('advertises terminal: true; runs a shell string through the shell with env and cwd; exact output and exit code', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: 'echo hi && echo "$SB_FOO" && pwd; exit 3', env: { SB_FOO: 'bar baz' }, outputByteLimit: 32000 }] }],
    });
    await sb.chat.sendPrompt('run it');
    const init = agentEvents(log).find(e => e.event === 'initialize')!.params as Record<string, any>;
    assert.equal(init.clientCapabilities.terminal, true);
    const r = terminalResult(log);
    assert.equal(r.output, `hi\nbar baz\n${fs.realpathSync(wsFolder())}\n`);
    assert.deepEqual(r.exitStatus, { exitCode: 3, signal: null });
    assert.equal(r.truncated, false);
    assert.match(r.terminalId, /^terminal-\d+$/);

    // The user sees it: an integrated terminal named after the agent and the command (made when asked: it ended at once), marked finished.
    const info = sb.terminals.getInfo(r.terminalId)!;
    assert.equal(info.name, 'Scripted: echo hi && echo "$SB_FOO" && pwd; exit 3');
    assert.equal(info.hasTerminal, true);
    assert.equal(sb.terminals.reveal(r.terminalId, true), true);
    assert.ok(vscode.window.terminals.some(t => t.name === info.name), vscode.window.terminals.map(t => t.name).join(', '));
    assert.equal(info.released, true);
    assert.deepEqual(info.exitStatus, { exitCode: 3, signal: null });
  });

  it("bash never runs the user's ~/.bashrc for a command, even with no shell above VS Code (SHLVL unset or 0, as when started from a desktop launcher)", async () => {
    // bash reads ~/.bashrc when its stdin is a socket (it takes it for an ssh connection) and it is
    // the outermost shell: every command paid for the user's shell setup (pyenv, nvm: 0.1–1 s) and
    // whatever it prints landed in the output the agent reads.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-home-'));
    fs.writeFileSync(path.join(home, '.bashrc'), 'echo "the user\'s bashrc ran"\n');
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: 'bash', args: ['-c', 'echo hi'], env: { HOME: home, SHLVL: '0' } }] }],
    });
    await sb.chat.sendPrompt('run it');
    const r = terminalResult(log);
    assert.equal(r.output, 'hi\n');
    assert.deepEqual(r.exitStatus, { exitCode: 0, signal: null });
  });

  it('a program with args runs directly in the given cwd; a relative cwd, an empty command and unknown ids are refused by name', async () => {
    const sub = path.join(wsFolder(), 'src');
    const { log } = await useScriptedAgent({
      turns: [{ steps: [
        { type: 'terminal', ...node('console.log(process.cwd(), process.argv[1])'), cwd: '{{cwd}}/src' },
        { type: 'terminal', command: 'echo', args: ['$HOME', '&&', 'x'] },
        { type: 'request', method: 'terminal/create', params: { sessionId: '{{sessionId}}', command: 'ls', cwd: 'relative/dir' } },
        { type: 'request', method: 'terminal/output', params: { sessionId: '{{sessionId}}', terminalId: 'terminal-nope' } },
        { type: 'request', method: 'terminal/create', params: { sessionId: '{{sessionId}}', command: 'switchboard-no-such-cmd', args: ['x'] } },
      ] }],
    });
    await sb.chat.sendPrompt('go');
    assert.equal(terminalResult(log, 0).output, `${fs.realpathSync(sub)} undefined\n`);
    assert.equal(terminalResult(log, 1).output, '$HOME && x\n');
    const errors = results(log).filter(e => e.type === 'request').map(e => e.error as { code: number; message: string });
    assert.equal(errors[0].code, -32602);
    assert.match(errors[0].message, /relative\/dir/);
    assert.equal(errors[1].code, -32002);
    assert.match(errors[1].message, /Unknown terminal: terminal-nope/);
    assert.match(errors[2].message, /Command not found: switchboard-no-such-cmd/);
  });

  it("fast-agent's flow: create, wait_for_exit times out, kill, partial output, release; nothing is left running", async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: 'echo leader $$; sleep 100 & echo child $!; echo partial; wait', timeoutMs: 1500, timeoutAfterOutput: 'partial' }] }],
    });
    await sb.chat.sendPrompt('go');
    const r = terminalResult(log);
    assert.equal(r.timedOut, true);
    assert.match(r.output, /leader \d+\nchild \d+\npartial\n/);
    assert.deepEqual(r.exitStatus, { exitCode: null, signal: 'SIGTERM' });
    const [leader] = pids(r.output, 'leader');
    const [child] = pids(r.output, 'child');
    assert.equal(isRunning(leader), false, `leader ${leader} still running`);
    assert.equal(isRunning(child), false, `background child ${child} still running`);
    // Released: the agent's id is gone, the integrated terminal stays with the output, marked finished.
    assert.equal(sb.terminals.getInfo(r.terminalId)!.released, true);
    const terminal = sb.terminals.terminalOf(r.terminalId);
    assert.ok(terminal && vscode.window.terminals.includes(terminal), 'integrated terminal still open');
    terminal.show(true);
    const screen = await waitFor('the exit line in the terminal', () => {
      const s = sb.terminals.screenOf(r.terminalId);
      return s?.includes('[process killed (SIGTERM)]') && s;
    });
    assert.match(screen, /leader \d+\r\nchild \d+\r\npartial\r\n/);
  });

  it('a process that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: `trap '' TERM; echo leader $$; while :; do sleep 0.1; done`, timeoutMs: 800, timeoutAfterOutput: 'leader' }] }],
    });
    await sb.chat.sendPrompt('go');
    const r = terminalResult(log);
    assert.deepEqual(r.exitStatus, { exitCode: null, signal: 'SIGKILL' });
    assert.equal(isRunning(pids(r.output, 'leader')[0]), false);
  });

  it('output is trimmed to outputByteLimit at a character boundary; escape sequences kept; \\r\\n in the terminal', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [
        { type: 'terminal', ...node(`process.stdout.write('é'.repeat(1000) + 'END')`), outputByteLimit: 100 },
        { type: 'terminal', command: `printf '\\033[31mred\\033[0m\\nline2\\n'` },
      ] }],
    });
    await vscode.workspace.getConfiguration('switchboard.terminal').update('reveal', true, vscode.ConfigurationTarget.Global);
    await sb.chat.sendPrompt('go');
    const r = terminalResult(log, 0);
    assert.equal(r.truncated, true);
    assert.ok(r.output.endsWith('END') && !r.output.includes('\uFFFD'), r.output);
    assert.equal(Buffer.byteLength(r.output), 99); // 48 × "é" + "END": the 100th byte from the end is half an "é"
    const c = terminalResult(log, 1);
    assert.equal(c.output, '\x1b[31mred\x1b[0m\nline2\n');
    // Revealed (setting on): the terminal was opened and shows the colours with \r\n line ends.
    const screen = await waitFor('terminal content', () => {
      const s = sb.terminals.screenOf(c.terminalId);
      return s?.includes('[process exited with code 0]') && s;
    });
    assert.ok(screen.includes('\x1b[31mred\x1b[0m\r\nline2\r\n'), JSON.stringify(screen));
  });

  it('a flood: the agent gets its output and exit status exactly; the integrated terminal shows the end, and every byte it did not show is announced', async () => {
    // 10 MB of numbered lines, then END, exit code 7. The agent keeps the last 64 KB. Whether the
    // terminal had to skip part of it depends on how fast the renderer keeps up (on a loaded machine the
    // command itself may be slow enough to be shown whole), so what is asserted holds for every speed.
    const line = (i: number) => `flood line ${String(i).padStart(8, '0')} ${'x'.repeat(40)}\n`;
    const lines = Math.floor(10 * 1024 * 1024 / line(0).length);
    const code = `let s = ''; for (let i = 0; i < ${lines}; i++) s += 'flood line ' + String(i).padStart(8, '0') + ' ' + 'x'.repeat(40) + '\\n';`
      + ` process.stdout.write(s + 'END\\n'); process.exitCode = 7;`;
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', ...node(code), outputByteLimit: 65536, quiet: true }] }],
    });
    await vscode.workspace.getConfiguration('switchboard.terminal').update('reveal', true, vscode.ConfigurationTarget.Global);
    await sb.chat.sendPrompt('go');
    const r = terminalResult(log);
    let all = 'END\n'; // the end of what was printed, enough of it for the last 64 KB
    for (let i = lines - 1; all.length <= 65536; i--) all = line(i) + all;
    assert.deepEqual(r.exitStatus, { exitCode: 7, signal: null });
    assert.equal(r.truncated, true);
    assert.equal(r.output.length, 65536);
    assert.ok(r.output === all.slice(-65536), 'the agent has exactly the last 64 KB');
    // What the user sees: the end of the output and the exit line; a skip marker for what was not shown.
    const screen = await waitFor('the exit line in the terminal', () => {
      const s = sb.terminals.screenOf(r.terminalId);
      return s?.includes('[process exited with code 7]') && s;
    });
    assert.match(screen, /flood line \d{8} x+\r\nEND\r\n(\x1b\[\d*m)*\[process exited with code 7\]/);
    const mirrored = sb.terminals.mirrorOf(r.terminalId)!;
    assert.equal(mirrored.shown + mirrored.skipped, lines * line(0).length + 4, 'every byte printed was shown or counted as skipped');
    assert.equal(mirrored.skipped > 0, mirrored.markers > 0, `a marker for each skip: ${JSON.stringify(mirrored)}`);
  });

  it('Ctrl+C typed in the integrated terminal interrupts the command', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', ...node(`process.on('SIGINT', () => { console.log('interrupted'); process.exit(130); }); console.log('ready'); setInterval(() => {}, 1000)`), timeoutMs: 30_000 }] }],
    });
    const turn = sb.chat.sendPrompt('go');
    const info = await waitFor('the command running', () => sb.terminals.list().find(t => t.running && t.commandLine.includes('interrupted') && sb.terminals.getTail(t.terminalId)?.includes('ready')));
    const terminal = await waitFor('its integrated terminal, made as it still runs', () => sb.terminals.terminalOf(info.terminalId));
    terminal.show(true);
    await waitFor('the terminal open', () => sb.terminals.screenOf(info.terminalId)?.includes('ready'));
    terminal.sendText('\x03', false);
    await turn;
    const r = terminalResult(log);
    assert.equal(r.timedOut, false);
    assert.deepEqual(r.exitStatus, { exitCode: 130, signal: null });
    assert.match(r.output, /ready\ninterrupted\n/);
    assert.match(sb.terminals.screenOf(info.terminalId)!, /\^C/);
  });

  it('closing the integrated terminal kills the command', async () => {
    const { log } = await useScriptedAgent({
      turns: [{ steps: [{ type: 'terminal', command: 'echo leader $$; sleep 100 & echo child $!; wait', timeoutMs: 30_000 }] }],
    });
    const turn = sb.chat.sendPrompt('go');
    const info = await waitFor('the command running', () => sb.terminals.list().find(t => t.running && t.commandLine.startsWith('echo leader') && /child \d+/.test(sb.terminals.getTail(t.terminalId) ?? '')));
    (await waitFor('its integrated terminal, made as it still runs', () => sb.terminals.terminalOf(info.terminalId))).dispose();
    await turn;
    const r = terminalResult(log);
    assert.equal(r.timedOut, false);
    assert.deepEqual(r.exitStatus, { exitCode: null, signal: 'SIGTERM' });
    for (const pid of [...pids(r.output, 'leader'), ...pids(r.output, 'child')]) assert.equal(isRunning(pid), false, `${pid} still running`);
  });

  for (const how of ['stopping the agent', 'the agent exiting', 'deactivating the extension'] as const) {
    it(`${how} releases its terminals: every process is gone`, async () => {
      const create = (tag: string) => ({ type: 'request', method: 'terminal/create', params: { sessionId: '{{sessionId}}', command: `echo ${tag} $$; sleep 100 & echo ${tag}child $!; wait` } });
      const exit = gate('exit');
      const { log } = await useScriptedAgent({
        turns: [{ steps: [create('one'), create('two'), { type: 'waitFile', path: exit.path }, { type: 'exit', code: 1 }] }],
      });
      const turn = sb.chat.sendPrompt('go');
      const ids = await waitFor('two terminals', () => {
        const r = results(log).filter(e => e.type === 'request').map(e => (e.result as { terminalId: string }).terminalId);
        return r.length === 2 && r;
      });
      const all = await waitFor('their pids', () => {
        const text = ids.map(id => sb.terminals.getTail(id) ?? '').join('');
        const p = [...pids(text, 'one'), ...pids(text, 'onechild'), ...pids(text, 'two'), ...pids(text, 'twochild')];
        return p.length === 4 && p;
      });
      assert.ok(all.every(isRunning));
      if (how === 'the agent exiting') exit.open();
      if (how === 'stopping the agent') await sb.chat.stop();
      if (how === 'deactivating the extension') {
        // The module instance the extension host loaded: its deactivate() is what VS Code calls.
        const main = require(path.join(extensionRoot(), 'dist/extension.js')) as { deactivate(): Promise<void> };
        await main.deactivate();
        for (const pid of all) assert.equal(isRunning(pid), false, `${pid} still running right after deactivate()`);
        await sb.chat.stop(); // an earlier suite's deactivate() may have left the module without its controller
      }
      await turn.catch(() => { /* the agent went away */ });
      await waitFor('every process gone', () => all.every(p => !isRunning(p)));
      for (const id of ids) assert.equal(sb.terminals.getInfo(id)!.released, true);
    });
  }

  it('ten terminals at once, from two sessions of two connections, each with its own output and exit status', async () => {
    const cwd = wsFolder();
    const a = sb.terminals.connect({ agentName: 'Agent A', cwd });
    const b = sb.terminals.connect({ agentName: 'Agent B', cwd });
    const never = new AbortController().signal;
    try {
      const runs = Array.from({ length: 10 }, (_, k) => {
        const [conn, sessionId] = k < 5 ? [a, 'sess-A'] : [b, 'sess-B'];
        return { k, conn, sessionId };
      });
      const created = await Promise.all(runs.map(r => r.conn.create({
        sessionId: r.sessionId, ...node(`setTimeout(() => { console.log('term ${r.k} ' + '${r.sessionId}'); process.exit(${r.k}); }, ${300 + (9 - r.k) * 60})`),
      }, never)));
      const ids = created.map(c => c.terminalId);
      assert.equal(new Set(ids).size, 10);
      // All ten run at once: none has exited yet.
      for (const id of ids) assert.equal(sb.terminals.getInfo(id)!.running, true);
      const exits = await Promise.all(runs.map((r, i) => r.conn.waitForExit({ sessionId: r.sessionId, terminalId: ids[i] }, never)));
      const outputs = await Promise.all(runs.map((r, i) => r.conn.output({ sessionId: r.sessionId, terminalId: ids[i] })));
      runs.forEach((r, i) => {
        assert.deepEqual(exits[i], { exitCode: r.k, signal: null });
        assert.equal(outputs[i].output, `term ${r.k} ${r.sessionId}\n`);
        assert.deepEqual(outputs[i].exitStatus, { exitCode: r.k, signal: null });
        assert.equal(sb.terminals.getInfo(ids[i])!.hasTerminal, true);
      });
      // A terminal belongs to its connection and session.
      await assert.rejects(b.output({ sessionId: 'sess-A', terminalId: ids[0] }), (e: Error) => e.message.includes(ids[0]));
      await assert.rejects(a.output({ sessionId: 'sess-B', terminalId: ids[0] }), (e: Error) => e.message.includes(ids[0]));
      // kill keeps the id valid; release invalidates it, with an error naming the id.
      await a.kill({ sessionId: 'sess-A', terminalId: ids[0] });
      assert.equal((await a.output({ sessionId: 'sess-A', terminalId: ids[0] })).output, 'term 0 sess-A\n');
      await a.release({ sessionId: 'sess-A', terminalId: ids[0] });
      await assert.rejects(a.output({ sessionId: 'sess-A', terminalId: ids[0] }), new RegExp(`released: ${ids[0]}`));
      await assert.rejects(a.waitForExit({ sessionId: 'sess-A', terminalId: ids[0] }, never), new RegExp(ids[0]));
      // The session ends: its terminals are released, the other session's are not.
      await b.releaseSession('sess-B');
      assert.ok(ids.slice(5).every(id => sb.terminals.getInfo(id)!.released));
      assert.ok(ids.slice(1, 5).every(id => !sb.terminals.getInfo(id)!.released));
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('the integrated terminal is made for a command still running after 1 s, or when asked: a quick one gets it from Show terminal, with its output and exit line; keepFinished bounds the finished ones', async () => {
    const conn = sb.terminals.connect({ agentName: 'Mirror', cwd: wsFolder() });
    const never = new AbortController().signal;
    await vscode.workspace.getConfiguration('switchboard.terminal').update('keepFinished', 2, vscode.ConfigurationTarget.Global);
    try {
      const run = async (command: string) => {
        const t0 = Date.now();
        const { terminalId } = await conn.create({ sessionId: 's', command }, never);
        await conn.waitForExit({ sessionId: 's', terminalId }, never);
        return { terminalId, ms: Date.now() - t0 };
      };
      const quick = await run('echo quick one');
      const { terminalId: slow } = await conn.create({ sessionId: 's', ...node(`console.log('slow started'); setTimeout(() => console.log('slow done'), ${MIRROR_AFTER_MS * 2})`) }, never);
      // Still running after MIRROR_AFTER_MS: its terminal is made, not shown.
      const slowTerminal = await waitFor('the running command\'s terminal', () => sb.terminals.terminalOf(slow));
      assert.equal(sb.terminals.getInfo(slow)!.running, true);
      assert.ok(vscode.window.terminals.includes(slowTerminal));
      assert.equal(slowTerminal.name, sb.terminals.getInfo(slow)!.name);
      // The quick one ended before its MIRROR_AFTER_MS passed (its timer has run out by now): no terminal
      // was made. (Only asserted when it did end in time: a machine loaded enough can take longer.)
      if (quick.ms < MIRROR_AFTER_MS / 2) assert.equal(sb.terminals.terminalOf(quick.terminalId), undefined, `made for a command that took ${quick.ms} ms`);
      assert.equal(sb.terminals.getInfo(quick.terminalId)!.hasTerminal, true);
      // Show terminal makes it now, with the output and the exit line.
      assert.equal(sb.terminals.reveal(quick.terminalId), true);
      const shown = sb.terminals.terminalOf(quick.terminalId)!;
      await waitFor('the quick command\'s terminal active', () => vscode.window.activeTerminal === shown);
      const screen = await waitFor('its output and exit line', () => {
        const text = sb.terminals.screenOf(quick.terminalId);
        return text?.includes('[process exited with code 0]') && text;
      });
      assert.match(screen, /Mirror runs: echo quick one.*\r\nquick one\r\n/s);
      await conn.waitForExit({ sessionId: 's', terminalId: slow }, never);
      for (const terminalId of [quick.terminalId, slow]) await conn.release({ sessionId: 's', terminalId });
      // Two more finished commands, never shown: with keepFinished 2, the two oldest finished ones can no longer be opened.
      const later = [await run('echo third'), await run('echo fourth')];
      for (const { terminalId } of later) await conn.release({ sessionId: 's', terminalId });
      assert.equal(sb.terminals.getInfo(quick.terminalId)!.hasTerminal, false);
      await waitFor('the oldest terminal closed', () => !vscode.window.terminals.includes(shown));
      assert.equal(sb.terminals.reveal(slow), false);
      assert.equal(sb.terminals.getTail(slow, 100, { plain: true }), 'slow started\nslow done\n', 'the card keeps its output');
      for (const { terminalId } of later) assert.equal(sb.terminals.getInfo(terminalId)!.hasTerminal, true);
      assert.equal(sb.terminals.reveal(later[1].terminalId, true), true);
      await waitFor('the fourth command\'s output', () => sb.terminals.screenOf(later[1].terminalId)?.includes('fourth\r\n'));
    } finally {
      conn.dispose();
      await vscode.workspace.getConfiguration('switchboard.terminal').update('keepFinished', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a command released in its first second gets no integrated terminal while it is being killed (one that ignores SIGTERM: 2 s of grace)', async () => {
    const conn = sb.terminals.connect({ agentName: 'Released', cwd: wsFolder() });
    const never = new AbortController().signal;
    try {
      const t0 = Date.now();
      const { terminalId } = await conn.create({ sessionId: 's', command: `trap '' TERM; echo started; while :; do sleep 0.1; done` }, never);
      await waitFor('the trap set', () => sb.terminals.getTail(terminalId)?.includes('started'));
      const releasedAfter = Date.now() - t0;
      await conn.release({ sessionId: 's', terminalId });
      assert.deepEqual(sb.terminals.getInfo(terminalId)!.exitStatus, { exitCode: null, signal: 'SIGKILL' });
      // Released before its MIRROR_AFTER_MS ran out (a machine loaded enough can take longer to start it): none was made.
      if (releasedAfter < MIRROR_AFTER_MS / 2) {
        assert.equal(sb.terminals.terminalOf(terminalId), undefined, `made ${Date.now() - t0} ms after the start, released after ${releasedAfter} ms`);
      }
    } finally {
      conn.dispose();
    }
  });

  it('the chat card API: live tail, change events, plain text, reveal; the tail outlives release', async () => {
    const conn = sb.terminals.connect({ agentName: 'Card', cwd: wsFolder() });
    const never = new AbortController().signal;
    try {
      const { terminalId } = await conn.create({
        sessionId: 's', ...node(`let i = 0; const t = setInterval(() => { console.log('\\x1b[32mline ' + i + '\\x1b[0m'); if (++i === 20) { clearInterval(t); } }, 20)`),
      }, never);
      const changed: string[] = [];
      const t0 = Date.now();
      const sub = sb.terminals.onDidChangeOutput(id => changed.push(id));
      await waitFor('a live change event', () => changed.includes(terminalId));
      await conn.waitForExit({ sessionId: 's', terminalId }, never);
      sub.dispose();
      // Throttled: at most one event per 100 ms, however slowly the lines came (true on any machine).
      const events = changed.filter(id => id === terminalId).length;
      assert.ok(events <= Math.ceil((Date.now() - t0) / 100) + 1, `throttled: ${events} events in ${Date.now() - t0} ms`);
      assert.match(sb.terminals.getTail(terminalId, 40, { plain: true })!, /^line 1\d\n(line 1\d\n)*line 19\n$/);
      assert.match(sb.terminals.getTail(terminalId)!, /\x1b\[32mline 19\x1b\[0m\n$/);
      assert.equal(sb.terminals.reveal(terminalId), true);
      await waitFor('the terminal active', () => vscode.window.activeTerminal === sb.terminals.terminalOf(terminalId));
      await conn.release({ sessionId: 's', terminalId });
      assert.equal(sb.terminals.getTail(terminalId, 20, { plain: true }), 'line 19\n');
      assert.deepEqual(sb.terminals.getInfo(terminalId)!.exitStatus, { exitCode: 0, signal: null });
      assert.equal(sb.terminals.getTail('terminal-unknown'), undefined);
    } finally {
      conn.dispose();
    }
  });
});
